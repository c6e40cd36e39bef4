import { test } from 'tap'
import { declaredPaths } from '../lib/schema/paths.js'
import { hiddenTrie } from '../lib/hidden-paths.js'
import { DeclaredAnywhere, hiddenKey, hiddenPathProblem, holdsHidden, MAX_VISIBILITIES, stripHidden, stripHiddenText, VisibilityCache, visibleTree } from '../lib/visibility.js'
import type { Visibility } from '../lib/visibility.js'
import { treeOf, userSchema } from './fixtures.js'

const tree = treeOf(userSchema)

test('visibleTree removes hidden fields at any depth and says what a partly hidden field still holds', async (t) => {
  const rows: Array<{ hidden: string[], paths: string[], wholeKeys: string[] }> = [
    { hidden: ['email'], paths: ['id', 'name', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label'], wholeKeys: ['"id"', '"name"', '"role"', '"profile"', '"tags"'] },
    { hidden: ['profile.phone', 'tags.id', 'tags.label'], paths: ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'tags'], wholeKeys: ['"id"', '"name"', '"email"', '"role"', '"profile"("city")', '"tags"()'] },
    { hidden: ['profile', 'profile.city'], paths: ['id', 'name', 'email', 'role', 'tags', 'tags.id', 'tags.label'], wholeKeys: ['"id"', '"name"', '"email"', '"role"', '"tags"'] }
  ]
  for (const { hidden, paths, wholeKeys } of rows) {
    const visible = visibleTree(tree, hiddenTrie(hidden))
    t.strictSame([declaredPaths(visible.tree), visible.tree.nodes.map((node) => node.wholeKey), visible.strips], [paths, wholeKeys, false], hidden.join(','))
  }
  t.equal(visibleTree(tree, hiddenTrie(['email'])).tree.byName.get('profile'), tree.byName.get('profile'), 'untouched fields keep their nodes')
})

test('visibleTree marks a leaf whose value holds a hidden path, and stripHidden removes it', async (t) => {
  const visible = visibleTree(tree, hiddenTrie(['id.secret', 'profile.phone', 'nope.x']))
  t.equal(visible.strips, true)
  t.strictSame([...visible.tree.byName.get('id')!.strip!.children.keys()], ['secret'])
  t.equal(visible.tree.byName.get('name'), tree.byName.get('name'))
  const rows: Array<[string[], unknown, unknown]> = [
    [['a'], { a: 1, b: 2 }, { b: 2 }],
    [['a.b'], { a: [{ b: 1, c: 2 }, null, 3, { a: { b: 1 } }], b: 1 }, { a: [{ c: 2 }, null, 3, { a: { b: 1 } }], b: 1 }],
    [['a.b', 'a'], { a: { b: 1 }, c: { a: 1 } }, { c: { a: 1 } }],
    [['d'], { d: 1, __proto__x: 2, e: { toJSON: () => ({ d: 1, f: 2 }) } }, { __proto__x: 2, e: { d: 1, f: 2 } }],
    [['e.d'], { e: { toJSON: () => ({ d: 1, f: 2 }) } }, { e: { f: 2 } }],
    [['x'], [{ x: 1, y: 2 }, 'text', null], [{ y: 2 }, 'text', null]]
  ]
  for (const [hidden, value, expected] of rows) {
    t.equal(JSON.stringify(stripHidden(value, hiddenTrie(hidden))), JSON.stringify(expected), JSON.stringify(value))
  }
  const withProto = JSON.parse('{"__proto__":{"x":1},"x":2}')
  t.equal(JSON.stringify(stripHidden(withProto, hiddenTrie(['x']))), '{"__proto__":{"x":1}}', 'a key named __proto__ stays a key')
})

test('VisibilityCache accepts declared paths and paths inside a leaf, and refuses others', async (t) => {
  const rows: Array<[string, boolean]> = [['id', true], ['profile.city', true], ['tags.label', true], ['id.x', false], ['nope', false], ['profile.zip', false]]
  for (const [path, expected] of rows) {
    let declared = true
    try {
      cache().visibilities.of([path])
    } catch {
      declared = false
    }
    t.equal(declared, expected, path)
  }
})

// A record with every kind of leaf: scalars, arrays of scalars, free-form objects, maps, and values whose schema does not say.
const leaves = treeOf({
  type: 'object',
  properties: {
    id: { type: 'integer' },
    email: { type: ['string', 'null'] },
    role: { enum: ['staff', 'member'] },
    kind: { const: 'user' },
    either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    scores: { type: 'array', items: { type: 'integer' } },
    meta: { type: 'object', additionalProperties: true },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    anything: {},
    list: { type: 'array' },
    shape: { anyOf: [{ type: 'string' }, { type: 'object' }] },
    settings: { $ref: 'settings#' },
    profile: { type: 'object', properties: { city: { type: 'string' }, deeper: { type: 'object', properties: { x: { type: 'string' } } } } }
  }
}, { settings: { $id: 'settings', type: 'object', additionalProperties: true } }, 2)

test('hiddenPathProblem accepts declared paths and well-formed paths inside values that hold fields, and says why it refuses the rest', async (t) => {
  const rows: Array<[string, string | null]> = [
    ['id', null],
    ['profile.city', null],
    ['profile.deeper', null],
    // Below maxDepth (2 here), a level of fields is one value that holds them.
    ['profile.deeper.x', null],
    ['meta.secret', null],
    ['meta.a.b', null],
    ['meta.with inner space', null],
    ['labels.internal', null],
    ['anything.key', null],
    ['list.key', null],
    ['shape.key', null],
    ['settings.token', null],
    ['id.', "but 'id' holds no fields"],
    ['id.x', "but 'id' holds no fields"],
    ['email.x', "but 'email' holds no fields"],
    ['role.x', "but 'role' holds no fields"],
    ['kind.x', "but 'kind' holds no fields"],
    ['either.x', "but 'either' holds no fields"],
    ['scores.x', "but 'scores' holds no fields"],
    ['profile.city.x', "but 'profile.city' holds no fields"],
    ['meta.', "which is not a well-formed path inside the value of 'meta'"],
    ['meta.secret.', "which is not a well-formed path inside the value of 'meta'"],
    ['meta..secret', "which is not a well-formed path inside the value of 'meta'"],
    ['meta. secret', "which is not a well-formed path inside the value of 'meta'"],
    ['meta.secret ', "which is not a well-formed path inside the value of 'meta'"],
    ['meta.a[b]', "which is not a well-formed path inside the value of 'meta'"],
    ['meta.a,b', "which is not a well-formed path inside the value of 'meta'"],
    ['', 'which no route with restrictFields declares'],
    ['.id', 'which no route with restrictFields declares'],
    ['profile.', 'which no route with restrictFields declares'],
    ['profile..city', 'which no route with restrictFields declares'],
    [' id', 'which no route with restrictFields declares'],
    ['ID', 'which no route with restrictFields declares'],
    ['profile[city]', 'which no route with restrictFields declares'],
    ['profile.deeper.x.y', null]
  ]
  for (const [path, problem] of rows) t.equal(hiddenPathProblem(leaves, path), problem, JSON.stringify(path))
})

test('DeclaredAnywhere knows the paths of every route, and well-formed paths inside their open values', async (t) => {
  const anywhere = new DeclaredAnywhere()
  anywhere.add(leaves)
  t.equal(anywhere.has('tags.label'), false, 'before the route that declares it')
  anywhere.add(tree)
  const rows: Array<[string, boolean]> = [
    ['id', true], ['tags.label', true], ['profile.deeper.x', true], ['meta.secret', true], ['meta.a.b', true], ['settings.token', true],
    ['id.x', false], ['meta.', false], ['meta.secret.', false], ['meta..a', false], ['nope', false], ['profile.city.x', false], ['tags.label.x', false]
  ]
  for (const [path, expected] of rows) t.equal(anywhere.has(path), expected, path)
})

test('hiddenKey is one text per set, whatever the order or repetitions', async (t) => {
  t.equal(hiddenKey(['b', 'a', 'b']), hiddenKey(['a', 'b']))
  t.not(hiddenKey(['a\nb']), hiddenKey(['a', 'b']))
  t.not(hiddenKey(['["a"]']), hiddenKey(['a', 'a']), 'a single path never reads as a list')
  t.equal(hiddenKey(['a', 'a']), hiddenKey(['a', 'a', 'a']))
})

type Built = Visibility<string>

function cache (declaredElsewhere: (path: string) => boolean = () => false) {
  const created: string[][] = []
  const unhidden: Built = { tree, readSelection: () => null, whole: null, hidden: null, strips: false }
  const visibilities = new VisibilityCache<Built>(tree, unhidden, (visible, hidden) => {
    created.push(declaredPaths(visible.tree))
    return { tree: visible.tree, readSelection: () => null, whole: declaredPaths(visible.tree).join(','), hidden, strips: visible.strips }
  }, declaredElsewhere, 'GET /users')
  return { visibilities, unhidden, created }
}

test('VisibilityCache builds one visibility per distinct hidden set and shares it', async (t) => {
  const { visibilities, unhidden, created } = cache((path) => path === 'other')
  t.equal(visibilities.of([]), unhidden, 'nothing hidden')
  const other = visibilities.of(['other'])
  t.strictSame([other.whole, [...other.hidden!.children.keys()]], [declaredPaths(tree).join(','), ['other']], 'a field of other routes only: every field of this one, and the hidden path kept for replies without declared fields')
  const first = visibilities.of(['email', 'role'])
  t.equal(visibilities.of(['role', 'email', 'role']), first, 'the same set, spelled otherwise')
  const frozen = Object.freeze(['email', 'role', 'other'])
  t.equal(visibilities.of(frozen), visibilities.of(frozen))
  t.equal(created.length, 3, 'one for {other}, one for {email, role}, one for {email, role, other}')
  t.equal(first.whole, 'id,name,profile,profile.city,profile.phone,tags,tags.id,tags.label')
})

test('VisibilityCache forgets the oldest set past its bound, and stays correct', async (t) => {
  const { visibilities, created } = cache()
  const paths = declaredPaths(tree)
  const sets = paths.flatMap((a, i) => paths.slice(i + 1).map((b) => [a, b])).slice(0, MAX_VISIBILITIES + 1)
  for (const set of sets) visibilities.of(set)
  t.equal(created.length, MAX_VISIBILITIES + 1)
  visibilities.of(sets[MAX_VISIBILITIES])
  t.equal(created.length, MAX_VISIBILITIES + 1, 'the newest set is remembered')
  const again = visibilities.of(sets[0])
  t.equal(created.length, MAX_VISIBILITIES + 2, 'the first set was forgotten and built again')
  t.strictSame(again.tree.nodes.map((node) => node.name), visibleTree(tree, hiddenTrie(sets[0])).tree.nodes.map((node) => node.name))
})

test('VisibilityCache rejects answers that are not declared names', async (t) => {
  const { visibilities } = cache()
  const rows: Array<[unknown, string]> = [
    ['email', 'must return an array of field names, instead returned string'],
    [null, 'must return an array of field names, instead returned null'],
    [[1], 'must return an array of field names, instead returned an array with a non-string item'],
    [['emial'], "returned 'emial', which no route with restrictFields declares"],
    [Object.freeze(['profile.zip']), "returned 'profile.zip', which no route with restrictFields declares"]
  ]
  for (const [answer, reason] of rows) {
    t.throws(() => visibilities.of(answer), { code: 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', statusCode: 500, message: `Route GET /users: the hiddenFields rule ${reason}` }, String(answer))
  }
})

const holdsCases: Array<{ value: unknown, holds: boolean, text: string }> = [
  { value: { a: 1, b: { c: 2, d: 3 } }, holds: true, text: '{"a":1,"b":{"c":2}}' },
  { value: { a: 1, b: { c: 2 } }, holds: false, text: '{"a":1,"b":{"c":2}}' },
  { value: [{ b: null }, { b: [{ d: 1 }] }], holds: true, text: '[{"b":null},{"b":[{}]}]' },
  { value: { e: 1, b: 'text' }, holds: true, text: '{"b":"text"}' },
  { value: 'e', holds: false, text: '"e"' }
]

test('holdsHidden tells whether written JSON holds a hidden path, and stripHiddenText removes them, leaving other text as written', async (t) => {
  const hidden = hiddenTrie(['b.d', 'e'])
  for (const { value, holds, text } of holdsCases) {
    t.equal(holdsHidden(value, hidden), holds, JSON.stringify(value))
    t.equal(stripHiddenText(JSON.stringify(value), hidden), text, JSON.stringify(value))
  }
  t.equal(stripHiddenText('{ "a" : 1 }', hidden), '{ "a" : 1 }', 'text with nothing hidden is not rewritten')
})
