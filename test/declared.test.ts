import { test } from 'tap'
import type { JsonSchema } from '../lib/schema/tree.js'
import { variantTag } from '../lib/schema/variant-tests.js'
import { declaredResponse } from '../lib/schema/reader.js'
import { declaredFromList, declaredPaths } from '../lib/schema/paths.js'
import { context, tagSchema, treeOf, userSchema } from './fixtures.js'

const shared: Record<string, JsonSchema> = {
  tag: { $id: 'tag', ...tagSchema },
  user: {
    $id: 'user',
    type: 'object',
    properties: { id: { type: 'integer' }, home: { $ref: '#/definitions/address' }, since: { $ref: '#/definitions/date' } },
    definitions: { address: { type: 'object', properties: { city: { type: 'string' } } }, date: { type: 'string', format: 'date' } }
  },
  node: { $id: 'node', type: 'object', properties: { name: { type: 'string' }, child: { $ref: 'node#' } } }
}

const cases: Array<{ title: string, schema: JsonSchema, paths: string[], maxDepth?: number }> = [
  {
    title: 'an object schema declares its properties at every depth, in declared order',
    schema: userSchema,
    paths: ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label']
  },
  {
    title: 'an array schema declares the fields of its items',
    schema: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } },
    paths: ['a']
  },
  {
    title: 'an envelope declares the fields of its results, not its own keys',
    schema: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: 'tag#' } } } },
    paths: ['id', 'label']
  },
  {
    title: 'a results key that is not an array of objects is an ordinary field',
    schema: { type: 'object', properties: { results: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } } },
    paths: ['results', 'n']
  },
  {
    title: 'a $ref to a shared schema, and relative refs inside it, are followed',
    schema: { $ref: 'user#' },
    paths: ['id', 'home', 'home.city', 'since']
  },
  {
    title: 'anyOf and oneOf with null unwrap to the object they allow',
    schema: {
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'null' }, { type: 'object', properties: { x: { type: 'string' } } }] },
        b: { oneOf: [{ type: 'object', properties: { y: { type: 'string' } } }, { type: 'null' }] },
        c: { anyOf: [{ type: 'string' }, { type: 'integer' }] }
      }
    },
    paths: ['a', 'a.x', 'b', 'b.y', 'c']
  },
  {
    title: 'a local $ref into definitions of the route schema is followed',
    schema: { type: 'object', properties: { t: { type: 'array', items: { $ref: '#/definitions/t' } } }, definitions: { t: tagSchema } },
    paths: ['t', 't.id', 't.label']
  },
  {
    title: 'a recursive schema is read down to maxDepth only',
    schema: { $ref: 'node#' },
    paths: ['name', 'child', 'child.name', 'child.child'],
    maxDepth: 2
  },
  {
    title: 'properties that are not schemas are skipped',
    schema: { type: 'object', properties: { a: true, b: { type: 'string' } } },
    paths: ['b']
  }
]

test('declaredResponse reads the declared paths of a schema', async (t) => {
  for (const { title, schema, paths, maxDepth } of cases) {
    t.same(declaredPaths(treeOf(schema, shared, maxDepth)), paths, title)
  }
})

test('declaredResponse reports where the records sit', async (t) => {
  const shapeOf = (schema: JsonSchema): unknown => declaredResponse(schema, 'items', 8, context({}, schema))?.shape
  t.same(shapeOf({ type: 'object', properties: { a: {} } }), { kind: 'object' })
  t.same(shapeOf({ type: 'array', items: tagSchema }), { kind: 'array' })
  t.same(shapeOf({ type: 'object', properties: { items: { type: 'array', items: tagSchema } } }), { kind: 'envelope', key: 'items' })
})

test('declaredResponse returns null for a schema without object fields', async (t) => {
  for (const schema of [{ type: 'string' }, { type: 'array', items: { type: 'integer' } }, { type: 'array', items: [tagSchema] }, { type: 'array' }]) {
    t.equal(declaredResponse(schema, 'results', 8, context({}, schema)), null, JSON.stringify(schema))
  }
})

test('declaredResponse keeps the local definitions of the route schema for leaf refs', async (t) => {
  const schema = { type: 'object', properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } }, definitions: { n: { type: 'number' } } }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))
  t.same(declared?.localDefinitions, { $defs: schema.$defs, definitions: schema.definitions })
})

test('declaredResponse reads field details: nullable, defaults, absolute leaf refs', async (t) => {
  const tree = treeOf({ $ref: 'user#' }, shared)
  const since = tree.byName.get('since')
  t.same(since?.schema, { $ref: 'user#/definitions/date' }, 'a relative ref inside a shared schema becomes absolute')
  const local = treeOf({ type: 'object', properties: { s: { $ref: '#/definitions/s' } }, definitions: { s: { type: 'string', default: 'x' } } })
  const s = local.byName.get('s')
  t.same([s?.schema, s?.hasDefault, s?.defaultValue], [{ $ref: '#/definitions/s' }, true, 'x'], 'a default behind a ref is found, the ref stays relative in the route schema')
  const users = treeOf(userSchema)
  t.same(['email', 'role', 'profile', 'tags'].map((name) => [users.byName.get(name)?.nullable, users.byName.get(name)?.hasDefault]),
    [[true, false], [false, true], [true, false], [false, false]])
  t.equal(users.byName.get('tags')?.isArray, true)
})

test('declaredResponse resolves JSON pointers with escapes and fails on what cannot be resolved', async (t) => {
  const root = { type: 'object', properties: { a: { $ref: '#/definitions/a~1b/c%20d' } }, definitions: { 'a/b': { 'c d': { type: 'object', properties: { z: {} } } } } }
  t.same(declaredPaths(treeOf(root)), ['a', 'a.z'])
  for (const ref of ['missing#', '#/definitions/none', '#/definitions/a~1b/c%20d/type', 'other']) {
    const schema = { type: 'object', properties: { a: { $ref: ref } }, definitions: root.definitions }
    t.throws(() => treeOf(schema), { message: `unresolved ${ref}` }, ref)
  }
  t.same(declaredPaths(treeOf({ $ref: 'whole' }, { whole: { type: 'object', properties: { w: {} } } })), ['w'], 'a ref without a pointer names the whole schema')
})

test('declaredFromList builds the tree of dotted paths, parents implied and kept once', async (t) => {
  const tree = declaredFromList(['id', 'profile.city', 'profile.phone', 'profile', 'tags.label'])
  t.same(declaredPaths(tree), ['id', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.label'])
  t.equal(tree.byName.get('id')?.children, null)
})

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

test('declaredResponse merges an envelope declared by several members, a key declared twice included', async (t) => {
  const schema = {
    allOf: [
      { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
      { type: 'object', properties: { count: { minimum: 0 }, results: { type: 'array', items: tagSchema } } }
    ]
  }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))
  t.same(declared?.envelope, {
    type: 'object',
    properties: { count: { allOf: [{ type: 'integer' }, { minimum: 0 }] }, results: { type: 'array', items: tagSchema } },
    required: ['count']
  })
})

test('declaredResponse fails on an anchor it cannot find, and names a loop inside a shared schema by its id', async (t) => {
  t.throws(() => treeOf({ type: 'object', properties: { a: { $ref: '#nowhere' } } }), { message: 'unresolved #nowhere' })
  t.throws(() => treeOf({ $ref: 'loop#' }, { loop: { $ref: 'loop#' } }), { message: 'unreadable loop# ($ref): its references loop without reaching a schema' })
})

test('declaredResponse tells tagged variants apart by their tag alone, and others by the whole variant', async (t) => {
  const tagged = (name: string, tag: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'object', required: ['kind'], properties: { kind: tag, [name]: { type: 'integer' }, ...extra } })
  const testsOf = (schema: JsonSchema): unknown => treeOf(schema).variants?.tests
  t.same(testsOf({ oneOf: [tagged('a', { const: 'a' }), tagged('b', { enum: ['b'] }, { odd: true })] }), [
    { type: 'object', required: ['kind'], properties: { kind: { const: 'a' } } },
    { type: 'object', required: ['kind'], properties: { kind: { const: 'b' } } }
  ], 'a const or an enum of one value, required by every variant')
  const same = { anyOf: [tagged('a', { const: 'x' }), tagged('b', { const: 'x' })] }
  t.same(testsOf(same), same.anyOf, 'variants that share a tag value are tested whole')
  const untagged = { anyOf: [tagged('a', { const: 'a' }), { type: 'object', properties: { kind: { const: 'b' }, b: {} } }] }
  t.same(testsOf(untagged), untagged.anyOf, 'a tag one variant does not require is no tag')
  const nested = { anyOf: [{ anyOf: [tagged('a', { const: 'a' }), tagged('c', { const: 'c' })] }, tagged('b', { const: 'b' })] }
  t.equal((testsOf(nested) as unknown[]).length, 3, 'variants of variants are tested whole')
  t.same((testsOf(nested) as unknown[])[2], nested.anyOf[1])
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
  for (const [title, tests, expected] of cases) t.same(variantTag({ tests, own: [] }), expected, title)
  const pets = treeOf({ oneOf: [test('kind', 'cat'), test('kind', 'dog')].map((tagTest) => ({ ...tagTest, properties: { ...tagTest.properties, name: { type: 'string' } } })) })
  t.same(variantTag(pets.variants!), { name: 'kind', values: ['cat', 'dog'] }, 'the tests declaredResponse writes for tagged variants')
})
