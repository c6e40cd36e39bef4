import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { envelopeSchema, expectedBody, onlyDeclaredKeys, propertyRuns, restrictionCase, spellings } from './generators.js'
import type { Case } from './generators.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

// Each run builds one app and sends 21 requests: half of the base count of runs,
// 125 in npm test and 500 under npm run test:deep (some fifteen seconds on a
// 2-core machine). At 500, every shape the generators make came up in each of 50
// seeds tried: each kind of property at each depth, required and
// additionalProperties, nulls, missing and undeclared keys, empty, nested and
// overlapping selections, every envelope. PROPERTY_RUNS changes it for a longer search.
const numRuns = propertyRuns(1 / 2)

/** A value as an ORM hands it over: every object, at every depth, behind a toJSON() that gives its fields. */
function asDocuments (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asDocuments)
  if (value === null || typeof value !== 'object') return value
  const fields = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asDocuments(inner)]))
  return { toJSON: () => fields }
}

async function appFor (c: Case) {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  const schema = { response: { 200: { type: 'array', items: c.schema } } }
  app.get('/compiled', { restrictFields: true, schema }, async () => c.records)
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => c.records)
  app.get('/plain', { schema }, async () => c.records)
  // Objects with a toJSON() are copied, not written: the copy path, on every generated schema.
  const documents = asDocuments(c.records)
  app.get('/documents', { restrictFields: { cacheSize: 0 }, schema }, async () => documents)
  const envelope = { response: { 200: envelopeSchema(c) } }
  const page = { count: c.records.length, next: null, results: c.records }
  app.get('/compiled-envelope', { restrictFields: true, schema: envelope }, async () => page)
  app.get('/copied-envelope', { restrictFields: { cacheSize: 0 }, schema: envelope }, async () => page)
  await app.ready()
  return app
}

test('restricted bodies keep exactly the selected paths, for every spelling and every path: written, copied and compiled', async (t) => {
  let checked = 0
  await fc.assert(fc.asyncProperty(restrictionCase, async (c) => {
    const app = await appFor(c)
    try {
      const plain = await app.inject('/plain')
      if (plain.statusCode !== 200) throw new Error(`the unrestricted route answered ${plain.statusCode}: ${plain.body}`)
      const unrestricted = plain.json()
      const expected = JSON.stringify(expectedBody(unrestricted, c.schema, c.only, c.defer))
      const bodies: string[] = []
      for (const query of spellings(c.only, c.defer)) {
        for (const path of ['/copied', '/documents', '/compiled', '/compiled', '/compiled']) {
          const response = await app.inject(`${path}?${query}`)
          if (response.statusCode !== 200) throw new Error(`${path}?${query} answered ${response.statusCode}: ${response.body}`)
          bodies.push(response.body)
        }
      }
      // Every spelling, the written, copied and compiled paths: the same bytes, in declared order.
      for (const body of bodies) {
        if (body !== expected) throw new Error(`expected ${expected}, got ${body}`)
        if (!onlyDeclaredKeys(JSON.parse(body), { type: 'array', items: c.schema })) throw new Error(`undeclared key in ${body}`)
      }
      // In an envelope, whichever order its keys are written in: the written and the compiled bodies agree.
      const query = spellings(c.only, c.defer)[0]
      const envelopes: string[] = []
      for (const path of ['/copied-envelope', '/compiled-envelope', '/compiled-envelope', '/compiled-envelope']) {
        envelopes.push((await app.inject(`${path}?${query}`)).body)
      }
      if (new Set(envelopes).size !== 1 || JSON.stringify(JSON.parse(envelopes[0]).results) !== expected) {
        throw new Error(`envelope bodies differ or are wrong: ${envelopes.join(' | ')}, expected results ${expected}`)
      }
      checked++
    } finally {
      await app.close()
    }
  }), { numRuns })
  t.equal(checked, numRuns, `${numRuns} generated cases, 24 restricted requests each`)
})
