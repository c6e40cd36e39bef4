import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import type { RestrictedFieldsMcpOptions } from '../../lib/mcp/index.js'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'

const STAFF = { authorization: 'Bearer staff-secret' }

interface ToolResult { content: Array<{ type: string, text: string }>, structuredContent?: unknown, isError?: boolean }

async function listening (t: Test, app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  return app.listeningOrigin
}

async function example (t: Test, mcp: RestrictedFieldsMcpOptions): Promise<string> {
  return await listening(t, await buildApp({ store: memoryStore(generateUsers(12)), pageSize: 3, staffToken: 'staff-secret', mcp }))
}

async function connect (t: Test, origin: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin), { requestInit: { headers } }))
  t.teardown(() => client.close())
  return client
}

const text = async (client: Client, name: string, args: Record<string, unknown>): Promise<string> =>
  ((await client.callTool({ name, arguments: args })) as ToolResult).content[0].text

test('in discovery mode, four fixed tools find, browse, describe and call the example\'s routes, each caller seeing only its own fields', async (t) => {
  const origin = await example(t, { mode: 'discovery' })
  const anonymous = await connect(t, origin)
  const staff = await connect(t, origin, STAFF)
  for (const client of [anonymous, staff]) {
    t.strictSame((await client.listTools()).tools.map((tool) => tool.name), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  }
  t.equal(await text(anonymous, 'find_operations', { query: 'one user' }), [
    'getUser: /api/users/{id} (Get one user) [users]',
    'listUsers: /api/users/ (List the users, a page at a time) [users]'
  ].join('\n'))
  t.equal(await text(staff, 'list_operations', {}), 'Areas: 1; list_operations with an area lists its operations:\nusers (2): The users of the example')
  t.equal(await text(anonymous, 'list_operations', { area: 'users', page: null }), [
    'users (2), page 1 of 1:',
    'listUsers: /api/users/ (List the users, a page at a time) [users]',
    'getUser: /api/users/{id} (Get one user) [users]'
  ].join('\n'))
  const described = await text(anonymous, 'describe_operation', { operation: 'getUser' })
  t.match(described, /^getUser: GET \/api\/users\/\{id\}\nGet one user\. The user with this id, or a 404\.\nWithout only: every field\.\nField sets: @summary is id, name\.\nArguments:\n- id \(path, required\): \{"type":"integer","minimum":1\} The id of the user\.\n/)
  t.match(described, /\nFields: id, name, email, is_staff, profile\{\}, posts\{\}\n/)
  t.notMatch(described, /last_login|phone/)
  t.match(await text(staff, 'describe_operation', { operation: 'getUser' }), /\nFields: id, name, email, is_staff, profile\{\}, posts\{\}, last_login\n/)
  t.equal(await text(anonymous, 'describe_operation', { operation: 'getUser', fields: 'profile' }), 'Fields of getUser under profile: profile.city')
  t.equal(await text(staff, 'describe_operation', { operation: 'getUser', fields: 'profile' }), 'Fields of getUser under profile: profile.city, profile.phone')
  // A hidden field and an unknown one get the same answer, which repeats neither.
  const none = 'No fields are nested under that field in getUser; describe_operation without fields lists the top level.'
  t.equal(await text(anonymous, 'describe_operation', { operation: 'getUser', fields: 'last_login' }), none)
  t.equal(await text(anonymous, 'describe_operation', { operation: 'getUser', fields: 'nothing', extra: null }), none)

  // A call is the route's reply, as over HTTP with the same credentials, as text and as structured content.
  for (const [client, headers] of [[anonymous, {}], [staff, STAFF]] as const) {
    const http = await (await fetch(new URL('/api/users/3?only=name&only=profile', origin), { headers })).text()
    t.strictSame(await client.callTool({ name: 'call_operation', arguments: { operation: 'getUser', arguments: { id: 3, only: ['name', 'profile'] } } }), { content: [{ type: 'text', text: http }], structuredContent: JSON.parse(http) })
  }
  const invalid = (message: string): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', error: 'Bad Request', message }) }], isError: true })
  const cases: Array<[string, Record<string, unknown>, ToolResult]> = [
    ['find_operations', {}, invalid("Argument 'query' must be a string")],
    ['find_operations', { query: 'x', limit: 'all' }, invalid("Argument 'limit' must be a number")],
    ['list_operations', { area: ['users'] }, invalid("Argument 'area' must be a string")],
    ['list_operations', { area: 'users', page: '2' }, invalid("Argument 'page' must be a number")],
    ['describe_operation', { operation: 7 }, invalid("Argument 'operation' must be a string")],
    ['describe_operation', { operation: 'deleteUser' }, invalid("Unknown operation 'deleteUser'; find_operations finds them")],
    ['describe_operation', { operation: 'getUser', fields: ['profile'] }, invalid("Argument 'fields' must be a string")],
    ['call_operation', { operation: 'getUser', arguments: {} }, invalid("Missing argument 'id'")],
    ['call_operation', { operation: 'getUser', arguments: 'id=1' }, invalid('The arguments must be an object')]
  ]
  for (const [name, args, expected] of cases) t.strictSame(await anonymous.callTool({ name, arguments: args }), expected, `${name} ${JSON.stringify(args)}`)
  t.strictSame(await anonymous.callTool({ name: 'find_operations' }), invalid("Argument 'query' must be a string"), 'no arguments at all')
  t.equal(await text(anonymous, 'find_operations', { query: 'users', limit: null }), 'listUsers: /api/users/ (List the users, a page at a time) [users]\ngetUser: /api/users/{id} (Get one user) [users]')
  t.equal(await text(anonymous, 'call_operation', { operation: 'listUsers', arguments: null }), await (await fetch(new URL('/api/users/', origin))).text())
  // The hidden field is refused by the route, as over HTTP; the per-route tools are not tools of this mode.
  t.match(await text(anonymous, 'call_operation', { operation: 'getUser', arguments: { id: 1, only: ['last_login'] } }), /Unknown field 'last_login'/)
  await t.rejects(anonymous.callTool({ name: 'getUser', arguments: { id: 1 } }), { code: -32602 })
})

/** An app of `routes` opted-in routes of one small record each. */
async function manyRoutes (t: Test, routes: number, mcp: RestrictedFieldsMcpOptions = {}): Promise<string> {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'Many', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, mcp)
  for (let index = 0; index < routes; index++) {
    app.get(`/things${index}`, { restrictFields: true, schema: { operationId: `thing${index}`, response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: index }))
  }
  return await listening(t, app)
}

test('past 30 routes the discovery mode is the default; the mode option chooses either, and is checked at registration', async (t) => {
  const names = async (routes: number, mcp?: RestrictedFieldsMcpOptions): Promise<string[]> =>
    (await (await connect(t, await manyRoutes(t, routes, mcp))).listTools()).tools.map((tool) => tool.name)
  t.equal((await names(30)).length, 30)
  t.strictSame(await names(31), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  t.equal((await names(31, { mode: 'routes' })).length, 31)
  t.strictSame(await names(2, { mode: 'discovery' }), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  await t.rejects(async () => await app.register(restrictedFieldsMcp, { mode: 'tools' as 'routes' }), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION', message: "The mode option should be one of 'routes', 'discovery', instead got 'tools'" })
  await app.close()
  // Without an opted-in route, no caller has a document, and there is no tool.
  const plain = Fastify()
  await plain.register(swagger, { openapi: { info: { title: 'Plain', version: '1' } } })
  await plain.register(fastifyRestrictedFields)
  await plain.register(restrictedFieldsMcp, { mode: 'routes', include: () => true })
  plain.get('/plain', async () => ({}))
  t.strictSame((await (await connect(t, await listening(t, plain))).listTools()).tools, [])
})

/**
 * Stripe's shape: `chains` chains of 25 shared schemas, each schema with two
 * expandable fields (an id, or the object it names) pointing one and two
 * further down its chain, and a route that reaches the head of each chain.
 * Unfolded into a tree, a route's schema would hold about 1.6^25 objects.
 */
async function expandable (
  t: Test,
  chains: number,
  mcp: RestrictedFieldsMcpOptions = {}
): Promise<{ origin: string, app: FastifyInstance }> {
  const logged: Array<Record<string, any>> = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } })
  ;(app as unknown as { logged: typeof logged }).logged = logged
  // Fastify's own serializer would unfold the same graph when the routes are compiled: this is about the tools.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: 'Expandable', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { mode: 'routes', ...mcp })
  const length = 25
  for (let chain = 0; chain < chains; chain++) {
    const name = (index: number): string => `thing${chain}_${Math.min(index, length - 1)}`
    const expandableField = (to: number): unknown => ({ anyOf: [{ type: 'string' }, { $ref: `${name(to)}#` }] })
    for (let index = 0; index < length; index++) {
      const links = index < length - 1 ? { parent: expandableField(index + 1), owner: expandableField(index + 2) } : {}
      app.addSchema({ $id: name(index), type: 'object', properties: { id: { type: 'string' }, ...links } })
    }
    app.get(`/things/${chain}`, { restrictFields: true, schema: { operationId: `getThing${chain}`, response: { 200: { $ref: `${name(0)}#` } } } }, async () => ({ id: 'x' }))
  }
  return { origin: await listening(t, app), app }
}

test('a description with an expandable field at every level keeps its shared schemas shared: tools/list answers, small', async (t) => {
  const { origin } = await expandable(t, 12)
  const tools = (await (await connect(t, origin)).listTools()).tools
  t.equal(tools.length, 12)
  const tokens = countTokens(JSON.stringify(tools))
  t.ok(tokens < 100_000, `${tokens} tokens`)
  t.ok(Object.keys(tools[0].outputSchema?.$defs ?? {}).length > 0, 'components reached twice are definitions')
})

test('past its schema budget, tools are listed and called without their output schemas', async (t) => {
  const client = await connect(t, (await expandable(t, 1, { maxSchemaNodes: 50 })).origin)
  const { tools } = await client.listTools()
  t.strictSame(tools.map((tool) => [tool.name, tool.outputSchema]), [['getThing0', undefined]])
  t.strictSame(await client.callTool({ name: 'getThing0', arguments: { only: ['id'] } }), { content: [{ type: 'text', text: '{"id":"x"}' }] })
})

test('past its schema budget even without output schemas, tools/list answers a coded error and logs why, and the server keeps serving', async (t) => {
  const { origin, app } = await expandable(t, 1, { maxSchemaNodes: 1 })
  const client = await connect(t, origin)
  await t.rejects(client.listTools(), { code: -32603, data: { code: 'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE' }, message: 'MCP error -32603: The tools of this API are too large to describe; the server logged why' })
  // Repeated, it answers the same without building again.
  await t.rejects(client.listTools(), { code: -32603 })
  const logged = (app as unknown as { logged: Array<Record<string, any>> }).logged
  t.strictSame(logged.map((line) => [line.msg, line.err?.code]), [['The MCP tools could not be described', 'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE'], ['The MCP tools could not be described', 'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE']])
  t.equal((await fetch(new URL('/things/0', origin))).status, 200)
  const discovery = await connect(t, (await expandable(t, 1, { mode: 'discovery', maxSchemaNodes: 2 })).origin)
  await t.rejects(discovery.callTool({ name: 'describe_operation', arguments: { operation: 'getThing0' } }), { code: -32603, data: { code: 'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE' } })
})

test('a caller\'s document that fails to build is answered with a generic error, logged with its cause', async (t) => {
  const logged: Array<Record<string, any>> = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } })
  await app.register(swagger, { openapi: { info: { title: 'Failing', version: '1' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: () => { throw new Error('rules database at 10.0.0.7 is down') } })
  await app.register(restrictedFieldsMcp, { mode: 'discovery' })
  app.get('/things', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  const client = await connect(t, await listening(t, app))
  await t.rejects(client.callTool({ name: 'find_operations', arguments: { query: 'things' } }), { code: -32603, message: 'MCP error -32603: Internal error' })
  t.strictSame(logged.map((line) => [line.msg, line.err?.message]), [['MCP request failed', 'rules database at 10.0.0.7 is down']])
})

test('an API without tags is browsed by the resources past the prefix its listed paths share; a route that is not a tool shapes no area', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'Payments', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { mode: 'discovery' })
  const record = { 200: { type: 'object', properties: { id: { type: 'string' } } } }
  const routes: Array<[string, string, string]> = [
    ['/v1/charges', 'GetCharges', 'List all charges'],
    ['/v1/charges/:charge', 'GetChargesCharge', 'Retrieve a charge'],
    ['/v1/customers', 'GetCustomers', 'List all customers'],
    ['/v1/customers/:customer/sources', 'GetCustomersCustomerSources', 'List sources'],
    ['/v1/test_helpers/test_clocks', 'GetTestHelpersTestClocks', 'List all test clocks']
  ]
  for (const [url, operationId, summary] of routes) {
    app.get(url, { restrictFields: true, schema: { operationId, summary, response: record } }, async () => ({ id: 'x' }))
  }
  // Neither is a tool: one did not opt in, the other is not in the document.
  app.get('/admin/keys', { schema: { operationId: 'GetAdminKeys', response: record } }, async () => ({ id: 'k' }))
  app.get('/internal/health', { restrictFields: true, schema: { hide: true, response: record } }, async () => ({ id: 'h' }))
  const client = await connect(t, await listening(t, app))
  t.equal(await text(client, 'list_operations', {}), [
    'Areas: 3; list_operations with an area lists its operations:',
    'charges (2)',
    'customers (2)',
    'test_helpers (1)'
  ].join('\n'))
  t.equal(await text(client, 'list_operations', { area: 'customers' }), [
    'customers (2), page 1 of 1:',
    'GetCustomers: /v1/customers (List all customers) [customers]',
    'GetCustomersCustomerSources: /v1/customers/{customer}/sources (List sources) [customers]'
  ].join('\n'))
  t.equal(await text(client, 'find_operations', { query: 'retrieve a charge', limit: 1 }), 'GetChargesCharge: /v1/charges/{charge} (Retrieve a charge) [charges]\n1 more match: use more words, or a higher limit.')
  t.equal(await text(client, 'list_operations', { area: 'v1' }), 'No such area; list_operations without an area lists them.')
})
