import { test } from 'tap'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { build } from '../helpers.js'
import { records, userSchema } from '../fixtures.js'

const schema = { response: { 200: userSchema } }

test('only opted-in routes get hooks; other routes are left exactly as they were', async (t) => {
  const app = await build(t)
  const seen: Record<string, unknown> = {}
  app.addHook('onRoute', (route) => { seen[`${String(route.method)} ${route.url}`] = [route.preValidation, route.preSerialization] })
  app.get('/off', { schema }, async () => records[0])
  app.get('/false', { schema, restrictFields: false }, async () => records[0])
  app.get('/on', { schema, restrictFields: true }, async () => records[0])
  await app.ready()
  t.strictSame(seen['GET /off'], [undefined, undefined])
  t.strictSame(seen['GET /false'], [undefined, undefined])
  t.equal((await app.inject('/off?only=id')).json().name, 'Ada', 'restriction parameters mean nothing to other routes')
  t.equal((await app.inject('/on?only=id')).body, '{"id":1}')
})

test('config.restrictFields is the same as the route option', async (t) => {
  const app = await build(t)
  app.get('/c', { schema, config: { restrictFields: { unknownFields: 'ignore' } } }, async () => records[0])
  t.equal((await app.inject('/c?only=id,zzz')).body, '{"id":1}')
})

test('a wrong option value fails when the route is declared, naming the route', async (t) => {
  const app = await build(t)
  t.throws(() => app.get('/bad', { schema, restrictFields: 'yes' as unknown as boolean }, async () => records[0]), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: "fastify-restricted-fields, route GET /bad: `restrictFields` option should be true, false or an options object, instead got 'yes'"
  })
})

test('a wrong plugin option fails registration', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await t.rejects(async () => { await app.register(fastifyRestrictedFields, { unknownFields: 'warn' as 'ignore' }) }, {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: "fastify-restricted-fields: `unknownFields` option should be one of 'reject', 'ignore', instead got 'warn'"
  })
})

test('existing route hooks are kept, whether a function or an array', async (t) => {
  const app = await build(t)
  const calls: string[] = []
  app.get('/one', {
    schema,
    restrictFields: true,
    preValidation: (_request, _reply, done) => { calls.push('preValidation'); done() },
    preSerialization: (_request, _reply, payload, done) => { calls.push('preSerialization'); done(null, payload) }
  }, async () => records[0])
  app.get('/many', {
    schema,
    restrictFields: true,
    preValidation: [(_request, _reply, done) => { calls.push('preValidation[]'); done() }],
    preSerialization: [(_request, _reply, payload, done) => { calls.push('preSerialization[]'); done(null, payload) }]
  }, async () => records[0])
  t.equal((await app.inject('/one?only=id')).body, '{"id":1}')
  t.equal((await app.inject('/many?only=id')).body, '{"id":1}')
  t.strictSame(calls, ['preValidation', 'preSerialization', 'preValidation[]', 'preSerialization[]'])
})

test('HEAD requests are validated like GET and answer without a body', async (t) => {
  const app = await build(t)
  app.get('/u', { schema, restrictFields: true }, async () => records[0])
  const head = await app.inject({ method: 'HEAD', url: '/u?only=id' })
  t.strictSame([head.statusCode, head.body, head.headers['content-length']], [200, '', '8'])
  t.equal((await app.inject({ method: 'HEAD', url: '/u?only=nope' })).statusCode, 400)
})

test('the HEAD route Fastify adds restricts as its GET route does, with a strict querystring schema too', async (t) => {
  const app = await build(t)
  const querystring = { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false }
  app.get('/q', { schema: { ...schema, querystring }, restrictFields: { fieldSets: { brief: ['id', 'name'] } } }, async () => records[0])
  for (const url of ['/q?only=id', '/q?only=@brief&page=2', '/q?defer=tags,profile']) {
    const [get, head] = [await app.inject(url), await app.inject({ method: 'HEAD', url })]
    t.strictSame([head.statusCode, head.body, head.headers['content-length']], [200, '', String(Buffer.byteLength(get.body))], url)
  }
  t.equal((await app.inject({ method: 'HEAD', url: '/q?only=nope' })).statusCode, 400)
  t.equal((await app.inject({ method: 'HEAD', url: '/q?page=x' })).statusCode, 400, 'the querystring schema still validates')
})

test('a HEAD route declared with a schema of its own restricts by that schema', async (t) => {
  const app = await build(t)
  const own = { response: { 200: { type: 'object', properties: { code: { type: 'string' }, size: { type: 'integer' } } } } }
  app.get('/h', { schema, restrictFields: true, exposeHeadRoute: false }, async () => records[0])
  app.head('/h', { schema: own, restrictFields: true }, async () => ({ code: 'abc', size: 3 }))
  t.equal((await app.inject({ method: 'HEAD', url: '/h?only=size' })).headers['content-length'], String('{"size":3}'.length))
  t.equal((await app.inject({ method: 'HEAD', url: '/h?only=id' })).statusCode, 400, 'the GET route\'s fields are not the HEAD route\'s')
  t.equal((await app.inject('/h?only=id')).body, '{"id":1}')
})

test('a shared schema added after some routes are declared is read by the routes declared after it', async (t) => {
  const app = await build(t)
  app.addSchema({ $id: 'first', type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } })
  app.get('/first', { restrictFields: true, schema: { response: { 200: { $ref: 'first#' } } } }, async () => ({ a: 1, b: 2 }))
  app.get('/again', { restrictFields: true, schema: { response: { 200: { $ref: 'first#' } } } }, async () => ({ a: 3, b: 4 }))
  app.addSchema({ $id: 'second', type: 'object', properties: { c: { type: 'integer' }, d: { type: 'integer' } } })
  app.get('/second', { restrictFields: true, schema: { response: { 200: { $ref: 'second#' } } } }, async () => ({ c: 5, d: 6 }))
  t.equal((await app.inject('/first?only=b')).body, '{"b":2}')
  t.equal((await app.inject('/again?only=a')).body, '{"a":3}')
  t.equal((await app.inject('/second?only=d')).body, '{"d":6}')
})

test('error bodies pass through untouched, including a custom error handler\'s', async (t) => {
  const app = await build(t)
  app.setErrorHandler((error, _request, reply) => {
    reply.code(418).send({ id: 0, name: 'teapot', detail: (error as Error).message })
  })
  app.get('/boom', { schema, restrictFields: true }, async () => { throw new Error('boom') })
  app.get('/fine', {
    restrictFields: true,
    schema: { response: { 200: userSchema, 409: { type: 'object', properties: { id: {}, name: {} } } } }
  }, async (_request, reply) => reply.code(409).send({ id: 9, name: 'conflict' }))
  t.strictSame((await app.inject('/boom?only=id')).json(), { id: 0, name: 'teapot', detail: 'boom' })
  t.strictSame((await app.inject('/fine?only=id')).json(), { id: 9, name: 'conflict' })
  t.strictSame((await app.inject('/fine?only=zzz')).json(), { id: 0, name: 'teapot', detail: "Unknown field 'zzz' in query parameter 'only'; allowed fields: id, name, email, role, profile, tags" })
})

test('a 2xx schema restricts the successes without a schema of their own', async (t) => {
  const app = await build(t)
  app.get('/created', {
    restrictFields: true,
    schema: { response: { '2xx': userSchema } }
  }, async (_request, reply) => reply.code(201).send(records[0]))
  t.strictSame([(await app.inject('/created?only=id')).statusCode, (await app.inject('/created?only=id')).body], [201, '{"id":1}'])
})

test('routes in encapsulated plugins with a prefix are restricted', async (t) => {
  const app = await build(t)
  await app.register(async (child) => {
    child.addSchema({ $id: 'inner', type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } })
    child.get('/', { restrictFields: true, schema: { response: { 200: { $ref: 'inner#' } } } }, async () => ({ a: 1, b: 2 }))
  }, { prefix: '/v1' })
  t.equal((await app.inject('/v1?only=b')).body, '{"b":2}')
  t.equal((await app.inject('/v1/?only=b')).body, '{"b":2}')
})

test('a route declared before the plugin is awaited is not seen', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  app.get('/early', { schema, restrictFields: true }, async () => records[0])
  await app.register(fastifyRestrictedFields)
  t.equal((await app.inject('/early?only=id')).json().name, 'Ada')
})

test('a route that declares no fields fails at declaration', async (t) => {
  const app = await build(t)
  t.throws(() => app.get('/none', { restrictFields: true }, async () => ({})), { code: 'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS' })
})

test('with global, every route that sends records opts in, whatever its method; restrictFields false and routes without records are left as they were', async (t) => {
  const app = await build(t, { global: true })
  app.addSchema({ $id: 'user', ...userSchema })
  app.get('/users', { schema: { response: { 200: { type: 'array', items: { $ref: 'user#' } } } } }, async () => records)
  app.post('/users', { schema: { response: { 201: { $ref: 'user#' } } } }, async (_request, reply) => reply.code(201).send(records[0]))
  app.put('/users/1', { schema: { response: { 200: userSchema } } }, async () => records[0])
  app.delete('/users', { schema: { response: { 200: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: userSchema } } } } } },
    async () => ({ count: 1, results: [records[0]] }))
  app.get('/opted-out', { restrictFields: false, schema }, async () => records[0])
  app.get('/text', { schema: { response: { 200: { type: 'string' } } } }, async () => 'only=id')
  app.get('/no-schema', async () => ({ id: 1, name: 'Ada' }))
  app.get('/own', { restrictFields: { unknownFields: 'ignore' }, schema }, async () => records[0])
  t.equal((await app.inject('/users?only=id')).body, '[{"id":1},{"id":2}]')
  const created = await app.inject({ method: 'POST', url: '/users?defer=email,profile,tags' })
  t.strictSame([created.statusCode, created.body], [201, '{"id":1,"name":"Ada","role":"member"}'], 'a POST restricts its reply like a GET')
  const unknown = await app.inject({ method: 'PUT', url: '/users/1?only=nope' })
  t.strictSame([unknown.statusCode, unknown.json().code], [400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'])
  t.equal((await app.inject({ method: 'DELETE', url: '/users?only=name' })).body, '{"count":1,"results":[{"name":"Ada"}]}')
  t.equal((await app.inject('/opted-out?only=id')).json().name, 'Ada', 'restrictFields: false leaves the route out')
  t.equal((await app.inject('/text?only=id')).body, 'only=id')
  t.equal((await app.inject('/no-schema?only=id')).body, '{"id":1,"name":"Ada"}')
  t.equal((await app.inject('/own?only=id,zzz')).body, '{"id":1}', 'a route\'s own options still apply')
})
