import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'

const record = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    last_login: { type: 'string' },
    meta: { type: 'object', additionalProperties: true },
    profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } } }
  }
}
const users = [{ id: 1, last_login: '2026-11-01', meta: { secret: 's3', plan: 'pro' }, profile: { city: 'Oslo', phone: '555-0101' } }]

/** An app whose plugin-level rule returns the JSON array of the `x-hide` header, on routes that compile, write and copy. */
async function appWithRule (t: Test) {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => JSON.parse(String(request.headers['x-hide'] ?? '[]'))
  })
  const schema = { response: { 200: { type: 'array', items: record } } }
  app.get('/users', { restrictFields: true, schema }, async () => users)
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => users)
  app.get('/early', {
    restrictFields: true,
    schema,
    onRequest: async (_request, reply) => { await reply.send(users) }
  }, async () => users)
  return app
}

// Each slip a rule can make in one branch, and what the reply says of it; the URLs reach
// the compiled path (a selection met before), the written path (first use), the copy and
// a reply sent by an earlier hook.
const slips: Array<[string, string]> = [
  ['profile.phone.', "but 'profile.phone' holds no fields"],
  ['last_login.', "but 'last_login' holds no fields"],
  ['id.', "but 'id' holds no fields"],
  ['profile.phone.x', "but 'profile.phone' holds no fields"],
  ['meta.secret.', "which is not a well-formed path inside the value of 'meta'"],
  ['meta.', "which is not a well-formed path inside the value of 'meta'"],
  ['last_logn', 'which no route with restrictFields declares'],
  ['profile..phone', 'which no route with restrictFields declares'],
  ['.profile.phone', 'which no route with restrictFields declares'],
  ['profile.', 'which no route with restrictFields declares'],
  [' last_login', 'which no route with restrictFields declares'],
  ['profile[phone]', 'which no route with restrictFields declares'],
  ['', 'which no route with restrictFields declares']
]
const urls = ['/users?only=id,profile', '/users?only=id,profile', '/users?only=last_login,meta', '/users', '/copied?defer=id', '/early']

test('a rule answer that names nothing fails the request with a 500 naming the entry, and sends nothing of the records', async (t) => {
  const app = await appWithRule(t)
  for (const [slip, reason] of slips) {
    for (const url of urls) {
      const response = await app.inject({ url, headers: { 'x-hide': JSON.stringify(['id', slip]) } })
      t.strictSame([response.statusCode, response.json()], [500, {
        statusCode: 500,
        code: 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS',
        error: 'Internal Server Error',
        message: `Route GET ${url.split('?')[0]}: the hiddenFields rule returned '${slip}', ${reason}`
      }], `${JSON.stringify(slip)} at ${url}`)
    }
  }
})

test('well-formed paths inside a free-form value hide exactly the key they name, on every path', async (t) => {
  const app = await appWithRule(t)
  const headers = { 'x-hide': JSON.stringify(['meta.secret', 'profile.phone']) }
  const expected = [{ id: 1, last_login: '2026-11-01', meta: { plan: 'pro' }, profile: { city: 'Oslo' } }]
  for (const url of ['/users', '/users', '/copied', '/early']) {
    t.strictSame((await app.inject({ url, headers })).json(), expected, url)
  }
  for (const url of ['/users?only=meta,profile', '/users?only=meta,profile', '/copied?only=meta,profile']) {
    t.strictSame((await app.inject({ url, headers })).json(), [{ meta: { plan: 'pro' }, profile: { city: 'Oslo' } }], url)
  }
})

test('a rule shared by routes may name a path inside a free-form value that only another route declares', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { hiddenFields: () => ['meta.secret'] })
  app.get('/users', { restrictFields: true, schema: { response: { 200: { type: 'array', items: record } } } }, async () => users)
  app.get('/ids', { restrictFields: { fields: ['id'] } }, async () => [{ id: 1 }])
  app.get('/typo', { restrictFields: { fields: ['id'], hiddenFields: () => ['meta.secret.'] } }, async () => [{ id: 1 }])
  t.strictSame((await app.inject('/ids')).json(), [{ id: 1 }])
  t.strictSame((await app.inject('/users?only=meta')).json(), [{ meta: { plan: 'pro' } }])
  t.strictSame((await app.inject('/typo')).json().message, "Route GET /typo: the hiddenFields rule returned 'meta.secret.', which no route with restrictFields declares")
})
