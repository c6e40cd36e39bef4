import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { buildApp } from '../../example/app.js'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { generateUsers } from '../../example/generate-users.js'
import { startServer } from '../../example/server.js'
import { memoryStore } from '../../example/store.js'

const MODERN = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }
const ALL_VERSIONS = [MODERN, ...SUPPORTED_PROTOCOL_VERSIONS]

/** The headers a 2026-07-28 client sends with a request of `method` (and tool `name`). */
function modernHeaders (method: string, name?: string): Record<string, string> {
  return {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...name === undefined ? {} : { 'mcp-name': name }
  }
}

/** `headers` without `name`. */
function without (headers: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _, ...rest } = headers
  return rest
}

const call = (id: number, method: string, params: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, method, params })
const failure = (id: number, code: number, message: string, data?: unknown): unknown =>
  ({ jsonrpc: '2.0', id, error: { code, message, ...data === undefined ? {} : { data } } })

test('an SDK v2 client on 2026-07-28 and one on 2025-11-25 list and call the example\'s tools with only, each caller its own fields', async (t) => {
  const app = await startServer({ PORT: '0', PAGE_SIZE: '5', LOG_LEVEL: 'silent', STAFF_TOKEN: 'staff-secret' })
  t.teardown(() => app.close())
  const results: unknown[] = []
  for (const mode of [{ pin: MODERN }, undefined]) {
    for (const headers of [{}, { authorization: 'Bearer staff-secret' }] as Array<Record<string, string>>) {
      const client = new Client({ name: 'revisions-test', version: '1.0.0' }, mode === undefined ? {} : { versionNegotiation: { mode } })
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin), { requestInit: { headers } }))
      t.teardown(() => client.close())
      const { tools } = await client.listTools()
      const listed = JSON.stringify(tools)
      results.push([
        client.getNegotiatedProtocolVersion(), tools.map((tool) => tool.name),
        ['last_login', 'phone'].map((name) => listed.includes(name)),
        await client.callTool({ name: 'getUser', arguments: { id: 3, only: ['name', 'profile.city'] } })
      ])
    }
  }
  const user = { content: [{ type: 'text', text: '{"name":"Barbara Wirth","profile":{"city":"Oslo"}}' }], structuredContent: { name: 'Barbara Wirth', profile: { city: 'Oslo' } } }
  const names = ['listUsers', 'getUser']
  t.strictSame(results, [
    [MODERN, names, [false, false], user], [MODERN, names, [true, true], user],
    ['2025-11-25', names, [false, false], user], ['2025-11-25', names, [true, true], user]
  ])
})

test('under 2026-07-28 a hidden field is never named or sent: asked for, it is refused as unknown, as under 2025-11-25', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(5)), pageSize: 5, staffToken: 'staff-secret' })
  t.teardown(() => app.close())
  const params = { name: 'getUser', arguments: { id: 3, only: ['last_login', 'profile.phone'] }, _meta: META }
  const modern = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('tools/call', 'getUser'), payload: call(7, 'tools/call', params) })
  const list = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('tools/list'), payload: call(8, 'tools/list', { _meta: META }) })
  t.equal(modern.statusCode, 200)
  t.notMatch(list.body, /last_login|phone/, 'the anonymous list names neither')
  const result = modern.json().result
  t.strictSame([result.resultType, result.isError], ['complete', true])
  t.notMatch(JSON.stringify(result.content), /"last_login":|"phone":/, 'no value is sent')
  t.match(result.content[0].text, /last_login/, 'the name the caller gave is the one refused')
})

test('2026-07-28 requests are checked as that revision asks: _meta, the headers against the body, the version, removed methods, each error with its id', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(5)), pageSize: 5 })
  t.teardown(() => app.close())
  const withMeta = (meta: Record<string, unknown>): unknown => ({ _meta: meta })
  const cases: Array<[string, Record<string, string>, unknown, number, unknown]> = [
    ['no _meta', modernHeaders('tools/list'), call(1, 'tools/list', {}), 400, failure(1, -32602, 'Invalid params: _meta is missing')],
    ['no params', modernHeaders('tools/list'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, 400, failure(2, -32602, 'Invalid params: _meta is missing')],
    ['no version in _meta', modernHeaders('tools/list'), call(3, 'tools/list', withMeta({ 'io.modelcontextprotocol/clientCapabilities': {} })), 400,
      failure(3, -32602, 'Invalid params: _meta.io.modelcontextprotocol/protocolVersion is missing')],
    ['no capabilities in _meta', modernHeaders('tools/list'), call(4, 'tools/list', withMeta({ 'io.modelcontextprotocol/protocolVersion': MODERN })), 400,
      failure(4, -32602, 'Invalid params: _meta.io.modelcontextprotocol/clientCapabilities is missing')],
    ['a version header that is not _meta\'s', modernHeaders('tools/list'), call(5, 'tools/list', withMeta({ ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })), 400,
      failure(5, -32020, 'Header mismatch: MCP-Protocol-Version header \'2026-07-28\' does not match _meta\'s \'2099-01-01\'')],
    ['no version header', without(modernHeaders('tools/list'), 'mcp-protocol-version'), call(6, 'tools/list', { _meta: META }), 400,
      failure(6, -32020, 'Header mismatch: the MCP-Protocol-Version header is missing')],
    ['an unknown version', { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' }, call(7, 'tools/list', withMeta({ ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' })), 400,
      failure(7, -32022, 'Unsupported protocol version', { supported: ALL_VERSIONS, requested: '2099-01-01' })],
    ['no Mcp-Method', without(modernHeaders('tools/list'), 'mcp-method'), call(8, 'tools/list', { _meta: META }), 400,
      failure(8, -32020, 'Header mismatch: the Mcp-Method header is missing')],
    ['another Mcp-Method', modernHeaders('TOOLS/LIST'), call(9, 'tools/list', { _meta: META }), 400,
      failure(9, -32020, 'Header mismatch: the Mcp-Method header does not match the body\'s method')],
    ['no Mcp-Name', modernHeaders('tools/call'), call(10, 'tools/call', { name: 'getUser', arguments: { id: 1 }, _meta: META }), 400,
      failure(10, -32020, 'Header mismatch: the Mcp-Name header is missing')],
    ['another Mcp-Name', modernHeaders('tools/call', 'listUsers'), call(11, 'tools/call', { name: 'getUser', arguments: { id: 1 }, _meta: META }), 400,
      failure(11, -32020, 'Header mismatch: the Mcp-Name header does not match params.name')],
    ['initialize', modernHeaders('initialize'), call(12, 'initialize', { _meta: META }), 404, failure(12, -32601, 'Method not found')],
    ['ping', modernHeaders('ping'), call(13, 'ping', { _meta: META }), 404, failure(13, -32601, 'Method not found')],
    ['logging/setLevel', modernHeaders('logging/setLevel'), call(14, 'logging/setLevel', { level: 'info', _meta: META }), 404, failure(14, -32601, 'Method not found')],
    ['resources/subscribe', modernHeaders('resources/subscribe'), call(15, 'resources/subscribe', { uri: 'x', _meta: META }), 404, failure(15, -32601, 'Method not found')],
    ['a method of the object prototype', modernHeaders('toString'), call(16, 'toString', { _meta: META }), 404, failure(16, -32601, 'Method not found')],
    ['tools/call without a name', modernHeaders('tools/call'), call(17, 'tools/call', { _meta: META }), 400, failure(17, -32020, 'Header mismatch: the Mcp-Name header is missing')],
    ['an unknown tool', modernHeaders('tools/call', 'nope'), call(18, 'tools/call', { name: 'nope', _meta: META }), 200, failure(18, -32602, 'MCP error -32602: Unknown tool: nope')],
    ['tools/list with a cursor that is no string', modernHeaders('tools/list'), call(19, 'tools/list', { cursor: 1, _meta: META }), 400, failure(19, -32602, 'Invalid params for tools/list')]
  ]
  for (const [title, headers, payload, status, body] of cases) {
    const response = await app.inject({ method: 'POST', url: '/mcp', headers, payload: payload as object })
    t.strictSame([response.statusCode, response.json()], [status, body], title)
  }
})

test('a Base64 Mcp-Name and values with spaces around them are read as the body\'s; a notification is taken', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(5)), pageSize: 5 })
  t.teardown(() => app.close())
  const encoded = `=?base64?${Buffer.from('getUser').toString('base64')}?=`
  const payload = call(1, 'tools/call', { name: 'getUser', arguments: { id: 1, only: 'name' }, _meta: META })
  for (const name of [encoded, '  getUser ']) {
    const response = await app.inject({ method: 'POST', url: '/mcp', headers: { ...modernHeaders(' tools/call '), 'mcp-name': name }, payload })
    t.strictSame(response.json().result.structuredContent, { name: 'Ada Lovelace' }, name)
  }
  const notification = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('notifications/cancelled'), payload: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: META } } })
  t.strictSame([notification.statusCode, notification.body], [202, ''])
})

test('server/discover says what the server is; tools/list names its resultType and is private to the caller in routes mode, public in discovery mode', async (t) => {
  const results: unknown[] = []
  for (const mode of ['routes', 'discovery'] as const) {
    const app = await buildApp({ store: memoryStore(generateUsers(5)), pageSize: 5, mcp: { mode } })
    t.teardown(() => app.close())
    const list = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('tools/list'), payload: call(2, 'tools/list', { _meta: META }) })
    const { resultType, ttlMs, cacheScope, tools } = list.json().result
    results.push([list.statusCode, resultType, ttlMs, cacheScope, tools.length])
    if (mode === 'routes') {
      const discover = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('server/discover'), payload: call(1, 'server/discover', { _meta: META }) })
      const { instructions, ...rest } = discover.json().result
      t.type(instructions, 'string')
      t.strictSame([discover.statusCode, rest], [200, {
        resultType: 'complete',
        supportedVersions: ALL_VERSIONS,
        capabilities: { tools: {} },
        ttlMs: 3600000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fastify-restricted-fields-example', version: '1.0.0' } }
      }])
    }
  }
  t.strictSame(results, [[200, 'complete', 0, 'private', 2], [200, 'complete', 3600000, 'public', 4]])
})

/** An app of one array route, with or without a rule; listening, so that SDK clients reach it. */
async function arrayApp (t: Test, withRule: boolean): Promise<{ url: URL, app: FastifyInstance }> {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'things', version: '1' } } })
  await app.register(fastifyRestrictedFields, withRule ? { hiddenFields: (request) => request.headers.authorization === undefined ? ['secret'] : [] } : {})
  await app.register(restrictedFieldsMcp)
  const thing = { type: 'object', properties: { name: { type: 'string' }, secret: { type: 'string' } }, required: ['name'] }
  app.get('/things/', { restrictFields: true, schema: { operationId: 'listThings', response: { 200: { type: 'array', items: thing } } } },
    async () => [{ name: 'a', secret: 's' }, { name: 'b', secret: 't' }])
  const origin = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: new URL('/mcp', origin), app }
}

test('under 2026-07-28 an array route is listed and called without a wrapper object; a 2025-11-25 client keeps its result key', async (t) => {
  const { url } = await arrayApp(t, false)
  const results: unknown[] = []
  for (const mode of [{ pin: MODERN }, undefined]) {
    const client = new Client({ name: 'revisions-test', version: '1.0.0' }, mode === undefined ? {} : { versionNegotiation: { mode } })
    await client.connect(new StreamableHTTPClientTransport(url))
    t.teardown(() => client.close())
    const { tools: [tool] } = await client.listTools()
    results.push([client.getNegotiatedProtocolVersion(), tool.outputSchema, await client.callTool({ name: 'listThings', arguments: { only: ['name'] } })])
  }
  const item = { type: 'object', properties: { name: { type: 'string' }, secret: { type: 'string' } } }
  t.strictSame(results, [
    [MODERN, { type: 'array', items: item }, { content: [{ type: 'text', text: '[{"name":"a"},{"name":"b"}]' }], structuredContent: [{ name: 'a' }, { name: 'b' }] }],
    ['2025-11-25', { type: 'object', properties: { result: { type: 'array', items: item } }, required: ['result'], additionalProperties: false }, {
      content: [{ type: 'text', text: '{"result":[{"name":"a"},{"name":"b"}]}' }], structuredContent: { result: [{ name: 'a' }, { name: 'b' }] }
    }]
  ])
})

test('tools/list is public for an hour where no rule makes the tools differ by caller, private and not kept where one does', async (t) => {
  const results: unknown[] = []
  for (const withRule of [false, true]) {
    const { app } = await arrayApp(t, withRule)
    const list = await app.inject({ method: 'POST', url: '/mcp', headers: modernHeaders('tools/list'), payload: call(1, 'tools/list', { _meta: META }) })
    const { ttlMs, cacheScope, tools } = list.json().result
    results.push([list.statusCode, ttlMs, cacheScope, JSON.stringify(tools).includes('secret')])
  }
  t.strictSame(results, [[200, 3600000, 'public', true], [200, 0, 'private', false]])
})
