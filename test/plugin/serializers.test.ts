import { test } from 'tap'
import type { Test } from 'tap'
import { build } from '../helpers.js'
import { records, userSchema } from '../fixtures.js'

const schema = { response: { 200: { type: 'array', items: userSchema } } }
const queries = ['only=id', 'only=name,tags', 'defer=profile.phone', 'only=profile&defer=profile.city', 'only=role', 'only=', 'defer=']

test('the copy path and the compiled path send identical bytes', async (t) => {
  const app = await build(t)
  app.get('/compiled', { schema, restrictFields: true }, async () => records)
  app.get('/copied', { schema, restrictFields: { cacheSize: 0 } }, async () => records)
  for (const query of queries) {
    const first = (await app.inject(`/compiled?${query}`)).body
    const second = (await app.inject(`/compiled?${query}`)).body
    const third = (await app.inject(`/compiled?${query}`)).body
    const copied = (await app.inject(`/copied?${query}`)).body
    t.strictSame([second, third, copied], [first, first, first], query)
  }
})

test('a selection is compiled on its second sighting and then reused, whatever its spelling', async (t) => {
  const app = await build(t)
  const compiled: unknown[] = []
  app.get('/users', {
    restrictFields: true,
    schema,
    serializerCompiler: ({ schema }) => { compiled.push(schema); return (data) => JSON.stringify(data) }
  }, async () => records)
  await app.inject('/users')
  t.equal(compiled.length, 2, 'the route schema, for GET and HEAD')
  await app.inject('/users?only=name,id')
  t.equal(compiled.length, 2, 'first sighting: written straight from the records, nothing compiled')
  await app.inject('/users?only=id&only=name')
  t.equal(compiled.length, 3, 'second sighting: the selection is compiled')
  await app.inject('/users?only[]=name&defer=email&only=id')
  await app.inject('/users?only=name,id')
  t.equal(compiled.length, 3, 'every spelling hits the cache')
  await app.inject('/users?only=email')
  t.equal(compiled.length, 3, 'a new selection is written, nothing compiled')
})

test('a leaf the writer does not write itself is compiled once for the route, on first use', async (t) => {
  const app = await build(t)
  const compiled: unknown[] = []
  const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, at: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }
  app.get('/items', {
    restrictFields: true,
    schema: { response: { 200: { type: 'array', items: item } } },
    serializerCompiler: ({ schema }) => { compiled.push(schema); return (data) => JSON.stringify(data) }
  }, async () => [{ id: 1, name: 'a', at: 'noon' }, { id: 2, name: 'b', at: 12 }])
  await app.ready()
  const expected: Record<string, string> = {
    'only=at': '[{"at":"noon"},{"at":12}]',
    'defer=name': '[{"id":1,"at":"noon"},{"id":2,"at":12}]',
    'defer=id': '[{"name":"a","at":"noon"},{"name":"b","at":12}]'
  }
  for (const [query, body] of Object.entries(expected)) {
    t.equal((await app.inject(`/items?${query}`)).body, body, query)
  }
  t.strictSame(compiled.slice(2), [item.properties.at], 'the leaf schema alone, once, for three first sightings')
})

test('a serializer compiler that refuses a pruned schema still gets a correct answer', async (t) => {
  const app = await build(t)
  const logs: string[] = []
  app.get('/users', {
    restrictFields: true,
    schema,
    logLevel: 'error',
    serializerCompiler: ({ schema }) => {
      if ((schema as { items?: { additionalProperties?: boolean } }).items?.additionalProperties === false) throw new Error('refused')
      return (data) => JSON.stringify(data)
    }
  }, async (request) => { request.log.error = ((value: { err: Error }) => { logs.push(value.err.message) }) as never; return records })
  for (let i = 0; i < 5; i++) {
    const response = await app.inject('/users?only=id')
    t.strictSame([response.statusCode, response.body], [200, '[{"id":1},{"id":2}]'])
  }
  t.strictSame(logs, ['refused'], 'logged once for the selection, never retried; the writer needs no compilation')
})

/** The request indexes at which a route with `cacheSize` compiled, over 20 passes through `selections`. */
async function compilations (t: Test, selections: string[], cacheSize: number): Promise<number[]> {
  const app = await build(t)
  let compiled = 0
  app.get('/users', {
    restrictFields: { cacheSize },
    schema,
    serializerCompiler: () => { compiled++; return (data) => JSON.stringify(data) }
  }, async () => records)
  await app.ready()
  const when: number[] = []
  for (let i = 0; i < 20 * selections.length; i++) {
    const before = compiled
    const response = await app.inject(`/users?only=${selections[i % selections.length]}`)
    t.equal(response.statusCode, 200)
    if (compiled > before) when.push(i)
  }
  return when
}

const fields = ['id', 'name', 'email', 'role', 'profile', 'tags']
const pairs = fields.flatMap((a, i) => fields.slice(i + 1).map((b) => `${a},${b}`))
const triples = fields.flatMap((a, i) => pairs.filter((pair) => pair.split(',').every((b) => fields.indexOf(b) > i)).map((pair) => `${a},${pair}`))

test('cycling through more field sets than the cache holds, but fewer than 32, does not compile on every pass', async (t) => {
  t.equal(pairs.length, 15)
  const when = await compilations(t, pairs, 10)
  t.strictSame(when.slice(0, 10), [15, 16, 17, 18, 19, 20, 21, 22, 23, 24], 'on the second pass, 10 selections fill the cache')
  t.ok(when.length <= 11, `at most one more in the 18 passes after: ${when.length - 10}`)
})

test('field sets that are each less than 1/32 of a route\'s requests are written, not compiled, once the route has served 64 requests', async (t) => {
  const selections = [...pairs, ...triples]
  t.equal(selections.length, 35)
  const when = await compilations(t, selections, 100)
  t.ok(when.length > 0 && when.every((i) => i >= 35 && i < 64), `second sightings in the first 64 requests only: ${when.join(', ')}`)
})

test('payloads the writer leaves alone are copied, with the copy schema compiled once for the route', async (t) => {
  const app = await build(t)
  let copySchemas = 0
  const item = { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } } } }
  app.get('/items', {
    restrictFields: { cacheSize: 0 },
    schema: { response: { 200: { type: 'array', items: item } } },
    serializerCompiler: ({ schema }) => {
      // The copy schema is the only one without defaults that lists every declared field.
      if (JSON.stringify(schema).includes('"zip"')) copySchemas++
      return (data) => JSON.stringify(data)
    }
  }, async () => [{ id: 1, profile: null }, { id: 2, profile: { city: 'Oslo', zip: '0150' } }])
  await app.ready()
  const before = copySchemas
  for (let i = 0; i < 3; i++) {
    const response = await app.inject('/items?only=profile.city')
    t.strictSame([response.statusCode, response.body], [200, '[{"profile":null},{"profile":{"city":"Oslo"}}]'])
  }
  t.equal(copySchemas - before, 1)
})

test('a copy schema the compiler refuses is serialized as JSON.stringify would', async (t) => {
  const app = await build(t)
  const item = { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } } } }
  app.get('/items', {
    restrictFields: { cacheSize: 0 },
    logLevel: 'silent',
    schema: { response: { 200: { type: 'array', items: item } } },
    serializerCompiler: ({ schema }) => {
      if (JSON.stringify(schema).includes('"additionalProperties":false')) throw new Error('refused')
      return (data) => JSON.stringify(data)
    }
  }, async () => [{ id: 1, profile: 'not an object' }])
  for (let i = 0; i < 2; i++) t.equal((await app.inject('/items?only=profile.city')).body, '[{"profile":"not an object"}]')
})

test('a value the serializers cannot write is a 500 on the writing and the compiled path, as without restriction', async (t) => {
  const app = await build(t)
  const item = { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } }
  app.get('/items', { restrictFields: true, logLevel: 'silent', schema: { response: { 200: { type: 'array', items: item } } } }, async () => [{ id: 1, tags: 'math' }])
  const plain = await app.inject('/items')
  t.strictSame([plain.statusCode, plain.json().message], [500, "The value of '#/items/properties/tags' does not match schema definition."])
  // The writer compiles the leaf alone, so its message locates the value in the leaf's own schema.
  const messages = ["The value of '#' does not match schema definition.", "The value of '#/items/properties/tags' does not match schema definition."]
  for (const [i, message] of [messages[0], messages[1], messages[1]].entries()) {
    const response = await app.inject('/items?only=tags')
    t.strictSame([response.statusCode, response.json().message], [500, message], `request ${i + 1}`)
  }
})

test('records with toJSON answer alike on the writing and the compiled path, as without restriction', async (t) => {
  const app = await build(t)
  const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, at: { type: 'object', properties: { day: { type: 'integer' }, hour: { type: 'integer' } } } } }
  const stored = [{ id: 1, name: 'raw', toJSON: () => ({ id: 1, name: 'Ada', at: { toJSON: () => ({ day: 2, hour: 3 }) } }) }]
  app.get('/items', { restrictFields: true, schema: { response: { 200: { type: 'array', items: item } } } }, async () => stored)
  t.equal((await app.inject('/items')).body, '[{"id":1,"name":"Ada","at":{"day":2,"hour":3}}]')
  for (let i = 0; i < 3; i++) t.equal((await app.inject('/items?only=name,at.day')).body, '[{"name":"Ada","at":{"day":2}}]', `request ${i + 1}`)
})

/** Eight one-field sets on a route of eight integer fields, and the 255 combinations of them, spelled as sets and as names. */
const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
const combinations = Array.from({ length: 255 }, (_, i) => letters.filter((_, bit) => ((i + 1) & (1 << bit)) !== 0))

/** The compilations a route of eight one-field sets makes for each request of `queries`, in order. */
async function compilationsOfSets (t: Test, queries: string[], cacheSize: number, hidden = false): Promise<number[]> {
  const app = await build(t, {
    cacheSize,
    fieldSets: Object.fromEntries(letters.map((letter) => [letter, [letter]])),
    hiddenFields: (request) => hidden && request.headers['x-role'] !== 'staff' ? ['a', 'h'] : []
  })
  let compiled = 0
  const item = { type: 'object', properties: Object.fromEntries(letters.map((letter) => [letter, { type: 'integer' }])) }
  app.get('/items', {
    restrictFields: true,
    schema: { response: { 200: { type: 'array', items: item } } },
    serializerCompiler: () => { compiled++; return (data) => JSON.stringify(data) }
  }, async () => [Object.fromEntries(letters.map((letter, i) => [letter, i]))])
  await app.ready()
  const counts: number[] = []
  for (const [i, query] of queries.entries()) {
    const before = compiled
    const response = await app.inject({ url: `/items?${query}`, headers: { 'x-role': i % 2 === 0 ? 'staff' : 'guest' } })
    t.equal(response.statusCode, 200)
    counts.push(compiled - before)
  }
  return counts
}

const sum = (counts: number[]): number => counts.reduce((total, count) => total + count, 0)

test('combinations of field sets are compiled no more often than the same selections spelled as names', async (t) => {
  const passes = (spell: (names: string[]) => string): string[] => Array.from({ length: 4 }, () => combinations.map((names) => `only=${spell(names)}`)).flat()
  const asSets = await compilationsOfSets(t, passes((names) => names.map((name) => '@' + name).join(',')), 100)
  const asNames = await compilationsOfSets(t, passes((names) => names.join(',')), 100)
  t.equal(asSets.length, 1020)
  const single = (counts: number[]): number => sum(counts.filter((_, i) => combinations[i % 255].length === 1))
  const combined = (counts: number[]): number => sum(counts.filter((_, i) => combinations[i % 255].length > 1))
  t.equal(single(asSets), 8, 'each one-field set alone compiles once, on its first use')
  t.ok(combined(asSets) <= combined(asNames), `combinations of sets compile ${combined(asSets)} times, names ${combined(asNames)}`)
  t.ok(sum(asSets) <= sum(asNames) + 8, `in all, sets ${sum(asSets)}, names ${sum(asNames)}`)
})

test('field sets alone that evict each other from a cache of one still compile within the budget', async (t) => {
  // @a and *, each for staff and for a caller who may not see `a` and `h`: four selections in turn, every one evicting the last.
  const queries = Array.from({ length: 512 }, (_, i) => i % 4 < 2 ? 'only=@a' : 'only=*')
  const counts = await compilationsOfSets(t, queries, 1, true)
  const total = sum(counts)
  // The budget starts at cacheSize and refills by one every 64 lookups.
  t.ok(total >= 2 && total <= 1 + 512 / 64, `${total} compilations in 512 requests`)
  t.strictSame(counts.slice(0, 4), [1, 0, 0, 0], 'the first compiles on its first use; the three others wait for the budget')
})
