/**
 * MCP's stateless Streamable HTTP transport for a server of tools: a POST
 * carries one JSON-RPC message, and a request is answered in JSON. The
 * messages are checked with the SDK's own schemas, and the answers are the
 * ones its `Server` and `StreamableHTTPServerTransport` give (status, code
 * and words), without a server and a transport made for each request, Web
 * `Request` and `Response` objects made around Node's, or a batch.
 */
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/sdk/types.js'
import { transportError } from './answers.js'
import type { Answer, ToolServer } from './answers.js'
import { answerModern, speaksModern } from './modern.js'

export type { ToolServer } from './answers.js'

type Headers = Record<string, string | string[] | undefined>

/** The media type of a `Content-Type` header, without its parameters. */
function mediaType (header: string | string[] | undefined): string {
  return typeof header === 'string' ? header.split(';', 1)[0].trim().toLowerCase() : ''
}

/** The methods a server of tools answers, each with the SDK's schema of its request. */
const METHODS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema
} as const

type Method = keyof typeof METHODS

/** The error member of a JSON-RPC answer, as the SDK's `Protocol` writes a thrown `McpError`. */
function rpcError (error: McpError): { code: number, message: string, data?: unknown } {
  return { code: error.code, message: error.message, ...error.data === undefined ? {} : { data: error.data } }
}

async function result (server: ToolServer, method: Method, request: any): Promise<unknown> {
  switch (method) {
    case 'initialize': {
      const requested = request.params.protocolVersion
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: server.serverInfo,
        ...server.instructions === undefined ? {} : { instructions: server.instructions }
      }
    }
    case 'ping': return {}
    case 'tools/list': return await server.listTools()
    case 'tools/call': return await server.callTool(request.params)
  }
}

/**
 * The answer to one POST of the endpoint: `body` is the parsed JSON, and
 * `headers` the request's. Refused, as the SDK's transport refuses them: a
 * client that does not accept both JSON and an event stream (406), a body
 * that is not JSON (415), a message that is not JSON-RPC (400, -32700), an
 * `mcp-protocol-version` that no revision has (400); and a batch (400,
 * -32600), which no revision since 2025-06-18 has. A notification or a
 * response is taken with a 202 and no body. A request of the 2026-07-28
 * revision is answered in `modern.ts`, the others here.
 */
export async function answer (server: ToolServer, body: unknown, headers: Headers): Promise<Answer> {
  const accept = headers.accept
  if (typeof accept !== 'string' || !accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return transportError(406, 'Not Acceptable: Client must accept both application/json and text/event-stream')
  }
  if (mediaType(headers['content-type']) !== 'application/json') return transportError(415, 'Unsupported Media Type: Content-Type must be application/json')
  // The current protocol revision has no batches: one POST may not run a hundred routes at once.
  if (Array.isArray(body)) return transportError(400, 'Invalid Request: batches are not supported; send one JSON-RPC message per request', -32600)
  const parsed = JSONRPCMessageSchema.safeParse(body)
  if (!parsed.success) return transportError(400, 'Parse error: Invalid JSON-RPC message', -32700)
  const message = parsed.data as { method?: unknown, id?: string | number, params?: unknown }
  if (speaksModern(message, headers)) return await answerModern(server, message, headers)
  const version = headers['mcp-protocol-version']
  if (message.method !== 'initialize' && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
    return transportError(400, `Bad Request: Unsupported protocol version: ${String(version)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)
  }
  // A notification (`initialized`, `cancelled`) or a response: a stateless server of tools has nothing to do with either.
  if (message.id === undefined || typeof message.method !== 'string') return { status: 202 }
  const id = message.id
  if (!Object.hasOwn(METHODS, message.method)) {
    return { status: 200, body: { jsonrpc: '2.0', id, error: { code: ErrorCode.MethodNotFound, message: 'Method not found' } } }
  }
  const method = message.method as Method
  const request = METHODS[method].safeParse(message)
  if (!request.success) return { status: 200, body: { jsonrpc: '2.0', id, error: rpcError(new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}`)) } }
  try {
    return { status: 200, body: { result: await result(server, method, request.data), jsonrpc: '2.0', id } }
  } catch (error) {
    if (error instanceof McpError) return { status: 200, body: { jsonrpc: '2.0', id, error: rpcError(error) } }
    server.failed(error)
    return { status: 200, body: { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } } }
  }
}
