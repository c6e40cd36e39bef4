/**
 * What the MCP endpoint answers, and the answer to a request refused before
 * any JSON-RPC is read: shared by the endpoint's route, which refuses some
 * requests without loading the protocol, and the protocol; and what the
 * protocol asks of a server of tools, under either revision.
 */
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js'

/** What the endpoint answers: an HTTP status and a JSON body, or no body. */
export interface Answer { status: number, body?: unknown }

/**
 * A JSON-RPC error answered before a request id is read: -32000 is the code
 * the SDK's transport answers refused HTTP requests with.
 */
export function transportError (status: number, message: string, code = -32000): Answer {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } }
}

/** What the server is and does, for one request. */
export interface ToolServer {
  serverInfo: { name: string, version: string }
  instructions?: string
  /** `anyValue`: the revision takes any JSON value as structured content, so a reply that is not an object goes unwrapped. */
  listTools: (anyValue?: boolean) => Promise<unknown>
  callTool: (params: CallToolRequest['params'], anyValue?: boolean) => Promise<unknown>
  /** Whether the tools listed depend on who asks, so that a cache may not share the list between callers. */
  toolsVary: () => boolean
  /** Told of an error a method threw that is not the protocol's own: its message never reaches the client. */
  failed: (error: unknown) => void
}
