/**
 * What the MCP endpoint answers, and the answer to a request refused before
 * any JSON-RPC is read: shared by the endpoint's route, which refuses some
 * requests without loading the protocol, and the protocol.
 */

/** What the endpoint answers: an HTTP status and a JSON body, or no body. */
export interface Answer { status: number, body?: unknown }

/**
 * A JSON-RPC error answered before a request id is read: -32000 is the code
 * the SDK's transport answers refused HTTP requests with.
 */
export function transportError (status: number, message: string, code = -32000): Answer {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } }
}
