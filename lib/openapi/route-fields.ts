/**
 * Tells a generated client what a restricted operation sends, under the
 * operation's `x-restricted-fields` key: the caller's complete record (a
 * component, its `required` kept, the caller's hidden fields left out),
 * where the records sit in the reply, the parameters' names, and the
 * route's field sets and default fields as that caller gets them. The
 * relaxed response says what any reply may hold; this says what a given
 * selection holds, so a client can type each call exactly.
 */
import { MAX_REF_HOPS, isRecord } from '../json.js'
import type { PathTrie } from '../hidden-paths.js'
import { CHOICES, COMPOSITIONS, CONDITIONALS, keywordsWhere } from '../schema/vocabulary.js'
import { mapSchema } from '../schema/walk.js'
import type { Components } from './components.js'
import { hidesPath, trieKey } from '../hidden-paths.js'
import { clientSchema, restrictedResponses } from './operations.js'
import type { Relaxation } from './relax/relaxation.js'
import { OPERATION_KEY } from './types.js'
import type { Json, RecordsShape, RestrictedRoute, Version } from './types.js'

/** Where one restricted status holds its records, and their complete type. */
export interface RecordsDescription {
  /** The caller's complete record: `{ $ref }` to a component. */
  record: { $ref: string }
  /** Where the records sit in that response: the response itself, an array's items, or an envelope's array under `key`. */
  records: 'object' | 'array' | 'envelope'
  key?: string
}

/** What the operation's `x-restricted-fields` key holds. */
export interface RouteFieldsDescription {
  /**
   * Each response status whose records are restricted, as the document keys
   * it (`200`, `201`, `2XX`), the primary one first: a selection narrows the
   * records of each by that status's own fields.
   */
  statuses: Record<string, RecordsDescription>
  /** The names of the parameters. */
  only: string
  defer: string
  /** The route's field sets, without the fields hidden from the caller. */
  sets: Record<string, string[]>
  /** The route's default fields (those hidden from the caller left out); absent when every field is sent by default. */
  defaultFields?: string[]
  /** The most segments of a path the route accepts (its `maxDepth`). */
  maxDepth: number
}

/** The schema a whole-component `$ref` names, followed through chains of them. */
function resolved (components: Components, schema: unknown): unknown {
  for (let hops = 0; hops <= MAX_REF_HOPS && isRecord(schema); hops++) {
    const target = components.nameOf(schema.$ref)
    if (target === null) return schema
    schema = components.schemas[target]
  }
  return schema
}

/** The schema of an array's items, in the schema or one of its alternatives (a nullable array). */
function itemsOf (components: Components, schema: unknown): unknown {
  const array = resolved(components, schema)
  if (!isRecord(array)) return undefined
  if (array.items !== undefined) return array.items
  for (const keyword of CHOICES) {
    if (!Array.isArray(array[keyword])) continue
    for (const member of array[keyword]) {
      const items = itemsOf(components, member)
      if (items !== undefined) return items
    }
  }
  return undefined
}

/** The records array of an envelope: under `key` in its properties or in those of one of its parts. */
function envelopeRecords (components: Components, schema: unknown, key: string, hops = 0): unknown {
  const envelope = resolved(components, schema)
  if (!isRecord(envelope) || hops > MAX_REF_HOPS) return undefined
  if (isRecord(envelope.properties) && Object.hasOwn(envelope.properties, key)) return envelope.properties[key]
  for (const keyword of COMPOSITIONS) {
    if (!Array.isArray(envelope[keyword])) continue
    for (const member of envelope[keyword]) {
      const records = envelopeRecords(components, member, key, hops + 1)
      if (records !== undefined) return records
    }
  }
  return undefined
}

/** The schema of one record in a response schema, or undefined when it cannot be found. */
function recordSchema (components: Components, schema: unknown, shape: RecordsShape): unknown {
  if (shape.kind === 'array') return itemsOf(components, schema)
  if (shape.kind === 'envelope') return itemsOf(components, envelopeRecords(components, schema, String(shape.key)))
  return schema
}

// The conditional keywords of JSON Schema (`if`, `then`, `else`, the dependent ones), which OpenAPI 3.0's schemas do not
// have, nor Swagger 2.0's. A restricted response loses them where fields can be left out; the complete record, kept
// for a client's types, loses them too.
const NOT_IN_30 = keywordsWhere((keyword, name) => CONDITIONALS.has(name) && !keyword.dialects.includes('openapi-3.0'))

/** A schema without the conditional keywords, at every level that the vocabulary says holds a schema. */
function withoutConditionals (schema: Json): Json {
  return mapSchema(schema, (own) => Object.fromEntries(Object.entries(own).filter(([keyword]) => !NOT_IN_30.has(keyword)))) as Json
}

/**
 * A component name made of the operation's id, or of its method and path; a status other than the
 * first adds its key (`createUserRecord202`).
 */
function recordName (operation: Json, method: string, path: string, status: string | null): string {
  const words = typeof operation.operationId === 'string' ? operation.operationId : `${method} ${path}`
  const name = words.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word, index) => index === 0 ? word : word[0].toUpperCase() + word.slice(1)).join('')
  return `${name}Record${status ?? ''}`
}

export interface OperationPlace { operation: Json, method: string, path: string }

/**
 * Reads the records schema of each restricted status from the operation's
 * responses before they are relaxed; the returned function, called once the
 * document is relaxed, adds the description to the operation. Null for a
 * route whose records have no schema (a `fields` route), or whose records
 * cannot be found in any status.
 */
export function prepareRouteFields (
  components: Components, version: Version, place: OperationPlace, route: RestrictedRoute, conditionals: boolean
): ((relaxation: Relaxation, hidden: PathTrie | null) => void) | null {
  if (route.statusKey === undefined) return null
  const found: Array<{ status: string, records: Json, shape: RecordsShape }> = []
  for (const { key: status, shape, response } of restrictedResponses(place.operation, route, version)) {
    const records = recordSchema(components, clientSchema(response, version), shape)
    if (isRecord(records)) found.push({ status, records: conditionals ? records : withoutConditionals(records), shape })
  }
  if (found.length === 0) return null
  return function describeRouteFields (relaxation, hidden) {
    const visible = (paths: readonly string[]): string[] => hidden === null ? [...paths] : paths.filter((path) => !hidesPath(hidden, path))
    const statuses: Record<string, RecordsDescription> = {}
    for (const [index, { status, records, shape }] of found.entries()) {
      // Only a `fields` route, which has no status, finds where its records sit at run time ('auto').
      const kind = shape.kind as RecordsDescription['records']
      statuses[status] = {
        record: { $ref: completeRecord(components, relaxation, records, hidden, place, index === 0 ? null : status) },
        records: kind,
        ...kind === 'envelope' ? { key: shape.key } : {}
      }
    }
    const description: RouteFieldsDescription = {
      statuses,
      only: route.onlyParam,
      defer: route.deferParam,
      sets: Object.fromEntries(Object.entries(route.fieldSets ?? {}).map(([name, paths]) => [name, visible(paths)])),
      ...(route.defaultFields ?? null) === null ? {} : { defaultFields: visible(route.defaultFields as readonly string[]) },
      maxDepth: route.maxDepth
    }
    place.operation[OPERATION_KEY] = description
  }
}

/**
 * The `$ref` of the caller's complete record: the declared component when
 * nothing is hidden, a twin without the hidden fields (`user` →
 * `userVisible`) when something is, or a new component for a record
 * declared inline.
 */
function completeRecord (
  components: Components, relaxation: Relaxation, records: Json, hidden: PathTrie | null, place: OperationPlace, status: string | null
): string {
  const target = components.nameOf(records.$ref)
  if (target !== null && Object.keys(records).length === 1) {
    if (hidden === null) return records.$ref
    return components.twin(target, `visible ${trieKey(hidden)}`, (original) => relaxation.relaxRecords(original, 0, hidden) as Json,
      'As this caller is sent it, complete: the record that a restricted response narrows.', 'Visible')
  }
  const schema = relaxation.relaxRecords(records, 0, hidden) as Json
  return components.add(recordName(place.operation, place.method, place.path, status), schema)
}
