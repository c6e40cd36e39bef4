import { test } from 'tap'
import { declaredPaths } from '../../lib/schema/paths.js'
import { References } from '../../lib/schema/references.js'
import { treeOf } from '../fixtures.js'

test('declaredResponse resolves JSON pointers with escapes and fails on what cannot be resolved', async (t) => {
  const root = { type: 'object', properties: { a: { $ref: '#/definitions/a~1b/c%20d' } }, definitions: { 'a/b': { 'c d': { type: 'object', properties: { z: {} } } } } }
  t.strictSame(declaredPaths(treeOf(root)), ['a', 'a.z'])
  for (const ref of ['missing#', '#/definitions/none', '#/definitions/a~1b/c%20d/type', 'other']) {
    const schema = { type: 'object', properties: { a: { $ref: ref } }, definitions: root.definitions }
    t.throws(() => treeOf(schema), { message: `unresolved ${ref}` }, ref)
  }
  t.strictSame(declaredPaths(treeOf({ $ref: 'whole' }, { whole: { type: 'object', properties: { w: {} } } })), ['w'], 'a ref without a pointer names the whole schema')
})

test('declaredResponse fails on an anchor it cannot find, and names a loop inside a shared schema by its id', async (t) => {
  t.throws(() => treeOf({ type: 'object', properties: { a: { $ref: '#nowhere' } } }), { message: 'unresolved #nowhere' })
  t.throws(() => treeOf({ $ref: 'loop#' }, { loop: { $ref: 'loop#' } }), { message: 'unreadable loop# ($ref): its references loop without reaching a schema' })
})

test('declaredResponse fails on allOf members that refer back to the schema that holds them, naming the member', async (t) => {
  const loop = { type: 'object', properties: { a: {} }, allOf: [{ $ref: 'loop#' }] }
  t.throws(() => treeOf({ $ref: 'loop#' }, { loop }), { message: 'unreadable loop#/allOf/0 ($ref): its references loop without reaching a schema' })
})

test('rebase reads where schemas sit from the vocabulary: a property named like a keyword of values is rebased, an instance is kept as it is', async (t) => {
  const fail = (): never => { throw new Error('unexpected') }
  const refs = new References({ root: { type: 'object' }, shared: { s: { $id: 's' } }, unresolved: fail, unreadable: fail })
  const local = { $ref: '#/definitions/x' }
  const rows: Array<[string, unknown, unknown]> = [
    ['properties named default, example, enum, const, examples',
      { properties: { default: local, example: local, enum: local, const: local, examples: local } },
      { properties: Object.fromEntries(['default', 'example', 'enum', 'const', 'examples'].map((name) => [name, { $ref: 's#/definitions/x' }])) }],
    ['instances, an `example` among them, keep their keys and strings',
      { default: { $ref: '#/a', $id: 'i' }, example: { $ref: '#/a' }, examples: [{ $ref: '#/a' }], const: { $ref: '#/a' }, enum: [{ $ref: '#/a' }] },
      { default: { $ref: '#/a', $id: 'i' }, example: { $ref: '#/a' }, examples: [{ $ref: '#/a' }], const: { $ref: '#/a' }, enum: [{ $ref: '#/a' }] }],
    ['every keyword that holds schemas, and a keyword of no dialect, is rebased; an annotation is not',
      { propertyNames: local, prefixItems: [local], dependentSchemas: { a: local }, contains: local, custom: local, 'x-doc': local },
      { propertyNames: { $ref: 's#/definitions/x' }, prefixItems: [{ $ref: 's#/definitions/x' }], dependentSchemas: { a: { $ref: 's#/definitions/x' } }, contains: { $ref: 's#/definitions/x' }, custom: { $ref: 's#/definitions/x' }, 'x-doc': local }],
    ['an $id starts a new base and is dropped; an absolute $ref is kept', { items: { $id: 'other', $ref: '#/y' }, not: { $ref: 'z#' } }, { items: { $ref: 'other#/y' }, not: { $ref: 'z#' } }],
    ['an $id or a $ref that is not a string is kept as it is', { items: { $id: 5, $ref: '#/a' }, not: { $id: 'n', $ref: 5 } }, { items: { $id: 5, $ref: 's#/a' }, not: { $ref: 5 } }],
    ['a boolean schema is kept', true, true]
  ]
  for (const [title, schema, expected] of rows) t.strictSame(refs.rebase(schema, 's'), expected, title)
  t.strictSame(refs.rebaseEach({ default: local, enum: local }, 's'), { default: { $ref: 's#/definitions/x' }, enum: { $ref: 's#/definitions/x' } }, 'a map of schemas: each value is a schema, whatever its name')
  t.equal(refs.rebaseEach(null, 's'), null, 'a map that is not an object is kept')
})
