/**
 * `fastify-restricted-fields/mcp`: the opted-in routes as MCP tools, served
 * over Streamable HTTP, stateless, beside the REST routes. Each caller's tools
 * are made from that caller's OpenAPI document; a call runs its route with
 * `inject`, with the caller's credentials, address and host, so every hook,
 * rule and loader of the route applies as it does over HTTP. The JSON-RPC
 * methods are answered in `protocol.ts`, with the SDK's schemas; the tools,
 * in `tool-server.ts`; the options are checked in `options.ts`.
 */
import type { FastifyInstance, FastifyReply, FastifySchema, RouteOptions, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { McpWithoutDocumentError } from '../errors.js'
import { normalizeMcpOptions } from './options.js'
import type { RestrictedFieldsMcpOptions } from './options.js'
import { listensOnLoopback, originAllowed, sameLoopbackOrigin } from './origin.js'
import { answer, transportError } from './protocol.js'
import type { Answer } from './protocol.js'
import { RouteBindings } from './routes.js'
import { ToolServers } from './tool-server.js'
import type { DocumentedInstance } from './tool-server.js'

export type { RestrictedFieldsMcpOptions, ToolsMode } from './options.js'
export type { IncludeTools, ToolRoute } from './tools.js'
export { BROWSE_TOOL, CALL_TOOL, DESCRIBE_TOOL, FIND_TOOL } from './discovery.js'
export { DISCOVERY_ABOVE } from './tool-server.js'

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
    if ([routeOptions.method].flat().some((method) => method.toUpperCase() === 'GET')) bindings.record(routeOptions.url as string, routeOptions.schema)
  })
  const servers = new ToolServers(fastify, resolved, bindings.routeOf.bind(bindings))

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
      return send(reply, await answer(servers.serverFor(request), request.body, request.headers))
    }
  })
}

/**
 * Serves the opted-in routes as MCP tools at `path` (default `/mcp`).
 * Register it after fastify-restricted-fields and @fastify/swagger.
 */
const plugin = fp(restrictedFieldsMcp, {
  fastify: '5.x',
  name: 'fastify-restricted-fields-mcp',
  dependencies: ['fastify-restricted-fields']
})

export default plugin
export { plugin as restrictedFieldsMcp }
export { ArgumentsTooLongError, InvalidArgumentsError, McpWithoutDocumentError, QueryTooLongError, ResultTooLargeError, ToolFailedError, ToolSchemasTooLargeError } from '../errors.js'
