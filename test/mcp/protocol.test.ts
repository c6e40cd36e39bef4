import { test } from 'tap'
import { ErrorCode, LATEST_PROTOCOL_VERSION, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { createMCPClient } from '@ai-sdk/mcp'
import { answer } from '../../lib/mcp/protocol.js'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'
import type { ToolServer } from '../../lib/mcp/protocol.js'

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }

/** A server whose tools/call answers by the tool's name: `echo` its arguments, `coded` a protocol error, anything else throws. */
function server (failures: unknown[] = []): ToolServer {
  return {
    serverInfo: { name: 's', version: '2' },
    instructions: 'Use echo.',
    listTools: async () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
    toolsVary: () => true,
    callTool: async (params) => {
      if (params.name === 'echo') return { content: [{ type: 'text', text: JSON.stringify(params.arguments) }] }
      if (params.name === 'coded') throw new McpError(ErrorCode.InvalidParams, 'Bad tool', { hint: 'x' })
      throw new Error('database password is hunter2')
    },
    failed: (error) => { failures.push(error) }
  }
}

const request = (method: string, params?: unknown, id: number | string = 1): unknown => ({ jsonrpc: '2.0', id, method, ...params === undefined ? {} : { params } })
const transport = (status: number, code: number, message: string): unknown => ({ status, body: { jsonrpc: '2.0', error: { code, message }, id: null } })

test('the transport refuses what the SDK\'s transport refuses, with its status, code and words, and a batch', async (t) => {
  const ping = request('ping')
  const cases: Array<[string, unknown, Record<string, string | undefined>, unknown]> = [
    ['no Accept', ping, { ...HEADERS, accept: undefined }, transport(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream')],
    ['JSON alone', ping, { ...HEADERS, accept: 'application/json' }, transport(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream')],
    ['text', ping, { ...HEADERS, 'content-type': 'text/plain' }, transport(415, -32000, 'Unsupported Media Type: Content-Type must be application/json')],
    ['no Content-Type', ping, { ...HEADERS, 'content-type': undefined }, transport(415, -32000, 'Unsupported Media Type: Content-Type must be application/json')],
    ['a batch', [ping, ping], HEADERS, transport(400, -32600, 'Invalid Request: batches are not supported; send one JSON-RPC message per request')],
    ['not JSON-RPC', { id: 1, method: 'ping' }, HEADERS, transport(400, -32700, 'Parse error: Invalid JSON-RPC message')],
    ['a string', 'ping', HEADERS, transport(400, -32700, 'Parse error: Invalid JSON-RPC message')],
    ['an unknown revision', ping, { ...HEADERS, 'mcp-protocol-version': '2023-01-01' }, transport(400, -32000, `Bad Request: Unsupported protocol version: 2023-01-01 (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`)]
  ]
  for (const [title, body, headers, expected] of cases) t.strictSame(await answer(server(), body, headers), expected, title)
})

test('notifications and responses are taken without a body; requests are answered with their id', async (t) => {
  const cases: Array<[string, unknown, Record<string, string>, unknown]> = [
    ['initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, HEADERS, { status: 202 }],
    ['a response', { jsonrpc: '2.0', id: 3, result: {} }, HEADERS, { status: 202 }],
    ['ping', request('ping', undefined, 'a'), { ...HEADERS, 'content-type': 'Application/JSON; charset=utf-8' }, { status: 200, body: { result: {}, jsonrpc: '2.0', id: 'a' } }],
    ['an unknown method', request('resources/list'), HEADERS, { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } } }],
    ['a method of the object prototype', request('toString'), HEADERS, { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } } }],
    ['tools/call without a name', request('tools/call', { arguments: {} }), HEADERS, { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'MCP error -32602: Invalid params for tools/call' } } }],
    ['tools/list', request('tools/list', { cursor: 'c' }), { ...HEADERS, 'mcp-protocol-version': '2025-06-18' }, { status: 200, body: { result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }, jsonrpc: '2.0', id: 1 } }],
    ['tools/call', request('tools/call', { name: 'echo', arguments: { a: 1 } }), HEADERS, { status: 200, body: { result: { content: [{ type: 'text', text: '{"a":1}' }] }, jsonrpc: '2.0', id: 1 } }],
    ['a protocol error', request('tools/call', { name: 'coded' }), HEADERS, { status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'MCP error -32602: Bad tool', data: { hint: 'x' } } } }]
  ]
  for (const [title, body, headers, expected] of cases) t.strictSame(await answer(server(), body, headers), expected, title)
})

test('initialize agrees on the client\'s revision when the SDK has it, on the latest otherwise, whatever the version header says', async (t) => {
  for (const [asked, agreed] of [['2025-06-18', '2025-06-18'], ['2024-11-05', '2024-11-05'], ['1999-01-01', LATEST_PROTOCOL_VERSION]]) {
    const body = request('initialize', { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'c', version: '1' } })
    t.strictSame(await answer(server(), body, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }), {
      status: 200,
      body: { result: { protocolVersion: agreed, capabilities: { tools: {} }, serverInfo: { name: 's', version: '2' }, instructions: 'Use echo.' }, jsonrpc: '2.0', id: 1 }
    }, asked)
  }
  const { instructions, ...plain } = server()
  const body = request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
  t.strictSame((await answer(plain, body, HEADERS)).body, { result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '2' } }, jsonrpc: '2.0', id: 1 })
})

test('an error that is not the protocol\'s is told to the server and answered without its message', async (t) => {
  const failures: unknown[] = []
  t.strictSame(await answer(server(failures), request('tools/call', { name: 'broken' }), HEADERS), {
    status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }
  })
  t.match(failures, [{ message: 'database password is hunter2' }])
})

test('under 2026-07-28 a protocol error keeps its data, another error is told to the server alone, and discover leaves out instructions it has not', async (t) => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
  const headers = (method: string, name?: string): Record<string, string> =>
    ({ ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...name === undefined ? {} : { 'mcp-name': name } })
  const failures: unknown[] = []
  t.strictSame(await answer(server(failures), request('tools/call', { name: 'coded', _meta: meta }), headers('tools/call', 'coded')), {
    status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'MCP error -32602: Bad tool', data: { hint: 'x' } } }
  })
  t.strictSame(await answer(server(failures), request('tools/call', { name: 'broken', _meta: meta }), headers('tools/call', 'broken')), {
    status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }
  })
  t.match(failures, [{ message: 'database password is hunter2' }])
  const { instructions, ...plain } = server()
  t.strictSame(await answer(plain, request('server/discover', { _meta: meta }, 2), { ...headers('server/discover'), 'mcp-method': ['server/discover', 'x'] as unknown as string }), {
    status: 400, body: { jsonrpc: '2.0', id: 2, error: { code: -32020, message: 'Header mismatch: the Mcp-Method header is missing' } }
  }, 'a header sent twice is no header')
  t.strictSame((await answer(plain, request('server/discover', { _meta: meta }, 3), headers('server/discover'))).body, {
    result: {
      resultType: 'complete',
      supportedVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: { tools: {} },
      ttlMs: 3600000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '2' } }
    },
    jsonrpc: '2.0',
    id: 3
  })
})

test('the Vercel AI SDK\'s MCP client connects, lists the caller\'s tools and calls one, as the SDK\'s own client does', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(3)), pageSize: 2, staffToken: 'staff-secret' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const client = await createMCPClient({ transport: { type: 'http', url: `${app.listeningOrigin}/mcp`, headers: { authorization: 'Bearer staff-secret' } } })
  t.teardown(() => client.close())
  const { tools } = await client.listTools()
  t.strictSame(tools.map((tool) => [tool.name, (tool.inputSchema.properties?.only as { items: { enum: string[] } }).items.enum.includes('last_login')]), [['listUsers', true], ['getUser', true]])
  // The Vercel AI SDK's client speaks 2026-07-28 to a server that does, and hands the result on with its resultType.
  t.strictSame(await client.callTool({ name: 'getUser', arguments: { id: 2, only: ['name', 'last_login'], defer: null } }), {
    resultType: 'complete',
    content: [{ type: 'text', text: '{"name":"Alan Hopper","last_login":"2026-01-06T02:00:00.000Z"}' }],
    structuredContent: { name: 'Alan Hopper', last_login: '2026-01-06T02:00:00.000Z' },
    isError: false
  })
})
