import { test } from 'tap'
import { declaredFromList, declaredPaths, likelyRecordsKey } from '../../lib/schema/paths.js'
import { treeOf } from '../fixtures.js'

test('declaredFromList builds the tree of dotted paths, parents implied and kept once', async (t) => {
  const tree = declaredFromList(['id', 'profile.city', 'profile.phone', 'profile', 'tags.label'])
  t.strictSame(declaredPaths(tree), ['id', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.label'])
  t.equal(tree.byName.get('id')?.children, null)
})

test('likelyRecordsKey finds the one array of records of an object whose other fields hold no keys', async (t) => {
  const task = { type: 'object', properties: { id: { type: 'integer' } } }
  const rows: Array<[string, Record<string, unknown>, string | null]> = [
    ['an array of records beside scalars', { total: { type: 'integer' }, next: { type: ['string', 'null'] }, tasks: { type: 'array', items: task } }, 'tasks'],
    ['an array of records alone', { data: { type: 'array', items: task } }, 'data'],
    ['two arrays of records', { tasks: { type: 'array', items: task }, owners: { type: 'array', items: task } }, null],
    ['an object beside it', { tasks: { type: 'array', items: task }, owner: task }, null],
    ['a free-form value beside it', { tasks: { type: 'array', items: task }, meta: {} }, null],
    ['an array of strings only', { total: { type: 'integer' }, labels: { type: 'array', items: { type: 'string' } } }, null],
    ['scalars only', { id: { type: 'integer' } }, null]
  ]
  for (const [title, properties, expected] of rows) t.equal(likelyRecordsKey(treeOf({ type: 'object', properties })), expected, title)
  const variants = treeOf({ anyOf: [{ type: 'object', properties: { tasks: { type: 'array', items: task } } }, { type: 'object', properties: { id: { type: 'integer' } } }] })
  t.equal(likelyRecordsKey(variants), null, 'a choice of variants')
})
