import { test } from 'tap'
import { gunzipSync } from 'node:zlib'
import compress from '@fastify/compress'
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
    t.same([response.body, response.headers['x-length']], ['[{"id":1},{"id":2}]', '19'])
  }
  t.same(seen, ['[{"id":1},{"id":2}]', '[{"id":1},{"id":2}]'], 'the copy path, then the compiled path')
})
