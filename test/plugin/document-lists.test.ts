import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { OpenAPIBackend } from 'openapi-backend'
import fastifyRestrictedFields from '../../lib/index.js'
import type { RestrictedFieldsOptions } from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

type Json = Record<string, any>

const text = { type: 'string' }
const repo = {
  type: 'object',
  required: ['id', 'name', 'owner', 'repo'],
  properties: {
    id: { type: 'integer' },
    name: text,
    owner: { type: 'object', properties: { login: text, email: text, address: { type: 'object', properties: { city: text, street: text } } } },
    repo: { type: 'object', properties: { id: { type: 'integer' }, owner: { type: 'object', properties: { login: text } } } }
  }
}
const record = { id: 1, name: 'n', owner: { login: 'o', email: 'e', address: { city: 'c', street: 's' } }, repo: { id: 2, owner: { login: 'r' } } }
const isStaff = (request: FastifyRequest): boolean => request.headers['x-staff'] === 'yes'
const STAFF = { 'x-staff': 'yes' }
const deeper = (depth: number): Json => ({ type: 'string', pattern: `^[^.]+(\\.[^.]+){${depth},}$` })

/** An app whose rule hides `owner.email` and `owner.address.street` from callers who are not staff, its documents served by Swagger UI. */
async function reposApp (t: Test, options: RestrictedFieldsOptions = { maxListedFields: 10 }, version = '3.0.3'): Promise<FastifyInstance> {
  const app = Fastify()
  t.teardown(() => app.close())
  const info = { title: 'repos', version: '1.0.0' }
  await app.register(swagger, version === '2.0' ? { swagger: { info } } : { openapi: { openapi: version, info } })
  await app.register(fastifyRestrictedFields, { ...options, hiddenFields: (request) => isStaff(request) ? [] : ['owner.email', 'owner.address.street'] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  await app.register(restrictedFieldsMcp, { mode: 'routes' })
  app.get('/repos/:id', { restrictFields: true, schema: { operationId: 'getRepo', response: { 200: repo } } }, async () => record)
  app.get('/small/:id', { restrictFields: { maxListedFields: 1000 }, schema: { operationId: 'getSmall', response: { 200: repo } } }, async () => record)
  await app.ready()
  return app
}

const documentOf = async (app: FastifyInstance, headers = {}): Promise<Json> => (await app.inject({ url: '/documentation/json', headers })).json()

/** The schema the items of a parameter refer to, or the items themselves. */
function itemsOf (document: Json, path: string, name: string): Json {
  const parameter = document.paths[path].get.parameters.find((parameter: Json) => parameter.name === name)
  const items = parameter.schema?.items ?? parameter.items
  return typeof items.$ref === 'string' ? document.components.schemas[items.$ref.split('/').at(-1)] : items
}

test('a list past maxListedFields names the depths that fit and takes deeper paths by a pattern, without a hidden name', async (t) => {
  const app = await reposApp(t)
  const anonymous = await documentOf(app)
  t.strictSame(itemsOf(anonymous, '/repos/{id}', 'only'), {
    anyOf: [{ type: 'string', enum: ['id', 'name', 'owner', 'owner.login', 'owner.address', 'repo', 'repo.id', 'repo.owner', '*'] }, deeper(2)]
  })
  t.equal(itemsOf(anonymous, '/repos/{id}', 'defer'), itemsOf(anonymous, '/repos/{id}', 'only'), 'one list for both parameters')
  t.notMatch(JSON.stringify(anonymous), /email|street/, 'no hidden name, in a list or anywhere')
  t.strictSame(itemsOf(await documentOf(app, STAFF), '/repos/{id}', 'only'), {
    anyOf: [{ type: 'string', enum: ['id', 'name', 'owner', 'owner.login', 'owner.email', 'owner.address', 'repo', 'repo.id', 'repo.owner', '*'] }, deeper(2)]
  }, 'staff are offered the fields hidden from others')
  t.strictSame(itemsOf(anonymous, '/small/{id}', 'only'), {
    type: 'string',
    enum: ['id', 'name', 'owner', 'owner.login', 'owner.address', 'owner.address.city', 'repo', 'repo.id', 'repo.owner', 'repo.owner.login', '*']
  }, 'a route\'s own maxListedFields lists them all')
})

test('a validator reading a caller\'s document takes the deep paths the route answers, and refuses a name the list does not have', async (t) => {
  const app = await reposApp(t)
  const api = new OpenAPIBackend({ definition: await documentOf(app) as any, strict: true })
  await api.init()
  const query = 'only=owner.address.city&only=repo.owner.login&only=name&defer=repo.owner.login'
  t.strictSame(api.validateRequest({ method: 'get', path: '/repos/1', query, headers: {} }).errors ?? [], [])
  const response = await app.inject(`/repos/1?${query}`)
  t.strictSame([response.statusCode, response.json()], [200, { name: 'n', owner: { address: { city: 'c' } }, repo: { owner: {} } }])
  t.strictSame(api.validateResponse(response.json(), 'getRepo', 200).errors ?? [], [])
  const refused = api.validateRequest({ method: 'get', path: '/repos/1', query: 'only=nope', headers: {} }).errors ?? []
  t.ok(refused.length > 0, 'a top-level name outside the list is refused, as the route refuses it')
  t.strictSame((await app.inject('/repos/1?only=nope')).statusCode, 400)
})

test('the typed client is generated alike from a bounded document: it reads each record, never the list, so it types every path', async (t) => {
  const bounded = await reposApp(t, { maxListedFields: 1 })
  const whole = await reposApp(t, { maxListedFields: 1_000_000 })
  const [one, all] = [await documentOf(bounded, STAFF), await documentOf(whole, STAFF)]
  t.not(JSON.stringify(one.components), JSON.stringify(all.components), 'the lists differ')
  t.equal(restrictedRoutesSource(one), restrictedRoutesSource(all))
  t.strictSame(one.paths['/repos/{id}'].get['x-restricted-fields'], all.paths['/repos/{id}'].get['x-restricted-fields'])
})

test('Swagger 2.0 cannot offer a pattern beside a list: a list past the bound is any string there', async (t) => {
  const app = await reposApp(t, { maxListedFields: 10 }, '2.0')
  const document = await documentOf(app)
  const only = document.paths['/repos/{id}'].get.parameters.find((parameter: Json) => parameter.name === 'only')
  t.strictSame([only.type, only.items, only.collectionFormat], ['array', { type: 'string' }, 'multi'])
  t.strictSame(itemsOf(document, '/small/{id}', 'defer').enum,
    ['id', 'name', 'owner', 'owner.login', 'owner.address', 'owner.address.city', 'repo', 'repo.id', 'repo.owner', 'repo.owner.login'])
})

test('a route\'s own only and defer in a Swagger 2.0 querystring lose an enum past the bound', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { swagger: { info: { title: 'own', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { maxListedFields: 3 })
  const querystring = { type: 'object', properties: { page: { type: 'integer' } } }
  app.get('/repos', { restrictFields: true, schema: { querystring, response: { 200: repo } } }, async () => record)
  app.get('/few', { restrictFields: true, schema: { querystring, response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  await app.ready()
  const document = app.swagger() as Json
  const items = (path: string): unknown => document.paths[path].get.parameters.filter((parameter: Json) => parameter.name !== 'page')
    .map((parameter: Json) => [parameter.name, parameter.items])
  t.strictSame(items('/repos'), [['only', { type: 'string' }], ['defer', { type: 'string' }]])
  t.strictSame(items('/few'), [['only', { type: 'string', enum: ['id', '*'] }], ['defer', { type: 'string', enum: ['id'] }]])
})

test('the MCP tools offer the document\'s bounded list as it is, defer\'s without `*`', async (t) => {
  const app = await reposApp(t)
  const reply = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  })
  const tool = reply.json().result.tools.find((tool: Json) => tool.name === 'getRepo')
  const names = ['id', 'name', 'owner', 'owner.login', 'owner.address', 'repo', 'repo.id', 'repo.owner']
  t.strictSame([tool.inputSchema.properties.only.items, tool.inputSchema.properties.defer.items], [
    { anyOf: [{ type: 'string', enum: [...names, '*'] }, deeper(2)] },
    { anyOf: [{ type: 'string', enum: names }, deeper(2)] }
  ])
})

test('a wrong maxListedFields is refused at registration, and on a route when it is declared', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await t.rejects(async () => await app.register(fastifyRestrictedFields, { maxListedFields: 0 }), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: 'fastify-restricted-fields: `maxListedFields` option should be an integer from 1 to 1000000, instead got 0'
  })
  const other = Fastify()
  t.teardown(() => other.close())
  await other.register(fastifyRestrictedFields)
  t.throws(() => other.get('/r', { restrictFields: { maxListedFields: 2.5 }, schema: { response: { 200: repo } } }, async () => record), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: 'fastify-restricted-fields, route GET /r: `maxListedFields` option should be an integer from 1 to 1000000, instead got 2.5'
  })
})
