import { test } from 'tap'
import { declaredFromList, declaredPaths } from '../../lib/schema/paths.js'

test('declaredFromList builds the tree of dotted paths, parents implied and kept once', async (t) => {
  const tree = declaredFromList(['id', 'profile.city', 'profile.phone', 'profile', 'tags.label'])
  t.strictSame(declaredPaths(tree), ['id', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.label'])
  t.equal(tree.byName.get('id')?.children, null)
})
