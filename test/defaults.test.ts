import { test } from 'tap'
import { projectedDefault, projectedDefaultJson } from '../lib/defaults.js'
import type { FieldNode } from '../lib/schema/tree.js'
import { parseSelection } from '../lib/selection.js'
import { hiddenTrie } from '../lib/hidden-paths.js'
import { visibleTree } from '../lib/visibility.js'
import { rulesWith, treeOf } from './fixtures.js'

const schema = {
  type: 'object',
  properties: {
    id: { type: 'integer', default: 0 },
    profile: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        phone: { type: 'string' },
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } } },
        extra: { type: 'object', additionalProperties: true }
      },
      default: { phone: '555-0100', city: 'Nowhere', undeclared: 1, address: { zip: '0150', street: 'Main' }, extra: { pin: 1, note: 'n' } }
    },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, internal: { type: 'boolean' } } }, default: [{ label: 'new', internal: true }, null, 'text'] },
    meta: { type: 'object', additionalProperties: true, default: { source: 'import', note: { text: 'n', secret: 's' } } },
    at: { type: 'object', properties: { day: { type: 'integer' } }, default: { day: 1 } }
  }
}
const tree = treeOf(schema)

/** The projected default of the field `name` of a selection made of `query`, against `hidden` paths hidden. */
function defaultOf (name: string, query: Record<string, unknown>, hidden: string[] = []): unknown {
  const visible = hidden.length === 0 ? tree : visibleTree(tree, hiddenTrie(hidden)).tree
  const selection = parseSelection(query, visible, rulesWith())!
  const field = selection.projection.find(({ node }) => node.name === name)!
  return projectedDefault(field.node, field.sub)
}

const cases: Array<{ title: string, name: string, query: Record<string, unknown>, hidden?: string[], expected: unknown }> = [
  { title: 'a leaf default is kept as it is', name: 'id', query: { only: 'id' }, expected: 0 },
  {
    title: 'an object kept whole keeps its declared fields, in its own order',
    name: 'profile',
    query: { only: 'profile' },
    expected: { phone: '555-0100', city: 'Nowhere', address: { zip: '0150', street: 'Main' }, extra: { pin: 1, note: 'n' } }
  },
  { title: 'only narrows an object default', name: 'profile', query: { only: 'profile.city,profile.address.zip' }, expected: { city: 'Nowhere', address: { zip: '0150' } } },
  { title: 'defer drops from an object default', name: 'profile', query: { defer: 'profile.phone,profile.address,profile.extra' }, expected: { city: 'Nowhere' } },
  {
    title: 'a hidden path is removed, inside a free-form field of the default too',
    name: 'profile',
    query: { only: 'profile' },
    hidden: ['profile.phone', 'profile.address.street', 'profile.extra.pin'],
    expected: { city: 'Nowhere', address: { zip: '0150' }, extra: { note: 'n' } }
  },
  { title: 'every object item of an array default is projected; other items stay', name: 'tags', query: { only: 'tags.label' }, expected: [{ label: 'new' }, null, 'text'] },
  { title: 'a free-form default is whole', name: 'meta', query: { only: 'meta' }, expected: { source: 'import', note: { text: 'n', secret: 's' } } },
  { title: 'a free-form default loses a hidden path inside it', name: 'meta', query: { only: 'meta' }, hidden: ['meta.note.secret'], expected: { source: 'import', note: { text: 'n' } } }
]

test('projectedDefault keeps what the selection keeps and the request may see', async (t) => {
  for (const { title, name, query, hidden, expected } of cases) t.strictSame(defaultOf(name, query, hidden), expected, title)
})

test('projectedDefault works each default out once per projection, and its JSON with it', async (t) => {
  const selection = parseSelection({ only: 'profile.city' }, tree, rulesWith())!
  const { node, sub } = selection.projection[0]
  t.equal(projectedDefault(node, sub), projectedDefault(node, sub), 'the same value, not a new copy')
  t.equal(projectedDefaultJson(node, sub), '{"city":"Nowhere"}')
  t.equal(projectedDefaultJson(tree.byName.get('id')!, null), '0')
})

test('a default with a toJSON method is projected as it serializes, and an undeclared __proto__ key is left out', async (t) => {
  const node = tree.byName.get('at')!
  const withToJSON: FieldNode = { ...node, defaultValue: { toJSON: () => ({ day: 2, hour: 3 }) } }
  t.equal(projectedDefaultJson(withToJSON, null), '{"day":2}')
  const withProto: FieldNode = { ...node, defaultValue: JSON.parse('{"__proto__":{"x":1},"day":3}') }
  t.equal(projectedDefaultJson(withProto, null), '{"day":3}', 'an undeclared __proto__ key is left out like any other')
})
