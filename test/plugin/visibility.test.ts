import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyRequest } from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import type { RestrictedFieldsOptions } from '../../lib/index.js'
import { records, userSchema } from '../fixtures.js'

const schema = { response: { 200: { type: 'array', items: userSchema } } }
const ANONYMOUS = Object.freeze(['email', 'profile.phone', 'tags.id'])

declare module 'fastify' {
  interface FastifyRequest { role?: string }
}

/** The role comes from an app-level onRequest hook, as authentication usually does. */
function hiddenFor (request: FastifyRequest): readonly string[] {
  return request.role === 'staff' ? [] : ANONYMOUS
}

/** The records as an ORM hands them over: each record and its profile behind a toJSON(), undeclared keys and all. */
const documents = records.map((record) => {
  const fields = { ...record, profile: record.profile === null ? null : { toJSON: () => record.profile } }
  return { toJSON: () => fields }
})

async function appWith (
  t: Test,
  options: RestrictedFieldsOptions,
  route: Record<string, unknown> = { restrictFields: true },
  payload: unknown = records
) {
  const app = Fastify()
  app.decorateRequest('role', undefined)
  app.addHook('onRequest', async (request) => { request.role = request.headers['x-role'] as string | undefined })
  await app.register(fastifyRestrictedFields, options)
  t.teardown(() => app.close())
  const seen: unknown[] = []
  app.get('/users', { schema, ...route }, async (request) => {
    seen.push(request.restrictedFields.paths)
    return payload
  })
  return { app, seen }
}

const ALL = 'id, name, email, role, profile, tags'
const VISIBLE = 'id, name, role, profile, tags'
const unknown = (name: string, param: string, allowed: string) => ({
  statusCode: 400,
  code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
  error: 'Bad Request',
  message: `Unknown field '${name}' in query parameter '${param}'; ${allowed}`
})

const ada = { id: 1, name: 'Ada', email: 'ada@example.com', role: 'member', profile: { city: 'London', phone: '1' }, tags: [{ id: 1, label: 'math' }] }
const alan = { id: 2, name: 'Alan', email: null, role: 'admin', profile: null, tags: [] }
const hiddenAda = { id: 1, name: 'Ada', role: 'member', profile: { city: 'London' }, tags: [{ label: 'math' }] }
const hiddenAlan = { id: 2, name: 'Alan', role: 'admin', profile: null, tags: [] }

const table: Array<{ query: string, staff: [number, unknown], anonymous: [number, unknown] }> = [
  { query: '', staff: [200, [ada, alan]], anonymous: [200, [hiddenAda, hiddenAlan]] },
  { query: 'only=id,email', staff: [200, [{ id: 1, email: 'ada@example.com' }, { id: 2, email: null }]], anonymous: [400, unknown('email', 'only', `allowed fields: ${VISIBLE}`)] },
  { query: 'only=id,nope', staff: [400, unknown('nope', 'only', `allowed fields: ${ALL}`)], anonymous: [400, unknown('nope', 'only', `allowed fields: ${VISIBLE}`)] },
  { query: 'defer=email', staff: [200, [{ ...ada, email: undefined }, { ...alan, email: undefined }]], anonymous: [400, unknown('email', 'defer', `allowed fields: ${VISIBLE}`)] },
  { query: 'only=profile', staff: [200, [{ profile: ada.profile }, { profile: null }]], anonymous: [200, [{ profile: { city: 'London' } }, { profile: null }]] },
  { query: 'only=profile.phone', staff: [200, [{ profile: { phone: '1' } }, { profile: null }]], anonymous: [400, unknown('profile.phone', 'only', "allowed fields of 'profile': city")] },
  { query: 'only=profile.city', staff: [200, [{ profile: { city: 'London' } }, { profile: null }]], anonymous: [200, [{ profile: { city: 'London' } }, { profile: null }]] },
  { query: 'only=tags', staff: [200, [{ tags: ada.tags }, { tags: [] }]], anonymous: [200, [{ tags: [{ label: 'math' }] }, { tags: [] }]] },
  { query: 'only=tags.id', staff: [200, [{ tags: [{ id: 1 }] }, { tags: [] }]], anonymous: [400, unknown('tags.id', 'only', "allowed fields of 'tags': label")] },
  { query: 'defer=profile,tags,role', staff: [200, [{ id: 1, name: 'Ada', email: 'ada@example.com' }, { id: 2, name: 'Alan', email: null }]], anonymous: [200, [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }]] },
  { query: 'only=', staff: [200, [{}, {}]], anonymous: [200, [{}, {}]] }
]

for (const [cacheSize, payload, path] of [[100, records, 'compiled'], [0, records, 'writing'], [0, documents, 'copy']] as const) {
  test(`hidden fields are never sent and answer as unknown names, on the ${path} path`, async (t) => {
    const { app } = await appWith(t, { hiddenFields: hiddenFor, cacheSize }, undefined, payload)
    for (const { query, staff, anonymous } of table) {
      // Three rounds: the first sighting is written, then compiled, then served from the caches.
      for (let round = 0; round < 3; round++) {
        for (const [role, expected] of [['staff', staff], ['anonymous', anonymous]] as const) {
          const response = await app.inject({ url: `/users?${query}`, headers: role === 'staff' ? { 'x-role': 'staff' } : {} })
          t.strictSame([response.statusCode, response.json()], JSON.parse(JSON.stringify(expected)), `${role} ${query} #${round + 1}`)
        }
      }
    }
  })
}

test('the handler sees only the fields the request may see, and the query names only those', async (t) => {
  const { app, seen } = await appWith(t, { hiddenFields: hiddenFor })
  await app.inject('/users')
  await app.inject({ url: '/users', headers: { 'x-role': 'staff' } })
  await app.inject('/users?only=profile&defer=id')
  t.strictSame(seen, [
    ['id', 'name', 'role', 'profile', 'profile.city', 'tags', 'tags.label'],
    ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label'],
    ['profile', 'profile.city']
  ])
})

test('anonymous and staff requests with the same query strings never get each other\'s answers', async (t) => {
  const { app } = await appWith(t, { hiddenFields: hiddenFor, cacheSize: 4 })
  const queries = ['', 'only=profile', 'only=tags', 'defer=role', 'only=id,profile', 'defer=name,tags', 'only=profile,tags&defer=id']
  const expected = new Map<string, string>()
  for (const query of queries) {
    for (const role of ['staff', 'anonymous']) {
      const fresh = Fastify()
      await fresh.register(fastifyRestrictedFields, { cacheSize: 0 })
      fresh.get('/users', { schema, restrictFields: true }, async () => records)
      const hidden = role === 'staff' ? '' : `defer=${ANONYMOUS.join(',')}`
      expected.set(`${role} ${query}`, (await fresh.inject(`/users?${[query, hidden].filter(Boolean).join('&')}`)).body)
      await fresh.close()
    }
  }
  // A second 2xx status on another route, whose records declare no tags: each record is the 200 one without them.
  const { tags: _tags, ...withoutTags } = userSchema.properties
  const created = { type: 'array', items: { ...userSchema, properties: withoutTags } }
  app.post('/users', { schema: { response: { 200: schema.response[200], 201: created } }, restrictFields: true }, async (_request, reply) => reply.code(201).send(records))
  for (const [key, body] of [...expected]) {
    const parsed = JSON.parse(body)
    expected.set(`POST ${key}`, Array.isArray(parsed) ? JSON.stringify(parsed.map(({ tags: _dropped, ...rest }: Record<string, unknown>) => rest)) : body)
  }
  let checked = 0
  // 20 interleaved passes: enough to hit the remembered parses, the compiled serializers and their evictions.
  for (let pass = 0; pass < 20; pass++) {
    for (const query of pass % 2 === 0 ? queries : [...queries].reverse()) {
      for (const role of pass % 3 === 0 ? ['anonymous', 'staff'] : ['staff', 'anonymous']) {
        for (const method of ['GET', 'POST'] as const) {
          const response = await app.inject({ method, url: `/users?${query}`, headers: role === 'staff' ? { 'x-role': 'staff' } : {} })
          const key = `${method === 'POST' ? 'POST ' : ''}${role} ${query}`
          if (response.body !== expected.get(key)) t.fail(`${method} ${role} ${query} on pass ${pass}: ${response.body}`)
          checked++
        }
      }
    }
  }
  t.equal(checked, 560)
})

test('the rule runs after the route\'s own preHandler hooks, and may be asynchronous', async (t) => {
  const { app } = await appWith(t, {
    hiddenFields: async (request) => { await new Promise((resolve) => setImmediate(resolve)); return request.role === 'admin' ? [] : ['email', 'profile', 'tags', 'role'] }
  }, {
    restrictFields: true,
    preHandler: async (request: FastifyRequest) => { if (request.headers.authorization === 'admin') request.role = 'admin' }
  })
  t.strictSame((await app.inject('/users?only=id')).json(), [{ id: 1 }, { id: 2 }])
  t.strictSame((await app.inject('/users')).json(), [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }])
  t.strictSame((await app.inject({ url: '/users?only=email', headers: { authorization: 'admin' } })).json(), [{ email: 'ada@example.com' }, { email: null }])
})

test('a route rule replaces the plugin default; paths another route declares are ignored, unknown ones fail', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: () => ['secret_note', 'email'] })
  t.teardown(() => app.close())
  app.get('/users', { schema, restrictFields: true }, async () => records)
  app.get('/notes', { restrictFields: { fields: ['id', 'secret_note'], hiddenFields: () => [] } }, async () => [{ id: 1, secret_note: 'x' }])
  app.get('/typo', { schema, restrictFields: { hiddenFields: () => ['emial'] } }, async () => records)
  app.get('/wrong', { schema, restrictFields: { hiddenFields: () => 'email' as never } }, async () => records)
  app.get('/wrong-item', { schema, restrictFields: { hiddenFields: async () => [7] as never } }, async () => records)
  app.get('/throws', { schema, restrictFields: { hiddenFields: () => { throw Object.assign(new Error('no session store'), { statusCode: 503 }) } } }, async () => records)
  app.get('/rejects', { schema, restrictFields: { hiddenFields: async () => { throw new Error('down') } } }, async () => records)
  t.strictSame((await app.inject('/users?only=id,name')).json(), [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }])
  t.strictSame((await app.inject('/users?defer=id,role,profile,tags')).json(), [{ name: 'Ada' }, { name: 'Alan' }], 'email hidden, secret_note ignored')
  t.strictSame((await app.inject('/notes?only=secret_note')).json(), [{ secret_note: 'x' }])
  const failures: Record<string, [number, string]> = {
    '/typo': [500, "Route GET /typo: the hiddenFields rule returned 'emial', which no route with restrictFields declares"],
    '/wrong': [500, 'Route GET /wrong: the hiddenFields rule must return an array of field names, instead returned string'],
    '/wrong-item': [500, 'Route GET /wrong-item: the hiddenFields rule must return an array of field names, instead returned an array with a non-string item'],
    '/throws': [503, 'no session store'],
    '/rejects': [500, 'down']
  }
  for (const [url, [status, message]] of Object.entries(failures)) {
    const response = await app.inject(`${url}?only=id`)
    t.strictSame([response.statusCode, response.json().message], [status, message], url)
  }
  t.equal((await app.inject('/typo')).statusCode, 500, 'the mistake fails every request, with parameters or without')
})

test('with unknownFields ignore, hidden names are dropped like unknown ones', async (t) => {
  const { app } = await appWith(t, { hiddenFields: hiddenFor, unknownFields: 'ignore' })
  t.strictSame((await app.inject('/users?only=id,email,nope')).json(), [{ id: 1 }, { id: 2 }])
  t.strictSame((await app.inject({ url: '/users?only=id,email,nope', headers: { 'x-role': 'staff' } })).json(), [{ id: 1, email: 'ada@example.com' }, { id: 2, email: null }])
})

test('a rule that hides nothing on this route leaves the response untouched, as without a rule', async (t) => {
  const { app } = await appWith(t, { hiddenFields: () => [] })
  const response = await app.inject('/users')
  t.equal(response.body, JSON.stringify([ada, alan]))
})

test('with a strict querystring schema, hidden names still answer as unknown ones, never as a validation error', async (t) => {
  const { app } = await appWith(t, { hiddenFields: hiddenFor }, {
    restrictFields: true,
    schema: { ...schema, querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } }, additionalProperties: false } }
  })
  const hidden = await app.inject('/users?only=email&limit=2')
  t.strictSame([hidden.statusCode, hidden.json()], [400, unknown('email', 'only', `allowed fields: ${VISIBLE}`)])
  const staff = await app.inject({ url: '/users?only=email&limit=2', headers: { 'x-role': 'staff' } })
  t.strictSame([staff.statusCode, staff.json()], [200, [{ email: 'ada@example.com' }, { email: null }]])
  const invalid = await app.inject('/users?only[]=id&limit=0')
  t.strictSame([invalid.statusCode, invalid.json().message], [400, 'querystring/limit must be >= 1'], 'the route\'s own validation still runs')
  t.strictSame((await app.inject('/users?limit=1')).json(), [hiddenAda, hiddenAlan], 'no parameters: every field the request may see')
})

test('with global, a rule hides its fields on every route that sends the record, whatever its method; restrictFields false leaves a route out', async (t) => {
  const app = Fastify()
  app.decorateRequest('role', undefined)
  app.addHook('onRequest', async (request) => { request.role = request.headers['x-role'] as string | undefined })
  await app.register(fastifyRestrictedFields, { global: true, hiddenFields: hiddenFor })
  t.teardown(() => app.close())
  app.addSchema({ $id: 'user', ...userSchema })
  app.get('/users/:id', { schema: { response: { 200: { $ref: 'user#' } } } }, async () => ada)
  app.post('/users/:id/promote', { schema: { response: { 200: { $ref: 'user#' } } } }, async () => ada)
  app.put('/users', { schema: { response: { 201: { type: 'array', items: { $ref: 'user#' } } } } }, async (_request, reply) => reply.code(201).send([ada, alan]))
  app.post('/users/:id/raw', { restrictFields: false, schema: { response: { 200: { $ref: 'user#' } } } }, async () => ada)
  for (const [method, url, anonymous] of [['GET', '/users/1', hiddenAda], ['POST', '/users/1/promote', hiddenAda], ['PUT', '/users', [hiddenAda, hiddenAlan]]] as const) {
    const reply = await app.inject({ method, url })
    t.strictSame([reply.statusCode, reply.json()], [method === 'PUT' ? 201 : 200, anonymous], `${method} ${url}, anonymous`)
    const staff = await app.inject({ method, url, headers: { 'x-role': 'staff' } })
    t.strictSame(staff.json(), method === 'PUT' ? [ada, alan] : ada, `${method} ${url}, staff`)
    const named = await app.inject({ method, url: `${url}?only=email` })
    t.strictSame([named.statusCode, named.json()], [400, unknown('email', 'only', `allowed fields: ${VISIBLE}`)], `${method} ${url}: a hidden name is unknown`)
  }
  t.strictSame((await app.inject({ method: 'POST', url: '/users/1/raw' })).json(), ada, 'the app\'s word: every field')
})
