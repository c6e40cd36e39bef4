import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import type { HiddenFieldsRule } from '../../lib/index.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

// Every way a hidden value could leave a route with a rule: other 2xx
// statuses and methods, replies sent by hooks before the rule ran, and hidden
// paths inside values the route declares as one leaf (a free-form object, a
// map, a level below maxDepth, a record that allows undeclared keys).

declare module 'fastify' {
  interface FastifyRequest { role?: string }
}

const record = {
  type: 'object',
  additionalProperties: true,
  properties: {
    id: { type: 'integer' },
    secret: { type: 'string' },
    profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } } },
    meta: { type: 'object', additionalProperties: true },
    tags: { type: 'object', additionalProperties: { type: 'string' } },
    deep: { type: 'object', properties: { inner: { type: 'object', properties: { phone: { type: 'string' }, keep: { type: 'string' } } } } }
  }
}

const data = {
  id: 1,
  secret: 's',
  profile: { city: 'Oslo', phone: 'p1' },
  meta: { note: 'n', phone: 'p2' },
  tags: { internal: 'i', public: 'x' },
  deep: { inner: { phone: 'p3', keep: 'k' } },
  extra: 'e'
}

/** `extra` is declared by another route only: this route's records allow undeclared keys, so it could pass. */
const HIDDEN = Object.freeze(['secret', 'profile.phone', 'meta.phone', 'tags.internal', 'deep.inner.phone', 'extra'])

const ALLOWED = 'allowed fields: id, profile, meta, tags, deep'
const unknown = (name: string, detail: string) => [400, {
  statusCode: 400,
  code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
  error: 'Bad Request',
  message: `Unknown field '${name}' in query parameter 'only'; ${detail}`
}]

/** Query → [staff, anonymous], each [status, body]. */
const rows: Array<[string, unknown[], unknown[]]> = [
  ['', [200, data], [200, { id: 1, profile: { city: 'Oslo' }, meta: { note: 'n' }, tags: { public: 'x' }, deep: { inner: { keep: 'k' } } }]],
  ['only=id,meta', [200, { id: 1, meta: data.meta }], [200, { id: 1, meta: { note: 'n' } }]],
  ['only=deep', [200, { deep: data.deep }], [200, { deep: { inner: { keep: 'k' } } }]],
  ['only=tags&only=profile', [200, { profile: data.profile, tags: data.tags }], [200, { profile: { city: 'Oslo' }, tags: { public: 'x' } }]],
  ['defer=meta,tags,deep,profile', [200, { id: 1, secret: 's' }], [200, { id: 1 }]],
  ['only=secret', [200, { secret: 's' }], unknown('secret', ALLOWED)],
  ['only=meta.phone', unknown('meta.phone', "'meta' has no nested fields"), unknown('meta.phone', "'meta' has no nested fields")]
]

/** What a reply with a status that declares no fields sends: the payload as JSON, without the hidden paths. */
const undeclaredRows: Array<[string, unknown[], unknown[]]> = [
  ['', [203, data], [203, { id: 1, profile: { city: 'Oslo' }, meta: { note: 'n' }, tags: { public: 'x' }, deep: { inner: { keep: 'k' } } }]],
  ['only=id', [203, data], [203, { id: 1, profile: { city: 'Oslo' }, meta: { note: 'n' }, tags: { public: 'x' }, deep: { inner: { keep: 'k' } } }]]
]

type Early = 'onRequest' | 'preValidation' | 'preHandler'

/** A route hook that answers for the handler with `data` when asked to by the `early` parameter, sync (callback) or async. */
function earlyReply (hook: Early, style: 'sync' | 'async') {
  return style === 'async'
    ? async function (request: FastifyRequest, reply: FastifyReply) {
      if ((request.query as Record<string, string>).early === hook) return reply.send(data)
    }
    : function (request: FastifyRequest, reply: FastifyReply, done: () => void) {
      if ((request.query as Record<string, string>).early === hook) reply.send(data)
      else done()
    }
}

async function appWith (t: Test, rule: HiddenFieldsRule, cacheSize: number, style: 'sync' | 'async') {
  const app = Fastify()
  app.decorateRequest('role', undefined)
  app.addHook('onRequest', async (request) => { request.role = request.headers['x-role'] as string | undefined })
  let calls = 0
  const counted: HiddenFieldsRule = (request, route) => {
    calls++
    return rule(request, route)
  }
  await app.register(fastifyRestrictedFields, { hiddenFields: counted, cacheSize, maxDepth: 2 })
  t.teardown(() => app.close())
  app.get('/other', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { extra: { type: 'string' } } } } } }, async () => ({}))
  const statuses: Array<[HTTPMethods, number]> = [['GET', 200], ['POST', 201], ['PUT', 202], ['PATCH', 206]]
  for (const [method, status] of statuses) {
    app.route({
      method,
      url: '/record',
      restrictFields: true,
      schema: { response: { [status]: record } },
      handler: async (_request, reply) => reply.code(status).send(data)
    })
  }
  app.get('/early', {
    restrictFields: true,
    // A querystring schema: the parameters are set aside before validation, and a preHandler reply still finds them.
    schema: { querystring: { type: 'object', properties: { early: { type: 'string' } } }, response: { 200: record } },
    onRequest: earlyReply('onRequest', style),
    preValidation: earlyReply('preValidation', style),
    preHandler: earlyReply('preHandler', style)
  }, async () => ({ id: 0 }))
  app.get('/undeclared', { restrictFields: true, schema: { response: { 200: record } } }, async (_request, reply) => reply.code(203 as 200).send(data))
  return { app, calls: () => calls }
}

const rules: Record<string, HiddenFieldsRule> = {
  sync: (request) => request.role === 'staff' ? [] : HIDDEN,
  async: async (request) => request.role === 'staff' ? [] : [...HIDDEN]
}

for (const cacheSize of [100, 0]) {
  for (const style of ['sync', 'async'] as const) {
    test(`no reply of a route with a rule sends a hidden field, whatever its status or the hook that sent it, on the ${cacheSize === 0 ? 'written' : 'compiled'} path, with ${style} rules and hooks`, async (t) => {
      const { app, calls } = await appWith(t, rules[style], cacheSize, style)
      const ways: Array<[HTTPMethods, string, string, Array<[string, unknown[], unknown[]]>]> = [
        ['GET', '/record', '', rows],
        ['POST', '/record', '', rows],
        ['PUT', '/record', '', rows],
        ['PATCH', '/record', '', rows],
        ['GET', '/early', 'early=onRequest', rows],
        ['GET', '/early', 'early=preValidation', rows],
        ['GET', '/early', 'early=preHandler', rows],
        ['GET', '/undeclared', '', undeclaredRows]
      ]
      let requests = 0
      for (const [method, url, extra, table] of ways) {
        for (const [query, staff, anonymous] of table) {
          // Three rounds: the first sighting is written, then compiled, then served from the caches.
          for (let round = 0; round < 3; round++) {
            for (const [role, expected] of [['staff', staff], ['anonymous', anonymous]] as const) {
              const success = expected[0] as number
              const [status, body] = method === 'GET' || success === 400 ? expected : [{ POST: 201, PUT: 202, PATCH: 206 }[method as string], expected[1]]
              const search = [query, extra].filter((part) => part !== '').join('&')
              const response = await app.inject({ method, url: `${url}?${search}`, headers: role === 'staff' ? { 'x-role': 'staff' } : {} })
              requests++
              t.strictSame([response.statusCode, response.json(), response.headers['cache-control']], [status, body, 'private'], `${role} ${method} ${url}?${search} #${round + 1}`)
            }
          }
        }
      }
      t.equal(calls(), requests, 'the rule ran once per request')
    })
  }
}

test('a hook that replies with an error before the rule runs is answered as it is, without running the rule', async (t) => {
  const app = Fastify()
  let calls = 0
  await app.register(fastifyRestrictedFields, { hiddenFields: () => { calls++; return HIDDEN } })
  t.teardown(() => app.close())
  app.get('/locked', {
    restrictFields: true,
    schema: { response: { 200: record, 401: { type: 'object', properties: { secret: { type: 'string' } } } } },
    onRequest: async (_request, reply) => reply.code(401).send({ secret: 'the 401 body is the app\'s own' })
  }, async () => data)
  const response = await app.inject('/locked?only=id')
  t.strictSame([response.statusCode, response.json(), calls], [401, { secret: 'the 401 body is the app\'s own' }, 0])
})

test('an early reply on a route without a rule is restricted too, and a bad parameter is its 400', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  app.get('/cached', {
    restrictFields: true,
    schema: { response: { 200: record } },
    onRequest: async (_request, reply) => reply.send(data)
  }, async () => ({ id: 0 }))
  const restricted = await app.inject('/cached?only=id,secret')
  t.strictSame([restricted.statusCode, restricted.json(), restricted.headers['cache-control']], [200, { id: 1, secret: 's' }, undefined], 'no rule: nothing varies by caller')
  const bad = await app.inject('/cached?only=nope')
  t.strictSame([bad.statusCode, bad.json().code], [400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'])
  t.strictSame((await app.inject('/cached')).json(), data)
})

test('a success an error handler sends after the rule failed is refused; after a bad parameter, it shows only visible fields', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => {
      if (request.headers['x-fail'] !== undefined) throw new Error('rule down')
      return ['secret', 'profile.phone', 'meta.phone', 'tags.internal', 'deep.inner.phone']
    },
    maxDepth: 2
  })
  t.teardown(() => app.close())
  // An error handler that answers every error with a record: the worst case.
  app.setErrorHandler(async (_error, _request, reply) => reply.code(200).send(data))
  app.get('/record', { restrictFields: true, schema: { response: { 200: record } } }, async () => data)
  const failed = await app.inject({ url: '/record', headers: { 'x-fail': '1' } })
  t.strictSame([failed.statusCode, failed.json()], [500, {
    statusCode: 500,
    code: 'FST_RESTRICTED_FIELDS_HIDDEN_FIELDS_UNKNOWN',
    error: 'Internal Server Error',
    message: 'Route GET /record: a success reply was sent after the hiddenFields rule failed; what the request may see is unknown, so the reply is refused'
  }])
  const bad = await app.inject('/record?only=secret')
  t.strictSame([bad.statusCode, bad.json()], [200, { id: 1, profile: { city: 'Oslo' }, meta: { note: 'n' }, tags: { public: 'x' }, deep: { inner: { keep: 'k' } } }])
})

test('a rule answer that is not names fails the request, and a success sent for that failure is refused', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: () => 'secret' as unknown as string[] })
  t.teardown(() => app.close())
  app.setErrorHandler(async (_error, _request, reply) => reply.code(200).send(data))
  app.get('/record', { restrictFields: true, schema: { response: { 200: record } } }, async () => data)
  const response = await app.inject('/record')
  t.strictSame([response.statusCode, response.json().code], [500, 'FST_RESTRICTED_FIELDS_HIDDEN_FIELDS_UNKNOWN'])
})

test('a route whose 2xx statuses declare different fields checks names against all and sends each status its own', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-role'] === 'staff' ? [] : ['job.token', 'secret'] })
  t.teardown(() => app.close())
  const job = { type: 'object', properties: { id: { type: 'integer' }, job: { type: 'object', properties: { state: { type: 'string' }, token: { type: 'string' } } } } }
  const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, secret: { type: 'string' }, job: { type: 'object', additionalProperties: true } } }
  app.post('/jobs', { restrictFields: true, schema: { response: { 200: user, 202: job } } }, async (request, reply) => {
    const queued = { id: 7, name: 'n', secret: 's', job: { state: 'queued', token: 't', other: 'o' } }
    return request.headers['x-queued'] !== undefined ? reply.code(202).send(queued) : queued
  })
  const rows: Array<[Record<string, string>, string, number, unknown]> = [
    [{ 'x-role': 'staff' }, 'only=id,job.state', 200, { id: 7, job: { state: 'queued', token: 't', other: 'o' } }],
    [{ 'x-role': 'staff', 'x-queued': '1' }, 'only=id,job.state', 202, { id: 7, job: { state: 'queued' } }],
    [{ 'x-role': 'staff', 'x-queued': '1' }, 'only=name', 202, {}],
    [{ 'x-role': 'staff', 'x-queued': '1' }, '', 202, { id: 7, job: { state: 'queued', token: 't' } }],
    [{}, '', 200, { id: 7, name: 'n', job: { state: 'queued', other: 'o' } }],
    [{ 'x-queued': '1' }, '', 202, { id: 7, job: { state: 'queued' } }],
    [{ 'x-queued': '1' }, 'defer=job', 202, { id: 7 }]
  ]
  for (const [headers, query, status, body] of rows) {
    for (let round = 0; round < 3; round++) {
      const response = await app.inject({ method: 'POST', url: `/jobs?${query}`, headers })
      t.strictSame([response.statusCode, response.json()], [status, body], `${JSON.stringify(headers)} ${query} #${round + 1}`)
    }
  }
  const unknownName = await app.inject({ method: 'POST', url: '/jobs?only=job.token' })
  t.strictSame([unknownName.statusCode, unknownName.json().message], [400, "Unknown field 'job.token' in query parameter 'only'; allowed fields of 'job': state"])
})

test('a route with a property that a request cannot name fails at declaration, naming the property', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  t.throws(() => app.get('/billing', {
    restrictFields: true,
    schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, 'billing.card_last4': { type: 'string' } } } } }
  }, async () => ({})), {
    code: 'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD',
    message: "Route GET /billing: the response property \"billing.card_last4\" cannot be named in a request or a rule, because it holds '.', which separates names in a request"
  })
})

test('names that look like selection syntax never share a compiled serializer', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-role'] === 'staff' ? [] : ['x.y'] })
  t.teardown(() => app.close())
  const schema = { type: 'object', properties: { x: { type: 'object', properties: { y: { type: 'string' }, z: { type: 'string' } } }, 'x(y)': { type: 'string' }, '"x"("y")': { type: 'string' } } }
  app.get('/odd', { restrictFields: true, schema: { response: { 200: schema } } }, async () => ({ x: { y: 'hidden', z: 'z' }, 'x(y)': 'literal', '"x"("y")': 'quoted' }))
  const rows: Array<[Record<string, string>, string, unknown]> = [
    [{ 'x-role': 'staff' }, 'only=x.y', { x: { y: 'hidden' } }],
    [{}, `only=${encodeURIComponent('x(y)')}`, { 'x(y)': 'literal' }],
    [{ 'x-role': 'staff' }, `only=${encodeURIComponent('"x"("y")')}`, { '"x"("y")': 'quoted' }],
    [{}, 'only=x', { x: { z: 'z' } }],
    [{ 'x-role': 'staff' }, 'only=x', { x: { y: 'hidden', z: 'z' } }]
  ]
  for (let round = 0; round < 4; round++) {
    for (const [headers, query, body] of rows) {
      t.strictSame((await app.inject({ url: `/odd?${query}`, headers })).json(), body, `${JSON.stringify(headers)} ${query} #${round + 1}`)
    }
  }
})

test('hidden paths inside leaves are removed on every path: listed fields, copied payloads, envelopes of undeclared statuses', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: () => ['meta.phone', 'secret'] })
  t.teardown(() => app.close())
  app.get('/listed', { restrictFields: { fields: ['id', 'meta', 'secret'] } }, async () => data)
  // An object with toJSON is left by the writer to the copy.
  app.get('/copied', { restrictFields: true, schema: { response: { 200: record } } }, async () => ({ toJSON: () => data }))
  const page = { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: record } } }
  app.get('/page', { restrictFields: true, schema: { response: { 200: page } } }, async (_request, reply) => reply.code(203 as 200).send({ count: 1, secret: 'top', results: [data] }))
  t.strictSame((await app.inject('/listed?only=id,meta')).json(), { id: 1, meta: { note: 'n' } })
  t.strictSame((await app.inject('/copied?only=id,meta')).json(), { id: 1, meta: { note: 'n' } })
  t.strictSame((await app.inject('/page?only=id')).json(), {
    count: 1,
    results: [{ id: 1, profile: data.profile, meta: { note: 'n' }, tags: data.tags, deep: data.deep, extra: 'e' }]
  }, 'the envelope and its records lose the hidden paths')
})

test('a hidden path inside a leaf of a variant is removed, whichever variant the record is', async (t) => {
  for (const cacheSize of [100, 0]) {
    const app = Fastify()
    await app.register(fastifyRestrictedFields, { hiddenFields: () => ['meta.phone', 'secret'], cacheSize })
    t.teardown(() => app.close())
    const person = { type: 'object', required: ['kind'], properties: { kind: { const: 'person' }, id: { type: 'integer' }, meta: { type: 'object', additionalProperties: true } } }
    const company = {
      type: 'object',
      required: ['kind'],
      properties: { kind: { const: 'company' }, id: { type: 'integer' }, secret: { type: 'string' }, meta: { type: 'object', properties: { phone: { type: 'string' }, city: { type: 'string' } } } }
    }
    const records = [
      { kind: 'person', id: 1, meta: { phone: 'p', note: 'n' } },
      { kind: 'company', id: 2, secret: 's', meta: { phone: 'p', city: 'c' } }
    ]
    app.get('/parties', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { oneOf: [person, company] } } } } }, async () => records)
    // Objects with toJSON: the writer leaves them to the copy.
    app.get('/copied', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { oneOf: [person, company] } } } } }, async () => records.map((record) => ({ toJSON: () => record })))
    const expected = [{ kind: 'person', id: 1, meta: { note: 'n' } }, { kind: 'company', id: 2, meta: { city: 'c' } }]
    for (let round = 0; round < 3; round++) {
      for (const url of ['/parties', '/parties?only=kind,id,meta', '/copied', '/copied?defer=id']) {
        const body = url.includes('defer=id') ? expected.map(({ id: _id, ...rest }) => rest) : expected
        t.strictSame((await app.inject(url)).json(), body, `cacheSize ${cacheSize} ${url} #${round + 1}`)
      }
    }
  }
})
