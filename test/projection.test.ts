import { test } from 'tap'
import { projectTree, wholeProjection } from '../lib/projection.js'
import type { Projection } from '../lib/projection.js'
import type { PathTrie } from '../lib/hidden-paths.js'
import { treeOf, userSchema } from './fixtures.js'

const tree = treeOf(userSchema)

/** A trie from dotted paths; `whole` for the root when none are given. */
function trie (...paths: string[]): PathTrie {
  const root: PathTrie = { whole: paths.length === 0, children: new Map() }
  for (const path of paths) {
    let node = root
    for (const segment of path.split('.')) {
      let next = node.children.get(segment)
      if (next === undefined) node.children.set(segment, next = { whole: false, children: new Map() })
      node = next
    }
    node.whole = true
  }
  return root
}

const nothing = (): PathTrie => ({ whole: false, children: new Map() })

function names (projection: Projection): unknown[] {
  return projection.map(({ node, sub }) => sub === null ? node.name : [node.name, names(sub)])
}

const cases: Array<{ title: string, only: PathTrie, defer: PathTrie, key: string, kept: unknown[] }> = [
  { title: 'everything', only: trie(), defer: nothing(), key: 'id,name,email,role,profile,tags', kept: ['id', 'name', 'email', 'role', 'profile', 'tags'] },
  { title: 'named fields, in declared order', only: trie('tags', 'id'), defer: nothing(), key: 'id,tags', kept: ['id', 'tags'] },
  { title: 'a nested field narrows its parent', only: trie('profile.city'), defer: nothing(), key: 'profile(city)', kept: [['profile', ['city']]] },
  { title: 'a level that keeps every field is the field kept whole', only: trie('profile.city', 'profile.phone'), defer: nothing(), key: 'profile', kept: ['profile'] },
  { title: 'defer removes after only', only: trie('id', 'name'), defer: trie('name'), key: 'id', kept: ['id'] },
  { title: 'a nested defer narrows a field kept whole', only: trie(), defer: trie('profile.phone', 'tags', 'email', 'role', 'name', 'id'), key: 'profile(city)', kept: [['profile', ['city']]] },
  { title: 'nothing named', only: nothing(), defer: nothing(), key: '', kept: [] }
]

test('projectTree keeps what only names minus what defer names, with a canonical key', async (t) => {
  for (const { title, only, defer, key, kept } of cases) {
    const projected = projectTree(tree, only, defer)
    // Names are quoted in keys, so that no name can read as another key's structure.
    t.strictSame([projected.key.replaceAll('"', ''), names(projected.projection)], [key, kept], title)
  }
})

test('wholeProjection keeps every field of a level and is built once per level', async (t) => {
  t.strictSame(names(wholeProjection(tree)), ['id', 'name', 'email', 'role', 'profile', 'tags'])
  t.equal(wholeProjection(tree), wholeProjection(tree))
})
