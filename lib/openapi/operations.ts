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

/** The paths a route may have in the document: with a base path stripped (as @fastify/swagger does by default), then as is. */
function candidatePaths (document: Json, version: Version, url: string): string[] {
  const bases: string[] = []
  if (version === '2.0') {
    if (typeof document.basePath === 'string') bases.push(document.basePath)
  } else if (Array.isArray(document.servers)) {
    for (const server of document.servers) {
      if (typeof server?.url !== 'string') continue
      const resolved = server.url.replace(/\{([^{}]+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole))
      try {
        bases.push(new URL(resolved, 'http://localhost').pathname)
      } catch {}
    }
  }
  const stripped = bases
    .filter((base) => base.length > 1 && url.startsWith(base))
    .map((base) => {
      const rest = url.slice(base.length)
      return formatParamUrl(rest.startsWith('/') ? rest : `/${rest}`)
    })
  return [...stripped, formatParamUrl(url)]
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
