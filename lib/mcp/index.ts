/**
 * `fastify-restricted-fields/mcp`: the opted-in routes as MCP tools, served
 * over Streamable HTTP, stateless, beside the REST routes. Each caller's tools
 * are made from that caller's OpenAPI document; a call runs its route with
 * `inject`, with the caller's credentials, address and host, so every hook,
 * rule and loader of the route applies as it does over HTTP. The JSON-RPC
 * methods are answered in `protocol.ts`, with the SDK's schemas.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { InvalidOptionError, McpWithoutDocumentError, ToolFailedError, quote } from '../errors.js'
import { callResult, callUrl, errorResult } from './call.js'
import { normalizeOrigin, originAllowed } from './origin.js'
import { answer, transportError } from './protocol.js'
import type { Answer, ToolServer } from './protocol.js'
import { documentTools, includeRestrictedRoutes } from './tools.js'
import type { IncludeTools, Tool } from './tools.js'

export interface RestrictedFieldsMcpOptions {
  /** Where the endpoint is served. Default: `/mcp`. */
  path?: string
  /** The server's name and version, as `initialize` reports them. Default: `fastify-restricted-fields`, `1.0.0`. */
  name?: string
  version?: string
  /** What the server tells a client about itself, for its model. Default: none. */
  instructions?: string
  /** Which `GET` operations become tools. Default: those of the opted-in routes. */
  include?: IncludeTools
  /** The request headers a call passes on to its route, besides `authorization`: whatever else the app's authentication reads. Default: none. */
  forwardHeaders?: readonly string[]
  /** The origins (`https://app.example.com`) whose browser pages may call the endpoint; a request with any other `Origin` is refused. Default: none. */
  allowedOrigins?: readonly string[]
  /** The longest query string a call's arguments may make. Default: 2048. */
  maxArgumentsLength?: number
  /** The largest JSON-RPC request body, in bytes. Default: 65536. */
  bodyLimit?: number
  /** Hooks that authenticate requests to the endpoint, run after the origin check; the app's own `onRequest` hooks run too. */
  onRequest?: onRequestHookHandler | onRequestHookHandler[]
}

export type { IncludeTools, ToolRoute } from './tools.js'

/** The part of the plugin's decorations this subpath reads. */
interface DocumentedInstance {
  restrictedFieldsDocument: (request: FastifyRequest) => Promise<unknown>
  swagger?: () => unknown
}

/** Sends an answer of the endpoint: JSON, written once, or no body. */
function send (reply: FastifyReply, { status, body }: Answer): FastifyReply {
  reply.code(status)
  return body === undefined ? reply.send() : reply.type('application/json').send(JSON.stringify(body))
}

/**
 * The headers that say who and where the caller is, passed on as received
 * with the client's address, so that the route's `request.ip`, `host` and
 * `protocol` are the endpoint's under the app's own `trustProxy` (rate limits,
 * allow-lists and host-based tenancy see the caller, not the process).
 */
const CALLER_HEADERS = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']

function positiveInteger (value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new InvalidOptionError(`The ${name} option should be a positive integer, instead got ${String(value)}`)
  return value as number
}

function checkedStrings (value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((member) => typeof member === 'string' && member !== '')) throw new InvalidOptionError(`The ${name} option should be an array of non-empty strings`)
  return value
}

async function restrictedFieldsMcp (fastify: FastifyInstance, options: RestrictedFieldsMcpOptions): Promise<void> {
  const path = options.path ?? '/mcp'
  if (typeof path !== 'string' || !path.startsWith('/')) throw new InvalidOptionError(`The path option should be a path starting with '/', instead got ${String(path)}`)
  const include = options.include ?? includeRestrictedRoutes
  if (typeof include !== 'function') throw new InvalidOptionError('The include option should be a function')
  const forwardHeaders = ['authorization', ...checkedStrings(options.forwardHeaders, 'forwardHeaders').map((name) => name.toLowerCase())]
  const allowedOrigins = new Set(checkedStrings(options.allowedOrigins, 'allowedOrigins').map(normalizeOrigin))
  const maxArgumentsLength = positiveInteger(options.maxArgumentsLength, 'maxArgumentsLength', 2048)
  const bodyLimit = positiveInteger(options.bodyLimit, 'bodyLimit', 65536)
  const serverInfo = { name: options.name ?? 'fastify-restricted-fields', version: options.version ?? '1.0.0' }
  const documented = fastify as unknown as DocumentedInstance

  fastify.addHook('onReady', async function checkDocument () {
    if (typeof documented.swagger !== 'function') throw new McpWithoutDocumentError()
  })

  // A call needs its route's path and parameters, the same for every caller: they are read once from
  // the complete document (swagger keeps it), not from the caller's, which is made again for each caller.
  let complete: unknown
  let callable = new Map<string, Tool>()
  function callableTools (): Map<string, Tool> {
    const document = (documented.swagger as () => unknown)()
    if (document !== complete) {
      complete = document
      callable = new Map(documentTools(document, include).map((tool) => [tool.definition.name, tool]))
    }
    return callable
  }

  function forwarded (request: FastifyRequest): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept: 'application/json' }
    for (const name of [...CALLER_HEADERS, ...forwardHeaders]) {
      const value = request.headers[name]
      if (value !== undefined) headers[name] = value
    }
    return headers
  }

  /** The caller's tools, made from the caller's document. */
  async function toolsFor (request: FastifyRequest): Promise<Tool[]> {
    return documentTools(await documented.restrictedFieldsDocument(request), include)
  }

  function toolServer (request: FastifyRequest): ToolServer {
    return {
      serverInfo,
      ...options.instructions === undefined ? {} : { instructions: options.instructions },
      async listTools () {
        return { tools: (await toolsFor(request)).map((tool) => tool.definition) }
      },
      async callTool (params) {
        const tool = callableTools().get(params.name)
        // The spec's answer to an unknown tool: a JSON-RPC error, not a result; the name it echoes is cut short.
        if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(params.name)}`)
        const target = callUrl(tool.call, params.arguments, maxArgumentsLength)
        if ('refused' in target) return target.refused
        try {
          const response = await fastify.inject({ method: 'GET', url: target.url, headers: forwarded(request), remoteAddress: request.socket.remoteAddress })
          return callResult(tool.call, response.statusCode, response.body)
        } catch (error) {
          request.log.error({ err: error, tool: params.name }, 'MCP tool call failed')
          return errorResult(new ToolFailedError())
        }
      },
      // A rule or a transform of the app that failed while the tools were made: its message may name what the caller may not see.
      failed (error) {
        request.log.error({ err: error }, 'MCP request failed')
      }
    }
  }

  const checkOrigin: onRequestHookHandler = async function checkOrigin (request, reply) {
    if (!originAllowed(request.headers.origin, allowedOrigins)) return send(reply, transportError(403, 'Forbidden: this origin may not call the MCP endpoint'))
  }
  const userHooks = [options.onRequest ?? []].flat()

  fastify.route({
    method: ['POST', 'GET', 'DELETE'],
    url: path,
    bodyLimit,
    onRequest: [checkOrigin, ...userHooks],
    // Left out of the OpenAPI document: it is no REST route.
    schema: { hide: true } as FastifySchema,
    handler: async function mcpEndpoint (request, reply) {
      // Stateless: no session to resume, so no event stream to open (GET) or session to end (DELETE).
      if (request.method !== 'POST') return send(reply.header('allow', 'POST'), transportError(405, 'Method not allowed: this stateless endpoint takes POST only'))
      return send(reply, await answer(toolServer(request), request.body, request.headers))
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
export { ArgumentsTooLongError, InvalidArgumentsError, McpWithoutDocumentError, ToolFailedError } from '../errors.js'
