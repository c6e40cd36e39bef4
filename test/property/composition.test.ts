import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { composedCase, spellings } from './generators.js'
import type { ComposedCase } from './generators.js'

// Each run builds one app and sends some twenty requests. PROPERTY_RUNS changes the count.
const numRuns = Math.ceil(Number(process.env.PROPERTY_RUNS ?? 1000) / 4)

type Trie = Map<string, Trie | true>

function trieOf (paths: string[]): Trie {
  const root: Trie = new Map()
  for (const path of paths) {
    const segments = path.split('.')
    let level = root
    for (let i = 0; i < segments.length; i++) {
      const next = level.get(segments[i])
      if (next === true) break
      if (i === segments.length - 1) {
        level.set(segments[i], true)
        break
      }
      const inner: Trie = next ?? new Map()
      level.set(segments[i], inner)
      level = inner
    }
  }
  return root
}

/** The reference projection of the route's own JSON: the keys `only` names and `defer` leaves, in the order the route wrote them. */
function project (value: unknown, only: Trie | null, defer: Trie | null): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => project(item, only, defer))
  const kept: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    const named = only === null ? true : only.get(key)
    const dropped = defer?.get(key)
    if (named === undefined || dropped === true) continue
    kept[key] = project(field, named === true ? null : named, dropped ?? null)
  }
  return kept
}

async function appFor (c: ComposedCase) {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  const array = { response: { 200: { type: 'array', items: c.schema } } }
  // Records declared first: the writer leaves this envelope to the copy.
  const envelope = { response: { 200: { type: 'object', properties: { results: { type: 'array', items: c.schema }, count: { type: 'integer' } } } } }
  const page = { results: c.records, count: c.records.length }
  app.get('/plain', { schema: array }, async () => c.records)
  app.get('/compiled', { restrictFields: true, schema: array }, async () => c.records)
  app.get('/written', { restrictFields: { cacheSize: 0 }, schema: array }, async () => c.records)
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema: envelope }, async () => page)
  await app.ready()
  return app
}

test('composed schemas: every path sends the reference projection of the route\'s own response', async (t) => {
  let checked = 0
  await fc.assert(fc.asyncProperty(composedCase, async (c) => {
    const app = await appFor(c)
    try {
      const plain = await app.inject('/plain')
      if (plain.statusCode !== 200) throw new Error(`the unrestricted route answered ${plain.statusCode}: ${plain.body}`)
      const only = c.only === null ? null : trieOf(c.only)
      const defer = c.defer === null ? null : trieOf(c.defer)
      const expected = c.only === null && c.defer === null ? plain.body : JSON.stringify(project(plain.json(), only, defer))
      const query = spellings(c.only, c.defer)[0]
      const suffix = query === '' ? '' : `?${query}`
      for (const path of ['/compiled', '/compiled', '/written']) {
        const response = await app.inject(path + suffix)
        if (response.statusCode !== 200 || response.body !== expected) {
          throw new Error(`${path}${suffix}: expected ${expected}, got ${response.statusCode} ${response.body}`)
        }
      }
      const copied = await app.inject('/copied' + suffix)
      const page = JSON.stringify({ results: JSON.parse(expected), count: c.records.length })
      if (copied.statusCode !== 200 || copied.body !== page) throw new Error(`/copied${suffix}: expected ${page}, got ${copied.statusCode} ${copied.body}`)
      checked++
    } finally {
      await app.close()
    }
  }), { numRuns })
  t.equal(checked, numRuns, `${numRuns} generated composed cases`)
})
