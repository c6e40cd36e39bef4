import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { composedCase, propertyRuns, spellings } from './generators.js'
import type { ComposedCase } from './generators.js'
import { project, trieOf } from '../oracle.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

// Each run builds one app and sends some twenty requests. PROPERTY_RUNS changes the count.
const numRuns = propertyRuns(1 / 4)

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
