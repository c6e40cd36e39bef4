/**
 * Everything a route needs per request, worked out once when it is declared:
 * its declared fields, where its records sit, which statuses are restricted.
 */
import { AdmissionCache } from './cache.js'
import { declaredFromList, declaredResponse } from './declared.js'
import type { DeclaredResponse, FieldTree, JsonSchema, PayloadShape } from './declared.js'
import { InvalidOptionError, NoDeclaredFieldsError, UnreadableSchemaError, UnresolvedReferenceError, UnsupportedSchemaError } from './errors.js'
import type { ResolvedRouteOptions } from './options.js'
import { selectionReader, selectionRules } from './selection.js'
import type { Selection, SelectionRules } from './selection.js'
import { writerRoute } from './serializer.js'
import type { Serializer, WriterRoute } from './serializer.js'
import { foreignSchema, isStandardSchema, standardOutputSchema } from './standard-schema.js'
import type { StandardSchema } from './standard-schema.js'

export interface RouteSpec {
  /** The route in messages: "GET /users". */
  readonly route: string
  readonly options: ResolvedRouteOptions
  readonly rules: SelectionRules
  /** Reads a request's parsed and raw query into a selection; throws a coded 400 error for a bad one. */
  readonly readSelection: (query: Record<string, unknown> | null | undefined, rawQuery: string) => Selection | null
  readonly tree: FieldTree
  readonly shape: PayloadShape
  /** Set when the fields come from a response schema: restricted replies then use compiled serializers. */
  readonly declared: DeclaredResponse | null
  /** The response status key the schema was read from, passed on to the serializer compiler. */
  readonly statusKey: string | undefined
  /** Compiled serializers by selection key; null records a selection the compiler refused. */
  readonly cache: AdmissionCache<Serializer | null>
  /** Whether replies with this status code are restricted. */
  readonly restricts: (statusCode: number) => boolean
  /**
   * The response schema when it is a Standard Schema (Zod): the route's
   * serializer compiler takes no JSON Schema, so pruned schemas are compiled
   * apart from it, and payloads are validated through it first.
   */
  readonly standard: StandardSchema | null
  /** What the route's projection writers share. */
  readonly writer: WriterRoute
  /** Whether the route validates its querystring, which may strip or coerce the parameters. */
  readonly hasQuerystring: boolean
}

/** A successful response's schema: 200 first, then 2xx, then the lowest other 2xx code. */
function successSchema (response: Record<string, any>): { key: string, schema: JsonSchema | StandardSchema } | null {
  const codes = Object.keys(response).filter((key) => /^2\d\d$/.test(key)).sort()
  const key = ['200', '2xx', '2XX', ...codes].find((candidate) => Object.hasOwn(response, candidate))
  if (key === undefined) return null
  const entry = response[key]
  // Fastify 5 also accepts { content: { 'application/json': { schema } } } per status.
  const schema = entry?.content?.['application/json']?.schema ?? entry
  return schema !== null && typeof schema === 'object' ? { key, schema } : null
}

function statusRule (key: string | null, response: Record<string, any>): (statusCode: number) => boolean {
  if (key !== null && /^\d+$/.test(key)) {
    const code = Number(key)
    return (statusCode) => statusCode === code
  }
  // A 2xx schema covers the successful codes that have no schema of their own.
  const ownSchemas = new Set(Object.keys(response).filter((code) => /^\d+$/.test(code)).map(Number))
  return (statusCode) => statusCode >= 200 && statusCode < 300 && !ownSchemas.has(statusCode)
}

/**
 * Builds a route's spec from its resolved `restrictFields` options, its
 * `schema` route option and the shared schemas visible to it.
 * `route` names the route in error messages ("GET /users").
 */
export function buildRouteSpec (
  options: ResolvedRouteOptions,
  routeSchema: Record<string, any> | undefined,
  sharedSchemas: Record<string, JsonSchema>,
  route: string
): RouteSpec {
  const response: Record<string, any> = routeSchema?.response ?? {}
  const success = successSchema(response)
  let found: Pick<RouteSpec, 'tree' | 'shape' | 'declared' | 'statusKey' | 'restricts' | 'standard'>

  if (options.fields !== null) {
    if (success !== null) {
      throw new InvalidOptionError(`fastify-restricted-fields, route ${route}: \`fields\` is for routes without a response schema; this route's fields are read from its schema, remove \`fields\``)
    }
    const tree = declaredFromList(options.fields)
    found = { tree, shape: { kind: 'auto', key: options.resultsKey }, declared: null, statusKey: undefined, restricts: statusRule(null, {}), standard: null }
  } else {
    if (success === null) throw new NoDeclaredFieldsError(route)
    const standard = isStandardSchema(success.schema) ? success.schema : null
    const schema = readableSchema(success.schema, route, success.key)
    const declared = declaredResponse(schema, options.resultsKey, options.maxDepth, {
      root: schema,
      shared: sharedSchemas,
      unresolved: (ref) => { throw new UnresolvedReferenceError(route, ref) },
      unreadable: (pointer, keyword, reason) => { throw new UnsupportedSchemaError(route, success.key, pointer, keyword, reason) }
    })
    if (declared === null) {
      // A schema is there, but neither it nor its items is an object with fields.
      const keyword = Object.hasOwn(schema, 'type') ? 'type' : Object.keys(schema)[0] ?? '{}'
      throw new UnsupportedSchemaError(route, success.key, '#', keyword, 'it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them')
    }
    found = { tree: declared.tree, shape: declared.shape, declared, statusKey: success.key, restricts: statusRule(success.key, response), standard }
  }

  const rules = selectionRules(options)
  return {
    ...found,
    route,
    options,
    rules,
    readSelection: selectionReader(found.tree, rules, options.cacheSize),
    cache: new AdmissionCache<Serializer | null>(options.cacheSize),
    writer: writerRoute(found.shape, found.declared),
    hasQuerystring: routeSchema?.querystring !== undefined
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
