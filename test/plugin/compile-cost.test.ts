import { test } from 'tap'
import Fastify from 'fastify'
import type { FastifySerializerCompiler } from 'fastify/types/schema.js'
import fastJsonStringify from 'fast-json-stringify'
import fastifyRestrictedFields from '../../lib/index.js'
import { compileBudget } from '../../lib/compile.js'
import type { JsonSchema } from '../../lib/schema/tree.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

/** Counts the reads of a schema's `properties` from now on, answering what it held. */
function countReads (schema: JsonSchema): { reads: number } {
  const counter = { reads: 0 }
  const properties = schema.properties
  Object.defineProperty(schema, 'properties', { enumerable: true, get () { counter.reads++; return properties } })
  return counter
}

test('a compile reads the shared schemas its selection reaches, and no other', async (t) => {
  const app = Fastify({ serializerOpts: { rounding: 'ceil' } })
  await app.register(fastifyRestrictedFields, { maxDepth: 1 })
  t.teardown(() => app.close())
  for (let i = 0; i < 20; i++) app.addSchema({ $id: `unrelated-${i}`, type: 'object', properties: { a: { type: 'string' } } })
  app.addSchema({ $id: 'money', type: 'object', properties: { amount: { type: 'integer' }, currency: { type: 'string' } } })
  const schema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, price: { $ref: 'money#' }, name: { type: 'string' } } } }
  app.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => [{ id: 1.5, price: { amount: 2.5, currency: 'EUR', cost: 1 }, name: 'a' }])
  await app.ready()
  const unrelated = countReads(app.getSchema('unrelated-7') as JsonSchema)
  const reached = countReads(app.getSchema('money') as JsonSchema)
  for (let i = 0; i < 3; i++) {
    const response = await app.inject('/items?only=id,price')
    // Fastify's serializerOpts hold for the compiled selection too: integers are rounded up.
    t.strictSame([response.statusCode, response.body], [200, '[{"id":2,"price":{"amount":3,"currency":"EUR"}}]'])
  }
  t.equal(unrelated.reads, 0, 'an unrelated shared schema is not read')
  t.ok(reached.reads > 0, 'the shared schema the selection reaches is read')
})

test('a $ref that only Fastify\'s compiler resolves (an id nested in a shared schema) still compiles', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { maxDepth: 1 })
  t.teardown(() => app.close())
  app.addSchema({ $id: 'outer', type: 'object', properties: { inner: { $id: 'inner', type: 'object', properties: { x: { type: 'string' } } } } })
  const schema = { type: 'object', properties: { o: { $ref: 'outer#' }, i: { $ref: 'inner#' }, id: { type: 'integer' } } }
  app.get('/nested', { restrictFields: true, schema: { response: { 200: schema } } }, async () => ({ o: { inner: { x: 'a' } }, i: { x: 'b', y: 1 }, id: 1 }))
  for (let i = 0; i < 3; i++) {
    const response = await app.inject('/nested?only=i')
    t.strictSame([response.statusCode, response.body], [200, '{"i":{"x":"b"}}'])
  }
})

/** A level of `count` variants that each require a field of their own. */
function variants (count: number): JsonSchema {
  return {
    type: 'array',
    items: {
      oneOf: Array.from({ length: count }, (_, index) => ({
        type: 'object',
        required: [`own${index}`],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, [`own${index}`]: { type: 'string' }, created: { type: 'string', format: 'date-time' } }
      }))
    }
  }
}

test('a selection estimated too costly to compile while a request waits is written, byte for byte, and a cheap one is compiled', async (t) => {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  // The route's own compiler, so that the compiles of selections (the array schemas) can be counted.
  const compiled: JsonSchema[] = []
  const serializerCompiler: FastifySerializerCompiler<JsonSchema> = ({ schema }) => {
    if (schema.type === 'array') compiled.push(schema)
    return fastJsonStringify(schema)
  }
  const records = [{ id: 1, name: 'a', own0: 'x' }, { id: 2, name: 'b', own39: 'y', created: '2024-01-01T00:00:00Z' }]
  app.get('/wide', { restrictFields: true, serializerCompiler, schema: { response: { 200: variants(40) } } }, async () => records)
  app.get('/narrow', { restrictFields: true, serializerCompiler, schema: { response: { 200: variants(2) } } }, async () => records.slice(0, 1))
  await app.ready()
  compiled.length = 0
  for (let i = 0; i < 4; i++) {
    const response = await app.inject('/wide?only=id,own39')
    t.strictSame([response.statusCode, response.body], [200, '[{"id":1},{"own39":"y","id":2}]'])
  }
  t.equal(compiled.length, 0, 'the selection of 40 variants is not compiled')
  for (let i = 0; i < 2; i++) {
    const response = await app.inject('/narrow?only=id,own0')
    t.strictSame([response.statusCode, response.body], [200, '[{"own0":"x","id":1}]'])
  }
  t.equal(compiled.length, 1, 'the selection of 2 variants is compiled on its second sighting')
})

test('cacheBytes bounds the compiled serializers a route keeps: one that does not fit evicts, and one that cannot fit is written', async (t) => {
  const cases = [{ cacheBytes: undefined, compiles: 2 }, { cacheBytes: 20_000, compiles: 3 }, { cacheBytes: 0, compiles: 0 }]
  for (const { cacheBytes, compiles } of cases) {
    const app = Fastify()
    await app.register(fastifyRestrictedFields, cacheBytes === undefined ? {} : { cacheBytes })
    t.teardown(() => app.close())
    let compiled = 0
    const serializerCompiler: FastifySerializerCompiler<JsonSchema> = ({ schema }) => {
      if (schema.type === 'array') compiled++
      return fastJsonStringify(schema)
    }
    const schema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
    app.get('/items', { restrictFields: true, serializerCompiler, schema: { response: { 200: schema } } }, async () => [{ id: 1, name: 'a' }])
    await app.ready()
    compiled = 0
    for (const only of ['id', 'id', 'name', 'name', 'id', 'id']) {
      const response = await app.inject(`/items?only=${only}`)
      t.strictSame([response.statusCode, response.body], [200, only === 'id' ? '[{"id":1}]' : '[{"name":"a"}]'])
    }
    t.equal(compiled, compiles, `cacheBytes ${String(cacheBytes)}`)
  }
})

test('a level whose variant tests could cost a first written reply past the bound is compiled when the route is made ready, a cheap one on first use', async (t) => {
  const level = (count: number, size: number): JsonSchema => ({
    type: 'array',
    items: {
      anyOf: Array.from({ length: count }, (_, index) => ({
        type: 'object',
        'x-counted': true,
        required: [`own${index}`],
        properties: { id: { type: 'integer', description: 'd'.repeat(size) }, [`own${index}`]: { type: 'string' } }
      }))
    }
  })
  for (const { count, size, onFirstReply } of [{ count: 3, size: 500, onFirstReply: 0 }, { count: 2, size: 0, onFirstReply: 2 }]) {
    // A keyword of the app's own ajv options, in every test: ajv calls its compile function for each schema it compiles.
    let compiles = 0
    const keyword = { keyword: 'x-counted', compile: () => { compiles++; return () => true } }
    const app = Fastify({ serializerOpts: { ajv: { keywords: [keyword] } } })
    await app.register(fastifyRestrictedFields)
    t.teardown(() => app.close())
    app.get('/items', { restrictFields: true, schema: { response: { 200: level(count, size) } } }, async () => [{ id: 1, own0: 'a' }, { id: 2, [`own${count - 1}`]: 'c' }])
    await app.ready()
    const ready = compiles
    t.equal((await app.inject('/items?only=id')).body, '[{"id":1},{"id":2}]')
    // The records are of the first and last variants: the last one's test is compiled after those before it.
    t.equal(compiles - ready, onFirstReply, `${count} variants, descriptions of ${size} characters: ${onFirstReply} tests compiled on the first written reply`)
  }
})

test('the HEAD route Fastify adds to a GET route shares its variant tests: a costly level is compiled once, when the app is made ready', async (t) => {
  const items = {
    type: 'array',
    items: {
      anyOf: Array.from({ length: 3 }, (_, index) => ({
        type: 'object',
        'x-counted': true,
        required: [`own${index}`],
        properties: { id: { type: 'integer', description: 'd'.repeat(500) }, [`own${index}`]: { type: 'string' } }
      }))
    }
  }
  /** How many schemas ajv compiles while the app is made ready, and after HEAD and GET requests of the plugin's app. */
  const compilesOf = async (plugin: boolean, exposeHeadRoute: boolean): Promise<[number, number]> => {
    let compiles = 0
    const keyword = { keyword: 'x-counted', compile: () => { compiles++; return () => true } }
    const app = Fastify({ serializerOpts: { ajv: { keywords: [keyword] } } })
    t.teardown(() => app.close())
    if (plugin) await app.register(fastifyRestrictedFields)
    app.get('/items', { restrictFields: true, exposeHeadRoute, schema: { response: { 200: items } } }, async () => [{ id: 1, own2: 'c' }])
    await app.ready()
    const ready = compiles
    if (!plugin) return [ready, 0]
    if (exposeHeadRoute) t.equal((await app.inject({ method: 'HEAD', url: '/items?only=id' })).headers['content-length'], '10')
    t.equal((await app.inject('/items?only=id')).body, '[{"id":1}]')
    return [ready, compiles - ready]
  }
  const [withHead, withoutHead] = [await compilesOf(true, true), await compilesOf(true, false)]
  const [plainWithHead, plainWithoutHead] = [await compilesOf(false, true), await compilesOf(false, false)]
  t.equal(withHead[0] - withoutHead[0], plainWithHead[0] - plainWithoutHead[0], 'the HEAD route adds only what it adds without the plugin')
  t.ok(withoutHead[0] - plainWithoutHead[0] >= 3, 'the GET route\'s tests are compiled when the app is made ready')
  t.strictSame([withHead[1], withoutHead[1]], [0, 0], 'and no request compiles them again')
})

test('a selection waits to be compiled, written meanwhile, while the process has spent its compile time, measured around each compile', async (t) => {
  let now = 0
  compileBudget.configure({ msPerSecond: 5, burstMs: 20, now: () => now })
  t.teardown(() => compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity }))
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  let compiled = 0
  const serializerCompiler: FastifySerializerCompiler<JsonSchema> = ({ schema }) => {
    if (schema.type === 'array') {
      compiled++
      // Each compile of a selection takes 25 ms by the budget's clock: more than its burst of 20.
      now += 25
    }
    return fastJsonStringify(schema)
  }
  const schema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
  app.get('/items', { restrictFields: true, serializerCompiler, schema: { response: { 200: schema } } }, async () => [{ id: 1, name: 'a' }])
  await app.ready()
  compiled = 0
  const steps: Array<{ title: string, advance: number, only: string, compiled: number }> = [
    { title: 'a first sighting is written', advance: 0, only: 'id', compiled: 0 },
    { title: 'the second is compiled, and overdraws the budget by 5 ms', advance: 0, only: 'id', compiled: 1 },
    { title: 'another selection is written', advance: 0, only: 'name', compiled: 1 },
    { title: 'and still written on its second sighting, while the overdraft is paid back', advance: 999, only: 'name', compiled: 1 },
    { title: 'a compiled selection is still served compiled', advance: 0, only: 'id', compiled: 1 },
    { title: 'once a second has paid for it, the waiting selection is compiled on its next sighting', advance: 2, only: 'name', compiled: 2 }
  ]
  for (const step of steps) {
    now += step.advance
    const response = await app.inject(`/items?only=${step.only}`)
    t.strictSame([response.statusCode, response.body, compiled], [200, step.only === 'id' ? '[{"id":1}]' : '[{"name":"a"}]', step.compiled], step.title)
  }
})
