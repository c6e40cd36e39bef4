import { test } from 'tap'
import { declaredPaths } from '../../lib/schema/paths.js'
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
