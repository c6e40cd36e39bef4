import t, { test } from 'tap'
import type { Test } from 'tap'
import { request as httpRequest } from 'node:http'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import type { RestrictedFieldsMcpOptions } from '../../lib/mcp/index.js'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'

const STAFF = { authorization: 'Bearer staff-secret' }
const ANONYMOUS = {}

type Headers = Record<string, string>
interface ToolResult { content: Array<{ type: string, text: string }>, structuredContent?: Record<string, unknown>, isError?: boolean }
interface Tool { name: string, inputSchema: Record<string, any>, outputSchema?: Record<string, any> }

/** The example over 12 users in pages of 3, listening; user 12's store read fails with a message that must not reach a client. */
async function example (t: Test, mcp?: RestrictedFieldsMcpOptions): Promise<{ app: FastifyInstance, origin: string }> {
  const store = memoryStore(generateUsers(12))
  const byId = store.byId
  store.byId = async (id, selection) => {
    if (id === 12) throw new Error('connection to postgres://admin:hunter2@db failed')
    return await byId(id, selection)
  }
  const app = await buildApp({ store, pageSize: 3, staffToken: 'staff-secret', ...mcp === undefined ? {} : { mcp } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  return { app, origin: app.listeningOrigin }
}

// One example serves every test that needs no endpoint options of its own: each app costs a second to build.
const SHARED_OPTIONS: RestrictedFieldsMcpOptions = { maxArgumentsLength: 64, allowedOrigins: ['https://App.example.com/'] }
let shared: Promise<{ app: FastifyInstance, origin: string }> | undefined
const sharedExample = async (): Promise<{ app: FastifyInstance, origin: string }> => await (shared ??= example(t, SHARED_OPTIONS))

async function connect (t: Test, origin: string, headers: Headers, path = '/mcp'): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(path, origin), { requestInit: { headers } }))
  t.teardown(() => client.close())
  return client
}

const ajv = new Ajv({ strict: true, allErrors: true })
addFormats.default(ajv)

/** Fails the test unless `value` is valid against `schema`, with a JSON Schema validator of its own. */
function assertValid (t: Test, schema: Record<string, any> | undefined, value: unknown, label: string): void {
  t.ok(schema, `${label}: the tool has an output schema`)
  const validate = ajv.compile(schema ?? {})
  t.ok(validate(value), `${label}: ${JSON.stringify(validate.errors)}`)
}

/** A tool's expected result: the route's reply over HTTP, with the same headers, as structured content and as its text. */
async function restReply (origin: string, url: string, headers: Headers): Promise<ToolResult> {
  const response = await fetch(new URL(url, origin), { headers })
  const text = await response.text()
  return response.ok
    ? { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) }
    : { content: [{ type: 'text', text }], isError: true }
}

const ANONYMOUS_FIELDS = ['id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'posts', 'posts.id', 'posts.title']
const STAFF_FIELDS = ['id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'profile.phone', 'posts', 'posts.id', 'posts.title', 'last_login']

const GET_USER_DESCRIPTION = 'Get one user. The user with this id, or a 404.\n' +
  'Ask only for the fields you need: `only` keeps the fields named (dotted paths reach nested ones, * is every field), `defer` leaves fields out.\n' +
  'Field sets: @summary is id, name.\n' +
  'Without `only`: every field.'

test('tools/list follows the credentials: an anonymous caller\'s tools do not name a staff-only field, staff\'s choose and describe them', async (t) => {
  const { origin } = await sharedExample()
  const anonymous = (await (await connect(t, origin, ANONYMOUS)).listTools()).tools
  const staff = (await (await connect(t, origin, STAFF)).listTools()).tools
  t.strictSame(anonymous.map((tool) => tool.name), ['listUsers', 'getUser'])
  t.strictSame(anonymous.find((tool) => tool.name === 'getUser'), {
    name: 'getUser',
    title: 'Get one user',
    description: GET_USER_DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1, description: 'The id of the user.' },
        only: { type: ['array', 'null'], items: { type: 'string', enum: [...ANONYMOUS_FIELDS, '*', '@summary'] }, description: 'The fields to return; absent: the default ones.' },
        defer: { type: ['array', 'null'], items: { type: 'string', enum: ANONYMOUS_FIELDS }, description: 'The fields to leave out.' }
      },
      required: ['id'],
      additionalProperties: false
    },
    outputSchema: {
      type: 'object',
      description: 'A user of the example API. As restricted responses send it: any field may be left out.',
      properties: {
        id: { type: 'integer', description: 'Unique, from 1.' },
        name: { type: 'string' },
        email: { type: ['string', 'null'], description: 'null when the user has given none.' },
        is_staff: { type: 'boolean' },
        profile: { type: ['object', 'null'], description: 'null when the user has no profile.', properties: { city: { type: 'string' } }, additionalProperties: false },
        posts: {
          type: 'array',
          description: 'What the user wrote, oldest first.',
          items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } }, additionalProperties: false }
        }
      },
      additionalProperties: false
    },
    annotations: { readOnlyHint: true, openWorldHint: false }
  })
  const listing = JSON.stringify(anonymous)
  for (const hidden of ['last_login', 'phone']) t.notOk(listing.includes(hidden), `the anonymous listing does not name ${hidden}`)
  for (const tool of staff) {
    t.strictSame(tool.inputSchema.properties?.only, { type: ['array', 'null'], items: { type: 'string', enum: [...STAFF_FIELDS, '*', '@summary'] }, description: 'The fields to return; absent: the default ones.' })
    t.strictSame(tool.inputSchema.properties?.defer, { type: ['array', 'null'], items: { type: 'string', enum: STAFF_FIELDS }, description: 'The fields to leave out.' })
  }
  const staffUser = staff.find((tool) => tool.name === 'getUser')?.outputSchema as Record<string, any>
  t.strictSame([Object.keys(staffUser.properties), staffUser.properties.profile.properties.phone], [
    ['id', 'name', 'email', 'is_staff', 'last_login', 'profile', 'posts'],
    { type: 'string', description: 'Sent to staff only: to any other request this field does not exist.' }
  ])
  const page = staff.find((tool) => tool.name === 'listUsers') as Tool
  // No `required`, not even the envelope's: fast-json-stringify writes a null where an object is declared as `{}`.
  t.strictSame([page.outputSchema?.type, page.outputSchema?.required, page.inputSchema.properties.page], [
    'object', undefined, { type: ['string', 'null'], description: "A page number from 1, or 'last'; absent means 1" }
  ])
})

/** The selections the tests make, for each caller: every result must validate against the tool's output schema. */
const SELECTIONS: Array<[Headers, Record<string, unknown>]> = [
  [ANONYMOUS, {}],
  [ANONYMOUS, { only: ['name'] }],
  [ANONYMOUS, { only: ['@summary', 'email'] }],
  [ANONYMOUS, { only: ['profile.city', 'posts.title'] }],
  [ANONYMOUS, { only: ['*'], defer: ['posts'] }],
  [ANONYMOUS, { defer: ['profile', 'posts', 'email'], page: '2' }],
  [STAFF, {}],
  [STAFF, { only: ['last_login', 'profile.phone'] }],
  [STAFF, { only: ['@summary', 'last_login'], page: 'last' }]
]

function query (args: Record<string, unknown>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(args)) for (const member of [value].flat()) search.append(name, String(member))
  return search.size === 0 ? '' : `?${search}`
}

test('a call returns what the route sends the same caller over HTTP, as structured content and as the same compact text, valid against the tool\'s output schema', async (t) => {
  const { origin } = await sharedExample()
  for (const headers of [ANONYMOUS, STAFF]) {
    const client = await connect(t, origin, headers)
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool as Tool]))
    for (const [caller, args] of SELECTIONS.filter(([caller]) => caller === headers)) {
      const { page, ...fields } = args
      for (const [name, toolArgs, url] of [
        ['listUsers', args, `/api/users/${query(args)}`],
        ['getUser', { id: 5, ...fields }, `/api/users/5${query(fields)}`]
      ] as const) {
        const result = await client.callTool({ name, arguments: toolArgs }) as ToolResult
        const label = `${name} ${JSON.stringify(toolArgs)} as ${caller === STAFF ? 'staff' : 'anonymous'}`
        t.strictSame(result, await restReply(origin, url, caller), label)
        assertValid(t, tools.get(name)?.outputSchema, result.structuredContent, label)
      }
    }
  }
  const client = await connect(t, origin, ANONYMOUS)
  t.strictSame(await client.callTool({ name: 'listUsers', arguments: { only: ['name'], page: '2' } }), {
    content: [{ type: 'text', text: `{"count":12,"next":"${origin}/api/users/?only=name&page=3","previous":"${origin}/api/users/?only=name","results":[{"name":"Claude Turing"},{"name":"Donald Lamarr"},{"name":"Edsger Perlman"}]}` }],
    structuredContent: {
      count: 12,
      next: `${origin}/api/users/?only=name&page=3`,
      previous: `${origin}/api/users/?only=name`,
      results: [{ name: 'Claude Turing' }, { name: 'Donald Lamarr' }, { name: 'Edsger Perlman' }]
    }
  })
})

test('concurrent calls of anonymous and staff callers each get their own fields, and nothing of the other\'s', async (t) => {
  const { origin } = await sharedExample()
  const clients = { anonymous: await connect(t, origin, ANONYMOUS), staff: await connect(t, origin, STAFF) }
  const calls = Array.from({ length: 24 }, (_, index) => {
    const caller = index % 2 === 0 ? 'anonymous' : 'staff'
    const id = 1 + (index % 11)
    return { caller, id, args: caller === 'staff' ? { id, only: ['id', 'last_login', 'profile.phone'] } : { id, only: ['id', 'profile'] } } as const
  })
  const expected = await Promise.all(calls.map(({ caller, id, args }) =>
    restReply(origin, `/api/users/${id}${query({ only: args.only })}`, caller === 'staff' ? STAFF : ANONYMOUS)))
  const results = await Promise.all(calls.map(({ caller, args }) => clients[caller].callTool({ name: 'getUser', arguments: args })))
  t.strictSame(results, expected)
  for (const [index, result] of results.entries()) {
    const text = (result as ToolResult).content[0].text
    if (calls[index].caller === 'anonymous') t.notOk(/last_login|phone/.test(text), `call ${index} sends an anonymous caller no staff-only field`)
    else t.match(text, /"last_login":/)
  }
})

test('a hidden name is refused exactly as an unknown one: the route\'s 400, in the same words', async (t) => {
  const { origin } = await sharedExample()
  const client = await connect(t, origin, ANONYMOUS)
  const refusal = (name: string): ToolResult => ({
    content: [{
      type: 'text',
      text: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: `Unknown field '${name}' in query parameter 'only'; allowed fields: id, name, email, is_staff, profile, posts`, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' })
    }],
    isError: true
  })
  for (const name of ['last_login', 'lastLogin']) {
    t.strictSame(await client.callTool({ name: 'getUser', arguments: { id: 1, only: [name] } }), refusal(name), name)
  }
  const nested = (name: string): ToolResult => ({
    content: [{ type: 'text', text: JSON.stringify({ statusCode: 400, error: 'Bad Request', message: `Unknown field '${name}' in query parameter 'only'; allowed fields of 'profile': city`, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' }) }],
    isError: true
  })
  for (const name of ['profile.phone', 'profile.fax']) {
    t.strictSame(await client.callTool({ name: 'getUser', arguments: { id: 1, only: [name] } }), nested(name), name)
  }
})

test('errors come back as error results, a 5xx without internals, an unknown tool as a JSON-RPC error, and the server keeps serving', async (t) => {
  const { app, origin } = await sharedExample()
  const client = await connect(t, origin, ANONYMOUS)
  const error = (body: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body) }], isError: true })
  // The route's own errors, as its error schema writes them.
  const routeError = (statusCode: number, error: string, message: string, code?: string): ToolResult => ({
    content: [{ type: 'text', text: JSON.stringify({ statusCode, error, message, code }) }], isError: true
  })
  const invalid = (message: string): ToolResult => error({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', error: 'Bad Request', message })
  const cases: Array<[string, Record<string, unknown>, ToolResult]> = [
    ['getUser', { id: 'x' }, routeError(400, 'Bad Request', 'params/id must be integer', 'FST_ERR_VALIDATION')],
    ['getUser', { id: 99 }, routeError(404, 'Not Found', 'User 99 not found')],
    ['listUsers', { page: '9' }, routeError(404, 'Not Found', 'Page 9 does not exist: there are 4 pages')],
    ['listUsers', { page: 'first' }, routeError(400, 'Bad Request', "Invalid page 'first': page must be an integer from 1 to 999999999, or 'last'")],
    ['getUser', {}, invalid("Missing argument 'id'")],
    ['getUser', { id: 1, fields: ['name'] }, invalid("Unknown argument 'fields'; arguments: id, only, defer")],
    ['getUser', { id: 1, only: [{ name: true }] }, invalid("Argument 'only' must be a list of strings, numbers or booleans")],
    ['getUser', { id: [1, 2] }, invalid("Argument 'id' must be a string, a number or a boolean")],
    ['listUsers', { only: Array(20).fill('name') }, error({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_ARGUMENTS_TOO_LONG', error: 'Bad Request', message: 'The arguments are too long: at most 64 characters of query string are allowed' })],
    ['getUser', { id: 12 }, error({ statusCode: 500, code: 'FST_RESTRICTED_FIELDS_TOOL_FAILED', error: 'Internal Server Error', message: 'The route failed to answer; the server logged why' })]
  ]
  for (const [name, args, expected] of cases) t.strictSame(await client.callTool({ name, arguments: args }), expected, `${name} ${JSON.stringify(args)}`)
  await t.rejects(client.callTool({ name: 'deleteUser', arguments: {} }), { code: -32602, message: 'MCP error -32602: MCP error -32602: Unknown tool: deleteUser' })
  await t.rejects(client.callTool({ name: 'x'.repeat(1000), arguments: {} }), { code: -32602, message: `MCP error -32602: MCP error -32602: Unknown tool: ${'x'.repeat(64)}…` })
  // A route that cannot even be run: the call still answers, with nothing of the cause.
  const inject = app.inject
  app.inject = (async () => { throw new Error('light-my-request exploded at /secret/path') }) as unknown as typeof app.inject
  t.strictSame(await client.callTool({ name: 'getUser', arguments: { id: 1 } }), cases[cases.length - 1][2])
  app.inject = inject
  t.strictSame((await client.callTool({ name: 'getUser', arguments: { id: 1, only: ['name'] } })).structuredContent, { name: 'Ada Lovelace' })
})

/** Posts a JSON-RPC initialize request as a browser page of `origin` would. */
async function initialize (url: string, headers: Headers): Promise<{ status: number, body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } })
  })
  return { status: response.status, body: await response.json() }
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } })
const REFUSED = { status: 403, body: { jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: this origin may not call the MCP endpoint' }, id: null } }

/**
 * Posts an initialize request to `origin`'s endpoint with these `Host` and `Origin` headers, as a rebinding page's
 * browser would send them; its status and body.
 */
async function initializeAs (origin: string, host: string, page: string | undefined): Promise<{ status: number, body: unknown }> {
  const headers = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...page === undefined ? {} : { origin: page } }
  return await new Promise((resolve, reject) => {
    const sent = httpRequest(`${origin}/mcp`, { method: 'POST', headers }, (response) => {
      let body = ''
      response.on('data', (chunk) => { body += chunk })
      response.on('end', () => { resolve({ status: response.statusCode as number, body: JSON.parse(body) }) })
    })
    sent.on('error', reject)
    sent.end(INITIALIZE)
  })
}

test('a request from a foreign origin is refused before anything runs; an allowed origin and a request without one are served', async (t) => {
  const { origin } = await sharedExample()
  for (const page of ['http://evil.example', 'null']) t.strictSame(await initialize(`${origin}/mcp`, { origin: page }), REFUSED, page)
  for (const headers of [{ origin: 'https://app.example.com' }, {}] as Headers[]) {
    const { status, body } = await initialize(`${origin}/mcp`, headers)
    const { result } = body as { result: { serverInfo: unknown, instructions: string } }
    t.strictSame([status, result.serverInfo, result.instructions], [
      200, { name: 'fastify-restricted-fields-example', version: '1.0.0' },
      'The users of an example API. Every tool takes `only`: name the fields the task needs, and the reply holds those alone.'
    ])
  }
})

test('on loopback, a page of the server\'s own loopback address is served; a rebinding page, whose Host is its own name, and any other origin are refused', async (t) => {
  const { origin } = await sharedExample()
  const port = new URL(origin).port
  const served = (await initialize(`${origin}/mcp`, {})).body
  const cases: Array<[string, string | undefined, unknown]> = [
    [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`, served],
    [`localhost:${port}`, `https://LOCALHOST:${port}/`, served],
    [`[::1]:${port}`, `http://[::1]:${port}`, served],
    ['evil.example.com', 'http://evil.example.com', REFUSED.body],
    [`evil.example.com:${port}`, `http://evil.example.com:${port}`, REFUSED.body],
    [`127.0.0.1:${port}`, 'http://127.0.0.1:1', REFUSED.body],
    [`localhost:${port}`, `http://127.0.0.1:${port}`, REFUSED.body],
    [`127.0.0.1:${port}`, `ftp://127.0.0.1:${port}`, REFUSED.body],
    [`127.0.0.2:${port}`, `http://127.0.0.2:${port}`, REFUSED.body]
  ]
  for (const [host, page, body] of cases) {
    t.strictSame(await initializeAs(origin, host, page), { status: body === served ? 200 : 403, body }, `${host} ${String(page)}`)
  }
})

test('a server listening beyond loopback takes no origin for its loopback Host, which a proxy may have written; inject reaches none but the process', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'wide', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp)
  const injected = async (host: string, page: string): Promise<number> => (await app.inject({
    method: 'POST', url: '/mcp', headers: { host, origin: page, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: INITIALIZE
  })).statusCode
  t.equal(await injected('localhost:80', 'http://localhost:80'), 200, 'inject: not listening')
  t.equal(await injected('evil.example', 'http://evil.example'), 403, 'inject: a foreign origin')
  await app.listen({ port: 0, host: '0.0.0.0' })
  t.teardown(() => app.close())
  const { port } = app.server.address() as { port: number }
  t.strictSame(await initializeAs(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`, `http://127.0.0.1:${port}`), REFUSED)
  t.equal((await initializeAs(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`, undefined)).status, 200, 'without an Origin')
})

test('the endpoint takes POST only: GET and DELETE are answered 405, as a stateless server does', async (t) => {
  const { origin } = await sharedExample()
  for (const method of ['GET', 'DELETE']) {
    const response = await fetch(`${origin}/mcp`, { method, headers: { accept: 'text/event-stream' } })
    t.strictSame([response.status, response.headers.get('allow'), await response.json()], [
      405, 'POST', { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this stateless endpoint takes POST only' }, id: null }
    ], method)
  }
})

test('the endpoint is authenticated by a hook of its own, and by the app\'s own hooks', async (t) => {
  const { origin } = await example(t, {
    onRequest: [async (request, reply) => {
      if (request.headers['x-agent-key'] !== 'k') return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'An agent key is required' })
    }],
    forwardHeaders: ['X-Agent-Key']
  })
  t.strictSame(await initialize(`${origin}/mcp`, {}), { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'An agent key is required' } })
  t.strictSame(await initialize(`${origin}/mcp`, { 'x-agent-key': 'k', authorization: 'Bearer wrong' }), {
    status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Invalid bearer token' }
  })
  const client = await connect(t, origin, { 'x-agent-key': 'k', ...STAFF })
  t.strictSame((await client.callTool({ name: 'getUser', arguments: { id: 2, only: ['last_login'] } })).structuredContent, { last_login: '2026-01-06T02:00:00.000Z' })
})

/** An app behind cookie sessions, as @fastify/session reads them: `session=staff` shows the salary, any other caller does not see it. */
async function sessionApp (t: Test, options: RestrictedFieldsMcpOptions): Promise<string> {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'sessions', version: '1' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.cookie?.includes('session=staff') === true ? [] : ['salary'] })
  await app.register(restrictedFieldsMcp, options)
  const person = { type: 'object', properties: { name: { type: 'string' }, salary: { type: 'integer' } } }
  app.get('/me', { restrictFields: true, schema: { operationId: 'me', response: { 200: person } } }, async () => ({ name: 'ann', salary: 99000 }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  return app.listeningOrigin
}

test('a call passes the caller\'s cookies on to its route by default, as it passes Authorization: a route behind cookie sessions sees the session', async (t) => {
  const session = { cookie: 'theme=dark; session=staff' }
  const staff = { content: [{ type: 'text', text: '{"salary":99000}' }], structuredContent: { salary: 99000 } }
  t.strictSame(await (await connect(t, await sessionApp(t, {}), session)).callTool({ name: 'me', arguments: { only: ['salary'] } }), staff)
  // Without cookies forwarded, the route sees no session: the field the tool lists is one the route does not know.
  const unknown = {
    content: [{ type: 'text', text: JSON.stringify({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message: "Unknown field 'salary' in query parameter 'only'; allowed fields: name" }) }],
    isError: true
  }
  t.strictSame(await (await connect(t, await sessionApp(t, { forwardHeaders: [] }), session)).callTool({ name: 'me', arguments: { only: ['salary'] } }), unknown)
})

/** A small app of its own: the plugin, swagger, the endpoint with `options`, and a few routes. */
async function smallApp (t: Test, options: RestrictedFieldsMcpOptions = {}): Promise<string> {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'small', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, options)
  app.get('/tags', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } } } } },
    async () => [{ id: 1, label: 'a' }, { id: 2, label: 'b' }])
  app.get('/health', async () => 'ok')
  app.get('/version', { schema: { response: { 200: { type: 'object', properties: { version: { type: 'string' } } } } } }, async () => ({ version: '1.2.3' }))
  app.post('/tags', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 3 }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  return app.listeningOrigin
}

test('an array reply is sent under result, valid against the wrapped output schema; include takes routes that did not opt in; other methods are never tools', async (t) => {
  const origin = await smallApp(t, { include: (route) => route.path !== '/health', path: '/agents' })
  const client = await connect(t, origin, {}, '/agents')
  const { tools } = await client.listTools()
  t.strictSame(tools.map((tool) => [tool.name, tool.description]), [
    ['get_tags', 'Ask only for the fields you need: `only` keeps the fields named (dotted paths reach nested ones, * is every field), `defer` leaves fields out.\nWithout `only`: every field.'],
    ['get_version', '']
  ])
  const tags = tools[0] as Tool
  t.strictSame(tags.outputSchema, {
    type: 'object',
    properties: { result: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } } },
    required: ['result'],
    additionalProperties: false
  })
  for (const only of [['label'], ['id', 'label']]) {
    const result = await client.callTool({ name: 'get_tags', arguments: { only } }) as ToolResult
    assertValid(t, tags.outputSchema, result.structuredContent, only.join())
    t.strictSame(result, only.length === 1
      ? { content: [{ type: 'text', text: '{"result":[{"label":"a"},{"label":"b"}]}' }], structuredContent: { result: [{ label: 'a' }, { label: 'b' }] } }
      : { content: [{ type: 'text', text: '{"result":[{"id":1,"label":"a"},{"id":2,"label":"b"}]}' }], structuredContent: { result: [{ id: 1, label: 'a' }, { id: 2, label: 'b' }] } })
  }
  t.strictSame(await client.callTool({ name: 'get_version', arguments: {} }), { content: [{ type: 'text', text: '{"version":"1.2.3"}' }], structuredContent: { version: '1.2.3' } })
  const only = await connect(t, await smallApp(t), {})
  t.strictSame((await only.listTools()).tools.map((tool) => tool.name), ['get_tags'])
})

test('a tool without an output schema sends its reply as text alone', async (t) => {
  const origin = await smallApp(t, { include: () => true })
  const client = await connect(t, origin, {})
  t.strictSame(await client.callTool({ name: 'get_health', arguments: {} }), { content: [{ type: 'text', text: 'ok' }] })
})

/**
 * What fast-json-stringify writes where the handler's value is not what the schema says: a field's schema, the
 * handler's value, and the value the route sends.
 */
const COERCED: Array<[string, Record<string, unknown>, unknown, unknown]> = [
  ['a null integer is written 0, under minimum 1', { type: 'integer', minimum: 1 }, null, 0],
  ['an integer out of range is written as it is', { type: 'integer', exclusiveMinimum: 0, maximum: 9 }, 0, 0],
  ['a number out of range and off its multiple is written as it is', { type: 'number', maximum: 0.2, multipleOf: 0.5 }, 0.3, 0.3],
  ['an infinite number is written null', { type: 'number' }, Infinity, null],
  ['a null string is written "", under minLength and pattern', { type: 'string', minLength: 1, pattern: '^[a-z]+$' }, null, ''],
  ['a string off its pattern and past its maxLength is written as it is', { type: 'string', pattern: '^[a-z]+$', maxLength: 2 }, 'ABC', 'ABC'],
  ['a string of no format is written as it is', { type: 'string', format: 'email' }, 'nobody', 'nobody'],
  ['a null date-time is written ""', { type: 'string', format: 'date-time' }, null, ''],
  ['a null boolean is written false, out of its enum', { type: 'boolean', enum: [true] }, null, false],
  ['a string out of its enum is written as it is', { type: 'string', enum: ['open', 'closed'] }, 'archived', 'archived'],
  ['a null integer is written 0, which its negation refuses', { type: 'integer', not: { const: 0 } }, null, 0],
  ['a null array is written [], under minItems', { type: 'array', items: { type: 'integer' }, minItems: 1 }, null, []],
  ['repeated items past maxItems are written as they are', { type: 'array', items: { type: 'integer' }, uniqueItems: true, maxItems: 1 }, [1, 1], [1, 1]],
  ['a null object is written {}, without its required property', { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, null, {}],
  ['an empty object is written {}, under minProperties', { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 1 }, {}, {}],
  ['a null tested by a condition is written as its branch has it, which the condition refuses', { if: { type: 'null' }, then: { type: 'integer' }, else: { type: 'string' } }, null, 0],
  ['a value of one of two choices that overlap without their checks', { oneOf: [{ type: 'integer', maximum: 2 }, { type: 'integer', minimum: 5 }] }, 1, 1]
]

test('every result matches its tool\'s output schema, by the SDK client\'s own check, whatever fast-json-stringify made of the handler\'s value', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'coerced', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { include: () => true, mode: 'routes' })
  for (const [index, [, schema, value]] of COERCED.entries()) {
    for (const restrictFields of [true, false]) {
      const operationId = `${restrictFields ? 'restricted' : 'plain'}${index}`
      const response = { 200: { type: 'object', properties: { value: schema } } }
      app.get(`/${operationId}`, { restrictFields, schema: { operationId, response } }, async () => ({ value }))
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const client = await connect(t, app.listeningOrigin, {})
  await client.listTools()
  for (const [index, [label, , , written]] of COERCED.entries()) {
    const expected = { content: [{ type: 'text', text: JSON.stringify({ value: written }) }], structuredContent: { value: written } }
    const calls: Array<[string, Record<string, unknown>]> = [[`restricted${index}`, {}], [`plain${index}`, {}], [`restricted${index}`, { only: ['value'] }]]
    for (const [name, args] of calls) {
      // The SDK's client refuses a result its tool's output schema refuses: its message is the failure's.
      const result = await client.callTool({ name, arguments: args }).catch((error: Error) => error.message)
      t.strictSame(result, expected, `${label}: ${name} ${JSON.stringify(args)}`)
    }
  }
})

test('the endpoint loads the MCP SDK and its tool servers on its first request, not before: an app nobody calls does not hold them', async (t) => {
  const loaded: string[] = []
  const protocol = await import('../../lib/mcp/protocol.js')
  const toolServer = await import('../../lib/mcp/tool-server.js')
  // Each getter is read when its module is evaluated, which is when the endpoint imports it.
  const { default: endpoint } = await t.mockImport<typeof import('../../lib/mcp/index.js')>('../../lib/mcp/index.js', {
    '../../lib/mcp/protocol.js': { get answer () { loaded.push('protocol'); return protocol.answer } },
    '../../lib/mcp/tool-server.js': { get ToolServers () { loaded.push('tool servers'); return toolServer.ToolServers } }
  })
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'lazy', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(endpoint)
  app.get('/tags', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  await app.ready()
  t.teardown(() => app.close())
  t.strictSame((await app.inject('/tags')).json(), { id: 1 })
  const refused = await app.inject({ method: 'GET', url: '/mcp' })
  t.strictSame([loaded, refused.statusCode], [[], 405], 'nothing loaded once ready, after a REST request, or a request the endpoint refuses')
  const listed = async (): Promise<unknown> => (await app.inject({
    method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  })).json().result.tools.map((tool: { name: string }) => tool.name)
  t.strictSame(await Promise.all([listed(), listed()]), [['get_tags'], ['get_tags']])
  t.strictSame(loaded, ['protocol', 'tool servers'], 'loaded once, on the first request')
})

test('the endpoint may be registered before @fastify/swagger, as @fastify/autoload may load them: the plugin before it, the routes after both', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp)
  await app.register(swagger, { openapi: { info: { title: 'autoloaded', version: '1' } } })
  app.get('/tags/:id', { restrictFields: true, schema: { operationId: 'getTag', response: { 200: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' } } } } } },
    async (request) => ({ id: (request.params as { id: string }).id, label: 'a' }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const client = await connect(t, app.listeningOrigin, {})
  t.strictSame((await client.listTools()).tools.map((tool) => tool.name), ['getTag'])
  t.strictSame(await client.callTool({ name: 'getTag', arguments: { id: 't1', only: ['label'] } }), { content: [{ type: 'text', text: '{"label":"a"}' }], structuredContent: { label: 'a' } })
})

test('options are checked at registration, and the endpoint needs the plugin and @fastify/swagger', async (t) => {
  const bad: Array<[RestrictedFieldsMcpOptions, string]> = [
    [{ path: 'mcp' }, "The path option should be a path starting with '/', instead got mcp"],
    [{ include: 'all' as never }, 'The include option should be a function'],
    [{ forwardHeaders: 'cookie' as never }, 'The forwardHeaders option should be an array of non-empty strings'],
    [{ allowedOrigins: [''] }, 'The allowedOrigins option should be an array of non-empty strings'],
    [{ maxArgumentsLength: 0 }, 'The maxArgumentsLength option should be a positive integer, instead got 0'],
    [{ bodyLimit: 1.5 }, 'The bodyLimit option should be a positive integer, instead got 1.5'],
    [{ mode: 'tools' as never }, "The mode option should be one of 'routes', 'discovery', instead got 'tools'"]
  ]
  for (const [options, message] of bad) {
    const app = Fastify()
    await app.register(fastifyRestrictedFields)
    await t.rejects(async () => await app.register(restrictedFieldsMcp, options), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION', message })
    await app.close()
  }
  const withoutSwagger = Fastify()
  await withoutSwagger.register(fastifyRestrictedFields)
  await withoutSwagger.register(restrictedFieldsMcp)
  await t.rejects(async () => await withoutSwagger.ready(), { code: 'FST_RESTRICTED_FIELDS_MCP_WITHOUT_DOCUMENT' })
  const withoutPlugin = Fastify()
  await t.rejects(async () => await withoutPlugin.register(restrictedFieldsMcp), { code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED' })
})
