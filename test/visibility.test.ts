import { test } from 'tap'
import { declaredPaths } from '../lib/declared.js'
import { hiddenKey, MAX_VISIBILITIES, VisibilityCache, visibleTree } from '../lib/visibility.js'
import type { Visibility } from '../lib/visibility.js'
import { treeOf, userSchema } from './fixtures.js'

const tree = treeOf(userSchema)

test('visibleTree removes hidden fields at any depth and says what a partly hidden field still holds', async (t) => {
  const rows: Array<{ hidden: string[], paths: string[], wholeKeys: string[] }> = [
    { hidden: ['email'], paths: ['id', 'name', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label'], wholeKeys: ['id', 'name', 'role', 'profile', 'tags'] },
    { hidden: ['profile.phone', 'tags.id', 'tags.label'], paths: ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'tags'], wholeKeys: ['id', 'name', 'email', 'role', 'profile(city)', 'tags()'] },
    { hidden: ['profile', 'profile.city'], paths: ['id', 'name', 'email', 'role', 'tags', 'tags.id', 'tags.label'], wholeKeys: ['id', 'name', 'email', 'role', 'tags'] }
  ]
  for (const { hidden, paths, wholeKeys } of rows) {
    const visible = visibleTree(tree, hidden)
    t.same([declaredPaths(visible), visible.nodes.map((node) => node.wholeKey)], [paths, wholeKeys], hidden.join(','))
  }
  t.equal(visibleTree(tree, ['email']).byName.get('profile'), tree.byName.get('profile'), 'untouched fields keep their nodes')
})

test('VisibilityCache tells declared paths from others', async (t) => {
  const rows: Array<[string, boolean]> = [['id', true], ['profile.city', true], ['tags.label', true], ['nope', false], ['id.x', false], ['profile.zip', false]]
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

test('hiddenKey is one text per set, whatever the order or repetitions', async (t) => {
  t.equal(hiddenKey(['b', 'a', 'b']), hiddenKey(['a', 'b']))
  t.not(hiddenKey(['a\nb']), hiddenKey(['a', 'b']))
  t.not(hiddenKey(['["a"]']), hiddenKey(['a', 'a']), 'a single path never reads as a list')
  t.equal(hiddenKey(['a', 'a']), hiddenKey(['a', 'a', 'a']))
})

function cache (declaredElsewhere: (path: string) => boolean = () => false) {
  const created: string[][] = []
  const unhidden: Visibility<string> = { tree, readSelection: () => null, whole: null }
  const visibilities = new VisibilityCache<string>(tree, unhidden, (visible) => {
    created.push(declaredPaths(visible))
    return { tree: visible, readSelection: () => null, whole: declaredPaths(visible).join(',') }
  }, declaredElsewhere, 'GET /users')
  return { visibilities, unhidden, created }
}

test('VisibilityCache builds one visibility per distinct hidden set and shares it', async (t) => {
  const { visibilities, unhidden, created } = cache((path) => path === 'other')
  t.equal(visibilities.of([]), unhidden, 'nothing hidden')
  t.equal(visibilities.of(['other']), unhidden, 'only fields of other routes')
  const first = visibilities.of(['email', 'role'])
  t.equal(visibilities.of(['role', 'email', 'role']), first, 'the same set, spelled otherwise')
  const frozen = Object.freeze(['email', 'role', 'other'])
  t.equal(visibilities.of(frozen), visibilities.of(frozen))
  t.equal(created.length, 2, 'one for {email, role}, one for {email, role, other}')
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
  t.same(again.tree.nodes.map((node) => node.name), visibleTree(tree, sets[0]).nodes.map((node) => node.name))
})

test('VisibilityCache rejects answers that are not declared names', async (t) => {
  const { visibilities } = cache()
  const rows: Array<[unknown, string]> = [
    ['email', 'must return an array of field names, instead returned string'],
    [null, 'must return an array of field names, instead returned null'],
    [[1], 'must return an array of field names, instead returned an array with a non-string item'],
    [['emial'], "returned 'emial', which no route with restrictFields declares"],
    [Object.freeze(['id.x']), "returned 'id.x', which no route with restrictFields declares"]
  ]
  for (const [answer, reason] of rows) {
    t.throws(() => visibilities.of(answer), { code: 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', statusCode: 500, message: `Route GET /users: the hiddenFields rule ${reason}` }, String(answer))
  }
})
