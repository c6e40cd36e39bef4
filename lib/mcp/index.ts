/**
 * `fastify-restricted-fields/mcp`: the opted-in routes as MCP tools, served
 * over Streamable HTTP, stateless, beside the REST routes. Each caller's tools
 * are made from that caller's OpenAPI document; a call runs its route with
 * `inject`, with the caller's credentials, address and host, so every hook,
 * rule and loader of the route applies as it does over HTTP. The JSON-RPC
 * methods are answered in `protocol.ts`, with the SDK's schemas; the tools,
 * in `tool-server.ts`; the options are checked in `options.ts`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions, onRequestHookHandler } from 'fastify'
import { createRequire } from 'node:module'
import fp from 'fastify-plugin'
import { McpWithoutDocumentError } from '../errors.js'
import { transportError } from './answers.js'
import type { Answer } from './answers.js'
import { normalizeMcpOptions } from './options.js'
import type { ResolvedMcpOptions, RestrictedFieldsMcpOptions } from './options.js'
import { listensOnLoopback, originAllowed, sameLoopbackOrigin } from './origin.js'
import { RouteBindings } from './routes.js'
import type { DocumentedInstance } from './tool-server.js'
import type { RouteOf } from './tools.js'

export type { RestrictedFieldsMcpOptions, ToolsMode } from './options.js'
export type { IncludeTools, ToolRoute } from './tools.js'
export { BROWSE_TOOL, CALL_TOOL, DESCRIBE_TOOL, FIND_TOOL } from './tool-names.js'
export { DISCOVERY_ABOVE } from './options.js'

// The SDK is an optional peer dependency, loaded on the endpoint's first request: an app without it is told so when it
// imports the endpoint, not by its first agent. Resolved as `require` does, synchronously and without the ESM loader's
// hooks: a synchronous `import.meta.resolve` waits for them, and a hook that asks the main thread (a test's mocks) never answers.
createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/types.js')

/** Answers one POST of the endpoint. */
type Responder = (request: FastifyRequest) => Promise<Answer>

/**
 * The endpoint's responder, its modules loaded now: the SDK's schemas, which
 * are most of what the endpoint weighs, and the tool servers are loaded on
 * the endpoint's first POST, so that an app nobody calls does not hold them.
 */
async function responder (fastify: FastifyInstance, options: ResolvedMcpOptions, routeOf: RouteOf): Promise<Responder> {
  // The TypeScript loader the tests run under writes each `import()` with branches of its own, which no run takes.
  /* c8 ignore next */
  const [{ answer }, { ToolServers }] = await Promise.all([import('./protocol.js'), import('./tool-server.js')])
  const servers = new ToolServers(fastify, options, routeOf)
  return async function respond (request) {
    return await answer(servers.serverFor(request), request.body, request.headers)
  }
}

/** Sends an answer of the endpoint: JSON, written once, or no body. */
function send (reply: FastifyReply, { status, body }: Answer): FastifyReply {
  reply.code(status)
  return body === undefined ? reply.send() : reply.type('application/json').send(JSON.stringify(body))
}

async function restrictedFieldsMcp (fastify: FastifyInstance, options: RestrictedFieldsMcpOptions): Promise<void> {
  const resolved = normalizeMcpOptions(options)

  fastify.addHook('onReady', async function checkDocument () {
    if (typeof (fastify as unknown as DocumentedInstance).swagger !== 'function') throw new McpWithoutDocumentError()
  })

  // Each tool runs the route its operation was declared from, at the URL it was registered with: never at the
  // document's path, which a base path or another route may have made another route's.
  const bindings = new RouteBindings()
  fastify.addHook('onRoute', function bindRoute (routeOptions: RouteOptions) {
    const isGet = [routeOptions.method].flat().some((method) => method.toUpperCase() === 'GET')
    if (isGet) bindings.record(routeOptions.url as string, routeOptions.schema)
  })
  let respond: Promise<Responder> | undefined

  const checkOrigin: onRequestHookHandler = async function checkOrigin (request, reply) {
    const { origin, host } = request.headers
    if (originAllowed(origin, resolved.allowedOrigins)) return
    // The server's own loopback page; what the server listens on is read now, as `listen` may come after registration.
    if (sameLoopbackOrigin(origin, host) && listensOnLoopback(fastify.addresses())) return
    return send(reply, transportError(403, 'Forbidden: this origin may not call the MCP endpoint'))
  }

  fastify.route({
    method: ['POST', 'GET', 'DELETE'],
    url: resolved.path,
    bodyLimit: resolved.bodyLimit,
    onRequest: [checkOrigin, ...resolved.onRequest],
    // Left out of the OpenAPI document: it is no REST route.
    schema: { hide: true } as FastifySchema,
    handler: async function mcpEndpoint (request, reply) {
      // Stateless: no session to resume, so no event stream to open (GET) or session to end (DELETE).
      if (request.method !== 'POST') return send(reply.header('allow', 'POST'), transportError(405, 'Method not allowed: this stateless endpoint takes POST only'))
      respond ??= responder(fastify, resolved, bindings.routeOf.bind(bindings))
      return send(reply, await (await respond)(request))
    }
  })
}

/**
 * Serves the opted-in routes as MCP tools at `path` (default `/mcp`).
 * Register it after fastify-restricted-fields (fastify-plugin refuses it
 * otherwise) and before the routes it serves, which it records as they are
 * declared. @fastify/swagger may come before or after it (as
 * @fastify/autoload may load them): the endpoint needs it once the app is
 * ready, and it documents the routes declared after it.
 */
const plugin = fp(restrictedFieldsMcp, {
  fastify: '5.x',
  name: 'fastify-restricted-fields-mcp',
  dependencies: ['fastify-restricted-fields']
})

export default plugin
export { plugin as restrictedFieldsMcp }
export {
  ArgumentsTooLongError, InvalidArgumentsError, McpWithoutDocumentError, QueryTooLongError, ResultTooLargeError, ToolFailedError,
  ToolSchemasTooLargeError
} from '../errors.js'
