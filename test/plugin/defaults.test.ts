/*
 * Schema defaults are values like any other: a missing field's default is
 * sent as the selection and the request's visibility leave it, on the
 * compiled, written and copied paths.
 */
import { test } from 'tap'
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { build } from '../helpers.js'

const record = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } }, default: { city: 'Nowhere', phone: '555-0100' } },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, internal: { type: 'boolean' } } }, default: [{ label: 'new', internal: true }] },
    meta: { type: 'object', additionalProperties: true, default: { source: 'import', note: { text: 'n', secret: 's' } } }
  }
}

/** A record the writer leaves to the copy: one with a toJSON method, which both serializers apply. */
const opaque = (value: unknown): unknown => ({ toJSON: () => value })

/** Routes that send `{ id: 3 }` on each path: compiled (from the second request on), written, and copied. */
async function routes (t: Test, hidden: string[] | null): Promise<{ app: FastifyInstance, urls: string[] }> {
  const app = await build(t, hidden === null ? {} : { hiddenFields: (request) => request.headers['x-role'] === 'staff' ? [] : hidden })
  const schema = { response: { 200: record } }
  app.get('/compiled', { restrictFields: true, schema }, async () => ({ id: 3 }))
  app.get('/written', { restrictFields: { cacheSize: 0 }, schema }, async () => ({ id: 3 }))
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => opaque({ id: 3 }))
  app.get('/listed', { restrictFields: true, schema: { response: { 200: { type: 'array', items: record } } } }, async () => [{ id: 3 }, opaque({ id: 4 })])
  await app.ready()
  return { app, urls: ['/compiled', '/compiled', '/compiled', '/written', '/copied'] }
}

async function expectEach (t: Test, app: FastifyInstance, urls: string[], query: string, expected: unknown): Promise<void> {
  for (const url of urls) {
    const response = await app.inject(url + query)
    t.strictSame([response.statusCode, response.json()], [200, expected], url + query)
  }
}

test('a hidden path is removed from an object, an array and a free-form default', async (t) => {
  const { app, urls } = await routes(t, ['profile.phone', 'tags.internal', 'meta.note.secret'])
  const anonymous = { id: 3, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }], meta: { source: 'import', note: { text: 'n' } } }
  await expectEach(t, app, urls, '', anonymous)
  await expectEach(t, app, urls, '?only=profile,tags,meta', { profile: anonymous.profile, tags: anonymous.tags, meta: anonymous.meta })
  await expectEach(t, app, urls, '?defer=id', { profile: anonymous.profile, tags: anonymous.tags, meta: anonymous.meta })
  const response = await app.inject('/listed?defer=meta')
  t.strictSame(response.json(), [{ id: 3, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }] }, { id: 4, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }] }])
  const staff = await app.inject({ url: '/written?only=profile', headers: { 'x-role': 'staff' } })
  t.strictSame(staff.json(), { profile: { city: 'Nowhere', phone: '555-0100' } }, 'a caller who may see everything gets the whole default')
})

test('a default keeps only the fields the selection keeps', async (t) => {
  const { app, urls } = await routes(t, null)
  await expectEach(t, app, urls, '?only=profile.city', { profile: { city: 'Nowhere' } })
  await expectEach(t, app, urls, '?defer=profile.phone,tags,meta', { id: 3, profile: { city: 'Nowhere' } })
  await expectEach(t, app, urls, '?only=tags.label', { tags: [{ label: 'new' }] })
  await expectEach(t, app, urls, '?only=id,tags&defer=tags.internal', { id: 3, tags: [{ label: 'new' }] })
  await expectEach(t, app, urls, '?only=profile,meta', { profile: { city: 'Nowhere', phone: '555-0100' }, meta: { source: 'import', note: { text: 'n', secret: 's' } } })
  const response = await app.inject('/listed?only=profile.phone')
  t.strictSame(response.json(), [{ profile: { phone: '555-0100' } }, { profile: { phone: '555-0100' } }])
})

test('a leaf loses the hidden paths of what its own schema writes: a default inside it, or its const', async (t) => {
  const app = await build(t, { maxDepth: 1, hiddenFields: (request) => request.headers['x-role'] === 'staff' ? [] : ['profile.phone', 'meta.secret'] })
  const item = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      // Below maxDepth: one leaf, whose schema writes a default for a missing phone.
      profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string', default: '555-0100' } } },
      meta: { type: 'object', additionalProperties: true, const: { source: 'import', secret: 's' } }
    }
  }
  const schema = { response: { 200: item } }
  const value = { id: 3, profile: { city: 'Oslo' }, meta: { source: 'import', secret: 's' } }
  app.get('/plain', { schema }, async () => value)
  app.get('/compiled', { restrictFields: true, schema }, async () => value)
  app.get('/written', { restrictFields: { cacheSize: 0 }, schema }, async () => value)
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => opaque(value))
  await app.ready()
  t.strictSame((await app.inject('/plain')).json(), { id: 3, profile: { city: 'Oslo', phone: '555-0100' }, meta: { source: 'import', secret: 's' } }, 'what the route writes unrestricted')
  for (const query of ['', '?only=profile,meta', '?defer=id']) {
    const expected = { id: 3, profile: { city: 'Oslo' }, meta: { source: 'import' } }
    if (query !== '') delete (expected as Partial<typeof expected>).id
    await expectEach(t, app, ['/compiled', '/compiled', '/written', '/copied'], query, expected)
  }
})

test('in an envelope, the copied records lose the hidden paths their leaves\' schemas write, and the envelope keeps its own fields', async (t) => {
  const app = await build(t, { maxDepth: 1, hiddenFields: () => ['profile.phone'] })
  const item = { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string', default: '555-0100' } } } } }
  const page = { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: item }, phone: { type: 'string' } } }
  app.get('/page', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: page } } }, async (request) => {
    const { kind } = request.query as { kind: string }
    if (kind === 'empty') return { count: 0, results: [], phone: 'desk' }
    if (kind === 'none') return { count: 0, phone: 'desk' }
    return { count: 1, results: [opaque({ id: 1, profile: { city: 'Oslo' } })], phone: 'desk' }
  })
  for (const [kind, expected] of [
    ['full', { count: 1, results: [{ id: 1, profile: { city: 'Oslo' } }], phone: 'desk' }],
    ['empty', { count: 0, results: [], phone: 'desk' }]
  ] as const) {
    const response = await app.inject(`/page?kind=${kind}`)
    t.strictSame([response.statusCode, response.json()], [200, expected], kind)
  }
  const none = await app.inject('/page?kind=none')
  t.equal(none.statusCode, 200)
  // As before: an envelope whose records are missing is copied as one record, which keeps none of the envelope's fields.
  t.equal(none.body, '{}', 'without records, nothing hidden is sent either')
})

test('a default that is undefined is not written, as without restriction', async (t) => {
  const app = await build(t)
  const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string', default: undefined }, profile: { type: 'object', properties: { city: { type: 'string' } }, default: undefined } } }
  const schema = { response: { 200: item } }
  app.get('/plain', { schema }, async () => ({ id: 1 }))
  app.get('/compiled', { restrictFields: true, schema }, async () => ({ id: 1 }))
  app.get('/written', { restrictFields: { cacheSize: 0 }, schema }, async () => ({ id: 1 }))
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => opaque({ id: 1 }))
  t.equal((await app.inject('/plain')).body, '{"id":1}')
  await expectEach(t, app, ['/compiled', '/compiled', '/written', '/copied'], '?only=id,name,profile', { id: 1 })
})
