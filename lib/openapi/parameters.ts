/**
 * Documents `only` and `defer` as repeated query parameters, adding them
 * where the route's querystring schema did not declare them, with the
 * declared paths and field sets as their choices, at most the route's
 * `maxListedFields` of them listed. In OpenAPI 3 the choices are a
 * component, written once for every parameter that offers the same list.
 * Swagger 2.0's query parameters can neither refer to one nor offer a
 * pattern beside an `enum`: there a list past the bound is a plain string.
 */
import { hidesPath } from '../hidden-paths.js'
import { isRecord } from '../json.js'
import type { PathTrie } from '../hidden-paths.js'
import { deferDescription, onlyDescription, setChoices } from '../querystring.js'
import type { Components } from './components.js'
import type { Json, RestrictedRoute, Version } from './types.js'

/**
 * Removes hidden paths from the `enum` of a parameter schema and of its
 * items; an `enum` left empty goes (OpenAPI 3.0 forbids it), and the type
 * alone stays.
 */
function withoutHiddenNames (schema: Json, hidden: PathTrie): void {
  for (const level of [schema, schema.items]) {
    if (!isRecord(level) || !Array.isArray(level.enum)) continue
    level.enum = level.enum.filter((path: unknown) => !hidesPath(hidden, String(path)))
    if (level.enum.length === 0) delete level.enum
  }
}

/**
 * Items that are only a string's choices become a `$ref` to the shared list
 * of them: to the route's list when they are its paths, as the plugin
 * writes `defer` into a querystring schema.
 */
function sharedItems (schema: Json, components: Components, paths: readonly string[], listed: readonly string[], limit: number): void {
  const items = schema.items
  const onlyChoices = isRecord(items) && items.type === 'string' && Object.keys(items).every((key) => ['type', 'enum'].includes(key))
  if (onlyChoices && Array.isArray(items.enum)) {
    const names: unknown[] = items.enum
    const same = (list: readonly string[]): boolean => list.length === names.length && list.every((name, index) => names[index] === name)
    schema.items = { $ref: components.choices(same(paths) ? listed : items.enum, limit) }
  }
}

/**
 * Swagger 2.0 items of `names`: their `enum` while it is within `limit`,
 * else any string, since a validator reading an `enum` of the top levels
 * alone would refuse the deeper paths the route answers.
 */
function swagger2Items (names: readonly string[], limit: number): Json {
  return names.length <= limit ? { type: 'string', enum: [...names] } : { type: 'string' }
}

/** Adds or completes the operation's `only` and `defer` parameters; `hidden` leaves a caller's hidden paths out of their choices. */
export function documentParameters (
  components: Components, operation: Json, pathItem: Json, route: RestrictedRoute, hidden: PathTrie | null
): void {
  const version: Version = components.version
  const parameters: Json[] = Array.isArray(operation.parameters) ? operation.parameters : []
  const inherited: Json[] = Array.isArray(pathItem.parameters) ? pathItem.parameters : []
  const ours: Json[] = []
  const visible = (path: string): boolean => hidden === null || !hidesPath(hidden, path)
  const paths = route.paths.filter(visible)
  // One list serves both parameters, so that it is written once; `defer` refuses `*` and the sets, as its description says.
  const listed = [...paths, ...setChoices(route)]
  for (const [name, description] of [
    [route.onlyParam, onlyDescription(route.onlyParam, route, visible)],
    [route.deferParam, deferDescription(route.onlyParam, route.deferParam)]
  ] as const) {
    const own = [...parameters, ...inherited].find((parameter) =>
      isRecord(parameter) && parameter.in === 'query' && parameter.name === name)
    // The route's own parameter lists the names its querystring schema was given: the hidden ones go too.
    if (own !== undefined && hidden !== null) {
      withoutHiddenNames(version === '2.0' ? own : own.schema, hidden)
      // The description the plugin gave it lists the fields of each set: the hidden ones go there too.
      if (name === route.onlyParam && own.description === onlyDescription(route.onlyParam, route)) own.description = description
    }
    // A caller who sees none of the route's fields can defer none: a parameter with no choice is not documented.
    if (own === undefined && name === route.deferParam && paths.length === 0) continue
    if (version === '2.0') {
      const items = swagger2Items(name === route.onlyParam ? listed : paths, route.maxListedFields)
      if (own === undefined) ours.push({ name, in: 'query', required: false, description, type: 'array', items, collectionFormat: 'multi' })
      else if (own.type === 'array') {
        own.collectionFormat ??= 'multi'
        if (isRecord(own.items) && Array.isArray(own.items.enum) && own.items.enum.length > route.maxListedFields) delete own.items.enum
      }
    } else if (own === undefined) {
      const schema = { type: 'array', items: { $ref: components.choices(listed, route.maxListedFields) } }
      ours.push({ name, in: 'query', required: false, description, style: 'form', explode: true, schema })
    } else if (own.schema?.type === 'array') {
      own.style ??= 'form'
      own.explode ??= true
      sharedItems(own.schema, components, paths, listed, route.maxListedFields)
    }
  }
  if (ours.length > 0) operation.parameters = [...ours, ...parameters]
}
