import { test } from 'tap'
import type { JsonSchema } from '../../lib/schema/tree.js'
import { declaredPaths } from '../../lib/schema/paths.js'
import { treeOf } from '../fixtures.js'

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
    t.same([declaredPaths(tree), tree.variants?.tests ?? null], [paths, tests], title)
  }
  const testOf = (test: JsonSchema): unknown => treeOf({ ...a, if: test, then: b }).variants?.tests[0]
  t.same(testOf({ title: 'x' }), { title: 'x' }, 'a test of annotations alone is kept as it is')
  t.same(testOf({ properties: { kind: { properties: { p: {} } } } }), typed({ properties: { kind: typed({ properties: { p: {} } }) } }), 'a test of object keywords is typed at every level of its properties')
  t.same(testOf({ required: ['x'], const: 1 }), { required: ['x'], const: 1 }, 'a test with a keyword for other values is kept as it is')
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
