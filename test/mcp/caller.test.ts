import { test } from 'tap'
import type { Test } from 'tap'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import { Ajv } from 'ajv'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'

/** What a route's handler received. */
interface Seen { route: string | undefined, params: unknown, query: unknown, ip: string, host: string, protocol: string }

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** An app whose routes record what their handlers receive; a caller with `x-explode` makes the visibility rule throw. */
async function recordingApp (
  t: Test,
  options: { trustProxy?: boolean } = {}
): Promise<{ app: FastifyInstance, seen: Seen[], logs: string[] }> {
  const seen: Seen[] = []
  const logs: string[] = []
  const stream = new Writable({ write (chunk, _encoding, done) { logs.push(String(chunk)); done() } })
  const app = Fastify({ logger: { level: 'error', stream }, ...options })
  await app.register(swagger, { openapi: { info: { title: 'things', version: '1' } } })
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => {
      if (request.headers['x-explode'] !== undefined) throw new Error('rule failed reading secret table tenants_internal')
      return []
    }
  })
  await app.register(restrictedFieldsMcp, { include: () => true })
  const record = async (request: FastifyRequest): Promise<Seen> => {
    const entry = {
      route: request.routeOptions.url,
      params: { ...(request.params as object) },
      query: { ...(request.query as object) },
      ip: request.ip,
      host: request.host,
      protocol: request.protocol
    }
    seen.push(entry)
    return entry
  }
  const thing = { type: 'object', properties: { name: { type: 'string' }, secret: { type: 'string' } } }
  app.get('/', { schema: { operationId: 'root' } }, record)
  app.get('/things/', { restrictFields: true, schema: { operationId: 'listThings', response: { 200: { type: 'array', items: thing } } } }, async (request) => {
    await record(request)
    return [{ name: 'a' }]
  })
  app.get('/things/:id', { schema: { operationId: 'getThing', params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } }, record)
  app.get('/things/:id/parts/:part', { schema: { operationId: 'getPart' } }, record)
  t.teardown(() => app.close())
  return { app, seen, logs }
}

let nextId = 1
/** One JSON-RPC request posted to the endpoint through `inject`: its HTTP status and body. */
async function rpc (
  app: FastifyInstance,
  method: string,
  params: unknown,
  extra: { headers?: Record<string, string>, remoteAddress?: string } = {}
): Promise<{ status: number, body: any }> {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, ...extra.headers },
    ...extra.remoteAddress === undefined ? {} : { remoteAddress: extra.remoteAddress },
    payload: { jsonrpc: '2.0', id: nextId++, method, params }
  })
  return { status: response.statusCode, body: response.json() }
}

const callTool = async (app: FastifyInstance, name: string, args: unknown, extra = {}): Promise<any> => (await rpc(app, 'tools/call', { name, arguments: args }, extra)).body.result

test('a path argument that is empty, . or .. is refused, and no route runs: not the list route, not the root', async (t) => {
  const { app, seen } = await recordingApp(t)
  for (const id of ['', '.', '..']) {
    t.strictSame(await callTool(app, 'getThing', { id }), {
      content: [{ type: 'text', text: JSON.stringify({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', error: 'Bad Request', message: "Argument 'id' must be a path segment: neither empty, '.' nor '..'" }) }],
      isError: true
    }, JSON.stringify(id))
  }
  for (const args of [{ id: 'x', part: '..' }, { id: '.', part: 'x' }]) t.equal((await callTool(app, 'getPart', args)).isError, true, JSON.stringify(args))
  t.strictSame(seen, [])
})

test('a path argument lands whole in its own parameter of its own route, whatever characters it holds', async (t) => {
  const { app, seen } = await recordingApp(t)
  const values = ['%2E', '%2E%2E', '.%2e', 'a/b', '%2F', '../..', 'a?b=1', 'a#b', '...', ' ', '%', 'ü/€', '{id}']
  for (const id of values) await callTool(app, 'getThing', { id })
  t.strictSame(seen.map(({ route, params }) => ({ route, params })), values.map((id) => ({ route: '/things/:id', params: { id } })))
  seen.length = 0
  await callTool(app, 'getPart', { id: '../x', part: '{id}' })
  t.strictSame(seen.map(({ route, params, query }) => ({ route, params, query })), [{ route: '/things/:id/parts/:part', params: { id: '../x', part: '{id}' }, query: {} }])
})

test('a call\'s route sees the MCP request\'s client address and Host, not the process\'s own', async (t) => {
  const { app, seen } = await recordingApp(t)
  await callTool(app, 'getThing', { id: 'x' }, { remoteAddress: '203.0.113.7', headers: { host: 'tenant-a.example.com:8443', 'x-forwarded-for': '198.51.100.1' } })
  t.strictSame(seen.map(({ ip, host, protocol }) => ({ ip, host, protocol })), [{ ip: '203.0.113.7', host: 'tenant-a.example.com:8443', protocol: 'http' }])
})

test('behind a trusted proxy, a call\'s route sees the forwarded client, host and protocol, as the endpoint does', async (t) => {
  const { app, seen } = await recordingApp(t, { trustProxy: true })
  await callTool(app, 'getThing', { id: 'x' }, {
    remoteAddress: '10.0.0.2',
    headers: { host: 'internal:3000', 'x-forwarded-for': '198.51.100.1', 'x-forwarded-host': 'tenant-b.example.com', 'x-forwarded-proto': 'https' }
  })
  t.strictSame(seen.map(({ ip, host, protocol }) => ({ ip, host, protocol })), [{ ip: '198.51.100.1', host: 'tenant-b.example.com', protocol: 'https' }])
})

test('a JSON-RPC batch is refused with a coded error, and none of its calls runs', async (t) => {
  const { app, seen } = await recordingApp(t)
  const call = (id: number): unknown => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getThing', arguments: { id: 'x' } } })
  for (const payload of [[call(1), call(2)], [call(1)], []]) {
    const response = await app.inject({ method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: JSON.stringify(payload) })
    t.strictSame([response.statusCode, response.json()], [400, {
      jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: batches are not supported; send one JSON-RPC message per request' }, id: null
    }], `${(payload as unknown[]).length} messages`)
  }
  t.strictSame(seen, [])
})

test('a failure while making a caller\'s tools is logged, and answered with an error that says nothing of it', async (t) => {
  const { app, logs } = await recordingApp(t)
  const { status, body } = await rpc(app, 'tools/list', {}, { headers: { 'x-explode': '1' } })
  t.strictSame([status, body.error], [200, { code: -32603, message: 'Internal error' }])
  t.notOk(JSON.stringify(body).includes('tenants_internal'), 'the answer says nothing of the cause')
  t.match(logs.join(''), /rule failed reading secret table tenants_internal/)
  t.strictSame((await rpc(app, 'tools/list', {})).body.result.tools.map((tool: { name: string }) => tool.name), ['root', 'listThings', 'getThing', 'getPart'])
})

test('optional arguments take null as absent, in their schema as on the server', async (t) => {
  const { app, seen } = await recordingApp(t)
  const tools = (await rpc(app, 'tools/list', {})).body.result.tools as Array<{ name: string, inputSchema: Record<string, any> }>
  const list = tools.find((tool) => tool.name === 'listThings')?.inputSchema as Record<string, any>
  const validate = new Ajv({ strict: true }).compile(list)
  t.ok(validate({ only: null, defer: null }), JSON.stringify(validate.errors))
  t.ok(validate({ only: ['name'] }), JSON.stringify(validate.errors))
  t.notOk(validate({ only: 'name' }), 'a single name is still not a list')
  const get = tools.find((tool) => tool.name === 'getThing')?.inputSchema as Record<string, any>
  t.notOk(new Ajv({ strict: true }).compile(get)({ id: null }), 'a required argument does not take null')
  t.strictSame(await callTool(app, 'listThings', { only: null, defer: null }), { content: [{ type: 'text', text: '{"result":[{"name":"a"}]}' }], structuredContent: { result: [{ name: 'a' }] } })
  t.strictSame(seen.map(({ route, query }) => ({ route, query })), [{ route: '/things/', query: {} }])
})
