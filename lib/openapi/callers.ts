/**
 * Keeps the OpenAPI document that @fastify/swagger generates true for the
 * opted-in routes. Each route's schema gets a vendor key that swagger copies
 * to its operation; once the app is ready, swagger's decorator is wrapped so
 * that its document passes through `restrictedDocument`, after every user
 * transform and transformObject. A caller's own document, without what the
 * routes' rules hide from that caller, is made from the same generated one.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import type { PathTrie } from '../schema/tree.js'
import { restrictedDocument } from './document.js'
import { OPERATION_KEY } from './types.js'
import type { RestrictedRoute } from './types.js'
import { toYaml } from './yaml.js'

export interface RouteDocumentation {
  /** Records an opted-in route; returns its route schema with the key that finds its operation. */
  record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined): Schema
  /**
   * The document the caller of `request` may see: each route's rule asked
   * once, its hidden fields left out. With `shared`, the same object for
   * every caller who is hidden the same fields, made once: never modify it.
   */
  documentFor (request: FastifyRequest, options?: DocumentOptions): Promise<unknown>
}

/** The route options that, when a route sets them, stand for the server's in its `request.routeOptions`. */
const ROUTE_OVER_SERVER = ['bodyLimit', 'handlerTimeout', 'exposeHeadRoute', 'prefixTrailingSlash']

/**
 * `request.routeOptions` as a request of the route declared with
 * `routeOptions` sees it, made once all `onRoute` hooks have run (when the
 * first document is asked for): Fastify builds it from the same options.
 */
export function requestRouteOptions (routeOptions: RouteOptions, instance: FastifyInstance): FastifyRequest['routeOptions'] {
  const { method, url } = routeOptions
  // Fastify's defaults for what the route does not set come from the same server options.
  const server = instance.initialConfig as typeof instance.initialConfig & { handlerTimeout?: number, exposeHeadRoutes?: boolean }
  const options: Record<string, unknown> = {
    method,
    url,
    bodyLimit: server.bodyLimit,
    handlerTimeout: server.handlerTimeout,
    attachValidation: routeOptions.attachValidation,
    logLevel: routeOptions.logLevel,
    exposeHeadRoute: server.exposeHeadRoutes,
    prefixTrailingSlash: 'both',
    handler: routeOptions.handler,
    config: Object.freeze({ ...routeOptions.config, url, method }),
    schema: routeOptions.schema,
    version: undefined
  }
  for (const key of ROUTE_OVER_SERVER) {
    const own = (routeOptions as unknown as Record<string, unknown>)[key]
    if (own !== undefined) options[key] = own
  }
  return Object.freeze(options) as unknown as FastifyRequest['routeOptions']
}

/**
 * The caller's request as the route it documents sees it: a rule that reads
 * `request.routeOptions` (its `config`, `url`, `method`) reads the documented
 * route's, and everything else (headers, user, decorations) is the caller's.
 */
export function requestOnRoute (request: FastifyRequest, routeOptions: FastifyRequest['routeOptions']): FastifyRequest {
  return Object.create(request, { routeOptions: { value: routeOptions, enumerable: true } }) as FastifyRequest
}

export interface DocumentOptions {
  /** YAML text instead of the document. */
  yaml?: boolean
  /** The document made once for every caller of the same view, to read only. */
  shared?: boolean
}

/** How many callers' views keep their shared document: each holds a copy of the whole document. */
const SHARED_VIEWS = 16

/** A key that two tries have alike exactly when they hold the same paths. */
function trieKey (trie: PathTrie): unknown {
  return [trie.whole ? 1 : 0, [...trie.children].sort(([a], [b]) => a < b ? -1 : 1).map(([name, child]) => [name, trieKey(child)])]
}

/** A key for what each route hides from a caller: two callers hidden the same fields share it. */
export function viewKey (hidden: ReadonlyMap<string, PathTrie>): string {
  return JSON.stringify([...hidden].sort(([a], [b]) => a < b ? -1 : 1).map(([id, trie]) => [id, trieKey(trie)]))
}

type DocumentFunction = (this: unknown, options?: { yaml?: boolean }) => unknown

// Ids are unique across instances of the plugin: two registrations may wrap the same decorator.
let lastRouteId = 0

function restrictedDocumentFunction (generate: DocumentFunction, routes: ReadonlyMap<string, RestrictedRoute>): DocumentFunction {
  let source: unknown
  let document: unknown
  let yaml: string | undefined
  return function restrictedFieldsDocument (options) {
    const generated = generate.call(this)
    if (generated === null || typeof generated !== 'object') return generate.call(this, options)
    // Swagger returns the same object until its cache is reset: relax each one once.
    if (generated !== source) {
      source = generated
      document = restrictedDocument(generated, routes)
      yaml = undefined
    }
    if (options?.yaml === true) return (yaml ??= toYaml(document))
    return document
  }
}

/**
 * What each route's rule hides from the caller of `request`, by route id. The
 * rule is asked once per route, told which route, as on the route's own
 * requests: a rule that reads the route may hide different fields on each.
 */
async function hiddenByRoute (request: FastifyRequest, routes: ReadonlyMap<string, RestrictedRoute>): Promise<Map<string, PathTrie>> {
  const hidden = new Map<string, PathTrie>()
  for (const [id, route] of routes) {
    if (route.hiddenFrom === undefined) continue
    const trie = await route.hiddenFrom(request)
    if (trie !== null) hidden.set(id, trie)
  }
  return hidden
}

/**
 * Sets up the documentation of the instance's opted-in routes. `decorator` is
 * the name of @fastify/swagger's decorator (its `decorator` option); without
 * one, the routes' schemas keep their vendor key and nothing else happens.
 */
export function documentRestrictedRoutes (fastify: FastifyInstance, decorator = 'swagger'): RouteDocumentation {
  const routes = new Map<string, RestrictedRoute>()
  let generated: (() => unknown) | null = null
  // Shared views, by view key, of the generated document they were made from; oldest first.
  let sharedSource: unknown
  const shared = new Map<string, unknown>()
  fastify.addHook('onReady', function wrapSwaggerDocument (done) {
    // The decorator may sit on an ancestor instance: wrap it where it is, so every instance sees the wrapper.
    let owner: Record<string, unknown> | null = fastify as unknown as Record<string, unknown>
    while (owner !== null && !Object.hasOwn(owner, decorator)) owner = Object.getPrototypeOf(owner)
    if (owner !== null && typeof owner[decorator] === 'function' && routes.size > 0) {
      const generate = owner[decorator] as DocumentFunction
      const self = owner
      generated = () => generate.call(self)
      owner[decorator] = restrictedDocumentFunction(generate, routes)
    }
    done()
  })
  return {
    record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined): Schema {
      const id = String(++lastRouteId)
      routes.set(id, route)
      return { ...schema, [OPERATION_KEY]: id } as Schema
    },
    async documentFor (request, options) {
      // Before ready, or without @fastify/swagger, there is no document to restrict.
      if (generated === null) return null
      const source = generated()
      const hidden = await hiddenByRoute(request, routes)
      const make = (): unknown => restrictedDocument(source, routes, hidden, (leak) => {
        // The place may name the hidden field: it goes to the log, never to the caller.
        request.log.error({ route: leak.route, pointer: leak.pointer, reason: leak.reason, position: leak.position }, "A caller's OpenAPI document could not be shown free of a route's hidden fields; it was refused")
      })
      if (options?.shared !== true) return options?.yaml === true ? toYaml(make()) : make()
      if (source !== sharedSource) {
        sharedSource = source
        shared.clear()
      }
      const key = viewKey(hidden)
      const document = shared.get(key) ?? make()
      // Used last, evicted last.
      shared.delete(key)
      shared.set(key, document)
      if (shared.size > SHARED_VIEWS) shared.delete(shared.keys().next().value as string)
      return document
    }
  }
}
