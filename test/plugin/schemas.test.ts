import { test } from 'tap'
import { build } from '../helpers.js'
import { records, tagSchema, userSchema } from '../fixtures.js'

// Each query is sent twice: the first reply is copied, the second uses the compiled serializer.
async function twice (app: Awaited<ReturnType<typeof build>>, url: string): Promise<[string, string]> {
  const first = await app.inject(url)
  const second = await app.inject(url)
  return [first.body, second.body]
}

test('required fields that are not selected do not throw', async (t) => {
  const app = await build(t)
  app.get('/u', { restrictFields: true, schema: { response: { 200: userSchema } } }, async () => records[0])
  t.strictSame(await twice(app, '/u?only=id'), ['{"id":1}', '{"id":1}'])
})

test('a default is written for a kept field, never for a removed one', async (t) => {
  const app = await build(t)
  app.get('/u', { restrictFields: true, schema: { response: { 200: userSchema } } }, async () => ({ id: 3, name: 'Bo', email: null }))
  t.strictSame(await twice(app, '/u?only=id'), ['{"id":3}', '{"id":3}'])
  t.strictSame(await twice(app, '/u?only=id,role'), ['{"id":3,"role":"member"}', '{"id":3,"role":"member"}'])
})

test('fields outside the schema never appear, whatever additionalProperties says', async (t) => {
  const app = await build(t)
  const open = { ...userSchema, additionalProperties: true, patternProperties: { '^pass': { type: 'string' } } }
  app.get('/u', { restrictFields: true, schema: { response: { 200: open } } }, async () => records[0])
  const expected = '{"id":1,"name":"Ada","email":"ada@example.com","role":"member","tags":[{"id":1,"label":"math"}]}'
  t.strictSame(await twice(app, '/u?defer=profile'), [expected, expected])
  t.strictSame(await twice(app, '/u?only=profile'), ['{"profile":{"city":"London","phone":"1"}}', '{"profile":{"city":"London","phone":"1"}}'])
})

test('an array payload, an object payload and an envelope are restricted alike', async (t) => {
  const app = await build(t)
  const envelope = { type: 'object', required: ['count'], properties: { count: { type: 'integer' }, next: { type: ['string', 'null'] }, results: { type: 'array', items: userSchema } } }
  app.get('/array', { restrictFields: true, schema: { response: { 200: { type: 'array', items: userSchema } } } }, async () => records)
  app.get('/object', { restrictFields: true, schema: { response: { 200: userSchema } } }, async () => records[1])
  app.get('/envelope', { restrictFields: true, schema: { response: { 200: envelope } } }, async () => ({ count: 2, next: null, results: records }))
  const array = '[{"id":1},{"id":2}]'
  t.strictSame(await twice(app, '/array?only=id'), [array, array])
  t.strictSame(await twice(app, '/object?only=id'), ['{"id":2}', '{"id":2}'])
  const page = '{"count":2,"next":null,"results":[{"id":1},{"id":2}]}'
  t.strictSame(await twice(app, '/envelope?only=id'), [page, page])
})

test('a property named like a keyword of values (default, example, enum, const, examples) in a shared schema keeps its $refs into that schema', async (t) => {
  const app = await build(t)
  const ref = { $ref: '#/definitions/code' }
  app.addSchema({
    $id: 'coded',
    type: 'object',
    properties: {
      id: { type: 'integer' },
      meta: { type: 'object', properties: { default: ref, example: ref, enum: ref, const: ref, examples: ref }, example: { default: '#/x' } }
    },
    definitions: { code: { type: 'string', default: 'none' } }
  })
  // At maxDepth 1, meta is a leaf: its schema is written as the shared schema declares it.
  app.get('/coded', { restrictFields: { maxDepth: 1 }, schema: { response: { 200: { $ref: 'coded#' } } } }, async () => ({ id: 1, meta: { default: 'a', example: 'b' } }))
  const meta = '{"meta":{"default":"a","example":"b","enum":"none","const":"none","examples":"none"}}'
  t.strictSame(await twice(app, '/coded?only=meta'), [meta, meta])
  t.equal((await app.inject('/coded')).body, '{"id":1,"meta":{"default":"a","example":"b","enum":"none","const":"none","examples":"none"}}')
})

test('a custom resultsKey names the envelope array', async (t) => {
  const app = await build(t, { resultsKey: 'items' })
  const envelope = { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array', items: tagSchema } } }
  app.get('/tags', { restrictFields: true, schema: { response: { 200: envelope } } }, async () => ({ total: 1, items: [{ id: 1, label: 'x' }] }))
  t.strictSame(await twice(app, '/tags?defer=id'), ['{"total":1,"items":[{"label":"x"}]}', '{"total":1,"items":[{"label":"x"}]}'])
})

const task = { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'string' } } }
const taskPage = { type: 'object', properties: { total: { type: 'integer' }, tasks: { type: 'array', items: task } } }

test('a route\'s own resultsKey that its response schema holds no records under fails when the route is declared; the plugin\'s does not', async (t) => {
  const app = await build(t)
  t.throws(() => app.get('/tasks', { restrictFields: { resultsKey: 'task' }, schema: { response: { 200: taskPage } } }, async () => ({ total: 0, tasks: [] })), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_RESULTS_KEY',
    statusCode: 500,
    message: "Route GET /tasks: resultsKey 'task' is not an array of records in its 200 response schema; its keys are: total, tasks (the records are under 'tasks')"
  })
  const items = await build(t, { resultsKey: 'items' })
  items.get('/tasks', { restrictFields: true, schema: { response: { 200: taskPage } } }, async () => ({ total: 1, tasks: [{ id: 1, status: 'open' }] }))
  t.strictSame(await twice(items, '/tasks?only=total'), ['{"total":1}', '{"total":1}'], 'a route whose schema does not hold the plugin\'s key is one object')
})

test('an envelope-like route read as one record answers an unknown field of its records with where they are, never of a hidden one', async (t) => {
  const app = await build(t, { hiddenFields: (request) => request.headers['x-staff'] === undefined ? ['tasks.status'] : [] })
  app.get('/tasks', { restrictFields: true, schema: { response: { 200: taskPage } } }, async () => ({ total: 1, tasks: [{ id: 1, status: 'open' }] }))
  const note = " (the records are under 'tasks': declare restrictFields: { resultsKey: 'tasks' } to restrict their fields)"
  const rows: Array<[string, Record<string, string>, string]> = [
    ['/tasks?only=id', {}, `Unknown field 'id' in query parameter 'only'; allowed fields: total, tasks${note}`],
    ['/tasks?only=status', {}, "Unknown field 'status' in query parameter 'only'; allowed fields: total, tasks"],
    ['/tasks?only=status', { 'x-staff': 'yes' }, `Unknown field 'status' in query parameter 'only'; allowed fields: total, tasks${note}`],
    ['/tasks?defer=owner', { 'x-staff': 'yes' }, "Unknown field 'owner' in query parameter 'defer'; allowed fields: total, tasks"]
  ]
  for (const [url, headers, message] of rows) {
    const response = await app.inject({ url, headers })
    t.strictSame([response.statusCode, response.json()], [400, { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message }], url)
  }
})

test('shared schemas added with addSchema and referenced with $ref, at every depth', async (t) => {
  const app = await build(t)
  app.addSchema({ $id: 'tag', ...tagSchema })
  app.addSchema({
    $id: 'person',
    type: 'object',
    required: ['id', 'since'],
    properties: {
      id: { type: 'integer' },
      since: { $ref: '#/definitions/day' },
      home: { anyOf: [{ $ref: '#/definitions/address' }, { type: 'null' }] },
      tags: { type: 'array', items: { $ref: 'tag#' } }
    },
    definitions: {
      day: { type: 'string', default: '2000-01-01' },
      address: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, zip: { type: 'string', default: '0000' } } }
    }
  })
  app.get('/people', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { $ref: 'person#' } } } } }, async () => [
    { id: 1, home: { city: 'Oslo', street: 'hidden' }, tags: [{ id: 1, label: 'a' }] },
    { id: 2, since: '2020-02-02', home: null, tags: [] }
  ])
  const full = await app.inject('/people')
  t.equal(full.body, '[{"id":1,"since":"2000-01-01","home":{"city":"Oslo","zip":"0000"},"tags":[{"id":1,"label":"a"}]},{"id":2,"since":"2020-02-02","home":null,"tags":[]}]')
  const homes = '[{"home":{"city":"Oslo","zip":"0000"}},{"home":null}]'
  t.strictSame(await twice(app, '/people?only=home'), [homes, homes])
  const zips = '[{"id":1,"since":"2000-01-01","home":{"zip":"0000"},"tags":[{"label":"a"}]},{"id":2,"since":"2020-02-02","home":null,"tags":[]}]'
  t.strictSame(await twice(app, '/people?defer=home.city,tags.id'), [zips, zips])
  const response = await app.inject('/people?only=home.street')
  t.strictSame([response.statusCode, response.json().message], [400, "Unknown field 'home.street' in query parameter 'only'; allowed fields of 'home': city, zip"])
})

test('a route with only a fields list copies, and never lets an undeclared key through', async (t) => {
  const app = await build(t)
  app.get('/listed', { restrictFields: { fields: ['id', 'name', 'profile.city', 'tags.label'] } }, async () => records)
  const expected = '[{"id":1,"profile":{"city":"London"},"tags":[{"label":"math"}]},{"id":2,"profile":null,"tags":[]}]'
  t.strictSame(await twice(app, '/listed?defer=name'), [expected, expected])
  t.equal((await app.inject('/listed?only=password')).statusCode, 400)
})

test('a response schema for application/json content is read and restricted', async (t) => {
  const app = await build(t)
  app.get('/c', {
    restrictFields: true,
    schema: { response: { 200: { content: { 'application/json': { schema: userSchema } } } } }
  }, async () => records[0])
  t.strictSame(await twice(app, '/c?only=name'), ['{"name":"Ada"}', '{"name":"Ada"}'])
})
