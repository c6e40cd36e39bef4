import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import SwaggerParser from '@apidevtools/swagger-parser'
import fastifyRestrictedFields from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

const user = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string' },
    profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } } }
  }
}
const record = { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London', phone: '555' } }

type Shape = 'object' | 'array' | 'envelope'
const shapes: Record<Shape, { schema: unknown, payload: unknown, wrap: (record: unknown) => unknown }> = {
  object: { schema: user, payload: record, wrap: (record) => record },
  array: { schema: { type: 'array', items: user }, payload: [record], wrap: (record) => [record] },
  envelope: {
    schema: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: user } } },
    payload: { count: 1, results: [record] },
    wrap: (record) => ({ count: 1, results: [record] })
  }
}

/** Hidden from a request with `x-hide: 1`: `email` and `profile.phone`. */
const HIDDEN = Object.freeze(['email', 'profile.phone'])
const NOTHING = Object.freeze([])

async function appWith (t: Test, cacheSize: number): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, {
    cacheSize,
    fieldSets: { summary: ['id', 'name', 'profile.city'] },
    hiddenFields: (request) => request.headers['x-hide'] === '1' ? HIDDEN : NOTHING
  })
  t.teardown(() => app.close())
  for (const [shape, { schema, payload }] of Object.entries(shapes)) {
    app.get(`/${shape}/plain`, { restrictFields: true, schema: { response: { 200: schema } } }, async () => payload)
    app.get(`/${shape}/default`, {
      restrictFields: { defaultFields: ['id', 'email', 'profile'], fieldSets: { contact: ['email', 'profile.phone'] } },
      schema: { response: { 200: schema } }
    }, async () => payload)
  }
  return app
}

function unknownField (name: string, param: string, allowed: string): unknown {
  return { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message: `Unknown field '${name}' in query parameter '${param}'; ${allowed}` }
}

function unknownSet (name: string, sets: string): unknown {
  return { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET', error: 'Bad Request', message: `Unknown field set '${name}' in query parameter 'only'; field sets: ${sets}` }
}

/** A 400 body, told apart from a record by its status code. */
interface Refused { readonly refused: unknown }
const refused = (body: unknown): Refused => ({ refused: body })
type Answer = Record<string, unknown> | Refused

const HIDDEN_EMAIL = unknownField('email', 'only', 'allowed fields: id, name, profile')
const ALL = record
const VISIBLE = { id: 1, name: 'Ada', profile: { city: 'London' } }
const SUMMARY = { id: 1, name: 'Ada', profile: { city: 'London' } }
const DEFAULT = { id: 1, email: 'ada@example.com', profile: { city: 'London', phone: '555' } }
const VISIBLE_DEFAULT = { id: 1, profile: { city: 'London' } }

/**
 * Each request, answered by a route without default fields (to every field,
 * then to a request that may not see `email` and `profile.phone`) and by a
 * route with default fields `id, email, profile` (the same two ways).
 */
const table: Array<[string, Answer, Answer, Answer, Answer]> = [
  ['', ALL, VISIBLE, DEFAULT, VISIBLE_DEFAULT],
  ['only=@summary', SUMMARY, SUMMARY, SUMMARY, SUMMARY],
  ['only=@summary,email', { ...SUMMARY, email: 'ada@example.com' }, refused(HIDDEN_EMAIL), { ...SUMMARY, email: 'ada@example.com' }, refused(HIDDEN_EMAIL)],
  ['only=@summary&only=email', { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London' } }, refused(HIDDEN_EMAIL),
    { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London' } }, refused(HIDDEN_EMAIL)],
  ['only[]=@summary&only[]=profile.phone', { id: 1, name: 'Ada', profile: { city: 'London', phone: '555' } },
    refused(unknownField('profile.phone', 'only', "allowed fields of 'profile': city")),
    { id: 1, name: 'Ada', profile: { city: 'London', phone: '555' } },
    refused(unknownField('profile.phone', 'only', "allowed fields of 'profile': city"))],
  ['only=%20@summary%20,%20id', SUMMARY, SUMMARY, SUMMARY, SUMMARY],
  ['only=id,@summary&only=@summary', SUMMARY, SUMMARY, SUMMARY, SUMMARY],
  ['only=@default', ALL, VISIBLE, DEFAULT, VISIBLE_DEFAULT],
  ['only=@default,name', ALL, VISIBLE, { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London', phone: '555' } }, VISIBLE],
  ['only=@default&defer=profile.city', { id: 1, name: 'Ada', email: 'ada@example.com', profile: { phone: '555' } }, { id: 1, name: 'Ada', profile: {} },
    { id: 1, email: 'ada@example.com', profile: { phone: '555' } }, { id: 1, profile: {} }],
  ['only=*', ALL, VISIBLE, ALL, VISIBLE],
  ['only=*,name', ALL, VISIBLE, ALL, VISIBLE],
  ['only=*&defer=email', { id: 1, name: 'Ada', profile: { city: 'London', phone: '555' } }, refused(unknownField('email', 'defer', 'allowed fields: id, name, profile')),
    { id: 1, name: 'Ada', profile: { city: 'London', phone: '555' } }, refused(unknownField('email', 'defer', 'allowed fields: id, name, profile'))],
  ['only=*&defer=profile', { id: 1, name: 'Ada', email: 'ada@example.com' }, { id: 1, name: 'Ada' }, { id: 1, name: 'Ada', email: 'ada@example.com' }, { id: 1, name: 'Ada' }],
  ['only=id', { id: 1 }, { id: 1 }, { id: 1 }, { id: 1 }],
  ['only=name,id', { id: 1, name: 'Ada' }, { id: 1, name: 'Ada' }, { id: 1, name: 'Ada' }, { id: 1, name: 'Ada' }],
  ['only=@summary&defer=name', { id: 1, profile: { city: 'London' } }, { id: 1, profile: { city: 'London' } }, { id: 1, profile: { city: 'London' } }, { id: 1, profile: { city: 'London' } }],
  ['defer=name', { id: 1, email: 'ada@example.com', profile: { city: 'London', phone: '555' } }, { id: 1, profile: { city: 'London' } }, DEFAULT, VISIBLE_DEFAULT],
  ['defer=id', { name: 'Ada', email: 'ada@example.com', profile: { city: 'London', phone: '555' } }, { name: 'Ada', profile: { city: 'London' } },
    { email: 'ada@example.com', profile: { city: 'London', phone: '555' } }, { profile: { city: 'London' } }],
  ['defer=profile.phone', { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London' } },
    refused(unknownField('profile.phone', 'defer', "allowed fields of 'profile': city")),
    { id: 1, email: 'ada@example.com', profile: { city: 'London' } }, refused(unknownField('profile.phone', 'defer', "allowed fields of 'profile': city"))],
  ['only=@contact', refused(unknownSet('@contact', '@default, @summary, *')), refused(unknownSet('@contact', '@default, @summary, *')),
    { email: 'ada@example.com', profile: { phone: '555' } }, {}],
  ['only=@contact,@summary', refused(unknownSet('@contact', '@default, @summary, *')), refused(unknownSet('@contact', '@default, @summary, *')),
    { id: 1, name: 'Ada', email: 'ada@example.com', profile: { city: 'London', phone: '555' } }, SUMMARY],
  ['only=@nope', refused(unknownSet('@nope', '@default, @summary, *')), refused(unknownSet('@nope', '@default, @summary, *')),
    refused(unknownSet('@nope', '@default, @summary, @contact, *')), refused(unknownSet('@nope', '@default, @summary, @contact, *'))],
  ['only=@', refused(unknownSet('@', '@default, @summary, *')), refused(unknownSet('@', '@default, @summary, *')),
    refused(unknownSet('@', '@default, @summary, @contact, *')), refused(unknownSet('@', '@default, @summary, @contact, *'))],
  ['only=', {}, {}, {}, {}]
]

for (const cacheSize of [100, 0]) {
  test(`field sets, the default and * answer the same on every shape, compiled or written (cacheSize ${cacheSize}), to every caller`, async (t) => {
    const app = await appWith(t, cacheSize)
    for (const [query, plain, plainHidden, withDefault, withDefaultHidden] of table) {
      for (const [shape, { wrap }] of Object.entries(shapes)) {
        const cases: Array<[string, boolean, Answer]> = [
          ['plain', false, plain], ['plain', true, plainHidden], ['default', false, withDefault], ['default', true, withDefaultHidden]
        ]
        for (const [route, hide, answer] of cases) {
          const url = `/${shape}/${route}${query === '' ? '' : '?' + query}`
          const expected = 'refused' in answer ? [400, answer.refused] : [200, wrap(answer)]
          // The third sighting of a selection is served from its remembered parse and compiled serializer, where the cache admits them.
          for (let i = 0; i < 3; i++) {
            const response = await app.inject({ url, headers: hide ? { 'x-hide': '1' } : {} })
            t.strictSame([response.statusCode, response.json()], expected, `${url}${hide ? ' (email and profile.phone hidden)' : ''}, request ${i + 1}`)
          }
        }
      }
    }
  })
}

test('request.restrictedFields reports the fields a field set or the default resolved to', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'profile.city'] } })
  t.teardown(() => app.close())
  const seen: unknown[] = []
  app.get('/users', { restrictFields: { defaultFields: ['id', 'name'] }, schema: { response: { 200: user } } }, async (request) => {
    seen.push([request.restrictedFields.restricted, request.restrictedFields.fields, request.restrictedFields.paths])
    return record
  })
  app.get('/all', { restrictFields: true, schema: { response: { 200: user } } }, async (request) => {
    seen.push([request.restrictedFields.restricted, request.restrictedFields.fields])
    return record
  })
  for (const url of ['/users', '/users?only=@summary', '/users?only=@default,email', '/users?only=*&defer=profile.phone', '/users?defer=name', '/all', '/all?only=*']) {
    t.equal((await app.inject(url)).statusCode, 200, url)
  }
  t.strictSame(seen, [
    [true, ['id', 'name'], ['id', 'name']],
    [true, ['id', 'profile'], ['id', 'profile', 'profile.city']],
    [true, ['id', 'name', 'email'], ['id', 'name', 'email']],
    [true, ['id', 'name', 'email', 'profile'], ['id', 'name', 'email', 'profile', 'profile.city']],
    [true, ['id'], ['id']],
    [false, ['id', 'name', 'email', 'profile']],
    [true, ['id', 'name', 'email', 'profile']]
  ])
})

test('a querystring schema sees the fields a field set resolved to, and accepts the set names', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'name'] } })
  t.teardown(() => app.close())
  const seen: unknown[] = []
  app.get('/users', {
    restrictFields: { defaultFields: ['id'] },
    schema: { querystring: { type: 'object', properties: { page: { type: 'integer' } }, additionalProperties: false }, response: { 200: { type: 'array', items: user } } }
  }, async (request) => {
    seen.push({ ...(request.query as object) })
    return [record]
  })
  for (const [url, body] of [
    ['/users?page=2', [{ id: 1 }]],
    ['/users?only=@summary&page=2', [{ id: 1, name: 'Ada' }]],
    ['/users?only=*&defer=profile', [{ id: 1, name: 'Ada', email: 'ada@example.com' }]],
    ['/users?only[]=@default&only[]=email', [{ id: 1, email: 'ada@example.com' }]]
  ] as const) {
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.json()], [200, body], url)
  }
  t.strictSame(seen, [
    { page: 2 },
    { only: ['id', 'name'], page: 2 },
    { only: ['id', 'name', 'email', 'profile'], defer: ['profile'] },
    { only: ['id', 'email'] }
  ])
})

test('a field set is compiled on its first use, a selection spelled out only once admitted, and nothing with cacheSize 0', async (t) => {
  for (const [cacheSize, expected] of [[100, [1, 1, 0, 1]], [0, [0, 0, 0, 0]]] as const) {
    const app = Fastify()
    let compiled = 0
    app.setSerializerCompiler(({ schema }) => {
      compiled++
      return (data) => JSON.stringify(data)
    })
    await app.register(fastifyRestrictedFields, { cacheSize, fieldSets: { summary: ['id', 'name'] } })
    app.get('/users', { restrictFields: { defaultFields: ['id', 'email'] }, schema: { response: { 200: { type: 'array', items: user } } } }, async () => [record])
    await app.ready()
    const counts: number[] = []
    for (const url of ['/users', '/users?only=@summary', '/users?only=name', '/users?only=name']) {
      const before = compiled
      await app.inject(url)
      counts.push(compiled - before)
    }
    t.strictSame(counts, expected, `cacheSize ${cacheSize}`)
    await app.close()
  }
})

test('a field set is projected onto each status\'s own fields', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'job.state'] } })
  t.teardown(() => app.close())
  const job = { type: 'object', properties: { id: { type: 'integer' }, job: { type: 'object', properties: { state: { type: 'string' }, eta: { type: 'integer' } } } } }
  app.post('/users', {
    restrictFields: { defaultFields: ['id', 'job.eta'] },
    schema: { response: { 200: user, 202: job } }
  }, async (request, reply) => {
    if ((request.query as Record<string, string>).later === '1') return reply.code(202).send({ id: 1, job: { state: 'queued', eta: 5 } })
    return record
  })
  const cases: Array<[string, number, unknown]> = [
    ['/users', 200, { id: 1 }],
    ['/users?later=1', 202, { id: 1, job: { eta: 5 } }],
    ['/users?only=@summary', 200, { id: 1 }],
    ['/users?only=@summary&later=1', 202, { id: 1, job: { state: 'queued' } }],
    ['/users?only=*&later=1', 202, { id: 1, job: { state: 'queued', eta: 5 } }],
    ['/users?defer=id&later=1', 202, { job: { eta: 5 } }]
  ]
  for (const [url, status, body] of cases) {
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ method: 'POST', url })
      t.strictSame([response.statusCode, response.json()], [status, body], `${url}, request ${i + 1}`)
    }
  }
})

test('a field set or default that names an undeclared field, or a set misnamed, fails when the route is declared, naming the route and the entry', async (t) => {
  const schema = { response: { 200: user } }
  const cases: Array<[Record<string, unknown>, Record<string, unknown> | true, string, string]> = [
    [{}, { fieldSets: { summary: ['id', 'nickname'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set '@summary' names 'nickname', which the route does not declare"],
    [{}, { fieldSets: { summary: ['profile.zip'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set '@summary' names 'profile.zip', which the route does not declare"],
    [{}, { fieldSets: { summary: ['id.value'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set '@summary' names 'id.value', which the route does not declare"],
    [{}, { defaultFields: ['id', 'password'] }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: `defaultFields` names 'password', which the route does not declare"],
    [{ fieldSets: { card: ['id', 'avatar'] } }, true, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set '@card' names 'avatar', which the route does not declare"],
    [{}, { fieldSets: { 'in brief': ['id'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set \"in brief\" should be named with a plain word (letters, digits, '_' and '-')"],
    [{}, { fieldSets: { default: ['id'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
      "fastify-restricted-fields, route GET /users: field set 'default' would shadow @default, the fields sent without `only`; declare them with `defaultFields`"]
  ]
  for (const [plugin, route, code, message] of cases) {
    const app = Fastify()
    await app.register(fastifyRestrictedFields, plugin)
    t.throws(() => app.get('/users', { schema, restrictFields: route as { fieldSets: Record<string, string[]> } }, async () => record), { code, message }, message)
    await app.close()
  }
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { fieldSets: { card: ['id', 'avatar'] } })
  t.teardown(() => app.close())
  app.get('/users', { schema, restrictFields: { fieldSets: { card: ['id', 'name'] } } }, async () => record)
  t.strictSame((await app.inject('/users?only=@card')).json(), { id: 1, name: 'Ada' }, 'a route\'s own set of the same name replaces the plugin\'s')
})

test('the only parameter documents *, @default and each preset with its fields; a caller\'s document leaves out what it may not see', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { openapi: '3.0.3', info: { title: 'sets', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, {
    fieldSets: { summary: ['id', 'name', 'profile.city'] },
    hiddenFields: (request) => request.headers['x-hide'] === '1' ? HIDDEN : NOTHING
  })
  app.get('/users', {
    restrictFields: { defaultFields: ['id', 'email'], fieldSets: { contact: ['email', 'profile.phone'] } },
    schema: { querystring: { type: 'object', properties: { page: { type: 'integer' } } }, response: { 200: { type: 'array', items: user } } }
  }, async () => [record])
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => record)
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  const only = (document: any, path: string): unknown => {
    const parameter = document.paths[path].get.parameters.find((p: { name: string }) => p.name === 'only')
    return [parameterChoices(document, parameter), parameter.description.replace(/^.*\(a\.b\)\. /, '')]
  }
  const complete = app.swagger() as any
  await SwaggerParser.validate(structuredClone(complete))
  t.strictSame(only(complete, '/users'), [
    ['id', 'name', 'email', 'profile', 'profile.city', 'profile.phone', '*', '@default', '@summary', '@contact'],
    'Field sets mix with names (only=@name,a): * is every field; @default, sent without only, is id, email; @summary is id, name, profile.city; @contact is email, profile.phone.'
  ], 'a route with a querystring schema, through it')
  t.strictSame(only(complete, '/users/{id}'), [
    ['id', 'name', 'email', 'profile', 'profile.city', 'profile.phone', '*', '@summary'],
    'Field sets mix with names (only=@name,a): * is every field; @summary is id, name, profile.city.'
  ], 'a route without one, in the document')
  const hidden = (await app.inject({ url: '/docs', headers: { 'x-hide': '1' } })).json()
  t.strictSame(only(hidden, '/users'), [
    ['id', 'name', 'profile', 'profile.city', '*', '@default', '@summary', '@contact'],
    'Field sets mix with names (only=@name,a): * is every field; @default, sent without only, is id; @summary is id, name, profile.city; @contact is empty.'
  ])
  t.strictSame(only(hidden, '/users/{id}'), [
    ['id', 'name', 'profile', 'profile.city', '*', '@summary'],
    'Field sets mix with names (only=@name,a): * is every field; @summary is id, name, profile.city.'
  ])
  t.strictSame((await app.inject('/docs')).json(), JSON.parse(JSON.stringify(complete)), 'a caller who may see everything gets the complete document')
})
