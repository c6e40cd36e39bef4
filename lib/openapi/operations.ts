/**
 * Finds the operations of the opted-in routes in a generated document (by
 * the vendor key their schema carried, else by method and path), and reads
 * what every reader of an operation's restricted responses needs: which they
 * are, where their schemas sit, and the one a client reads.
 */
import { createRequire } from 'node:module'
import { isRecord } from '../json.js'
import { OPERATION_KEY } from './types.js'
import type { Json, RecordsShape, RestrictedRoute, Version } from './types.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']

/**
 * A Fastify URL as @fastify/swagger writes it into a document (`:id` → `{id}`):
 * its own `formatParamUrl`, loaded only when a document is made, so that the
 * package stays as light for apps that document nothing.
 */
let documentPath: ((url: string) => string) | undefined
export function formatParamUrl (url: string): string {
  documentPath ??= (createRequire(import.meta.url)('@fastify/swagger') as { formatParamUrl: (url: string) => string }).formatParamUrl
  return documentPath(url)
}

export function documentVersion (document: Json): Version | null {
  if (document.swagger === '2.0') return '2.0'
  return typeof document.openapi === 'string' && document.openapi.startsWith('3.') ? '3' : null
}

/** The base paths of a document's servers, as @fastify/swagger reads them: a relative URL as written, an absolute one's path. */
function basePaths (servers: unknown): string[] {
  const bases: string[] = []
  for (const server of Array.isArray(servers) ? servers : []) {
    if (typeof server?.url !== 'string') continue
    const resolved = server.url.replace(/\{([^{}]+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole))
    try {
      bases.push(resolved.startsWith('/') ? resolved : new URL(resolved).pathname)
    } catch {}
  }
  return bases
}

/**
 * The paths a route of `url` may have in the document, as @fastify/swagger
 * forms them: with its servers' base paths stripped (its default), else as
 * is. Stripped as it strips them: each server's in turn, from a URL that
 * starts with it, with nothing put back (a server of `/v1/` makes
 * `/v1/users` into `users`), and in Swagger 2.0 the `basePath`, the path
 * kept absolute.
 */
export function candidatePaths (document: Json, version: Version, url: string): string[] {
  let stripped = url
  if (version === '2.0') {
    const base: unknown = document.basePath
    if (typeof base === 'string' && url.startsWith(base)) stripped = url.replace(base, '')
    if (!stripped.startsWith('/')) stripped = `/${stripped}`
  } else {
    for (const base of basePaths(document.servers)) if (base !== '/' && stripped.startsWith(base)) stripped = stripped.replace(base, '')
  }
  return stripped === url ? [formatParamUrl(url)] : [formatParamUrl(stripped), formatParamUrl(url)]
}

export interface Found { id: string, route: RestrictedRoute, operation: Json, pathItem: Json, method: string, path: string }

/**
 * Finds the operations of the routes: by the vendor key their schema carried,
 * else (a transform that dropped the key) by method and path.
 */
export function findOperations (document: Json, version: Version, routes: ReadonlyMap<string, RestrictedRoute>): Found[] {
  const found: Found[] = []
  const matched = new Set<string>()
  const unmarked = new Map<string, Json>()
  for (const [path, pathItem] of Object.entries(document.paths as Json)) {
    if (!isRecord(pathItem)) continue
    for (const method of METHODS) {
      const operation = pathItem[method]
      if (!isRecord(operation)) continue
      const id = operation[OPERATION_KEY]
      // A document made by the plugin and fed back (a static document) carries the key's description object, not an id.
      if (typeof id !== 'string') {
        unmarked.set(`${method} ${path}`, operation)
      } else if (routes.has(id)) {
        delete operation[OPERATION_KEY]
        matched.add(id)
        found.push({ id, route: routes.get(id) as RestrictedRoute, operation, pathItem, method, path })
      }
    }
  }
  for (const [id, route] of routes) {
    if (matched.has(id)) continue
    const methods = typeof route.method === 'string' ? [route.method] : route.method
    for (const method of methods) {
      for (const path of candidatePaths(document, version, route.url)) {
        const key = `${method.toLowerCase()} ${path}`
        const operation = unmarked.get(key)
        if (operation === undefined) continue
        unmarked.delete(key)
        found.push({ id, route, operation, pathItem: document.paths[path], method: method.toLowerCase(), path })
        break
      }
    }
  }
  return found
}

/** The key of a status in the document: `2XX` in OpenAPI 3, `200` for `2xx` in Swagger 2.0. */
function responseKey (statusKey: string, version: Version): string {
  const upper = statusKey.toUpperCase()
  return version === '2.0' ? upper.replace('XX', '00') : upper
}

/** One restricted response of an operation: its key, where its records sit, and the response as the document holds it. */
export interface RestrictedResponse { readonly key: string, readonly shape: RecordsShape, readonly response: unknown }

/**
 * The restricted responses of an operation, with where their records sit,
 * read from the route's declaration (its statuses), never from the
 * document's schemas. A response may be a `$ref`, or missing.
 */
export function restrictedResponses (operation: Json, route: RestrictedRoute, version: Version): RestrictedResponse[] {
  const responses: Json = isRecord(operation.responses) ? operation.responses : {}
  // A `fields` route has no success schema to relax, and restricts every 2xx.
  const statuses = route.statusKey === undefined
    ? Object.keys(responses).filter((key) => key.startsWith('2')).map((key) => ({ key, shape: route.shape }))
    : [{ statusKey: route.statusKey, shape: route.shape }, ...route.otherStatuses ?? []]
        .map(({ statusKey, shape }) => ({ key: responseKey(statusKey, version), shape }))
  return statuses.map(({ key, shape }) => ({ key, shape, response: responses[key] }))
}

/** What holds a response's schema (`schema`) and its examples: the response itself in Swagger 2.0, each of its media types in OpenAPI 3. */
export function schemaHolders (response: unknown, version: Version): Json[] {
  if (!isRecord(response)) return []
  if (version === '2.0') return [response]
  return Object.values(isRecord(response.content) ? response.content : {}).filter(isRecord)
}

/** The schema of a response that a client reads: its JSON media type's, else the first media type's that has one. */
export function clientSchema (response: unknown, version: Version): unknown {
  if (!isRecord(response)) return undefined
  if (version === '2.0') return response.schema
  if (!isRecord(response.content)) return undefined
  const media = response.content['application/json'] ??
    Object.values(response.content).find((value) => isRecord(value) && value.schema !== undefined)
  return isRecord(media) ? media.schema : undefined
}
