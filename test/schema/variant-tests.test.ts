import { test } from 'tap'
import type { JsonSchema } from '../../lib/schema/tree.js'
import { typedObjectTest, variantTag } from '../../lib/schema/variant-tests.js'
import { treeOf } from '../fixtures.js'

test('declaredResponse tells tagged variants apart by their tag alone, and others by the whole variant', async (t) => {
  const tagged = (name: string, tag: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', required: ['kind'], properties: { kind: tag, [name]: { type: 'integer' }, ...extra } })
  const testsOf = (schema: JsonSchema): unknown => treeOf(schema).variants?.tests
  t.strictSame(testsOf({ oneOf: [tagged('a', { const: 'a' }), tagged('b', { enum: ['b'] }, { odd: true })] }), [
    { type: 'object', required: ['kind'], properties: { kind: { const: 'a' } } },
    { type: 'object', required: ['kind'], properties: { kind: { const: 'b' } } }
  ], 'a const or an enum of one value, required by every variant')
  const same = { anyOf: [tagged('a', { const: 'x' }), tagged('b', { const: 'x' })] }
  t.strictSame(testsOf(same), same.anyOf, 'variants that share a tag value are tested whole')
  const untagged = { anyOf: [tagged('a', { const: 'a' }), { type: 'object', properties: { kind: { const: 'b' }, b: {} } }] }
  t.strictSame(testsOf(untagged), untagged.anyOf, 'a tag one variant does not require is no tag')
  const nested = { anyOf: [{ anyOf: [tagged('a', { const: 'a' }), tagged('c', { const: 'c' })] }, tagged('b', { const: 'b' })] }
  t.equal((testsOf(nested) as unknown[]).length, 3, 'variants of variants are tested whole')
  t.strictSame((testsOf(nested) as unknown[])[2], nested.anyOf[1])
})

test('variantTag reads the tag of variants tested by one property\'s primitive constant, and nothing else', async (t) => {
  const test = (name: string, value: unknown): JsonSchema => ({ type: 'object', required: [name], properties: { [name]: { const: value } } })
  const cases: Array<[string, Array<JsonSchema | null>, unknown]> = [
    ['string constants', [test('kind', 'a'), test('kind', 'b')], { name: 'kind', values: ['a', 'b'] }],
    ['number, boolean and null constants', [test('v', 1), test('v', true), test('v', null)], { name: 'v', values: [1, true, null] }],
    ['a test of another property', [test('kind', 'a'), test('type', 'b')], null],
    ['an else branch', [test('kind', 'a'), null], null],
    ['an object constant', [test('kind', { a: 1 }), test('kind', 'b')], null],
    ['a test with more keywords', [{ ...test('kind', 'a'), additionalProperties: false }, test('kind', 'b')], null],
    ['a test requiring two properties', [{ ...test('kind', 'a'), required: ['kind', 'id'] }, test('kind', 'b')], null],
    ['a test of two properties', [{ ...test('kind', 'a'), properties: { kind: { const: 'a' }, id: {} } }, test('kind', 'b')], null],
    ['a constant with a type', [{ ...test('kind', 'a'), properties: { kind: { const: 'a', type: 'string' } } }, test('kind', 'b')], null],
    ['a test of another type', [{ ...test('kind', 'a'), type: 'array' }, test('kind', 'b')], null],
    ['a required list that is not one', [{ ...test('kind', 'a'), required: 'kind' }, test('kind', 'b')], null],
    ['properties that are not an object', [{ ...test('kind', 'a'), properties: [] }, test('kind', 'b')], null],
    ['a constant schema that is not an object', [{ ...test('kind', 'a'), properties: { kind: true } }, test('kind', 'b')], null],
    ['no tests', [], null]
  ]
  for (const [title, tests, expected] of cases) t.strictSame(variantTag({ tests, own: [] }), expected, title)
  const pets = treeOf({ oneOf: [test('kind', 'cat'), test('kind', 'dog')].map((tagTest) => ({ ...tagTest, properties: { ...tagTest.properties, name: { type: 'string' } } })) })
  t.strictSame(variantTag(pets.variants!), { name: 'kind', values: ['cat', 'dog'] }, 'the tests declaredResponse writes for tagged variants')
})

test('typedObjectTest types a test whose keywords the vocabulary says apply to objects alone, besides words that constrain nothing', async (t) => {
  const typed = (test: JsonSchema): JsonSchema => ({ anyOf: [{ not: { type: 'object' } }, { ...test, type: 'object' }] })
  const rows: Array<[JsonSchema, JsonSchema]> = [
    [{ required: ['a'] }, typed({ required: ['a'] })],
    [{ minProperties: 1, title: 't', default: {}, $comment: 'c' }, typed({ minProperties: 1, title: 't', default: {}, $comment: 'c' })],
    // Vendor keys and OpenAPI's words constrain nothing either.
    [{ required: ['a'], 'x-note': 'n', example: {}, externalDocs: { url: 'u' } }, typed({ required: ['a'], 'x-note': 'n', example: {}, externalDocs: { url: 'u' } })],
    [{ properties: { a: { required: ['b'] } } }, typed({ properties: { a: typed({ required: ['b'] }) } })],
    [{ required: ['a'], $id: 'x' }, { required: ['a'], $id: 'x' }],
    [{ required: ['a'], minimum: 1 }, { required: ['a'], minimum: 1 }],
    [{ required: ['a'], unknownKeyword: 1 }, { required: ['a'], unknownKeyword: 1 }],
    [{ title: 't' }, { title: 't' }],
    [{ type: 'object', required: ['a'] }, { type: 'object', required: ['a'] }]
  ]
  for (const [test, expected] of rows) t.strictSame(typedObjectTest(test), expected, JSON.stringify(test))
})
