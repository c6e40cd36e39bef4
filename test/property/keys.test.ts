import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { expectedBody, pathsOf, propertyRuns, recordSchemaWith, valueOf } from './generators.js'
import type { Schema } from './generators.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

// Names that look like the syntax of a selection, of a cache key or of JSON:
// two different field sets must never share a compiled serializer or a
// remembered parse, however their names read when put side by side.
const NAMES = ['x', 'y', 'x(y)', 'y)', '"x"', '[0]', '\\', 'a\u0000', 'a b', 'é', '名']

/** The collision that quoting names in keys prevents, always tried first: `x` kept as `x(y)`, and a field named `x(y)`. */
const LOOK_ALIKE: Case = {
  schema: { type: 'object', required: [], properties: { x: { type: 'object', required: [], properties: { y: { type: 'string' }, z: { type: 'string' } } }, 'x(y)': { type: 'string' } } },
  records: [{ x: { y: 'y', z: 'z' }, 'x(y)': 'literal' }],
  selections: [{ only: ['x.y'], defer: null }, { only: ['x(y)'], defer: null }, { only: null, defer: ['x.z', 'x(y)'] }],
  hidden: ['x.y']
}

const numRuns = propertyRuns(1 / 5)

interface Case {
  schema: Schema
  records: unknown[]
  /** Selections sent to the same app, one after the other. */
  selections: Array<{ only: string[] | null, defer: string[] | null }>
  /** The paths the rule hides from the second caller. */
  hidden: string[]
}

const keysCase: fc.Arbitrary<Case> = recordSchemaWith(NAMES).chain((schema) => {
  const paths = pathsOf(schema)
  const selection = fc.record({ only: fc.option(fc.subarray(paths), { nil: null }), defer: fc.option(fc.subarray(paths), { nil: null }) })
  return fc.record({
    schema: fc.constant(schema),
    records: fc.array(valueOf(schema), { minLength: 1, maxLength: 2 }),
    selections: fc.array(selection, { minLength: 2, maxLength: 5 }),
    hidden: fc.subarray(paths, { maxLength: Math.min(2, paths.length) })
  })
})

function query (only: string[] | null, defer: string[] | null): string {
  const parameter = (name: string, paths: string[] | null): string[] => paths === null ? [] : paths.length === 0 ? [`${name}=`] : paths.map((path) => `${name}=${encodeURIComponent(path)}`)
  return [...parameter('only', only), ...parameter('defer', defer)].join('&')
}

/** Whether a path or one of its parents is hidden. */
function hiddenPath (path: string, hidden: string[]): boolean {
  return hidden.some((each) => path === each || path.startsWith(each + '.'))
}

/** The value without the hidden paths, written apart from the plugin. */
function withoutHidden (value: unknown, hidden: string[], prefix = ''): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => withoutHidden(item, hidden, prefix))
  return Object.fromEntries(Object.entries(value)
    .filter(([key]) => !hidden.includes(prefix + key))
    .map(([key, inner]) => [key, withoutHidden(inner, hidden, `${prefix}${key}.`)]))
}

test('field sets with look-alike names never share a serializer or a parse, with and without hidden fields', async (t) => {
  let checked = 0
  await fc.assert(fc.asyncProperty(keysCase, async (c) => {
    const app = Fastify()
    await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-hide'] === undefined ? [] : c.hidden })
    const schema = { response: { 200: { type: 'array', items: c.schema } } }
    app.get('/records', { restrictFields: true, schema }, async () => c.records)
    app.get('/plain', { schema }, async () => c.records)
    try {
      const unrestricted = (await app.inject('/plain')).json()
      // Three rounds over every selection: written first, then compiled and remembered.
      for (let round = 0; round < 3; round++) {
        for (const { only, defer } of c.selections) {
          for (const hides of [false, true]) {
            const response = await app.inject({ url: `/records?${query(only, defer)}`, headers: hides ? { 'x-hide': '1' } : {} })
            const named = [...only ?? [], ...defer ?? []]
            const refused = hides && named.some((path) => hiddenPath(path, c.hidden))
            // Nothing to restrict: the route answers as it would without the plugin.
            const untouched = only === null && defer === null && (!hides || c.hidden.length === 0)
            const expected = refused
              ? 400
              : JSON.stringify(
                untouched ? unrestricted : withoutHidden(expectedBody(unrestricted, c.schema, only, defer), hides ? c.hidden : [])
              )
            const actual = refused ? response.statusCode : response.body
            if (actual !== expected) throw new Error(`${hides ? 'hiding' : 'not hiding'} ${query(only, defer)}: expected ${expected}, got ${response.statusCode} ${response.body}`)
          }
        }
      }
      checked++
    } finally {
      await app.close()
    }
  }), { numRuns, examples: [[LOOK_ALIKE]] })
  t.equal(checked, numRuns, `${numRuns} cases, the look-alike one first`)
})
