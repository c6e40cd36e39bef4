/**
 * MCP's 2026-07-28 revision for a server of tools: no handshake and no
 * session, each request carrying its version and the client's capabilities
 * in `_meta`, its method and tool name mirrored in headers that must match
 * the body, and every result naming its `resultType`. Answered beside the
 * earlier revisions from the same endpoint (`protocol.ts`), which tells them
 * apart by what a request carries, as the specification's dual-era server does.
 */
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { isRecord } from '../json.js'
import type { Answer, ToolServer } from './answers.js'

/** The revisions answered here, newest first. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28']

/** Every revision the endpoint answers, newest first, as `server/discover` and a refused version list them. */
export const ALL_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS]

const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion'
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities'

/** The codes this revision gives its own errors. */
const HEADER_MISMATCH = -32020
const UNSUPPORTED_PROTOCOL_VERSION = -32022

// How long a client may keep an answer: what the server is, the four discovery tools and the route tools of an app without
// rules are fixed once it is ready, while a rule may make a caller's document from anything (a role read per request).
const FIXED_TTL_MS = 3_600_000
const CALLER_TTL_MS = 0

type Headers = Record<string, string | string[] | undefined>

interface Message { id?: string | number, method?: unknown, params?: unknown }

/** Whether a request speaks this revision: its `_meta` names a version, or its header names one of this revision's. */
export function speaksModern (message: Message, headers: Headers): boolean {
  const version = headers['mcp-protocol-version']
  if (typeof version === 'string' && MODERN_VERSIONS.includes(version.trim())) return true
  const params = message.params
  return isRecord(params) && isRecord(params._meta) && params._meta[VERSION_KEY] !== undefined
}

function failure (status: number, id: string | number | null, code: number, message: string, data?: unknown): Answer {
  return { status, body: { jsonrpc: '2.0', id, error: { code, message, ...data === undefined ? {} : { data } } } }
}

/** One header's value as the body would hold it: trimmed, and decoded from the specification's Base64 form. */
function headerValue (header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined
  const value = header.trim()
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value)
  return encoded === null ? value : Buffer.from(encoded[1], 'base64').toString('utf8')
}

/** Why a request's headers do not say what its body does, or undefined when they do. */
function headerMismatch (message: Message, metaVersion: string, headers: Headers): string | undefined {
  const version = headerValue(headers['mcp-protocol-version'])
  if (version === undefined) return 'Header mismatch: the MCP-Protocol-Version header is missing'
  if (version !== metaVersion) return `Header mismatch: MCP-Protocol-Version header '${version}' does not match _meta's '${metaVersion}'`
  const method = headerValue(headers['mcp-method'])
  if (method === undefined) return 'Header mismatch: the Mcp-Method header is missing'
  if (method !== message.method) return 'Header mismatch: the Mcp-Method header does not match the body\'s method'
  if (message.method !== 'tools/call') return undefined
  const name = headerValue(headers['mcp-name'])
  if (name === undefined) return 'Header mismatch: the Mcp-Name header is missing'
  // The body's name is not echoed: a tool name is the caller's input, and the header's was written by the same hand.
  if (name !== (message.params as { name?: unknown }).name) return 'Header mismatch: the Mcp-Name header does not match params.name'
  return undefined
}

/** Why a request's `_meta` cannot be read as this revision's, or undefined when it can. */
function metaRefusal (params: unknown): string | undefined {
  if (!isRecord(params) || !isRecord(params._meta)) return 'Invalid params: _meta is missing'
  if (typeof params._meta[VERSION_KEY] !== 'string') return `Invalid params: _meta.${VERSION_KEY} is missing`
  if (!isRecord(params._meta[CAPABILITIES_KEY])) return `Invalid params: _meta.${CAPABILITIES_KEY} is missing`
  return undefined
}

async function result (server: ToolServer, method: string, request: any): Promise<Record<string, unknown>> {
  if (method === 'server/discover') {
    return {
      resultType: 'complete',
      supportedVersions: ALL_VERSIONS,
      capabilities: { tools: {} },
      ...server.instructions === undefined ? {} : { instructions: server.instructions },
      ttlMs: FIXED_TTL_MS,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': server.serverInfo }
    }
  }
  if (method === 'tools/list') {
    const list = await server.listTools(true) as Record<string, unknown>
    const perCaller = server.toolsVary()
    return { resultType: 'complete', ...list, ttlMs: perCaller ? CALLER_TTL_MS : FIXED_TTL_MS, cacheScope: perCaller ? 'private' : 'public' }
  }
  return { resultType: 'complete', ...await server.callTool(request.params, true) as Record<string, unknown> }
}

/** The schemas of the requests this revision's server of tools answers; `server/discover` has no params but `_meta`. */
const SCHEMAS: Record<string, { safeParse: (value: unknown) => { success: boolean, data?: unknown } } | undefined> = {
  'server/discover': undefined,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema
}

/**
 * The answer to one request of this revision, already read as JSON-RPC. Its
 * `_meta` is checked first (-32602), then its headers against its body and
 * its version against those served (400, -32020 and -32022); an unknown
 * method, the removed `initialize` and `ping` among them, is a 404 with
 * -32601. Every error names the request's id.
 */
export async function answerModern (server: ToolServer, message: Message, headers: Headers): Promise<Answer> {
  // This revision defines no notification a client sends over HTTP: one is taken and dropped, as earlier ones are.
  if (message.id === undefined || typeof message.method !== 'string') return { status: 202 }
  const id = message.id
  const refusal = metaRefusal(message.params)
  if (refusal !== undefined) return failure(400, id, ErrorCode.InvalidParams, refusal)
  const metaVersion = ((message.params as Record<string, any>)._meta as Record<string, string>)[VERSION_KEY]
  const mismatch = headerMismatch(message, metaVersion, headers)
  if (mismatch !== undefined) return failure(400, id, HEADER_MISMATCH, mismatch)
  if (!MODERN_VERSIONS.includes(metaVersion)) {
    return failure(400, id, UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', { supported: ALL_VERSIONS, requested: metaVersion })
  }
  const method = message.method
  if (!Object.hasOwn(SCHEMAS, method)) return failure(404, id, ErrorCode.MethodNotFound, 'Method not found')
  const schema = SCHEMAS[method]
  const request = schema === undefined ? { success: true, data: message } : schema.safeParse(message)
  if (!request.success) return failure(400, id, ErrorCode.InvalidParams, `Invalid params for ${method}`)
  try {
    return { status: 200, body: { result: await result(server, method, request.data), jsonrpc: '2.0', id } }
  } catch (error) {
    if (error instanceof McpError) return failure(200, id, error.code, error.message, error.data)
    server.failed(error)
    return failure(200, id, ErrorCode.InternalError, 'Internal error')
  }
}
