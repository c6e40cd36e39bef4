import { test } from 'tap'
import type { JsonSchema } from '../../lib/schema/tree.js'
import { declaredPaths } from '../../lib/schema/paths.js'
import { treeOf } from '../fixtures.js'
import fastJsonStringify from 'fast-json-stringify'

test('declaredResponse reads composition: allOf merged, variants and if/then/else as variants with their tests', async (t) => {
  const a = { type: 'object', properties: { kind: { const: 'a' }, x: { type: 'integer' } } }
  const b = { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'integer' } } }
  const choice = (name: string): JsonSchema => ({ if: { properties: { [name]: { const: 1 } } }, then: { properties: { [name + 'Then']: {} } }, else: { properties: { [name + 'Else']: {} } } })
  // A test of object keywords alone, without `type: 'object'`, in the form that keeps ajv's strict mode quiet.
  const typed = (test: JsonSchema): JsonSchema => ({ anyOf: [{ not: { type: 'object' } }, { ...test, type: 'object' }] })
  const cases: Array<{ title: string, schema: JsonSchema, paths: string[], tests: unknown[] | null }> = [
    { title: 'members that are not objects are skipped', schema: { allOf: [true, a], anyOf: [true, a] }, paths: ['kind', 'x'], tests: null },
    { title: 'an if without then or else is not read', schema: { ...a, if: { required: ['x'] } }, paths: ['kind', 'x'], tests: null },
    { title: 'an if with only then: its fields, or none', schema: { ...a, if: { required: ['x'] }, then: b }, paths: ['kind', 'x', 'y'], tests: [typed({ required: ['x'] }), null] },
    {
      title: 'variants of variants: an if/then/else among anyOf members',
      schema: { anyOf: [{ type: 'object', ...choice('p') }, b] },
      paths: ['pThen', 'pElse', 'kind', 'y'],
      tests: [
        { allOf: [{ type: 'object', ...choice('p') }, typed({ properties: { p: { const: 1 } } })] },
        { type: 'object', ...choice('p') },
        b
      ]
    },
    {
      title: 'two if/then/else members of an allOf cross into four variants',
      schema: { allOf: [choice('p'), choice('q')] },
      paths: ['pThen', 'qThen', 'qElse', 'pElse'],
      tests: [
        { allOf: [typed({ properties: { p: { const: 1 } } }), typed({ properties: { q: { const: 1 } } })] },
        typed({ properties: { p: { const: 1 } } }),
        typed({ properties: { q: { const: 1 } } }),
        null
      ]
    }
  ]
  for (const { title, schema, paths, tests } of cases) {
    const tree = treeOf(schema)
    t.strictSame([declaredPaths(tree), tree.variants?.tests ?? null], [paths, tests], title)
  }
  const testOf = (test: JsonSchema): unknown => treeOf({ ...a, if: test, then: b }).variants?.tests[0]
  t.strictSame(testOf({ title: 'x' }), { title: 'x' }, 'a test of annotations alone is kept as it is')
  t.strictSame(testOf({ properties: { kind: { properties: { p: {} } } } }), typed({ properties: { kind: typed({ properties: { p: {} } }) } }), 'a test of object keywords is typed at every level of its properties')
  t.strictSame(testOf({ required: ['x'], const: 1 }), { required: ['x'], const: 1 }, 'a test with a keyword for other values is kept as it is')
})

test('a field that variants each declare holds the variants of either, side by side, each once', async (t) => {
  const pet = { oneOf: [{ type: 'object', required: ['cat'], properties: { cat: {} } }, { type: 'object', required: ['dog'], properties: { dog: {} } }] }
  const shared = { $id: 'pet', ...pet }
  const record = (kind: string, value: JsonSchema): JsonSchema => ({ type: 'object', required: ['kind'], properties: { kind: { const: kind }, pet: value } })
  const cases: Array<{ title: string, schema: JsonSchema, count: number }> = [
    { title: 'one $ref in every variant: its own two', schema: { oneOf: [record('a', { $ref: 'pet#' }), record('b', { $ref: 'pet#' }), record('c', { $ref: 'pet#' })] }, count: 2 },
    { title: 'the same union written in two places: two of each', schema: { oneOf: [record('a', pet), record('b', pet)] }, count: 4 }
  ]
  for (const { title, schema, count } of cases) {
    const tree = treeOf(schema, { pet: shared })
    t.equal(tree.byName.get('pet')?.children?.variants?.tests.length, count, title)
  }
})

test('declaredResponse lists a level\'s fields in the order fast-json-stringify writes them, allOf merged as it merges them', async (t) => {
  const text = { type: 'string' }
  const props = (...names: string[]): JsonSchema => Object.fromEntries(names.map((name) => [name, text]))
  const shared: Record<string, JsonSchema> = {
    x: { $id: 'x', type: 'object', properties: props('x1', 'x2') },
    y: { $id: 'y', type: 'object', required: ['y2'], properties: props('y1', 'y2'), allOf: [{ properties: props('y3') }] },
    z: { $id: 'z', $ref: 'x#', properties: props('z1') }
  }
  const cases: Array<{ title: string, schema: JsonSchema }> = [
    { title: 'required beside allOf names fields of its members', schema: { required: ['b', 'c'], allOf: [{ required: ['d'], properties: props('a', 'd') }, { properties: props('b', 'c') }] } },
    { title: 'the members of a level before their own members', schema: { properties: props('a'), allOf: [{ properties: props('b'), allOf: [{ properties: props('c') }] }, { properties: props('d') }] } },
    { title: 'required in a nested member only', schema: { allOf: [{ properties: props('a', 'b'), allOf: [{ required: ['b'] }] }] } },
    { title: 'a $ref\'s target before the keywords beside it', schema: { $ref: 'x#', required: ['a'], properties: props('a', 'x2') } },
    { title: 'a chain of $refs, the last target first', schema: { $ref: 'z#', properties: props('a') } },
    { title: 'a $ref member with members of its own', schema: { allOf: [{ $ref: 'y#' }, { properties: props('a') }] } },
    {
      title: 'a property declared with a $ref and beside it: the target first',
      schema: { properties: { p: { properties: props('a') } }, allOf: [{ properties: { p: { required: ['b'], properties: props('b') } } }, { properties: { p: { $ref: 'x#' } } }] }
    },
    {
      title: 'a property declared twice with one local $ref',
      schema: { definitions: { d: { properties: props('d1') } }, properties: { p: { properties: props('a') } }, allOf: [{ properties: { p: { $ref: '#/definitions/d' } } }] }
    },
    {
      title: 'array items each declaration declares, merged',
      schema: { allOf: [{ properties: { q: { type: 'array', items: { properties: props('a', 'b') } } } }, { properties: { q: { type: 'array', items: { required: ['c'], properties: props('c', 'a') } } } }] }
    }
  ]
  /** The dotted paths of a body written from `payload`, in its order. */
  const pathsOf = (value: object, prefix = ''): string[] => Object.entries(value).flatMap(([name, field]) => {
    const inner = Array.isArray(field) ? field[0] : field
    return typeof inner === 'object' ? [prefix + name, ...pathsOf(inner, `${prefix}${name}.`)] : [prefix + name]
  })
  const record = { a: 'a', b: 'b', c: 'c', d: 'd', d1: 'd1', x1: 'x1', x2: 'x2', y1: 'y1', y2: 'y2', y3: 'y3', z1: 'z1' }
  const payload = { ...record, p: { ...record }, q: [{ ...record }], secret: 's' }
  for (const { title, schema } of cases) {
    const serialize = fastJsonStringify(schema as fastJsonStringify.Schema, { schema: shared as Record<string, fastJsonStringify.Schema> })
    const written = serialize(payload)
    t.strictSame(declaredPaths(treeOf(schema, shared)), pathsOf(JSON.parse(written)), `${title}: ${written}`)
  }
})

test('declarations of one property that make different $refs are each read after their own', async (t) => {
  const shared = { x: { $id: 'x', properties: { x1: {} } }, y: { $id: 'y', properties: { y1: {} } } }
  const schema = { allOf: [{ properties: { p: { $ref: 'x#' } } }, { properties: { p: { $ref: 'y#' } } }] }
  t.strictSame(declaredPaths(treeOf(schema, shared)), ['p', 'p.x1', 'p.y1'])
})
