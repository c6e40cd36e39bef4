/**
 * Moves the local definitions of a schema (`$defs`, `definitions`), as Zod
 * 4 and TypeBox write a reused schema, into the document's components, and
 * rewrites the `$ref`s that name them (`#/$defs/inner`), resolved against
 * the schema that holds them, to the components. A definition is then
 * relaxed like any component: it gets a twin without a caller's hidden
 * paths, and its original goes once nothing refers to it. Left where it is,
 * it would be served whole, and a `$ref` read from the document's root would
 * name nothing.
 */
import { encodePointerToken, isRecord } from '../../json.js'
import { DEFINITIONS, heldSchemas } from '../../schema/vocabulary.js'
import type { Components } from '../components.js'
import { restrictedResponses, schemaHolders } from '../operations.js'
import type { Found } from '../operations.js'
import type { Version } from '../types.js'

/** For each schema that holds definitions, the prefix of a `$ref` to one (`#/$defs/inner`) and the component it now is. */
type Scope = ReadonlyMap<string, string>

/**
 * Lifts the definitions held in `schema` and below it, changing it in place.
 * By hand, not the vocabulary's walk: a schema's `$ref`s are read with the
 * scopes of the schemas around it, and a lifted definition, no longer held,
 * with those of the schema that held it.
 */
function lift (schema: unknown, components: Components, scopes: readonly Scope[]): void {
  if (!isRecord(schema)) return
  let here = scopes
  const lifted: Array<[string, unknown]> = []
  // The holder's `$ref`s name a local definition as `#/<keyword>/<name>`.
  for (const keyword of DEFINITIONS) {
    const definitions = schema[keyword]
    if (!isRecord(definitions)) continue
    const scope = new Map<string, string>()
    for (const [name, definition] of Object.entries(definitions)) {
      if (!isRecord(definition)) continue
      const ref = components.add(name, definition)
      scope.set(`#/${keyword}/${encodePointerToken(name)}`, ref)
      lifted.push([ref, definition])
    }
    here = [scope, ...here]
    delete schema[keyword]
  }
  if (typeof schema.$ref === 'string') schema.$ref = rewritten(schema.$ref, here)
  // A definition's `$ref`s are resolved against the schema that held it, as are its holder's.
  for (const [, definition] of lifted) lift(definition, components, here)
  for (const [keyword, value] of Object.entries(schema)) {
    for (const held of heldSchemas(keyword, value)) lift(held.schema, components, here)
  }
}

/** A `$ref` to a local definition, as the `$ref` of the component it now is; any other as it is. */
function rewritten (ref: string, scopes: readonly Scope[]): string {
  for (const scope of scopes) {
    for (const [prefix, component] of scope) {
      if (ref === prefix) return component
      if (ref.startsWith(prefix + '/')) return component + ref.slice(prefix.length)
    }
  }
  return ref
}

/**
 * Lifts the local definitions of the restricted responses of the found
 * operations, and of the components, into the components; in place.
 */
export function liftLocalDefinitions (components: Components, version: Version, found: readonly Found[]): void {
  for (const name of Object.keys(components.schemas)) lift(components.schemas[name], components, [])
  for (const { operation, route } of found) {
    for (const { response } of restrictedResponses(operation, route, version)) {
      for (const holder of schemaHolders(response, version)) lift(holder.schema, components, [])
    }
  }
}
