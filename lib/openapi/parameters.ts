/**
 * Documents `only` and `defer` as repeated query parameters, adding them
 * where the route's querystring schema did not declare them, with the
 * declared paths and field sets as their choices.
 */
import { hidesPath } from '../hidden-paths.js'
import { isRecord } from '../json.js'
import type { PathTrie } from '../hidden-paths.js'
import { deferDescription, onlyDescription, setChoices } from '../querystring.js'
import type { Json, RestrictedRoute, Version } from './types.js'

/** Removes hidden paths from the `enum` of a parameter schema and of its items. */
function withoutHiddenNames (schema: Json, hidden: PathTrie): void {
  for (const level of [schema, schema.items]) {
    if (isRecord(level) && Array.isArray(level.enum)) level.enum = level.enum.filter((path: unknown) => !hidesPath(hidden, String(path)))
  }
}

/** Adds or completes the operation's `only` and `defer` parameters; `hidden` leaves a caller's hidden paths out of their choices. */
export function documentParameters (version: Version, operation: Json, pathItem: Json, route: RestrictedRoute, hidden: PathTrie | null): void {
  const parameters: Json[] = Array.isArray(operation.parameters) ? operation.parameters : []
  const inherited: Json[] = Array.isArray(pathItem.parameters) ? pathItem.parameters : []
  const ours: Json[] = []
  const visible = (path: string): boolean => hidden === null || !hidesPath(hidden, path)
  for (const [name, description, choices] of [
    [route.onlyParam, onlyDescription(route.onlyParam, route, visible), setChoices(route)],
    [route.deferParam, deferDescription(route.onlyParam, route.deferParam), []]
  ] as const) {
    const own = [...parameters, ...inherited].find((parameter) => isRecord(parameter) && parameter.in === 'query' && parameter.name === name)
    const items = { type: 'string', enum: [...route.paths.filter(visible), ...choices] }
    // The route's own parameter lists the names its querystring schema was given: the hidden ones go too.
    if (own !== undefined && hidden !== null) {
      withoutHiddenNames(version === '2.0' ? own : own.schema, hidden)
      // The description the plugin gave it lists the fields of each set: the hidden ones go there too.
      if (name === route.onlyParam && own.description === onlyDescription(route.onlyParam, route)) own.description = description
    }
    if (version === '2.0') {
      if (own === undefined) ours.push({ name, in: 'query', required: false, description, type: 'array', items, collectionFormat: 'multi' })
      else if (own.type === 'array') own.collectionFormat ??= 'multi'
    } else if (own === undefined) {
      ours.push({ name, in: 'query', required: false, description, style: 'form', explode: true, schema: { type: 'array', items } })
    } else if (own.schema?.type === 'array') {
      own.style ??= 'form'
      own.explode ??= true
    }
  }
  if (ours.length > 0) operation.parameters = [...ours, ...parameters]
}
