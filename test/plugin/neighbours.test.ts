import { test } from 'tap'
import { gunzipSync } from 'node:zlib'
import compress from '@fastify/compress'
import etag from '@fastify/etag'
import responseValidation from '@fastify/response-validation'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { build } from '../helpers.js'
import { records, userSchema } from '../fixtures.js'

const schema = { response: { 200: { type: 'array', items: userSchema } } }

test('restricted bodies are compressed correctly by @fastify/compress', async (t) => {
  const app = await build(t)
  await app.register(compress, { threshold: 0 })
  app.get('/users', { restrictFields: true, schema }, async () => records)
  for (let i = 0; i < 3; i++) {
    const response = await app.inject({ url: '/users?only=id,profile.city', headers: { 'accept-encoding': 'gzip' } })
    t.equal(response.headers['content-encoding'], 'gzip')
    t.equal(gunzipSync(response.rawPayload).toString(), '[{"id":1,"profile":{"city":"London"}},{"id":2,"profile":null}]')
  }
})

test('an onSend hook of the user reads the restricted payload', async (t) => {
  const app = await build(t)
  const seen: string[] = []
  app.addHook('onSend', async (_request, reply, payload) => {
    seen.push(String(payload))
    reply.header('x-length', String(String(payload).length))
    return payload
  })
  app.get('/users', { restrictFields: true, schema }, async () => records)
  for (let i = 0; i < 2; i++) {
    const response = await app.inject('/users?only=id')
    t.strictSame([response.body, response.headers['x-length']], ['[{"id":1},{"id":2}]', '19'])
  }
  t.strictSame(seen, ['[{"id":1},{"id":2}]', '[{"id":1},{"id":2}]'], 'the copy path, then the compiled path')
})

const strictUser = {
  type: 'object',
  required: ['id', 'name', 'email', 'role', 'profile', 'tags'],
  properties: {
    ...userSchema.properties,
    profile: { ...userSchema.properties.profile, required: ['city', 'phone'] },
    tags: { type: 'array', items: { ...userSchema.properties.tags.items, required: ['id', 'label'] } }
  }
}
const complete = [
  { id: 1, name: 'Ada', email: 'ada@example.com', role: 'admin', profile: { city: 'London', phone: '1' }, tags: [{ id: 1, label: 'math' }] },
  { id: 2, name: 'Alan', email: null, role: 'member', profile: null, tags: [] }
]

for (const order of ['before', 'after']) {
  for (const cacheSize of [100, 0]) {
    test(`@fastify/response-validation registered ${order} the plugin validates the handler's payload, on the ${cacheSize === 0 ? 'writing' : 'compiled'} path`, async (t) => {
      const app = Fastify()
      if (order === 'before') await app.register(responseValidation)
      await app.register(fastifyRestrictedFields, { cacheSize })
      if (order === 'after') await app.register(responseValidation)
      t.teardown(() => app.close())
      const seen: unknown[] = []
      app.get('/users', {
        restrictFields: true,
        schema: { response: { 200: { type: 'array', items: strictUser } } },
        // An array: @fastify/response-validation pushes its hook onto the route's list.
        preSerialization: [async (_request, _reply, payload) => { seen.push(payload); return payload }]
      }, async () => complete)
      app.get('/broken', { restrictFields: true, schema: { response: { 200: { type: 'array', items: strictUser } } } }, async () => [{ id: 1 }])
      const expected: Record<string, string> = {
        '/users?only=id': '[{"id":1},{"id":2}]',
        '/users?only=name,profile.city&defer=email': '[{"name":"Ada","profile":{"city":"London"}},{"name":"Alan","profile":null}]',
        '/users?defer=tags': '[{"id":1,"name":"Ada","email":"ada@example.com","role":"admin","profile":{"city":"London","phone":"1"}},{"id":2,"name":"Alan","email":null,"role":"member","profile":null}]'
      }
      for (const [url, body] of Object.entries(expected)) {
        // The first and the tenth request answer alike: the first is written, later ones compiled.
        for (let i = 0; i < 10; i++) {
          const response = await app.inject(url)
          t.strictSame([response.statusCode, response.body], [200, body], `${url} #${i + 1}`)
        }
      }
      t.ok(seen.every((payload) => payload === complete), 'the user\'s own hook saw the handler\'s payload every time')
      const broken = await app.inject('/broken?only=id')
      t.strictSame([broken.statusCode, broken.json().code], [500, 'FST_RESPONSE_VALIDATION_FAILED_VALIDATION'], 'an invalid payload is still caught')
    })
  }
}

test('@fastify/etag tags restricted bodies by their own bytes', async (t) => {
  const app = await build(t)
  await app.register(etag)
  app.get('/users', { restrictFields: true, schema }, async () => records)
  const first = await app.inject('/users?only=id')
  const other = await app.inject('/users?only=name')
  t.not(first.headers.etag, other.headers.etag, 'different selections, different tags')
  const again = await app.inject({ url: '/users?only=id', headers: { 'if-none-match': String(first.headers.etag) } })
  t.strictSame([again.statusCode, again.body], [304, ''], 'the same selection is not modified')
})
