import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'

// Object keywords without `type: 'object'` in the tests of an `if` and of `oneOf` members:
// ajv in strict mode warns of them once, when the route's own serializer first reads them.
const record = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string' },
    detail: {
      oneOf: [
        { properties: { unit: { const: 'm' }, metres: { type: 'number' } }, required: ['unit'] },
        { properties: { unit: { const: 'ft' }, feet: { type: 'number' } }, required: ['unit'] }
      ]
    }
  },
  if: { properties: { kind: { const: 'a' } }, required: ['kind'] },
  then: { properties: { a: { type: 'string' } } },
  else: { properties: { b: { type: 'string' } } }
}
const records = [
  { id: 1, kind: 'a', a: 'x', b: 'y', detail: { unit: 'm', metres: 3, feet: 10 } },
  { id: 2, kind: 'b', a: 'x', b: 'y', detail: { unit: 'ft', metres: 3, feet: 10 } }
]
const requests: Array<[string, unknown]> = [
  ['/records', [{ id: 1, kind: 'a', a: 'x', detail: { unit: 'm', metres: 3 } }, { id: 2, kind: 'b', b: 'y', detail: { unit: 'ft', feet: 10 } }]],
  ['/records?only=id', [{ id: 1 }, { id: 2 }]],
  ['/records?only=id,a', [{ id: 1, a: 'x' }, { id: 2 }]],
  ['/records?only=kind,b', [{ kind: 'a' }, { kind: 'b', b: 'y' }]],
  ['/records?defer=kind', [{ id: 1, a: 'x', detail: { unit: 'm', metres: 3 } }, { id: 2, b: 'y', detail: { unit: 'ft', feet: 10 } }]],
  ['/records?only=detail.feet', [{ detail: {} }, { detail: { feet: 10 } }]]
]

/** Serves the records, with or without the plugin, and counts ajv's strict-mode warnings while the requests run. */
async function strictWarnings (t: Test, withPlugin: boolean): Promise<number> {
  const app = Fastify()
  t.teardown(() => app.close())
  if (withPlugin) await app.register(fastifyRestrictedFields)
  app.get('/records', { restrictFields: withPlugin, schema: { response: { 200: { type: 'array', items: record } } } }, async () => records)
  let warnings = 0
  const warn = console.warn
  console.warn = (...args: unknown[]) => { if (/strict mode/.test(String(args[0]))) warnings++ }
  try {
    // Twice each, so that each selection is met again and compiled.
    for (const [url, expected] of [...requests, ...requests]) {
      if (!withPlugin && url.includes('?')) continue
      const response = await app.inject(url)
      t.strictSame([response.statusCode, response.json()], [200, expected], url)
    }
  } finally {
    console.warn = warn
  }
  return warnings
}

test('a schema that makes ajv warn in strict mode warns as often with the plugin as the route does alone, whatever the selections', async (t) => {
  const alone = await strictWarnings(t, false)
  t.ok(alone > 0, 'the route alone warns')
  t.equal(await strictWarnings(t, true), alone)
})
