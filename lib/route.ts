/**
 * Everything a route needs per request, worked out once when it is declared:
 * its declared fields, where its records sit, which statuses are restricted.
 * A spec never changes; what a route learns while it serves lives in its
 * RouteState (state.ts).
 */
import type { DeclaredResponse, FieldTree, JsonSchema, PayloadShape } from './schema/tree.js'
import { declaredResponse } from './schema/reader.js'
import { declaredFromList, mergeTrees } from './schema/paths.js'
import { InvalidOptionError, NoDeclaredFieldsError, UnaddressableFieldError, UnreadableSchemaError, UnresolvedReferenceError, UnsupportedSchemaError } from './errors.js'
import type { ResolvedRouteOptions } from './options.js'
import { resolveFieldSets, selectionRules, unrequestedSelection } from './selection.js'
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
function statusLookup (entries: ReadonlyMap<string, StatusSpec | typeof UNDECLARED_STATUS>, fallback: StatusSpec | typeof UNDECLARED_STATUS): RouteSpec['statusOf'] {
  const byCode = new Map<number, StatusSpec | typeof UNDECLARED_STATUS>()
  for (const [key, status] of entries) if (/^\d+$/.test(key)) byCode.set(Number(key), status)
  const range = entries.get('2xx') ?? entries.get('2XX') ?? fallback
  return (statusCode) => statusCode >= 200 && statusCode < 300 ? byCode.get(statusCode) ?? range : null
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
  const { statuses, statusOf, tree } = like ?? readStatuses(options, routeSchema, sharedSchemas, route)
  const rules = selectionRules(options, resolveFieldSets(options.fieldSets, options.defaultFields, tree, route))
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

/** Reads and checks the statuses a route restricts; throws the coded error of the first thing it cannot restrict. */
function readStatuses (
  options: ResolvedRouteOptions, routeSchema: Record<string, any> | undefined, sharedSchemas: Record<string, JsonSchema>, route: string
): ReadStatuses {
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
      if (firstWithout === null) throw new NoDeclaredFieldsError(route)
      // A schema is there, but neither it nor its items is an object with fields.
      const { key, schema } = firstWithout
      const keyword = Object.hasOwn(schema, 'type') ? 'type' : Object.keys(schema)[0] ?? '{}'
      throw new UnsupportedSchemaError(route, key, '#', keyword, 'it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them')
    }
    statusOf = statusLookup(entries, UNDECLARED_STATUS)
  }

  const tree = statuses.length === 1 ? statuses[0].tree : mergeTrees(statuses.map((status) => status.tree))
  checkAddressable(tree, route)
  return { statuses, statusOf, tree }
}

/** Characters that the request syntax reads as separators, so a property name holding one could never be named. */
const UNADDRESSABLE = /[.,]/

/** Refuses a route with a declared property that `only`, `defer` and a rule could not name. */
function checkAddressable (tree: FieldTree, route: string, prefix = ''): void {
  for (const node of tree.nodes) {
    const path = prefix + node.name
    if (node.name === '' || node.name !== node.name.trim() || UNADDRESSABLE.test(node.name)) {
      throw new UnaddressableFieldError(route, JSON.stringify(path), node.name === '' ? 'it is empty' : UNADDRESSABLE.test(node.name) ? `it holds '${node.name.match(UNADDRESSABLE)![0]}', which separates names in a request` : 'it starts or ends with a space, which a request trims')
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
