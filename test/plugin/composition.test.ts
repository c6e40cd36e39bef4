import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'
import type { JsonSchema } from '../../lib/schema/tree.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

/** Sends each url to the compiled route (twice: the second is compiled), the written one and a copied one; all must answer `body`. */
async function expectEverywhere (t: Test, app: FastifyInstance, url: string, status: number, body: string): Promise<void> {
  for (const prefix of ['/compiled', '/compiled', '/written', '/copied']) {
    const response = await app.inject(prefix + url)
    t.strictSame([response.statusCode, response.body], [status, body], prefix + url)
  }
}

/**
 * An app with the same schema and handler under /compiled, /written (never compiled) and /copied (records with toJSON, left to the
 * copy).
 */
async function appWith (
  t: Test,
  schema: unknown,
  payload: () => unknown,
  setup: (app: FastifyInstance) => void = () => {},
  maxDepth = 8
): Promise<FastifyInstance> {
  const app = Fastify()
  setup(app)
  await app.register(fastifyRestrictedFields, { maxDepth })
  t.teardown(() => app.close())
  app.get('/plain', { schema: { response: { 200: schema } } }, async () => payload())
  app.get('/compiled', { restrictFields: true, schema: { response: { 200: schema } } }, async () => payload())
  app.get('/written', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: schema } } }, async () => payload())
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: schema } } }, async () => {
    const value = payload()
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { toJSON: () => value } : value
  })
  await app.ready()
  return app
}

const base = { $id: 'base', type: 'object', required: ['id'], properties: { id: { type: 'integer' }, createdBy: { type: 'string' } } }
const profile = { $id: 'profile', type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } }
const withShared = (app: FastifyInstance): void => {
  app.addSchema(base)
  app.addSchema(profile)
}

test('an allOf record with a $ref member is read as the merge of its members', async (t) => {
  const schema = { allOf: [{ $ref: 'base#' }, { type: 'object', properties: { name: { type: 'string' } } }] }
  const app = await appWith(t, schema, () => ({ id: 1, createdBy: 'x', name: 'Ada', password: 'p' }), withShared)
  await expectEverywhere(t, app, '', 200, '{"id":1,"createdBy":"x","name":"Ada"}')
  await expectEverywhere(t, app, '?only=id', 200, '{"id":1}')
  await expectEverywhere(t, app, '?defer=createdBy', 200, '{"id":1,"name":"Ada"}')
})

test('TypeBox Intersect is read as the merge of its members', async (t) => {
  const schema = Type.Intersect([Type.Object({ id: Type.Integer() }), Type.Object({ name: Type.String() })])
  const app = await appWith(t, schema, () => ({ id: 1, name: 'Ada' }))
  await expectEverywhere(t, app, '?only=name', 200, '{"name":"Ada"}')
})

test('an envelope whose results items are allOf is recognised, and its own keys are never removed', async (t) => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      next: { type: ['string', 'null'] },
      previous: { type: ['string', 'null'] },
      results: { type: 'array', items: { allOf: [{ $ref: 'base#' }, { type: 'object', properties: { name: { type: 'string' } } }] } }
    }
  }
  const app = await appWith(t, schema, () => ({ count: 1, next: null, previous: null, results: [{ id: 1, createdBy: 'x', name: 'Ada' }] }), withShared)
  await expectEverywhere(t, app, '?only=id', 200, '{"count":1,"next":null,"previous":null,"results":[{"id":1}]}')
  await expectEverywhere(t, app, '?defer=count', 400, '{"statusCode":400,"code":"FST_RESTRICTED_FIELDS_UNKNOWN_FIELD","error":"Bad Request","message":"Unknown field \'count\' in query parameter \'defer\'; allowed fields: id, createdBy, name"}')
})

test('an envelope composed with allOf keeps its keys and restricts its records', async (t) => {
  const page = { type: 'object', properties: { count: { type: 'integer' } } }
  const schema = { allOf: [page, { type: 'object', properties: { results: { type: 'array', items: { $ref: 'base#' } } } }] }
  const app = await appWith(t, schema, () => ({ count: 1, results: [{ id: 1, createdBy: 'x' }] }), withShared)
  await expectEverywhere(t, app, '?only=createdBy', 200, '{"count":1,"results":[{"createdBy":"x"}]}')
})

test('properties beside allOf: defer removes only the named field, nested paths of allOf members are declared', async (t) => {
  const schema = {
    type: 'object',
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
    allOf: [{ type: 'object', properties: { profile: { $ref: 'profile#' }, role: { type: 'string' } } }]
  }
  const app = await appWith(t, schema, () => ({ id: 1, name: 'Ada', profile: { city: 'Oslo', zip: '1' }, role: 'admin' }), withShared)
  await expectEverywhere(t, app, '?defer=name', 200, '{"id":1,"profile":{"city":"Oslo","zip":"1"},"role":"admin"}')
  await expectEverywhere(t, app, '?only=profile.city', 200, '{"profile":{"city":"Oslo"}}')
})

test('a field written { allOf: [{ $ref }], description } has the nested fields of the referenced schema', async (t) => {
  const schema = { type: 'object', properties: { id: { type: 'integer' }, profile: { allOf: [{ $ref: 'profile#' }], description: 'Where they live' } } }
  const app = await appWith(t, schema, () => ({ id: 1, profile: { city: 'Oslo', zip: '1' } }), withShared)
  await expectEverywhere(t, app, '?only=profile.city', 200, '{"profile":{"city":"Oslo"}}')
  await expectEverywhere(t, app, '?defer=profile.city', 200, '{"id":1,"profile":{"zip":"1"}}')
})

const cat = { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' }, name: { type: 'string' }, lives: { type: 'integer' } } }
const dog = { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' }, name: { type: 'string' }, barks: { type: 'boolean' } } }
const pets = [{ kind: 'cat', name: 'Tom', lives: 9, barks: false }, { kind: 'dog', name: 'Rex', barks: true, lives: 1 }]

for (const [title, schema] of [
  ['oneOf with a discriminator', { oneOf: [cat, dog], discriminator: { propertyName: 'kind' } }],
  ['anyOf', { anyOf: [cat, dog] }],
  ['TypeBox Union', Type.Union([
    Type.Object({ kind: Type.Literal('cat'), name: Type.Optional(Type.String()), lives: Type.Optional(Type.Integer()) }),
    Type.Object({ kind: Type.Literal('dog'), name: Type.Optional(Type.String()), barks: Type.Optional(Type.Boolean()) })
  ])]
] as const) {
  test(`variants (${title}): every name is declared, each record keeps the names of its own variant`, async (t) => {
    const app = await appWith(t, { type: 'array', items: schema }, () => pets)
    const plain = await app.inject('/plain')
    t.equal(plain.body, '[{"kind":"cat","name":"Tom","lives":9},{"kind":"dog","name":"Rex","barks":true}]')
    await expectEverywhere(t, app, '', 200, plain.body)
    await expectEverywhere(t, app, '?only=lives', 200, '[{"lives":9},{}]')
    await expectEverywhere(t, app, '?only=barks', 200, '[{},{"barks":true}]')
    await expectEverywhere(t, app, '?defer=name', 200, '[{"kind":"cat","lives":9},{"kind":"dog","barks":true}]')
    await expectEverywhere(t, app, '?only=kind', 200, '[{"kind":"cat"},{"kind":"dog"}]')
  })
}

test('Zod discriminatedUnion: each record keeps the names of its own variant', async (t) => {
  const schema = z.array(z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('cat'), lives: z.int() }),
    z.object({ kind: z.literal('dog'), barks: z.boolean() })
  ]))
  const app = await zodApp(t)
  app.get('/pets', { restrictFields: true, schema: { response: { 200: schema } } }, async () => [{ kind: 'cat' as const, lives: 9 }, { kind: 'dog' as const, barks: true }])
  for (const [query, body] of [['only=lives', '[{"lives":9},{}]'], ['defer=kind', '[{"lives":9},{"barks":true}]'], ['', '[{"kind":"cat","lives":9},{"kind":"dog","barks":true}]']]) {
    for (let i = 0; i < 2; i++) {
      const response = await app.inject(`/pets?${query}`)
      t.strictSame([response.statusCode, response.body], [200, body], query)
    }
  }
})

for (const [title, schema] of [
  ["type: ['object', 'null']", { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: 'string' } } }],
  ['nullable: true', { type: 'object', nullable: true, properties: { id: { type: 'integer' }, name: { type: 'string' } } }],
  ['anyOf with null', { anyOf: [{ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }, { type: 'null' }] }],
  ['TypeBox Union with Null', Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()])]
] as const) {
  test(`a nullable record (${title}) the handler returns as null stays null, as a record and as an array item`, async (t) => {
    const one = await appWith(t, schema, () => null)
    await expectEverywhere(t, one, '?only=id', 200, 'null')
    await expectEverywhere(t, one, '?defer=name', 200, 'null')
    await expectEverywhere(t, one, '', 200, 'null')
    const many = await appWith(t, { type: 'array', items: schema }, () => [null, { id: 1, name: 'a' }])
    await expectEverywhere(t, many, '?only=id', 200, '[null,{"id":1}]')
  })
}

/** An app with Zod's compilers and the plugin, closed when the test ends. */
async function zodApp (t: Test): Promise<FastifyInstance> {
  const app = Fastify()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  return app
}

test('a Zod nullable record stays null', async (t) => {
  const app = await zodApp(t)
  app.get('/me', { restrictFields: true, schema: { response: { 200: z.object({ id: z.int() }).nullable() } } }, async () => null)
  for (let i = 0; i < 2; i++) {
    const response = await app.inject('/me?only=id')
    t.strictSame([response.statusCode, response.body], [200, 'null'])
  }
})

test('a field whose if/then/else chooses between values of other types is a leaf: sent as the route sends it, never a 500', async (t) => {
  // Branches typed by a list and by a single type.
  const value = { if: { type: 'string' }, then: { type: ['string'] }, else: { type: 'integer' } }
  const count = { if: { type: 'null' }, then: { type: 'integer' }, else: { type: 'number' } }
  const schema = { type: 'array', items: { type: 'object', properties: { value, count, other: { type: 'string' } } } }
  const app = await appWith(t, schema, () => [{ value: null, count: null, other: 'x' }, { value: 'word', count: 1.5, other: 'y' }])
  const plain = await app.inject('/plain')
  t.equal(plain.body, '[{"value":0,"count":0,"other":"x"},{"value":"word","count":1.5,"other":"y"}]')
  await expectEverywhere(t, app, '?only=value,count', 200, '[{"value":0,"count":0},{"value":"word","count":1.5}]')
  await expectEverywhere(t, app, '?defer=value,count', 200, '[{"other":"x"},{"other":"y"}]')
})

test('if/then/else declares the fields of both branches; each record keeps those of its branch', async (t) => {
  const schema = {
    type: 'array',
    items: {
      type: 'object',
      properties: { kind: { type: 'string' } },
      if: { type: 'object', properties: { kind: { const: 'a' } } },
      then: { properties: { a: { type: 'integer' } } },
      else: { properties: { b: { type: 'integer' } } }
    }
  }
  const app = await appWith(t, schema, () => [{ kind: 'a', a: 1, b: 2 }, { kind: 'b', a: 3, b: 4 }])
  await expectEverywhere(t, app, '?defer=kind', 200, '[{"a":1},{"b":4}]')
  await expectEverywhere(t, app, '?only=a', 200, '[{"a":1},{}]')
})

test("recursion through $ref: '#' deeper than maxDepth: sent whole below it, never a 500, each depth as the route sends it", async (t) => {
  const schema = { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } }
  const deep = { id: 1, label: 'a', children: [{ id: 2, label: 'b', children: [{ id: 3, label: 'c', children: [{ id: 4, label: 'd', children: [] }] }] }] }
  const app = await appWith(t, schema, () => deep, () => {}, 2)
  const whole = '{"id":2,"label":"b","children":[{"id":3,"label":"c","children":[{"id":4,"label":"d","children":[]}]}]}'
  for (let i = 0; i < 3; i++) {
    await expectEverywhere(t, app, '?only=id,children', 200, `{"id":1,"children":[${whole}]}`)
  }
  await expectEverywhere(t, app, '?defer=children.label', 200, '{"id":1,"label":"a","children":[{"id":2,"children":[{"id":3,"label":"c","children":[{"id":4,"label":"d","children":[]}]}]}]}')
})

test('TypeBox Recursive (0.34), TypeBox Cyclic (1.x) and fragment ids are resolved as Fastify resolves them', async (t) => {
  const deep = { id: 1, children: [{ id: 2, children: [{ id: 3, children: [] }] }] }
  const schemas = [
    { $id: 'T0', type: 'object', properties: { id: { type: 'integer' }, children: { type: 'array', items: { $ref: 'T0' } } } },
    Type.Cyclic({ Node: Type.Object({ id: Type.Integer(), children: Type.Array(Type.Ref('Node')) }) }, 'Node'),
    { $ref: '#node', definitions: { node: { $id: '#node', type: 'object', properties: { id: { type: 'integer' }, children: { type: 'array', items: { $ref: '#node' } } } } } }
  ]
  for (const schema of schemas) {
    const app = await appWith(t, schema, () => deep, () => {}, 2)
    await expectEverywhere(t, app, '?only=children.id', 200, '{"children":[{"id":2}]}')
    await expectEverywhere(t, app, '?defer=id', 200, '{"children":[{"id":2,"children":[{"id":3,"children":[]}]}]}')
  }
})

test('Zod dates and codecs are leaves, written as the route writes them', async (t) => {
  const app = await zodApp(t)
  const at = z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() })
  const schema = z.object({ id: z.int(), createdAt: z.date(), at })
  app.get('/plain', { schema: { response: { 200: schema } } }, async () => ({ id: 1, createdAt: new Date(0), at: new Date(1e12) }))
  app.get('/r', { restrictFields: true, schema: { response: { 200: schema } } }, async () => ({ id: 1, createdAt: new Date(0), at: new Date(1e12) }))
  t.equal((await app.inject('/plain')).body, '{"id":1,"createdAt":"1970-01-01T00:00:00.000Z","at":"2001-09-09T01:46:40.000Z"}')
  for (const [query, body] of [['', '{"id":1,"createdAt":"1970-01-01T00:00:00.000Z","at":"2001-09-09T01:46:40.000Z"}'], ['only=createdAt', '{"createdAt":"1970-01-01T00:00:00.000Z"}'], ['defer=createdAt', '{"id":1,"at":"2001-09-09T01:46:40.000Z"}']]) {
    for (let i = 0; i < 2; i++) {
      const response = await app.inject(`/r?${query}`)
      t.strictSame([response.statusCode, response.body], [200, body], query)
    }
  }
})

test('the handler payload is never changed by restriction of composed schemas', async (t) => {
  const payload = [{ kind: 'cat', name: 'Tom', lives: 9, barks: false }]
  const before = JSON.stringify(payload)
  const app = await appWith(t, { type: 'array', items: { oneOf: [cat, dog] } }, () => payload)
  await expectEverywhere(t, app, '?only=lives', 200, '[{"lives":9}]')
  t.equal(JSON.stringify(payload), before)
})

test('variants nested in variants, and a field two allOf members declare, are read', async (t) => {
  const bird = { type: 'object', required: ['kind'], properties: { kind: { const: 'bird' }, wings: { type: 'integer' } } }
  const schema = { type: 'array', items: { anyOf: [{ anyOf: [cat, dog] }, bird] } }
  const app = await appWith(t, schema, () => [{ kind: 'bird', wings: 2, lives: 1 }, { kind: 'dog', barks: true, wings: 0 }])
  await expectEverywhere(t, app, '?only=wings,barks', 200, '[{"wings":2},{"barks":true}]')
  const merged = { allOf: [{ type: 'object', properties: { id: { type: 'integer' } } }, { type: 'object', properties: { id: { minimum: 0 }, name: { type: 'string' } } }] }
  const both = await appWith(t, merged, () => ({ id: 3, name: 'n' }))
  await expectEverywhere(t, both, '?only=id', 200, '{"id":3}')
})

test('null stays null for nullable variants, a nullable array field and a nullable envelope', async (t) => {
  const pets = await appWith(t, { type: 'array', items: { anyOf: [cat, dog, { type: 'null' }] } }, () => [null, { kind: 'cat', lives: 1 }])
  await expectEverywhere(t, pets, '?only=lives', 200, '[null,{"lives":1}]')
  // Records declared before the envelope's other keys: the writer leaves the page to the copy.
  const petPage = { type: 'object', properties: { results: { type: 'array', items: { anyOf: [cat, dog, { type: 'null' }] } }, count: { type: 'integer' } } }
  const copied = await appWith(t, petPage, () => ({ results: [null, { kind: 'cat', lives: 1 }], count: 2 }))
  await expectEverywhere(t, copied, '?only=lives', 200, '{"results":[null,{"lives":1}],"count":2}')
  const tagged = { type: 'object', properties: { id: { type: 'integer' }, tags: { type: ['array', 'null'], items: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } } } } }
  const tags = await appWith(t, tagged, () => ({ id: 1, tags: null }))
  await expectEverywhere(t, tags, '?only=tags.a', 200, '{"tags":null}')
  const page = { type: ['object', 'null'], properties: { count: { type: 'integer' }, results: { type: 'array', items: cat } } }
  const pages = await appWith(t, page, () => null)
  await expectEverywhere(t, pages, '?only=lives', 200, 'null')
})

test('a record that matches no variant fails as the route fails without the plugin, on every path', async (t) => {
  const app = await appWith(t, { anyOf: [cat, dog] }, () => ({ kind: 'bird', name: 'Tweety', wings: 2 }))
  const failure = '{"statusCode":500,"error":"Internal Server Error","message":"The value of \'#\' does not match schema definition."}'
  t.strictSame([(await app.inject('/plain')).statusCode, (await app.inject('/plain')).body], [500, failure], 'the route without the plugin')
  await app.inject('/compiled?only=name')
  // fast-json-stringify names the schema it failed on: in a pruned schema, one it merged.
  for (const url of ['/compiled?only=name', '/written?only=name,kind', '/copied?only=name']) {
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.json().error], [500, 'Internal Server Error'], url)
    t.match(response.json().message, /^The value of '[^']*' does not match schema definition\.$/, url)
  }
})

test('tagged variants that keep the same fields are written by one schema once each record\'s tag is checked; other payloads are tested as the route tests them', async (t) => {
  const app = Fastify()
  const compiled: unknown[] = []
  app.setSerializerCompiler(({ schema }) => {
    compiled.push(schema)
    return fastJsonStringify(schema)
  })
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  const payloads: Record<string, unknown> = {
    pets,
    nulls: [null, pets[0]],
    bird: [...pets, { kind: 'bird', name: 'Tweety' }],
    list: [pets[0], [pets[1]]],
    unkinded: [{ name: 'Tom' }]
  }
  const page = (payload: string): unknown => payload === 'null' ? null : { count: 2, results: payloads[payload] }
  const routes: Array<[string, unknown, (payload: string) => unknown]> = [
    ['/array', { type: 'array', items: { anyOf: [cat, dog] } }, (payload) => payloads[payload]],
    ['/nullable', { type: 'array', items: { anyOf: [cat, dog, { type: 'null' }] } }, (payload) => payloads[payload]],
    ['/page', { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { oneOf: [cat, dog] } } } }, page],
    ['/one', { oneOf: [cat, dog] }, (payload) => (payloads[payload] as unknown[])[0]]
  ]
  for (const [url, schema, payload] of routes) {
    app.get(url, { restrictFields: true, schema: { response: { 200: schema } } }, async (request) => {
      return payload((request.query as { payload: string }).payload)
    })
  }
  const shared = { type: 'object', properties: { kind: { type: 'string' }, name: { type: 'string' } }, additionalProperties: false }
  for (const [url, status, body, schema] of [
    ['/array?payload=pets', 200, '[{"kind":"cat","name":"Tom"},{"kind":"dog","name":"Rex"}]', { type: 'array', items: shared }],
    ['/nullable?payload=nulls', 200, '[null,{"kind":"cat","name":"Tom"}]', { type: 'array', items: { ...shared, nullable: true } }],
    ['/page?payload=pets', 200, '{"count":2,"results":[{"kind":"cat","name":"Tom"},{"kind":"dog","name":"Rex"}]}', {
      type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: shared } }
    }],
    ['/one?payload=pets', 200, '{"kind":"cat","name":"Tom"}', shared]
  ] as const) {
    for (let i = 0; i < 2; i++) {
      const response = await app.inject(`${url}&only=kind,name`)
      t.strictSame([response.statusCode, response.body], [status, body], url)
    }
    t.strictSame(compiled.at(-1), schema, `${url}: the records' shared schema is compiled last`)
  }
  // Each of these has a record of no variant, or not where records belong: it fails as the route fails.
  for (const url of ['/array?payload=bird', '/array?payload=nulls', '/array?payload=list', '/nullable?payload=unkinded', '/page?payload=bird', '/one?payload=unkinded']) {
    const response = await app.inject(`${url}&only=kind,name`)
    t.strictSame([response.statusCode, response.json().error], [500, 'Internal Server Error'], url)
    t.match(response.json().message, /^The value of '[^']*' does not match schema definition\.$/, url)
  }
  t.strictSame([(await app.inject('/page?payload=none&only=kind,name')).statusCode, (await app.inject('/page?payload=none&only=kind,name')).body], [200, '{"count":2}'], 'an envelope without its records')
  const notAPage = await app.inject('/page?payload=null&only=kind,name')
  t.strictSame([notAPage.statusCode, notAPage.body], [200, fastJsonStringify(routes[2][1] as object)(null)], 'no envelope: written as the route writes it')
})

test('a copy goes out in its own variant\'s order, with its own variant\'s fields, when it fits several once fields are left out', async (t) => {
  // Without kind, a copy of {b: null, a: null} fits both branches; the record is of the else branch, which writes b first.
  const item = {
    type: 'object',
    properties: { kind: { type: 'string' } },
    if: { type: 'object', properties: { kind: { const: 'a' } } },
    then: { properties: { kind: { const: 'a' }, a: { type: 'object', nullable: true, properties: { x: { type: 'integer' } } }, b: { type: 'string', nullable: true } } },
    else: { properties: { kind: { const: 'b' }, b: { type: 'integer', nullable: true }, a: { type: 'string', nullable: true } } }
  }
  const records = [{ kind: 'b', b: null, a: null }, { kind: 'b', b: 2, a: '3' }, { kind: 'a', a: { x: 1 }, b: 'y' }]
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  // Records declared before the envelope's other keys: the writer leaves the page to the copy.
  const page = { type: 'object', properties: { results: { type: 'array', items: item }, count: { type: 'integer' } } }
  app.get('/plain', { schema: { response: { 200: page } } }, async () => ({ results: records, count: 3 }))
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: page } } }, async () => ({ results: records, count: 3 }))
  t.equal((await app.inject('/plain')).body, '{"results":[{"kind":"b","b":null,"a":null},{"kind":"b","b":2,"a":"3"},{"kind":"a","a":{"x":1},"b":"y"}],"count":3}')
  const copied = await app.inject('/copied?only=a&only=b')
  t.strictSame([copied.statusCode, copied.body], [200, '{"results":[{"b":null,"a":null},{"b":2,"a":"3"},{"a":{"x":1},"b":"y"}],"count":3}'])
})

test('a serializer compiler that refuses the variant chooser leaves records to the copy, with the kept fields they have; tagged variants need no chooser', async (t) => {
  const refusingChoosers = (app: FastifyInstance): void => {
    app.setSerializerCompiler(({ schema }) => {
      if ((schema as Record<string, unknown>).if !== undefined) throw new Error('no if')
      return (data) => JSON.stringify(data)
    })
  }
  // Without a required tag, the chooser tests each whole variant.
  const untagged = { anyOf: [{ ...cat, required: [] }, { ...dog, required: [] }] }
  const app = await appWith(t, { type: 'array', items: untagged }, () => pets, refusingChoosers)
  const response = await app.inject('/written?only=kind,lives')
  t.strictSame([response.statusCode, response.body], [200, '[{"kind":"cat","lives":9},{"kind":"dog","lives":1}]'])
  const tagged = await appWith(t, { type: 'array', items: { anyOf: [cat, dog] } }, () => pets, refusingChoosers)
  const written = await tagged.inject('/written?only=kind,lives')
  t.strictSame([written.statusCode, written.body], [200, '[{"kind":"cat","lives":9},{"kind":"dog"}]'], 'each record written as its own variant')
})

test('a hiddenFields rule hides a field of every variant, nested ones included, on every path', async (t) => {
  const owner = { type: 'object', properties: { name: { type: 'string' }, phone: { type: 'string' } } }
  const schema = { type: 'array', items: { oneOf: [cat, { ...dog, properties: { ...dog.properties, owner } }] } }
  const payload = [{ kind: 'cat', name: 'Tom', lives: 9 }, { kind: 'dog', name: 'Rex', barks: true, owner: { name: 'Ann', phone: '1' } }]
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  for (const [url, cacheSize] of [['/compiled', 100], ['/written', 0]] as const) {
    app.get(url, { restrictFields: { cacheSize, hiddenFields: () => ['lives', 'owner.phone'] }, schema: { response: { 200: schema } } }, async () => payload)
  }
  await app.ready()
  for (const url of ['/compiled', '/compiled', '/written']) {
    const whole = await app.inject(url)
    t.strictSame([whole.statusCode, whole.body], [200, '[{"kind":"cat","name":"Tom"},{"kind":"dog","name":"Rex","barks":true,"owner":{"name":"Ann"}}]'], url)
    const owners = await app.inject(`${url}?only=owner`)
    t.strictSame([owners.statusCode, owners.body], [200, '[{},{"owner":{"name":"Ann"}}]'], `${url}?only=owner`)
    const hidden = await app.inject(`${url}?only=lives`)
    t.equal(hidden.statusCode, 400, `${url}?only=lives`)
  }
})

test('records of n variants that each refer to one app, whose owner is one of two, declare and serve at any n: the owner level keeps its two variants', async (t) => {
  const app = {
    $id: 'app',
    type: 'object',
    properties: {
      id: { type: 'integer' },
      owner: {
        oneOf: [
          { type: 'object', required: ['login'], properties: { login: { type: 'string' }, kind: { type: 'string' } } },
          { type: 'object', required: ['slug'], properties: { slug: { type: 'string' }, kind: { type: 'string' } } }
        ]
      }
    }
  }
  const records = (count: number): JsonSchema => ({
    type: 'array',
    items: {
      oneOf: Array.from({ length: count }, (_, index) => ({
        type: 'object',
        required: ['event'],
        properties: { event: { const: `e${index}` }, id: { type: 'integer' }, app: { $ref: 'app#' } }
      }))
    }
  })
  for (const count of [2, 12]) {
    const server = await appWith(t, records(count), () => [
      { event: 'e0', id: 1, app: { id: 7, owner: { login: 'ada', kind: 'user', slug: 'no' } } },
      { event: `e${count - 1}`, id: 2, app: { id: 8, owner: { slug: 'acme', kind: 'org' } } }
    ], (instance) => instance.addSchema(app))
    await expectEverywhere(t, server, '?only=id,app.owner.login', 200, '[{"id":1,"app":{"owner":{"login":"ada"}}},{"id":2,"app":{"owner":{}}}]')
    await expectEverywhere(t, server, '?only=event,app.owner.slug,app.owner.kind', 200,
      `[{"event":"e0","app":{"owner":{"kind":"user"}}},{"event":"e${count - 1}","app":{"owner":{"slug":"acme","kind":"org"}}}]`)
    await expectEverywhere(t, server, '?defer=app.id,app.owner.kind', 200,
      `[{"event":"e0","id":1,"app":{"owner":{"login":"ada"}}},{"event":"e${count - 1}","id":2,"app":{"owner":{"slug":"acme"}}}]`)
  }
})

/**
 * Sends each url to /plain without the query, then to every path with it: each must answer `body`, and /plain the whole record as
 * `plain`.
 */
async function expectAsPlain (t: Test, app: FastifyInstance, plain: string, rows: Array<[string, string]>): Promise<void> {
  t.equal((await app.inject('/plain')).body, plain, 'the route without the plugin')
  for (const [query, body] of rows) await expectEverywhere(t, app, query, 200, body)
}

test('a property that several allOf members declare holds the nested fields of every declaration, at any depth', async (t) => {
  // As Box's description declares a metadata template's fields and their options.
  const template = {
    allOf: [
      { type: 'object', properties: { key: { type: 'string' }, options: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } } } } },
      { type: 'object', properties: { id: { type: 'string' }, options: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } }
    ]
  }
  const record = { key: 'k', id: 'i', options: [{ key: 'a', id: 'b', secret: 's' }], secret: 's' }
  const app = await appWith(t, template, () => record)
  await expectAsPlain(t, app, '{"key":"k","options":[{"key":"a","id":"b"}],"id":"i"}', [
    ['?only=options', '{"options":[{"key":"a","id":"b"}]}'],
    ['?only=options.id', '{"options":[{"id":"b"}]}'],
    ['?defer=options.key', '{"key":"k","options":[{"id":"b"}],"id":"i"}']
  ])
  // An object two members declare, one through a $ref and one with a nested allOf; and the same within an array's items.
  const owner = { $id: 'owner', type: 'object', properties: { name: { type: 'string' } } }
  const nested = {
    type: 'object',
    properties: { id: { type: 'integer' }, owner: { $ref: 'owner#' } },
    allOf: [
      { properties: { owner: { allOf: [{ properties: { email: { type: 'string' } } }] } } },
      { properties: { owner: { properties: { address: { type: 'object', properties: { city: { type: 'string' } } } } } } },
      { properties: { owner: { properties: { address: { properties: { zip: { type: 'string' } } } } } } }
    ]
  }
  const person = { id: 1, owner: { name: 'Ada', email: 'e', address: { city: 'c', zip: 'z', secret: 's' }, secret: 's' } }
  const deep = await appWith(t, nested, () => person, (instance) => instance.addSchema(owner))
  await expectAsPlain(t, deep, '{"id":1,"owner":{"name":"Ada","address":{"city":"c","zip":"z"},"email":"e"}}', [
    ['?only=owner', '{"owner":{"name":"Ada","address":{"city":"c","zip":"z"},"email":"e"}}'],
    ['?only=owner.email,owner.address.zip', '{"owner":{"address":{"zip":"z"},"email":"e"}}'],
    ['?defer=owner.address.city,owner.name', '{"id":1,"owner":{"address":{"zip":"z"},"email":"e"}}']
  ])
})

test('restricted bodies keep the order of the route\'s own, wherever required sits: beside allOf, inside it, or in a nested member', async (t) => {
  // As Box's description declares a user mini: required beside allOf names fields of its second member.
  const user = {
    required: ['name', 'login'],
    allOf: [
      { type: 'object', required: ['type'], properties: { id: { type: 'string' }, type: { type: 'string' } } },
      { type: 'object', properties: { login: { type: 'string' }, name: { type: 'string' } } }
    ]
  }
  const file = { type: 'object', properties: { id: { type: 'string' }, created_by: user } }
  const record = { id: 'f', created_by: { id: '1', type: 'user', login: 'l', name: 'n' } }
  const app = await appWith(t, file, () => record)
  await expectAsPlain(t, app, '{"id":"f","created_by":{"type":"user","login":"l","name":"n","id":"1"}}', [
    ['?only=created_by', '{"created_by":{"type":"user","login":"l","name":"n","id":"1"}}'],
    ['?only=created_by.id,created_by.name', '{"created_by":{"name":"n","id":"1"}}'],
    ['?defer=id,created_by.login', '{"created_by":{"type":"user","name":"n","id":"1"}}']
  ])
  // Required in a nested member, and the members of a level merged before theirs: b, then a, c, d, then e.
  const levels = {
    type: 'object',
    properties: { a: { type: 'string' } },
    allOf: [
      { properties: { c: { type: 'string' } }, allOf: [{ required: ['b'], properties: { e: { type: 'string' } } }] },
      { properties: { d: { type: 'string' }, b: { type: 'string' } } }
    ]
  }
  const letters = await appWith(t, levels, () => ({ e: 'e', d: 'd', c: 'c', b: 'b', a: 'a' }))
  await expectAsPlain(t, letters, '{"b":"b","a":"a","c":"c","d":"d","e":"e"}', [
    ['?defer=a', '{"b":"b","c":"c","d":"d","e":"e"}'],
    ['?only=e,b,d', '{"b":"b","d":"d","e":"e"}']
  ])
  // A $ref with keywords beside it: the target's fields come first, and its required names before all.
  const base = { $id: 'base', type: 'object', required: ['id'], properties: { name: { type: 'string' }, id: { type: 'integer' } } }
  const beside = { $ref: 'base#', required: ['kind'], properties: { kind: { type: 'string' }, extra: { type: 'string' } } }
  const refs = await appWith(t, beside, () => ({ extra: 'x', kind: 'k', name: 'n', id: 1 }), (instance) => instance.addSchema(base))
  await expectAsPlain(t, refs, '{"id":1,"kind":"k","name":"n","extra":"x"}', [
    ['?defer=name', '{"id":1,"kind":"k","extra":"x"}'],
    ['?only=extra,kind,name', '{"kind":"k","name":"n","extra":"x"}']
  ])
})

test('an envelope with required beside allOf keeps the order of the route\'s own', async (t) => {
  const page = {
    required: ['results'],
    allOf: [
      { type: 'object', properties: { count: { type: 'integer' } } },
      { type: 'object', properties: { results: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } }
    ]
  }
  const app = await appWith(t, page, () => ({ count: 1, results: [{ id: 1, name: 'n' }] }))
  await expectAsPlain(t, app, '{"results":[{"id":1,"name":"n"}],"count":1}', [
    ['?only=name', '{"results":[{"name":"n"}],"count":1}']
  ])
})
