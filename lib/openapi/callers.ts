/**
 * Keeps the OpenAPI document that @fastify/swagger generates true for the
 * opted-in routes. Each route's schema gets a vendor key that swagger copies
 * to its operation; once the app is ready, swagger's decorator is wrapped so
 * that its document passes through `restrictedDocument`, after every user
 * transform and transformObject. A caller's own document, without what the
 * routes' rules hide from that caller, is made from the same generated one.
 * The modules that relax, check and build documents are imported when the
 * app is ready and @fastify/swagger is there: an app without it loads none.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import { trieKey } from '../hidden-paths.js'
import type { PathTrie } from '../hidden-paths.js'
import { DocumentLeakError } from '../errors.js'
import { betweenSteps } from '../slices.js'
import type { DocumentBuilder } from './document-builder.js'
import type { CachedDocument, DocumentCache } from './document-cache.js'
import type { SentText } from './sent-text.js'
import { OPERATION_KEY } from './types.js'
import type { RestrictedRoute } from './types.js'

export interface RouteDocumentation {
  /**
   * Records an opted-in route; returns its route schema with the key that finds its operation.
   * `answersErrorsItself` is asked once the app is ready, before any document is made.
   */
  record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined, answersErrorsItself: () => boolean): Schema
  /**
   * The document the caller of `request` may see: each route's rule asked
   * once, its hidden fields left out. With `shared`, the same object for
   * every caller who is hidden the same fields, made once: never modify it.
   */
  documentFor (request: FastifyRequest, options?: DocumentOptions): Promise<unknown>
  /** The text of the caller's document, YAML or JSON, made once per view, to send; null before ready or without @fastify/swagger. */
  documentTextFor (request: FastifyRequest, yaml: boolean): Promise<SentText | null>
  /** Tells that callers' documents are served, so that @fastify/swagger's is generated when the app is made ready. */
  servedPerCaller (): void
  /** Whether callers' documents may differ: some opted-in route has a rule. */
  variesByCaller (): boolean
}

/**
 * Whether the app answers the errors of the route declared with
 * `routeOptions` on `instance` with a handler of its own (the route's
 * `errorHandler` option, or one set with setErrorHandler there or on an
 * ancestor), which sends whatever body it likes for the plugin's 400. Asked
 * once the app is ready: setErrorHandler may come after the route, in its
 * context, and Fastify gives the route its handler only once that context has loaded.
 */
export function answersErrorsItself (routeOptions: RouteOptions, instance: FastifyInstance): boolean {
  // Fastify's own handler hands the error on to the instance's (`reply.send(error)` goes to the next handler up),
  // so a route's option of it still sends what the instance's handler sends.
  const own = routeOptions.errorHandler
  return !isFastifyHandler(instance.errorHandler) || (own !== undefined && !isFastifyHandler(own))
}

/**
 * Whether an error handler is Fastify's own. Fastify exports none to compare
 * with; its own is the one it does not bind: setErrorHandler binds each
 * handler it is given, whose name then starts with 'bound '.
 */
function isFastifyHandler (handler: (...args: any[]) => unknown): boolean {
  return handler.name === 'defaultErrorHandler'
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

/** A key for what each route hides from a caller: two callers hidden the same fields share it. */
export function viewKey (hidden: ReadonlyMap<string, PathTrie>): string {
  return JSON.stringify([...hidden].sort(([a], [b]) => a < b ? -1 : 1).map(([id, trie]) => [id, trieKey(trie)]))
}

type DocumentFunction = (this: unknown, options?: { yaml?: boolean }) => unknown

// Ids are unique across instances of the plugin: two registrations may wrap the same decorator.
let lastRouteId = 0

/** The modules that make documents, imported once an app with @fastify/swagger is made ready. */
async function documentModules () {
  // The TypeScript loader the tests run under writes each `import()` with branches of its own, which no run takes.
  /* c8 ignore next 3 */
  const [{ restrictedDocument }, { DocumentBuilder }, { CachedDocument, DocumentCache }, { toYaml }] = await Promise.all([
    import('./document.js'), import('./document-builder.js'), import('./document-cache.js'), import('./yaml.js')
  ])
  return { restrictedDocument, DocumentBuilder, CachedDocument, DocumentCache, toYaml }
}
type DocumentModules = Awaited<ReturnType<typeof documentModules>>

function restrictedDocumentFunction (
  generate: DocumentFunction, routes: ReadonlyMap<string, RestrictedRoute>, { restrictedDocument, toYaml }: DocumentModules
): DocumentFunction {
  let source: unknown
  let document: unknown
  let yaml: string | undefined
  return function restrictedFieldsDocument (options) {
    const generated = generate.call(this)
    if (generated === null || typeof generated !== 'object') return generate.call(this, options)
    // Swagger returns the same object until its cache is reset: relax each one once.
    if (generated !== source) {
      source = generated
      document = restrictedDocument(generated, routes).document
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
  // A route meeting an answer for the first time makes its visibility: hundreds of routes take long.
  const turn = betweenSteps()
  for (const [id, route] of routes) {
    if (route.hiddenFrom === undefined) continue
    await turn()
    const trie = await route.hiddenFrom(request)
    if (trie !== null) hidden.set(id, trie)
  }
  return hidden
}

/**
 * Generates @fastify/swagger's document once, while the app is made ready:
 * swagger keeps it, and a caller's first request then waits for no
 * generation of hundreds of routes. A generation that fails is left to the
 * request that asks for a document, which answers with its error as before.
 */
function generateAtReady (generate: () => unknown): void {
  try {
    generate()
  } catch {}
}

/** Options of a caller's documents. */
export interface DocumentationOptions {
  /** The name of @fastify/swagger's decorator (its `decorator` option). Default: `swagger`. */
  decorator?: string
  /** The estimated heap bytes the callers' views may keep. */
  cacheBytes: number
}

/**
 * Sets up the documentation of the instance's opted-in routes. Without
 * @fastify/swagger's decorator, the routes' schemas keep their vendor key and
 * nothing else happens. Each view's document is built once, off the
 * event loop for a large API (document-builder.ts), and kept within `cacheBytes`.
 * Where callers' documents are served, swagger's own is generated when the app
 * is made ready, so that no request waits for it.
 */
export function documentRestrictedRoutes (
  fastify: FastifyInstance, { decorator = 'swagger', cacheBytes }: DocumentationOptions
): RouteDocumentation {
  const routes = new Map<string, RestrictedRoute>()
  // Set once the app is ready with @fastify/swagger's decorator: the generation, and what builds and keeps the views' documents.
  let made: { generated: () => unknown, modules: DocumentModules, builder: DocumentBuilder } | null = null
  // The views' documents of the generated document they were made from: the routes are fixed once ready, so it alone can change.
  let source: unknown
  let documents: DocumentCache | null = null
  let perCaller = false
  const errorAnswers = new Map<string, () => boolean>()
  fastify.addHook('onReady', async function wrapSwaggerDocument () {
    // A plain flag on the route, which the document's thread reads as this one does.
    for (const [id, answersErrorsItself] of errorAnswers) {
      if (answersErrorsItself()) routes.set(id, { ...routes.get(id)!, ownErrorHandler: true })
    }
    errorAnswers.clear()
    // The decorator may sit on an ancestor instance: wrap it where it is, so every instance sees the wrapper.
    let owner: Record<string, unknown> | null = fastify as unknown as Record<string, unknown>
    while (owner !== null && !Object.hasOwn(owner, decorator)) owner = Object.getPrototypeOf(owner)
    if (owner === null || typeof owner[decorator] !== 'function' || routes.size === 0) return
    const generate = owner[decorator] as DocumentFunction
    const self = owner
    const modules = await documentModules()
    const builder = new modules.DocumentBuilder(routes, (error) => {
      fastify.log.warn({ err: error }, "The thread that builds callers' OpenAPI documents failed; they are built on the event loop")
    })
    made = { generated: () => generate.call(self), modules, builder }
    owner[decorator] = restrictedDocumentFunction(generate, routes, modules)
    if (perCaller || [...routes.values()].some((route) => route.hiddenFrom !== undefined)) generateAtReady(made.generated)
  })
  fastify.addHook('onClose', async function stopDocumentThread () {
    await made?.builder.close()
  })

  /** The document of the caller of `request`'s view, built once; null before ready or without @fastify/swagger. */
  async function documentOfView (request: FastifyRequest): Promise<CachedDocument | null> {
    if (made === null) return null
    const { generated, modules: { CachedDocument, DocumentCache }, builder } = made
    const generatedNow = generated()
    if (documents === null || generatedNow !== source) {
      source = generatedNow
      documents = new DocumentCache(cacheBytes)
    }
    const hidden = await hiddenByRoute(request, routes)
    const answer = await documents.document(viewKey(hidden), async (grown) => {
      const started = performance.now()
      const built = await builder.build(generatedNow, hidden)
      const documentBuild = { ms: Math.round(performance.now() - started), offThread: builder.offThread, refused: 'refused' in built }
      request.log.debug({ documentBuild }, "A caller's OpenAPI document was built")
      if ('refused' in built) return built
      return new CachedDocument(
        built.json, built.document, async (cached) => await builder.yaml(cached.json, async () => await cached.shared()), grown
      )
    })
    if (answer instanceof CachedDocument) return answer
    // The one place a refusal becomes an error, for the reply. The place may name the hidden field: it
    // goes to the log, never to the caller.
    const { route, pointer, reason, position } = answer.refused
    request.log.error({ route, pointer, reason, position }, "A caller's OpenAPI document could not be shown free of a route's hidden fields; it was refused")
    throw new DocumentLeakError()
  }

  return {
    record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined, answersErrorsItself: () => boolean): Schema {
      const id = String(++lastRouteId)
      routes.set(id, route)
      errorAnswers.set(id, answersErrorsItself)
      return { ...schema, [OPERATION_KEY]: id } as Schema
    },
    async documentFor (request, options) {
      const cached = await documentOfView(request)
      if (cached === null) return null
      if (options?.yaml === true) return await cached.yaml()
      return options?.shared === true ? await cached.shared() : await cached.fresh()
    },
    async documentTextFor (request, yaml) {
      const cached = await documentOfView(request)
      if (cached === null) return null
      return yaml ? await cached.sentYaml() : cached.sentJson
    },
    servedPerCaller () {
      perCaller = true
    },
    variesByCaller () {
      return [...routes.values()].some((route) => route.hiddenFrom !== undefined)
    }
  }
}
