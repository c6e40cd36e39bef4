import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import type { SwaggerOptions } from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import type { RestrictedFieldsMcpOptions } from '../../lib/mcp/index.js'
import { RouteBindings } from '../../lib/mcp/routes.js'
import { OPERATION_KEY } from '../../lib/openapi/types.js'

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

let nextId = 1
async function rpc (app: FastifyInstance, method: string, params: unknown): Promise<any> {
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: { jsonrpc: '2.0', id: nextId++, method, params } })
  return response.json()
}
const toolNames = async (app: FastifyInstance): Promise<string[]> => (await rpc(app, 'tools/list', {})).result.tools.map((tool: { name: string }) => tool.name)
const callTool = async (app: FastifyInstance, name: string, args: unknown): Promise<any> => (await rpc(app, 'tools/call', { name, arguments: args })).result
const callOperation = async (app: FastifyInstance, operation: string, args: unknown): Promise<any> => await callTool(app, 'call_operation', { operation, arguments: args })

const user = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, ssn: { type: 'string' } } }
const idParams = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }

/**
 * An app with the plugin, swagger (`swaggerOptions`), the endpoint (`mcp`), and the routes `declare` adds;
 * `reached` lists the routes each call ran.
 */
async function app (
  t: Test,
  swaggerOptions: SwaggerOptions,
  mcp: RestrictedFieldsMcpOptions,
  declare: (app: FastifyInstance, reach: (request: FastifyRequest) => void) => Promise<void>
): Promise<{ app: FastifyInstance, reached: string[] }> {
  const reached: string[] = []
  const instance = Fastify()
  await instance.register(swagger, swaggerOptions)
  await instance.register(fastifyRestrictedFields, { hiddenFields: () => ['ssn'] })
  await instance.register(restrictedFieldsMcp, mcp)
  await declare(instance, (request) => { reached.push(`${request.method} ${request.routeOptions.url as string}`) })
  await instance.ready()
  t.teardown(() => instance.close())
  return { app: instance, reached }
}

const info = { title: 't', version: '1' }
const based = (stripBasePath?: boolean): SwaggerOptions => ({ openapi: { openapi: '3.1.0', info, servers: [{ url: 'https://api.example.com/v1' }] }, ...stripBasePath === undefined ? {} : { stripBasePath } })

/** The public route under /v1, and an internal one at the path a stripped base path makes of it. */
function publicAndInternal (internalFirst: boolean, hideInternal: boolean) {
  return async (instance: FastifyInstance, reach: (request: FastifyRequest) => void): Promise<void> => {
    const internal = (): void => {
      instance.get('/users/:id', { schema: { operationId: 'internalUser', ...hideInternal ? { hide: true } : {}, params: idParams } }, async (request) => {
        reach(request)
        return { route: 'internal', ssn: '123-45-6789', salary: 99000 }
      })
    }
    if (internalFirst) internal()
    instance.get('/v1/users/:id', { restrictFields: true, schema: { operationId: 'getUser', params: idParams, response: { 200: user } } }, async (request) => {
      reach(request)
      return { id: (request.params as { id: string }).id, name: 'ann', ssn: '123-45-6789' }
    })
    if (!internalFirst) internal()
  }
}

const ann = (id: string): unknown => ({ content: [{ type: 'text', text: JSON.stringify({ id, name: 'ann' }) }], structuredContent: { id, name: 'ann' } })

test('with a base path stripped from the document, a call runs its own route under the base path, never the route at the stripped path', async (t) => {
  for (const mode of ['routes', 'discovery'] as const) {
    const { app: instance, reached } = await app(t, based(), { mode }, publicAndInternal(true, true))
    t.strictSame(Object.keys((instance as unknown as { swagger: () => { paths: object } }).swagger().paths), ['/users/{id}'], 'the document path lost its base path')
    const result = mode === 'routes' ? await callTool(instance, 'getUser', { id: 7 }) : await callOperation(instance, 'getUser', { id: 7 })
    t.strictSame(result, ann('7'), mode)
    t.strictSame(reached, ['GET /v1/users/:id'], `${mode}: the internal route is never reached`)
  }
})

test('with the base path kept in the document, a call runs the same route', async (t) => {
  const { app: instance, reached } = await app(t, based(false), { mode: 'routes' }, publicAndInternal(true, true))
  t.strictSame(Object.keys((instance as unknown as { swagger: () => { paths: object } }).swagger().paths), ['/v1/users/{id}'])
  t.strictSame(await callTool(instance, 'getUser', { id: 7 }), ann('7'))
  t.strictSame(reached, ['GET /v1/users/:id'])
})

test('a route of a plugin registered under a prefix runs at its prefixed URL', async (t) => {
  const routes: FastifyPluginAsync = async (child) => {
    child.get('/users/:id', { restrictFields: true, schema: { operationId: 'getUser', params: idParams, response: { 200: user } } }, async (request) => ({ id: (request.params as { id: string }).id, name: 'ann', ssn: 'x' }))
  }
  const { app: instance } = await app(t, { openapi: { info } }, { mode: 'routes' }, async (instance, reach) => {
    instance.addHook('onRequest', async (request) => { if (request.url !== '/mcp') reach(request) })
    await instance.register(routes, { prefix: '/api/v2' })
  })
  t.strictSame(await callTool(instance, 'getUser', { id: 'a' }), ann('a'))
  // And with a base path that the prefix begins with, stripped.
  const { app: based2, reached } = await app(t, { openapi: { info, servers: [{ url: '/api' }] } }, { mode: 'routes' }, async (instance, reach) => {
    instance.addHook('onRequest', async (request) => { if (request.url !== '/mcp') reach(request) })
    await instance.register(routes, { prefix: '/api/v2' })
  })
  t.strictSame(Object.keys((based2 as unknown as { swagger: () => { paths: object } }).swagger().paths), ['/v2/users/{id}'])
  t.strictSame(await callTool(based2, 'getUser', { id: 'b' }), ann('b'))
  t.strictSame(reached, ['GET /api/v2/users/:id'])
})

test('two routes whose document paths collide: the operation the document shows runs its own route', async (t) => {
  // The public route is documented last, so its operation is the one at /users/{id}.
  const last = await app(t, based(), { mode: 'routes', include: () => true }, publicAndInternal(true, false))
  t.strictSame(await toolNames(last.app), ['getUser'])
  t.strictSame(await callTool(last.app, 'getUser', { id: 3 }), ann('3'))
  t.strictSame(last.reached, ['GET /v1/users/:id'])
  // The internal route documented last: its operation is the document's, and its tool runs it, not the public one.
  const first = await app(t, based(), { mode: 'routes', include: () => true }, publicAndInternal(false, false))
  t.strictSame(await toolNames(first.app), ['internalUser'])
  t.equal((await callTool(first.app, 'getUser', { id: 3 }) as unknown), undefined, 'no tool of the operation the document no longer shows')
  t.strictSame((await callTool(first.app, 'internalUser', { id: 3 })).content, [{ type: 'text', text: '{"route":"internal","ssn":"123-45-6789","salary":99000}' }])
  t.strictSame(first.reached, ['GET /users/:id'])
  // By default only the opted-in routes are tools: the internal one is none.
  const restricted = await app(t, based(), { mode: 'discovery' }, publicAndInternal(false, false))
  t.strictSame((await callOperation(restricted.app, 'getUser', { id: 3 })).content[0].text, '{"statusCode":400,"code":"FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS","error":"Bad Request","message":"Unknown operation \'getUser\'; find_operations finds them"}')
  t.strictSame(restricted.reached, [])
})

test('a path argument lands in its own parameter of its own route, whatever it holds', async (t) => {
  const { app: instance, reached } = await app(t, based(), { mode: 'routes' }, async (instance, reach) => {
    await publicAndInternal(true, true)(instance, reach)
    // Siblings a climbing or cut value would reach.
    for (const url of ['/v1/users/:id/secret', '/v1/admin', '/admin', '/v1', '/v1/users']) {
      instance.get(url, { schema: { hide: true } }, async (request) => {
        reach(request)
        return { route: url, ssn: '123-45-6789' }
      })
    }
  })
  const values = ['7/secret', '../admin', '../../admin', '7?id=1', '7#x', '%2e%2e', '%2E%2E%2Fadmin', '..%2fadmin', '?', '#', '/', '7/../../admin', 'a b']
  for (const id of values) t.strictSame(await callTool(instance, 'getUser', { id }), ann(id), id)
  for (const id of ['..', '.', '']) {
    t.strictSame((await callTool(instance, 'getUser', { id })).content[0].text, '{"statusCode":400,"code":"FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS","error":"Bad Request","message":"Argument \'id\' must be a path segment: neither empty, \'.\' nor \'..\'"}', JSON.stringify(id))
  }
  t.strictSame(reached, values.map(() => 'GET /v1/users/:id'), 'no other route is ever reached')
})

test('an operation no route bound (declared before the endpoint) is not a tool', async (t) => {
  const instance = Fastify()
  await instance.register(swagger, { openapi: { info } })
  await instance.register(fastifyRestrictedFields)
  instance.get('/early/:id', { restrictFields: true, schema: { operationId: 'early', params: idParams, response: { 200: user } } }, async () => ({ id: '1' }))
  await instance.register(restrictedFieldsMcp, { mode: 'routes' })
  instance.get('/late/:id', { restrictFields: true, schema: { operationId: 'late', params: idParams, response: { 200: user } } }, async () => ({ id: '2' }))
  await instance.ready()
  t.teardown(() => instance.close())
  t.strictSame(await toolNames(instance), ['late'])
  t.strictSame((await rpc(instance, 'tools/call', { name: 'early', arguments: { id: 1 } })).error, { code: -32602, message: 'MCP error -32602: Unknown tool: early' })
})

test('the endpoint writes nothing into the document: every operation is as @fastify/swagger documents it without the endpoint', async (t) => {
  const documents: unknown[] = []
  for (const withEndpoint of [false, true]) {
    const instance = Fastify()
    await instance.register(swagger, based())
    await instance.register(fastifyRestrictedFields)
    if (withEndpoint) await instance.register(restrictedFieldsMcp, { mode: 'routes' })
    instance.get('/v1/tasks/:id', { restrictFields: true, schema: { operationId: 'getTask', params: idParams, response: { 200: user } } }, async () => ({ id: '1', name: 'ann' }))
    instance.get('/v1/tasks/:id/image', { schema: { params: idParams, response: { 200: { type: 'string' } } } }, async () => 'png')
    await instance.ready()
    t.teardown(() => instance.close())
    // The plugin's own key holds a number of its own, which differs between the two apps.
    const document = JSON.parse(JSON.stringify((instance as unknown as { swagger: () => unknown }).swagger()))
    document.paths['/tasks/{id}'].get[OPERATION_KEY] = 'id'
    documents.push(document)
    if (withEndpoint) t.strictSame(await callTool(instance, 'getTask', { id: 1 }), ann('1'), 'and the tool runs its route')
  }
  t.strictSame(documents[1], documents[0])
})

test('an operation runs the one route declared that @fastify/swagger documents at its path with its id; none or several, and it runs none', async (t) => {
  const bindings = new RouteBindings()
  bindings.record('/v1/a/:id(^\\d+)-:part', { operationId: 'getA' })
  bindings.record('/v1/users/:id', { operationId: 'getUser' })
  bindings.record('/users/:id', { operationId: 'internalUser' })
  bindings.record('/v1/plain', undefined)
  bindings.record('/plain', { operationId: '' })
  bindings.record('/v1/hidden', { operationId: 'hidden', hide: true })
  const a = { url: '/v1/a/:id(^\\d+)-:part', template: '/v1/a/{id}-{part}', params: ['id', 'part'] }
  const user = { url: '/v1/users/:id', template: '/v1/users/{id}', params: ['id'] }
  const internal = { url: '/users/:id', template: '/users/{id}', params: ['id'] }
  const plain = { url: '/v1/plain', template: '/v1/plain', params: [] }
  const bare = {}
  const based = { openapi: '3.1.0', servers: [{ url: 'https://api.example.com/{version}', variables: { version: { default: 'v1' } } }] }
  const slashed = { openapi: '3.1.0', servers: [{ url: '/v1/' }] }
  const cases: Array<[string, Record<string, unknown>, string, Record<string, unknown>, unknown]> = [
    ['a path as it is, its parameters named', { operationId: 'getA' }, '/v1/a/{id}-{part}', bare, a],
    ['a path with the base path stripped', { operationId: 'getA' }, '/a/{id}-{part}', based, a],
    ['also when the server says so with a variable, and the path is kept too', { operationId: 'getA' }, '/v1/a/{id}-{part}', based, a],
    ['a base path that ends with a slash leaves no slash', { operationId: 'getUser' }, 'users/{id}', slashed, user],
    ['two routes at one path, told apart by their ids', { operationId: 'getUser' }, '/users/{id}', based, user],
    ['the other one', { operationId: 'internalUser' }, '/users/{id}', based, internal],
    ['an id that no route at the path has: none', { operationId: 'renamed' }, '/users/{id}', based, undefined],
    ['no id: the route without one, an empty one being none', {}, '/v1/plain', bare, plain],
    ['two routes without an id at one path: none', {}, '/plain', based, undefined],
    ['a path no route has: none', { operationId: 'getUser' }, '/v2/users/{id}', based, undefined],
    ['a route hidden from the document makes no operation', { operationId: 'hidden' }, '/v1/hidden', bare, undefined]
  ]
  for (const [title, operation, path, document, expected] of cases) {
    t.strictSame(bindings.routeOf(operation, path, document), expected, title)
  }
  t.equal(bindings.routeOf({ operationId: 'getUser' }, '/v1/users/{id}', bare), bindings.routeOf({ operationId: 'getUser' }, '/v1/users/{id}', based), 'one route, made once')
  bindings.record('/v1/users/:id', { operationId: 'getUser' })
  t.equal(bindings.routeOf({ operationId: 'getUser' }, '/users/{id}', based), undefined, 'a route declared since, at the same path with the same id: none')
})

test('a route parameter its operation does not document is still an argument a call must fill, in the path', async (t) => {
  const { app: instance, reached } = await app(t, { openapi: { info } }, { mode: 'routes', include: () => true }, async (instance, reach) => {
    const echo = async (request: FastifyRequest): Promise<unknown> => {
      reach(request)
      return { params: request.params, query: request.query }
    }
    instance.get('/things/:id/parts/:part', { schema: { operationId: 'getPart', params: { type: 'object', properties: { id: { type: 'string' } } } } }, echo)
    instance.get('/odd/:key', { schema: { operationId: 'getOdd', params: { type: 'object', properties: {} }, querystring: { type: 'object', properties: { key: { type: 'integer' } } } } }, echo)
    // The caller's documents are made for an app with an opted-in route.
    instance.get('/opted', { restrictFields: true, schema: { operationId: 'opted', response: { 200: user } } }, async () => ({}))
  })
  const tools = (await rpc(instance, 'tools/list', {})).result.tools
  t.strictSame(tools.slice(0, 2).map((tool: { inputSchema: unknown }) => tool.inputSchema), [
    { type: 'object', properties: { id: { type: 'string' }, part: { type: 'string' } }, required: ['id', 'part'], additionalProperties: false },
    { type: 'object', properties: { key: { type: ['integer', 'null'] } }, required: ['key'], additionalProperties: false }
  ])
  t.strictSame((await callTool(instance, 'getPart', { id: 'a' })).content[0].text, '{"statusCode":400,"code":"FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS","error":"Bad Request","message":"Missing argument \'part\'"}')
  t.strictSame((await callTool(instance, 'getPart', { id: 'a', part: 'b/c' })).content[0].text, '{"params":{"id":"a","part":"b/c"},"query":{}}')
  t.strictSame((await callTool(instance, 'getOdd', { key: 5 })).content[0].text, '{"params":{"key":"5"},"query":{}}')
  t.strictSame(reached, ['GET /things/:id/parts/:part', 'GET /odd/:key'])
})
