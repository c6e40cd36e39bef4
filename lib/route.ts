/**
 * Everything a route needs per request, worked out once when it is declared:
 * its declared fields, where its records sit, which statuses are restricted.
 * A spec never changes; what a route learns while it serves lives in its
 * RouteState (state.ts).
 */
import type { DeclaredResponse, FieldTree, JsonSchema, PayloadShape } from './schema/tree.js'
import { declaredResponse } from './schema/reader.js'
import { declaredFromList, likelyRecordsKey, mergeTrees } from './schema/paths.js'
import {
  InvalidOptionError, InvalidResultsKeyError, NoDeclaredFieldsError, UnaddressableFieldError, UnreadableSchemaError,
  UnresolvedReferenceError, UnsupportedSchemaError
} from './errors.js'
import type { ResolvedRouteOptions } from './options.js'
import { resolveFieldSets } from './field-sets.js'
import { selectionRules, unrequestedSelection } from './selection.js'
import type { Selection, SelectionRules } from './selection.js'
import { foreignSchema, isStandardSchema, standardOutputSchema } from './standard-schema.js'
import type { StandardSchema } from './standard-schema.js'

/**
 * What one successful status restricts with: its declared fields and the
 * serializers built for them. A route restricts every 2xx status that has a
 * response schema with object fields, each with its own StatusSpec.
 */
export interface StatusSpec {
  /**
   * The response status key the schema was read from (`'201'`, `'2xx'`), passed on to the serializer
   * compiler; undefined for a `fields` route.
   */
  readonly key: string | undefined
  readonly tree: FieldTree
  readonly shape: PayloadShape
  /** Set when the fields come from a response schema: restricted replies then use compiled serializers. */
  readonly declared: DeclaredResponse | null
  /**
   * The response schema when it is a Standard Schema (Zod): the route's
   * serializer compiler takes no JSON Schema, so pruned schemas are compiled
   * apart from it, and payloads are validated through it first.
   */
  readonly standard: StandardSchema | null
}

/** A 2xx status without object fields to restrict: its replies only lose the fields a rule hides. */
export const UNDECLARED_STATUS = Symbol('fastify-restricted-fields.undeclared-status')

export interface RouteSpec {
  /** The route in messages: "GET /users". */
  readonly route: string
  readonly options: ResolvedRouteOptions
  readonly rules: SelectionRules
  /** The selection of a request without parameters on a route with default fields; null: nothing to restrict. */
  readonly unrequested: Selection | null
  /**
   * Every field some restricted status declares: names are checked against
   * it, and each status keeps the fields it declares itself. It is the
   * primary status's own tree when no other status declares more.
   */
  readonly tree: FieldTree
  /** The status the fields are documented from first: 200, else 2xx, else the lowest 2xx code with fields. */
  readonly primary: StatusSpec
  /** Every restricted status, the primary first. */
  readonly statuses: readonly StatusSpec[]
  /** The status spec that restricts replies with this code; UNDECLARED_STATUS for another 2xx; null for any other code. */
  readonly statusOf: (statusCode: number) => StatusSpec | typeof UNDECLARED_STATUS | null
  /** Whether the route validates its querystring, which may strip or coerce the parameters. */
  readonly hasQuerystring: boolean
}

const SUCCESS_RANGE = /^2(\d\d|xx|XX)$/

/** The schema of a response entry; Fastify 5 also accepts { content: { 'application/json': { schema } } } per status. */
function entrySchema (entry: any): JsonSchema | StandardSchema | null {
  const schema = entry?.content?.['application/json']?.schema ?? entry
  return schema !== null && typeof schema === 'object' ? schema : null
}

/** The 2xx keys of a response schema, in the order they are preferred for documentation: 200, 2xx, then the codes. */
function successKeys (response: Record<string, any>): string[] {
  const codes = Object.keys(response).filter((key) => /^2\d\d$/.test(key) && key !== '200').sort()
  return ['200', '2xx', '2XX', ...codes].filter((key) => Object.hasOwn(response, key) && SUCCESS_RANGE.test(key))
}

function statusSpec (
  key: string | undefined, tree: FieldTree, shape: PayloadShape, declared: DeclaredResponse | null, standard: StandardSchema | null
): StatusSpec {
  return Object.freeze({ key, tree, shape, declared, standard })
}

/** Maps status codes to their specs: a numbered key for its code, a 2xx key for the successes without their own. */
function statusLookup (
  entries: ReadonlyMap<string, StatusSpec | typeof UNDECLARED_STATUS>, fallback: StatusSpec | typeof UNDECLARED_STATUS
): RouteSpec['statusOf'] {
  const byCode = new Map<number, StatusSpec | typeof UNDECLARED_STATUS>()
  for (const [key, status] of entries) if (/^\d+$/.test(key)) byCode.set(Number(key), status)
  const range = entries.get('2xx') ?? entries.get('2XX') ?? fallback
  return (statusCode) => statusCode >= 200 && statusCode < 300 ? byCode.get(statusCode) ?? range : null
}

/** The schemas of a route's 2xx responses, as its `schema` route option declares them, in the order they are preferred. */
export function successSchemas (routeSchema: Record<string, any> | undefined): Array<JsonSchema | StandardSchema> {
  const response: Record<string, any> = routeSchema?.response ?? {}
  return successKeys(response).map((key) => entrySchema(response[key])).filter((schema) => schema !== null)
}

/** What a route's response schema declares: its restricted statuses, the lookup of a reply's status, and their merged tree. */
type ReadStatuses = Pick<RouteSpec, 'statuses' | 'statusOf' | 'tree'>

/**
 * Builds a route's spec from its resolved `restrictFields` options, its
 * `schema` route option and the shared schemas visible to it.
 * `route` names the route in error messages ("GET /users"). `like`, a spec
 * built from the same schema object, shared schemas and options (the GET
 * route whose HEAD route Fastify declares from its options), lends its
 * statuses as they are, read and checked once.
 */
export function buildRouteSpec (
  options: ResolvedRouteOptions,
  routeSchema: Record<string, any> | undefined,
  sharedSchemas: Record<string, JsonSchema>,
  route: string,
  like: RouteSpec | null = null
): RouteSpec {
  return specOf(options, routeSchema, route, like ?? readStatuses(options, routeSchema, sharedSchemas, route, true)!)
}

/**
 * The spec of a route that the `global` option opts in without its saying so:
 * null when no 2xx status declares records (no response schema, a string, an
 * image), which leaves the route alone; what was wrong with it when it
 * declares records the plugin cannot restrict, as a value, for the caller to
 * refuse the route or leave it out.
 */
export function automaticRouteSpec (
  options: ResolvedRouteOptions,
  routeSchema: Record<string, any> | undefined,
  sharedSchemas: Record<string, JsonSchema>,
  route: string
): RouteSpec | { readonly unrestrictable: Error } | null {
  try {
    const read = readStatuses(options, routeSchema, sharedSchemas, route, false)
    return read === null ? null : specOf(options, routeSchema, route, read)
  } catch (error) {
    return { unrestrictable: error as Error }
  }
}

/** The spec of a route of the statuses read: its parsing rules, checked against the tree. */
function specOf (
  options: ResolvedRouteOptions, routeSchema: Record<string, any> | undefined, route: string, read: ReadStatuses
): RouteSpec {
  const { statuses, statusOf, tree } = read
  // An object that looks like an envelope, read as one record: its unknown-field answers say where the records are.
  const recordsKey = statuses.every((status) => status.shape.kind === 'object') ? likelyRecordsKey(tree) : null
  const rules = selectionRules(options, resolveFieldSets(options.fieldSets, options.defaultFields, tree, route), recordsKey)
  return Object.freeze({
    route,
    options,
    rules,
    unrequested: rules.defaultFields === null ? null : unrequestedSelection(tree, rules),
    tree,
    primary: statuses[0],
    statuses,
    statusOf,
    hasQuerystring: routeSchema?.querystring !== undefined
  })
}

/**
 * Reads and checks the statuses a route restricts; throws the coded error of the first thing it cannot restrict.
 * Null, where records are not required, when no status declares any.
 */
function readStatuses (
  options: ResolvedRouteOptions,
  routeSchema: Record<string, any> | undefined,
  sharedSchemas: Record<string, JsonSchema>,
  route: string,
  recordsRequired: boolean
): ReadStatuses | null {
  const response: Record<string, any> = routeSchema?.response ?? {}
  const keys = successKeys(response).filter((key) => entrySchema(response[key]) !== null)
  const statuses: StatusSpec[] = []
  let statusOf: RouteSpec['statusOf']

  if (options.fields !== null) {
    if (keys.length > 0) {
      throw new InvalidOptionError(`fastify-restricted-fields, route ${route}: \`fields\` is for routes without a response schema; this route's fields are read from its schema, remove \`fields\``)
    }
    const status = statusSpec(undefined, declaredFromList(options.fields), { kind: 'auto', key: options.resultsKey }, null, null)
    statuses.push(status)
    statusOf = statusLookup(new Map(), status)
  } else {
    const entries = new Map<string, StatusSpec | typeof UNDECLARED_STATUS>()
    let firstWithout: { key: string, schema: JsonSchema } | null = null
    for (const key of keys) {
      const schema = entrySchema(response[key]) as JsonSchema | StandardSchema
      const standard = isStandardSchema(schema) ? schema : null
      const json = readableSchema(schema, route, key)
      const declared = declaredResponse(json, options.resultsKey, options.maxDepth, {
        root: json,
        shared: sharedSchemas,
        unresolved: (ref) => { throw new UnresolvedReferenceError(route, ref) },
        unreadable: (pointer, keyword, reason) => { throw new UnsupportedSchemaError(route, key, pointer, keyword, reason) }
      })
      if (declared === null) {
        firstWithout ??= { key, schema: json }
        entries.set(key, UNDECLARED_STATUS)
        continue
      }
      const status = statusSpec(key, declared.tree, declared.shape, declared, standard)
      statuses.push(status)
      entries.set(key, status)
    }
    if (statuses.length === 0) {
      if (!recordsRequired) return null
      if (firstWithout === null) throw new NoDeclaredFieldsError(route)
      // A schema is there, but neither it nor its items is an object with fields.
      const { key, schema } = firstWithout
      const keyword = Object.hasOwn(schema, 'type') ? 'type' : Object.keys(schema)[0] ?? '{}'
      throw new UnsupportedSchemaError(route, key, '#', keyword, 'it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them')
    }
    // The plugin's resultsKey serves every route, and a route without it is one object: only the route's own is a promise of records.
    if (options.ownResultsKey && !statuses.some((status) => status.shape.kind === 'envelope')) {
      throw notRecordsUnder(options.resultsKey, statuses[0], route)
    }
    statusOf = statusLookup(entries, UNDECLARED_STATUS)
  }

  const tree = statuses.length === 1 ? statuses[0].tree : mergeTrees(statuses.map((status) => status.tree))
  checkAddressable(tree, route)
  return { statuses, statusOf, tree }
}

/** The refusal of a route's own resultsKey that its schemas hold no records under, told from its first restricted status. */
function notRecordsUnder (key: string, status: StatusSpec, route: string): InstanceType<typeof InvalidResultsKeyError> {
  if (status.shape.kind === 'array') {
    return new InvalidResultsKeyError(route, key, status.key as string, 'the schema is an array of records itself, which takes no resultsKey')
  }
  const likely = likelyRecordsKey(status.tree)
  const names = status.tree.nodes.map((node) => node.name).join(', ')
  return new InvalidResultsKeyError(route, key, status.key as string, `its keys are: ${names}${likely === null ? '' : ` (the records are under '${likely}')`}`)
}

/** Characters that the request syntax reads as separators, so a property name holding one could never be named. */
const UNADDRESSABLE = /[.,]/

/** Refuses a route with a declared property that `only`, `defer` and a rule could not name. */
function checkAddressable (tree: FieldTree, route: string, prefix = ''): void {
  for (const node of tree.nodes) {
    const path = prefix + node.name
    if (node.name === '' || node.name !== node.name.trim() || UNADDRESSABLE.test(node.name)) {
      const why = node.name === ''
        ? 'it is empty'
        : UNADDRESSABLE.test(node.name)
          ? `it holds '${node.name.match(UNADDRESSABLE)![0]}', which separates names in a request`
          : 'it starts or ends with a space, which a request trims'
      throw new UnaddressableFieldError(route, JSON.stringify(path), why)
    }
    if (node.children !== null) checkAddressable(node.children, route, path + '.')
  }
}

/** The JSON Schema of a response schema: itself, or what a Standard Schema outputs; throws for anything else. */
function readableSchema (schema: JsonSchema | StandardSchema, route: string, status: string): JsonSchema {
  if (isStandardSchema(schema)) {
    const json = standardOutputSchema(schema)
    if (typeof json === 'string') throw new UnreadableSchemaError(route, status, json)
    return json
  }
  const foreign = foreignSchema(schema)
  if (foreign !== null) throw new UnreadableSchemaError(route, status, foreign)
  return schema
}
