import { test } from 'tap'
import { copyProjection, variantKey } from '../lib/copy.js'
import type { PayloadShape } from '../lib/schema/tree.js'
import { declaredFromList } from '../lib/schema/paths.js'
import { wholeProjection } from '../lib/projection.js'
import { parseSelection } from '../lib/selection.js'
import { records, rulesWith, treeOf, userSchema } from './fixtures.js'

const rules = rulesWith()
const tree = treeOf(userSchema)

function copy (query: Record<string, unknown>, payload: unknown, shape: PayloadShape = { kind: 'array' }): unknown {
  const selection = parseSelection(query, tree, rules)
  if (selection === null) throw new Error('no selection')
  return copyProjection(payload, tree, selection.projection, shape, () => -1)
}

const cases: Array<{ title: string, query: Record<string, unknown>, expected: unknown }> = [
  { title: 'only keeps the named fields', query: { only: 'name,id' }, expected: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  {
    title: 'defer keeps every declared field but the named ones; undeclared keys never pass, defaults are filled',
    query: { defer: 'email' },
    expected: [
      { id: 1, name: 'Ada', role: 'member', profile: { city: 'London', phone: '1' }, tags: [{ id: 1, label: 'math' }] },
      { id: 2, name: 'Alan', role: 'admin', profile: null, tags: [] }
    ]
  },
  { title: 'nested paths, nulls and arrays', query: { only: 'profile.city,tags.label' }, expected: [{ profile: { city: 'London' }, tags: [{ label: 'math' }] }, { profile: null, tags: [] }] },
  { title: 'only naming nothing gives empty objects', query: { only: '' }, expected: [{}, {}] }
]

test('copyProjection copies the projected fields of every record', async (t) => {
  for (const { title, query, expected } of cases) {
    t.strictSame(copy(query, records), expected, title)
  }
})

test('copyProjection follows the payload shape', async (t) => {
  t.strictSame(copy({ only: 'id' }, records[0], { kind: 'object' }), { id: 1 }, 'a single record')
  t.strictSame(copy({ only: 'id' }, { count: 2, results: records }, { kind: 'envelope', key: 'results' }),
    { count: 2, results: [{ id: 1 }, { id: 2 }] }, 'envelope keys are kept')
  t.strictSame(copy({ only: 'id' }, { count: 0, results: 'none' }, { kind: 'envelope', key: 'results' }),
    {}, 'an envelope without a results array is treated as a record')
  t.strictSame(copy({ only: 'id' }, records, { kind: 'auto', key: 'results' }), [{ id: 1 }, { id: 2 }], 'auto: an array')
  t.strictSame(copy({ only: 'id' }, { results: records, next: null }, { kind: 'auto', key: 'results' }),
    { results: [{ id: 1 }, { id: 2 }], next: null }, 'auto: an envelope')
  t.strictSame(copy({ only: 'id' }, [records[0]], { kind: 'auto', key: 'results' }), [{ id: 1 }], 'auto: an array is not an envelope')
})

test('copyProjection leaves values that are not records as they are', async (t) => {
  t.equal(copy({ only: 'id' }, null), null)
  t.equal(copy({ only: 'id' }, 'text', { kind: 'envelope', key: 'results' }), 'text')
  t.strictSame(copy({ only: 'profile.city' }, [{ profile: 'not an object' }, 7]), [{ profile: 'not an object' }, 7])
})

test('copyProjection on a tree from a list copies nested arrays too', async (t) => {
  const listed = declaredFromList(['id', 'tags.label'])
  const selection = parseSelection({ only: 'tags' }, listed, rules)
  t.strictSame(copyProjection({ id: 1, tags: [{ label: 'a', x: 1 }] }, listed, selection!.projection, { kind: 'object' }, () => -1), { tags: [{ label: 'a' }] })
})

test('a copy of a record of variants carries its variant\'s index under a key its level does not declare, and not enumerable', async (t) => {
  const variants = treeOf({
    type: 'array',
    items: {
      oneOf: [
        { type: 'object', required: ['k'], properties: { k: { const: 'a' }, '\u0000variant': { type: 'string' } } },
        { type: 'object', required: ['k'], properties: { k: { const: 'b' } } }
      ]
    }
  })
  t.equal(variantKey(tree), '\u0000variant')
  t.equal(variantKey(variants), '\u0000variant\u0000', 'the level declares the plain key')
  const copies = copyProjection([{ k: 'a', '\u0000variant': 'x' }, { k: 'b' }, { k: 'c' }], variants, wholeProjection(variants), { kind: 'array' }, (_variants, record) => ['a', 'b'].indexOf(record.k as string)) as Array<Record<string, unknown>>
  t.equal(JSON.stringify(copies), '[{"k":"a","\\u0000variant":"x"},{"k":"b"},{"k":"c"}]')
  t.strictSame(copies.map((copy) => copy['\u0000variant\u0000']), [0, 1, undefined], 'the third matches no variant and carries no index')
})

test('a toJSON() is called once, as fast-json-stringify calls it, even when what it returns has one too', async (t) => {
  const selfish = { id: 1, name: 'Ada', email: 'a@example.com', toJSON () { return this } }
  const twice = { toJSON: () => ({ id: 2, name: 'Alan', toJSON: () => ({ id: 3 }) }) }
  t.strictSame(copy({ only: 'id,name' }, [selfish, twice]), [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }])
  t.strictSame(copy({ only: 'id' }, [{ toJSON: () => 'text' }, { toJSON: () => [{ id: 4, name: 'x' }] }]), ['text', [{ id: 4 }]])
  t.strictSame(copy({ only: 'profile.city' }, [{ profile: { toJSON: () => 'gone' } }, { profile: { toJSON: () => ({ city: 'Oslo', zip: '0150' }) } }]),
    [{ profile: 'gone' }, { profile: { city: 'Oslo' } }], 'a nested object\'s toJSON() stands for it too')
  t.equal(copy({ only: 'id' }, { toJSON: () => null }, { kind: 'object' }), null, 'a record\'s toJSON() may give null')
})

test('handed to a schema that writes declared fields alone, a nested field kept whole is not copied, unless its levels need a default filled', async (t) => {
  const nested = treeOf({
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        profile: { type: 'object', properties: { city: { type: 'string' }, geo: { type: 'object', properties: { lat: { type: 'number' } } } } },
        prefs: { type: 'object', properties: { theme: { type: 'string', default: 'dark' } } }
      }
    }
  })
  const profile = { city: 'Oslo', geo: { lat: 59.9 }, undeclared: true }
  const payload = [{ id: 1, profile, prefs: {} }]
  const [handed] = copyProjection(payload, nested, wholeProjection(nested), { kind: 'array' }, () => -1, true) as Array<Record<string, unknown>>
  t.equal(handed.profile, profile, 'the same object')
  t.strictSame(handed.prefs, { theme: 'dark' }, 'a level with a default is copied, the default filled')
  const [copied] = copyProjection(payload, nested, wholeProjection(nested), { kind: 'array' }, () => -1) as Array<Record<string, unknown>>
  t.not(copied.profile, profile)
  t.strictSame(copied.profile, { city: 'Oslo', geo: { lat: 59.9 } }, 'without it, copied level by level')
  const narrowed = parseSelection({ only: 'profile.city' }, nested, rules)!
  t.strictSame(copyProjection(payload, nested, narrowed.projection, { kind: 'array' }, () => -1, true), [{ profile: { city: 'Oslo' } }], 'a narrowed field is copied')
})
