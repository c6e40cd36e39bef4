import { test } from 'tap'
import fastJsonStringify from 'fast-json-stringify'
import { copyProjection } from '../lib/copy.js'
import type { JsonSchema, PayloadShape } from '../lib/schema/tree.js'
import { declaredResponse } from '../lib/schema/reader.js'
import { declaredFromList } from '../lib/schema/paths.js'
import { pruneSchema } from '../lib/prune.js'
import { parseSelection } from '../lib/selection.js'
import { GAVE_UP, ProjectionWriter, WriterGaveUp, writerRoute } from '../lib/write.js'
import { context, rulesWith } from './fixtures.js'

const rules = rulesWith()

type Case = { title: string, schema: JsonSchema, query: Record<string, unknown>, payload: unknown, gaveUp?: WriterGaveUp }

const item = (properties: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', properties, ...extra })
const list = (properties: JsonSchema): JsonSchema => ({ type: 'array', items: item(properties) })

const writerCases: Case[] = [
  { title: 'simple leaves of every type', schema: list({ s: { type: 'string' }, i: { type: 'integer' }, n: { type: 'number' }, b: { type: 'boolean' } }), query: { only: 's,i,n,b' }, payload: [{ s: 'a"\\\u0001\ud800', i: -0, n: 1.5, b: true }, { s: '', i: 1e21, n: -2, b: false }, { s: 'ﬀ é', i: 0, n: 0, b: true }, { s: 'a string of more than forty characters, with "quotes"', i: 2, n: 2, b: false }] },
  { title: 'values a simple leaf does not take go through its compiled serializer', schema: list({ s: { type: 'string' }, i: { type: 'integer' }, n: { type: 'number' }, b: { type: 'boolean' } }), query: { only: 's,i,n,b' }, payload: [{ s: 12, i: '7', n: Infinity, b: 'yes' }, { s: null, i: 1.5, n: '3', b: 0 }, { s: new Date(0), i: null, n: null, b: null }, { s: true, i: false }] },
  { title: 'nullable leaves, both spellings', schema: list({ a: { type: ['string', 'null'] }, b: { type: 'integer', nullable: true }, c: { type: ['null', 'boolean'] } }), query: { only: 'a,b,c' }, payload: [{ a: null, b: null, c: null }, { a: 'x', b: 2, c: true }] },
  { title: 'leaves that are not simple: a union, a const, a format the writer leaves alone, no type', schema: list({ u: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, k: { const: 'k' }, raw: { type: 'string', format: 'unsafe' }, any: {} }), query: { only: 'u,k,raw,any' }, payload: [{ u: 'x', k: 'k', raw: 'r', any: { deep: [1] } }, { u: 3, any: null }] },
  { title: 'null and other values of leaves that are not simple', schema: list({ u: { anyOf: [{ type: 'string' }, { type: 'null' }] }, n: { type: 'integer', nullable: true } }), query: { only: 'u,n' }, payload: [{ u: null, n: null }, { u: 'x', n: '5' }, { u: 'y', n: true }] },
  { title: 'a date-time string is a simple string', schema: list({ at: { type: 'string', format: 'date-time' } }), query: { only: 'at' }, payload: [{ at: '2026-01-01T00:00:00Z' }, { at: new Date(0) }] },
  { title: 'missing fields are left out, or get their default', schema: list({ a: { type: 'string', default: 'd' }, o: { type: 'object', default: { x: 1 }, properties: { x: { type: 'integer' } } }, m: { type: 'string' } }), query: { only: 'a,o,m' }, payload: [{}, { a: 'given', o: { x: 2 }, m: 'm' }] },
  { title: 'nested objects and arrays, narrowed and whole', schema: list({ p: { type: 'object', nullable: true, properties: { a: { type: 'string' }, b: { type: 'string' } } }, t: { type: 'array', items: item({ x: { type: 'integer' }, y: { type: 'integer' } }) } }), query: { only: 'p.b,t' }, payload: [{ p: { a: 'A', b: 'B', secret: 1 }, t: [{ x: 1, y: 2, z: 3 }] }, { p: null, t: [] }] },
  { title: 'a single object', schema: item({ a: { type: 'integer' }, b: { type: 'integer' } }), query: { only: 'b' }, payload: { a: 1, b: 2 } },
  { title: 'an envelope that declares its records last', schema: item({ count: { type: 'integer' }, next: { type: ['string', 'null'] }, results: list({ a: { type: 'integer' }, b: { type: 'integer' } }) }, { required: ['count', 'next', 'results'] }), query: { only: 'b' }, payload: { count: 2, next: null, results: [{ a: 1, b: 2 }, { a: 3, b: 4 }], extra: true } },
  { title: 'an envelope whose records come last once required fields are written first', schema: item({ results: list({ a: { type: 'integer' } }), count: { type: 'integer' }, next: { type: 'string' } }, { required: ['count', 'next'] }), query: { only: 'a' }, payload: { next: 'n', count: 1, results: [{ a: 1 }] } },
  { title: 'an envelope whose required records come before optional fields', schema: item({ count: { type: 'integer' }, results: list({ a: { type: 'integer' } }), next: { type: 'string' } }, { required: ['results'] }), query: { only: 'a' }, payload: { next: 'n', count: 1, results: [{ a: 1 }] } },
  { title: 'an envelope of records alone', schema: item({ results: list({ a: { type: 'integer' }, b: { type: 'integer' } }) }, { additionalProperties: false }), query: { only: 'a' }, payload: { results: [{ a: 1, b: 2 }] } },
  { title: 'a record that is not an object', schema: list({ a: { type: 'integer' } }), query: { only: 'a' }, payload: [{ a: 1 }, null], gaveUp: GAVE_UP.record },
  { title: 'a record with toJSON', schema: list({ a: { type: 'integer' } }), query: { only: 'a' }, payload: [{ a: 1, toJSON: () => ({ a: 2 }) }], gaveUp: GAVE_UP.toJSON },
  { title: 'a nested object that is not one', schema: list({ p: item({ a: { type: 'string' }, b: { type: 'string' } }) }), query: { only: 'p.a' }, payload: [{ p: 'text' }], gaveUp: GAVE_UP.record },
  { title: 'a nested null that is not nullable', schema: list({ p: item({ a: { type: 'string' }, b: { type: 'string' } }) }), query: { only: 'p.a' }, payload: [{ p: null }], gaveUp: GAVE_UP.record },
  { title: 'a nested array that is not one', schema: list({ t: list({ a: { type: 'string' }, b: { type: 'string' } }) }), query: { only: 't.a' }, payload: [{ t: { a: 'x' } }], gaveUp: GAVE_UP.list },
  { title: 'an array payload where the schema declares one object', schema: item({ a: { type: 'integer' }, b: { type: 'integer' } }), query: { only: 'a' }, payload: [{ a: 1 }], gaveUp: GAVE_UP.shape },
  { title: 'an object payload where the schema declares an array', schema: list({ a: { type: 'integer' } }), query: { only: 'a' }, payload: { a: 1 }, gaveUp: GAVE_UP.shape },
  { title: 'an envelope whose records are not an array', schema: item({ count: { type: 'integer' }, results: list({ a: { type: 'integer' } }) }), query: { only: 'a' }, payload: { count: 1, results: null }, gaveUp: GAVE_UP.list },
  { title: 'a nested record with toJSON', schema: list({ p: item({ a: { type: 'string' }, b: { type: 'string' } }) }), query: { only: 'p.a' }, payload: [{ p: { a: 'x', toJSON: () => ({ a: 'y' }) } }], gaveUp: GAVE_UP.toJSON },
  { title: 'a payload with toJSON', schema: item({ a: { type: 'integer' }, b: { type: 'integer' } }), query: { only: 'a' }, payload: { a: 1, toJSON: () => ({ a: 2 }) }, gaveUp: GAVE_UP.toJSON },
  { title: 'a record of no variant', schema: { type: 'array', items: { oneOf: [item({ k: { const: 'a' }, x: { type: 'integer' } }, { required: ['k'] }), item({ k: { const: 'b' }, y: { type: 'integer' } }, { required: ['k'] })] } }, query: { only: 'k' }, payload: [{ k: 'a', x: 1 }, { k: 'c' }], gaveUp: GAVE_UP.variant },
  ...envelopeCases()
]

/**
 * Envelopes of every order fast-json-stringify writes: the records first, last
 * or in between, any mix of required and optional keys, with undeclared keys
 * let through by `additionalProperties` or `patternProperties`.
 */
function envelopeCases (): Case[] {
  const records = list({ a: { type: 'integer' }, b: { type: 'string' } })
  const fields: JsonSchema = { count: { type: 'integer' }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] } }
  const orders = [['count', 'next', 'previous', 'results'], ['results', 'count', 'next', 'previous'], ['count', 'results', 'next', 'previous'], ['next', 'results', 'previous', 'count']]
  const requireds = [[], ['count', 'results'], ['count', 'next', 'previous', 'results'], ['results'], ['previous'], ['next', 'count'], ['count', 'total']]
  const extras: Array<[string, JsonSchema]> = [
    ['no undeclared keys', {}],
    ['additionalProperties: false', { additionalProperties: false }],
    ['additionalProperties: true', { additionalProperties: true }],
    ['an additionalProperties schema', { additionalProperties: { type: 'string' } }],
    ['patternProperties', { patternProperties: { '^x': { type: 'string' } } }],
    ['patternProperties and additionalProperties: false', { patternProperties: { '^x': { type: 'string' } }, additionalProperties: false }]
  ]
  const payloads = [
    { results: [{ a: 1, b: 'one', c: 0 }, { a: 2, b: 'two' }], total: 2, xtra: 'x', count: 2, previous: null, next: '/p/2', zz: 7, __proto__: null },
    { count: 0, next: null, previous: null, total: 0, results: [] },
    { total: 1, results: [{ a: 3 }], count: 1, xa: 5, fn: () => 1, xu: undefined }
  ]
  const cases: Case[] = []
  for (const order of orders) {
    for (const required of requireds) {
      for (const [extra, keywords] of extras) {
        const schema = item(Object.fromEntries(order.map((name) => [name, name === 'results' ? records : fields[name]])), { ...(required.length > 0 ? { required } : {}), ...keywords })
        payloads.forEach((payload, i) => {
          cases.push({ title: `an envelope declared ${order.join(', ')}, required [${required.join(', ')}], ${extra}, payload ${i}`, schema, query: { only: i === 1 ? 'a,b' : 'b' }, payload })
        })
      }
    }
  }
  return cases
}

/** What a serializer writes, or the message of the error it throws. */
function outcome (write: () => string): string | WriterGaveUp {
  try {
    return write()
  } catch (error) {
    return error instanceof WriterGaveUp ? error : `throws: ${(error as Error).message}`
  }
}

function written (c: Case): { text: string | WriterGaveUp, expected: () => string | WriterGaveUp } {
  const declared = declaredResponse(c.schema, 'results', 8, context({}, c.schema))!
  const selection = parseSelection(c.query, declared.tree, rules)!
  const expected = () => outcome(() => fastJsonStringify(pruneSchema(declared, selection.projection, { defaults: true, variants: 'choose' }))(c.payload))
  const writer = new ProjectionWriter(writerRoute(declared.shape, declared), (schema) => fastJsonStringify(schema))
  return { text: outcome(() => writer.write(c.payload, selection.projection)), expected }
}

test('ProjectionWriter writes (or throws) what fast-json-stringify writes for the pruned schema, or gives up with its reason', async (t) => {
  for (const c of writerCases) {
    const { text, expected } = written(c)
    t.equal(text, c.gaveUp ?? expected(), c.title)
  }
})

test('ProjectionWriter compiles a leaf that is not simple once per route, and writes a refused one as JSON.stringify does', async (t) => {
  const schema = list({ u: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, v: { type: 'integer' } })
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))!
  const route = writerRoute(declared.shape, declared)
  const compiled: JsonSchema[] = []
  const compile = (leaf: JsonSchema) => { compiled.push(leaf); return null }
  for (const only of ['u', 'u,v', 'u']) {
    const selection = parseSelection({ only }, declared.tree, rules)!
    t.equal(new ProjectionWriter(route, compile).write([{ u: 'x', v: 1 }], selection.projection), only === 'u' ? '[{"u":"x"}]' : '[{"u":"x","v":1}]')
  }
  t.strictSame(compiled, [schema.items.properties.u])
})

test('ProjectionWriter compiles leaves and envelopes with the route schema definitions', async (t) => {
  const schema = {
    type: 'object',
    properties: { count: { $ref: '#/definitions/count' }, results: list({ at: { $ref: '#/definitions/at' }, b: { type: 'integer' } }) },
    definitions: { count: { type: 'integer' }, at: { type: 'string' } }
  }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))!
  const selection = parseSelection({ only: 'at' }, declared.tree, rules)!
  const writer = new ProjectionWriter(writerRoute(declared.shape, declared), (leaf) => fastJsonStringify(leaf))
  t.equal(writer.write({ count: '2', results: [{ at: 7, b: 1 }] }, selection.projection), '{"count":2,"results":[{"at":"7"}]}')
  const refused = new ProjectionWriter(writerRoute(declared.shape, declared), () => null)
  let thrown: unknown
  try {
    refused.write({ count: 2, results: [] }, selection.projection)
  } catch (error) {
    thrown = error
  }
  t.equal(thrown, GAVE_UP.envelope, 'an envelope its compiler refuses is left to copying')
})

test('ProjectionWriter on a route declared by a list writes what JSON.stringify writes of the copy', async (t) => {
  const listed = declaredFromList(['id', 'profile.city', 'tags.label'])
  const rows: Array<{ payload: unknown, shape: PayloadShape }> = [
    { payload: [{ id: 1, profile: { city: 'Oslo', zip: 1 }, tags: [{ label: 'a', x: 1 }, null, 3, undefined] }, { id: undefined, profile: 'text', fn: () => 1 }, 7, null], shape: { kind: 'auto', key: 'results' } },
    { payload: { count: 1, skip: undefined, results: [{ id: 1, secret: 's' }], next: null }, shape: { kind: 'auto', key: 'results' } },
    { payload: { count: 1, results: [{ id: 1, secret: 's' }] }, shape: { kind: 'envelope', key: 'results' } },
    { payload: { id: 1, profile: null, when: new Date(0), secret: 's' }, shape: { kind: 'auto', key: 'results' } },
    { payload: { results: 'none', id: 2 }, shape: { kind: 'object' } },
    { payload: [{ toJSON: () => ({ id: 3, secret: 's', profile: { toJSON: () => ({ city: 'Rome', zip: 1 }) } }) }], shape: { kind: 'array' } }
  ]
  for (const only of ['id,profile.city,tags', 'tags.label', 'profile']) {
    const selection = parseSelection({ only }, listed, rules)!
    for (const { payload, shape } of rows) {
      const text = new ProjectionWriter(writerRoute(shape, null), () => null).write(payload, selection.projection)
      t.equal(text, JSON.stringify(copyProjection(payload, listed, selection.projection, shape, () => -1)), `${only} ${JSON.stringify(payload)}`)
    }
  }
})
