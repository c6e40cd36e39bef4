/**
 * The options of @fastify/swagger-ui that serve each caller its own document:
 * made on the server, per request, by the document routes' preHandler, and
 * fetched again by the page whenever the caller authorizes or logs out, with
 * the credentials the caller entered.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify'
import { DocumentNotMadeError } from '../errors.js'
import type { RouteDocumentation } from './callers.js'

/** What an app passes through to @fastify/swagger-ui, merged with the plugin's own. */
export interface SwaggerUiOptions {
  /** Swagger UI's configuration: its `plugins` keep the plugin's, and its `requestInterceptor` runs after the plugin's. */
  uiConfig?: Record<string, unknown>
  /** Hooks of the documentation routes: a `preHandler` runs before the plugin's, which makes the caller's document. */
  uiHooks?: { onRequest?: onRequestHookHandler, preHandler?: preHandlerHookHandler }
}

/** Options for @fastify/swagger-ui that serve each caller the document `documentFor` makes for it. */
export interface SwaggerUiVisibility {
  uiConfig: Record<string, unknown>
  uiHooks: {
    onRequest?: onRequestHookHandler
    preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>
  }
  transformSpecification: (specification: Record<string, any>, request: FastifyRequest) => Record<string, any>
  transformSpecificationClone: false
}

/**
 * @fastify/swagger-ui writes its configuration into the page as source text
 * (a function by its `toString()`): code for the page is kept as text, and
 * handed over as a function that prints as that text.
 */
function pageCode (source: string): () => void {
  // A native no-op: the page never calls it here, only its text is written.
  const code = Function.prototype.bind(null) as () => void
  code.toString = () => source
  return code
}

// The page's Swagger UI system, for the request interceptor, which Swagger UI calls without it.
const SYSTEM = 'restrictedFieldsSwaggerUiSystem'

/** A Swagger UI plugin: whenever the caller's credentials change, the document is fetched again. */
const REFETCH_ON_AUTHORIZE = `function restrictedFieldsRefetchOnAuthorize (system) {
  window.${SYSTEM} = system
  function refetching (action) {
    return function () {
      var result = action.apply(this, arguments)
      system.specActions.download()
      return result
    }
  }
  return { statePlugins: { auth: { wrapActions: { authorize: refetching, logout: refetching, restoreAuthorization: refetching } } } }
}`

/**
 * A request interceptor that sends the document request with the caller's
 * credentials, as Swagger UI sends them with "Try it out": HTTP bearer and
 * basic, API keys in a header or the query, and OAuth 2 access tokens.
 * Cookies travel by themselves.
 */
const SEND_CREDENTIALS = `function restrictedFieldsSendCredentials (request) {
  var system = window.${SYSTEM}
  if (!request.loadSpec || !system) return request
  var authorized = system.authSelectors.authorized()
  var schemes = authorized && authorized.toJS ? authorized.toJS() : {}
  var url = new URL(request.url, window.location.href)
  request.headers = request.headers || {}
  Object.keys(schemes).forEach(function (name) {
    var schema = schemes[name].schema || {}
    var value = schemes[name].value
    var token = schemes[name].token
    var scheme = String(schema.scheme || '').toLowerCase()
    if (token && token.access_token) {
      request.headers.Authorization = 'Bearer ' + token.access_token
    } else if (value == null || value === '') {
      return
    } else if (schema.type === 'basic' || (schema.type === 'http' && scheme === 'basic')) {
      request.headers.Authorization = 'Basic ' + btoa(value.username + ':' + value.password)
    } else if (schema.type === 'http' && scheme === 'bearer') {
      request.headers.Authorization = 'Bearer ' + value
    } else if (schema.type === 'apiKey' && schema.in === 'header') {
      request.headers[schema.name] = value
    } else if (schema.type === 'apiKey' && schema.in === 'query') {
      url.searchParams.set(schema.name, value)
    }
  })
  request.url = url.href
  return request
}`

/** The request interceptor of the page: the plugin's, then the app's own when it has one. */
function requestInterceptor (own: unknown): () => void {
  if (typeof own !== 'function') return pageCode(SEND_CREDENTIALS)
  return pageCode(`(function (ours, theirs) { return function (request) { return theirs(ours(request)) } })(${SEND_CREDENTIALS}, ${String(own)})`)
}

/** Runs a hook of either style, async or with `done`. */
async function runHook (hook: preHandlerHookHandler, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (hook.length < 3) {
    await (hook as unknown as (request: FastifyRequest, reply: FastifyReply) => unknown).call(request.server, request, reply)
    return
  }
  await new Promise<void>((resolve, reject) => {
    hook.call(request.server, request, reply, (error?: Error) => {
      if (error === undefined || error === null) resolve()
      else reject(error)
    })
    // A hook that replies need not call done.
    if (reply.sent) resolve()
  })
}

/**
 * @fastify/swagger-ui's `transformSpecification` is synchronous and a rule may
 * not be: the caller's document is made, and sent, by a preHandler of its
 * document routes, as the text its view keeps. Only a request for which there
 * is no document to restrict (before ready, or without @fastify/swagger) goes
 * on to the transform; any other that reaches it is refused: it would
 * otherwise get the complete document.
 */
export function swaggerUiVisibility (documentation: RouteDocumentation, options: SwaggerUiOptions = {}): SwaggerUiVisibility {
  const unrestricted = new WeakSet<FastifyRequest>()
  const uiConfig = options.uiConfig ?? {}
  const own = options.uiHooks?.preHandler
  documentation.servedPerCaller()
  async function restrictedFieldsDocumentFor (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    // The app's own hook first: its authentication, say, is what a rule reads.
    if (own !== undefined) {
      await runHook(own, request, reply)
      if (reply.sent) return
    }
    const kind = /\/(json|yaml)$/.exec(String(request.routeOptions.url))?.[1]
    if (kind === undefined) return
    const text = await documentation.documentTextFor(request, kind === 'yaml')
    // The same URL answers each caller differently: a shared cache must not hand one caller's document to another.
    const cacheControl = reply.getHeader('cache-control')
    if (cacheControl === undefined || !/\b(private|no-store)\b/.test(String(cacheControl))) reply.header('cache-control', 'private')
    if (text === null) {
      unrestricted.add(request)
      return
    }
    // The view's text, written once, sent in pieces: with the type @fastify/swagger-ui's route gives the document.
    return reply.type(kind === 'yaml' ? 'application/x-yaml' : 'application/json; charset=utf-8')
      .header('content-length', text.length).header('etag', await text.tag()).send(text.stream())
  }
  return {
    uiConfig: {
      ...uiConfig,
      plugins: [
        ...(Array.isArray(uiConfig.plugins) ? uiConfig.plugins : [pageCode('SwaggerUIBundle.plugins.DownloadUrl')]),
        pageCode(REFETCH_ON_AUTHORIZE)
      ],
      requestInterceptor: requestInterceptor(uiConfig.requestInterceptor)
    },
    uiHooks: { ...options.uiHooks, preHandler: restrictedFieldsDocumentFor },
    transformSpecification (specification, request) {
      if (!unrestricted.has(request)) throw new DocumentNotMadeError()
      return specification
    },
    transformSpecificationClone: false
  }
}
