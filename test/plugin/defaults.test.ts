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
    t.same([response.statusCode, response.json()], [200, expected], url + query)
  }
}

test('a hidden path is removed from an object, an array and a free-form default', async (t) => {
  const { app, urls } = await routes(t, ['profile.phone', 'tags.internal', 'meta.note.secret'])
  const anonymous = { id: 3, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }], meta: { source: 'import', note: { text: 'n' } } }
  await expectEach(t, app, urls, '', anonymous)
  await expectEach(t, app, urls, '?only=profile,tags,meta', { profile: anonymous.profile, tags: anonymous.tags, meta: anonymous.meta })
  await expectEach(t, app, urls, '?defer=id', { profile: anonymous.profile, tags: anonymous.tags, meta: anonymous.meta })
  const response = await app.inject('/listed?defer=meta')
  t.same(response.json(), [{ id: 3, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }] }, { id: 4, profile: { city: 'Nowhere' }, tags: [{ label: 'new' }] }])
  const staff = await app.inject({ url: '/written?only=profile', headers: { 'x-role': 'staff' } })
  t.same(staff.json(), { profile: { city: 'Nowhere', phone: '555-0100' } }, 'a caller who may see everything gets the whole default')
})

test('a default keeps only the fields the selection keeps', async (t) => {
  const { app, urls } = await routes(t, null)
  await expectEach(t, app, urls, '?only=profile.city', { profile: { city: 'Nowhere' } })
  await expectEach(t, app, urls, '?defer=profile.phone,tags,meta', { id: 3, profile: { city: 'Nowhere' } })
  await expectEach(t, app, urls, '?only=tags.label', { tags: [{ label: 'new' }] })
  await expectEach(t, app, urls, '?only=id,tags&defer=tags.internal', { id: 3, tags: [{ label: 'new' }] })
  await expectEach(t, app, urls, '?only=profile,meta', { profile: { city: 'Nowhere', phone: '555-0100' }, meta: { source: 'import', note: { text: 'n', secret: 's' } } })
  const response = await app.inject('/listed?only=profile.phone')
  t.same(response.json(), [{ profile: { phone: '555-0100' } }, { profile: { phone: '555-0100' } }])
})
