import { test } from 'tap'
import { Writable } from 'node:stream'
import type { Test } from 'tap'
import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'

const profile = z.object({ city: z.string(), phone: z.string() }).nullable()
const user = z.object({
  id: z.int(),
  name: z.string(),
  email: z.email().nullable(),
  profile,
  tags: z.array(z.object({ id: z.int(), label: z.string() }))
})
const users = [
  { id: 1, name: 'Ada', email: 'ada@example.com', password: 'hunter2', profile: { city: 'London', phone: '1', secret: 's' }, tags: [{ id: 1, label: 'math' }] },
  { id: 2, name: 'Alan', email: null, profile: null, tags: [] }
]

async function zodApp (t: Test, cacheSize = 100) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(fastifyRestrictedFields, { cacheSize })
  t.teardown(() => app.close())
  app.get('/users', {
    restrictFields: true,
    schema: {
      querystring: z.object({ page: z.coerce.number().int().min(1).optional() }),
      response: { 200: z.object({ count: z.int(), results: z.array(user) }) }
    }
  }, async () => ({ count: users.length, results: users }))
  app.get('/broken', {
    restrictFields: true,
    schema: { response: { 200: z.array(user) } }
  }, async () => [{ id: 'one', name: 'Ada' }] as never)
  app.get('/fields', { restrictFields: { fields: ['id', 'name'] } }, async () => users)
  await app.ready()
  return app
}

const ada = '{"id":1,"name":"Ada","email":"ada@example.com","profile":{"city":"London","phone":"1"},"tags":[{"id":1,"label":"math"}]}'
const alan = '{"id":2,"name":"Alan","email":null,"profile":null,"tags":[]}'

const rows: Array<{ url: string, status: number, body: string }> = [
  { url: '/users', status: 200, body: `{"count":2,"results":[${ada},${alan}]}` },
  { url: '/users?only=id&only=name', status: 200, body: '{"count":2,"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}]}' },
  { url: '/users?only=name,id', status: 200, body: '{"count":2,"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}]}' },
  { url: '/users?only[]=email', status: 200, body: '{"count":2,"results":[{"email":"ada@example.com"},{"email":null}]}' },
  { url: '/users?defer=tags,email,profile.phone', status: 200, body: '{"count":2,"results":[{"id":1,"name":"Ada","profile":{"city":"London"}},{"id":2,"name":"Alan","profile":null}]}' },
  { url: '/users?only=tags.label&page=1', status: 200, body: '{"count":2,"results":[{"tags":[{"label":"math"}]},{"tags":[]}]}' },
  { url: '/users?only=', status: 200, body: '{"count":2,"results":[{},{}]}' },
  { url: '/fields?only=name', status: 200, body: '[{"name":"Ada"},{"name":"Alan"}]' }
]

for (const cacheSize of [100, 0]) {
  const path = cacheSize === 0 ? 'the writing path' : 'the compiled path'
  test(`a Zod route restricts like a JSON Schema route, on ${path}`, async (t) => {
    const app = await zodApp(t, cacheSize)
    for (const { url, status, body } of rows) {
      // Three requests: the first sighting is written, the second compiled, the third served from the cache.
      for (let i = 0; i < 3; i++) {
        const response = await app.inject(url)
        t.strictSame([response.statusCode, response.body], [status, body], `${url} #${i + 1}`)
      }
    }
  })
}

test('a Zod route answers unknown names with the coded 400 and keeps its own query validation', async (t) => {
  const app = await zodApp(t)
  const unknown = await app.inject('/users?only=id,password')
  t.strictSame([unknown.statusCode, unknown.json()], [400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: "Unknown field 'password' in query parameter 'only'; allowed fields: id, name, email, profile, tags"
  }])
  for (const url of ['/users?page=0', '/users?page=0&only=id']) {
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.json().code], [400, 'FST_ERR_VALIDATION'], url)
  }
})

test('a payload the Zod serializer rejects is rejected the same way when restricted', async (t) => {
  const app = await zodApp(t)
  const plain = await app.inject('/broken')
  t.equal(plain.statusCode, 500)
  for (const url of ['/broken?only=id', '/broken?only=id', '/broken?only=id', '/broken?defer=tags']) {
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.json()], [500, plain.json()], url)
  }
})

test('a Zod route whose schema only its own serializer can encode is restricted from what that serializer sends', async (t) => {
  const app = Fastify()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  // Validation decodes (string to number) and rejects the handler's number; encoding turns it back into a string.
  const count = z.codec(z.string(), z.number(), { decode: (text) => Number(text), encode: (value) => String(value) })
  app.get('/codec', { restrictFields: true, schema: { response: { 200: z.object({ id: z.int(), count }) } } }, async () => ({ id: 1, count: 5 }))
  const slow = z.object({ id: z.int(), name: z.string() }).refine(async () => true)
  app.get('/async', { restrictFields: true, schema: { response: { 200: slow } } }, async () => ({ id: 1, name: 'Ada' }))
  t.strictSame((await app.inject('/codec')).body, '{"id":1,"count":"5"}')
  for (let i = 0; i < 3; i++) t.strictSame((await app.inject('/codec?only=count')).body, '{"count":"5"}')
  const plain = await app.inject('/async')
  const restricted = await app.inject('/async?only=id')
  t.strictSame([restricted.statusCode, restricted.json()], [plain.statusCode, plain.json()], 'an asynchronous schema fails as the route fails without restriction')
})

test('a response schema the plugin cannot read fails at declaration, saying what it found and what it reads', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  class Joi { type = 'object' }
  const cases: Array<{ schema: unknown, found: string }> = [
    { schema: { '~standard': { version: 1, vendor: 'arktype', validate: () => ({ value: 1 }), jsonSchema: { output: () => { throw new Error('no JSON Schema for morphs') } } } }, found: "a Standard Schema from 'arktype' whose JSON Schema cannot be generated (no JSON Schema for morphs)" },
    { schema: { '~standard': { version: 1, vendor: 'valibot', validate: () => ({ value: 1 }) } }, found: "a Standard Schema from 'valibot' that does not implement Standard JSON Schema (~standard.jsonSchema)" },
    { schema: new Joi(), found: 'an instance of Joi, not a JSON Schema object' },
    { schema: Object.create(Object.create(null)), found: 'an instance of a class, not a JSON Schema object' }
  ]
  for (const { schema, found } of cases) {
    t.throws(() => app.get(`/${found.length}`, { restrictFields: true, schema: { response: { 200: schema } } }, async () => ({})), {
      code: 'FST_RESTRICTED_FIELDS_UNREADABLE_SCHEMA',
      message: `Route GET /${found.length}: cannot read the fields of its response schema for status 200, which is ${found}; the plugin reads JSON Schema objects (plain or TypeBox) and schemas that implement Standard JSON Schema (~standard.jsonSchema, as Zod 4 does)`
    })
  }
})

test('a route that did not opt in but sends the Zod schema a rule restricts on another route is named when the app is ready', async (t) => {
  const messages: string[] = []
  const stream = new Writable({ write (chunk, _encoding, callback) { messages.push(JSON.parse(String(chunk)).msg); callback() } })
  const app = Fastify({ logger: { level: 'warn', stream } }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(fastifyRestrictedFields, { hiddenFields: () => ['email'] })
  t.teardown(() => app.close())
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => users[0])
  app.post('/users', { schema: { response: { 200: user } } }, async () => users[0])
  app.put('/users/:id', { schema: { response: { 200: user.extend({}) } } }, async () => users[0])
  await app.ready()
  t.strictSame(messages, ['fastify-restricted-fields: route POST /users sends a schema that a hiddenFields rule restricts on GET /users/:id, ' +
    'but did not opt in: it sends every field to every caller. Opt it in with restrictFields: true, or every route that sends records with the plugin option ' +
    'global: true; restrictFields: false on a route says that it may send every field'])
})
