import { test } from 'tap'
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
    t.same([second, third, copied], [first, first, first], query)
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
  t.equal(compiled.length, 3, 'first sighting: the copy serializer, compiled once for the route')
  await app.inject('/users?only=id&only=name')
  t.equal(compiled.length, 4, 'second sighting: the selection is compiled')
  await app.inject('/users?only[]=name&defer=email&only=id')
  await app.inject('/users?only=name,id')
  t.equal(compiled.length, 4, 'every spelling hits the cache')
  await app.inject('/users?only=email')
  t.equal(compiled.length, 4, 'a new selection is copied with the route copy serializer')
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
    t.same([response.statusCode, response.body], [200, '[{"id":1},{"id":2}]'])
  }
  t.same(logs, ['refused', 'refused'], 'logged once for the copy schema and once for the selection, never retried')
})

test('cycling through more field sets than the cache holds does not compile on every pass', async (t) => {
  const app = await build(t)
  let compiled = 0
  app.get('/users', {
    restrictFields: { cacheSize: 10 },
    schema,
    serializerCompiler: () => { compiled++; return (data) => JSON.stringify(data) }
  }, async () => records)
  await app.ready()
  const before = compiled
  const fields = ['id', 'name', 'email', 'role', 'profile', 'tags']
  const pairs = fields.flatMap((a, i) => fields.slice(i + 1).map((b) => `${a},${b}`))
  t.equal(pairs.length, 15)
  for (let i = 0; i < 20 * pairs.length; i++) {
    const response = await app.inject(`/users?only=${pairs[i % pairs.length]}`)
    t.equal(response.statusCode, 200)
  }
  t.equal(compiled - before, 11, 'the copy schema, then 10 selections while the cache fills; none after')
})
