import { test } from 'tap'
import { parseSelection } from '../lib/selection.js'
import { NOT_RESTRICTED, selectedFields, allDeclaredFields } from '../lib/field-selection.js'
import { rulesWith, treeOf, userSchema } from './fixtures.js'

const tree = treeOf(userSchema)

const cases: Array<{ query: Record<string, string>, fields: string[], paths: string[] }> = [
  { query: { only: 'name,id' }, fields: ['id', 'name'], paths: ['id', 'name'] },
  { query: { only: 'profile.city,tags' }, fields: ['profile', 'tags'], paths: ['profile', 'profile.city', 'tags', 'tags.id', 'tags.label'] },
  { query: { defer: 'email,role,profile.phone,tags.id' }, fields: ['id', 'name', 'profile', 'tags'], paths: ['id', 'name', 'profile', 'profile.city', 'tags', 'tags.label'] },
  { query: { only: '' }, fields: [], paths: [] }
]

test('selectedFields lists the fields and paths the response will contain', async (t) => {
  for (const { query, fields, paths } of cases) {
    const view = selectedFields(parseSelection(query, tree, rulesWith())!.projection)
    t.strictSame([view.restricted, view.fields, view.paths], [true, fields, paths], JSON.stringify(query))
    t.strictSame(paths.map((path) => view.has(path)), paths.map(() => true))
  }
  const view = selectedFields(parseSelection({ only: 'id' }, tree, rulesWith())!.projection)
  t.strictSame([view.has('name'), view.has('id.x'), view.has('__proto__')], [false, false, false])
  t.ok(Object.isFrozen(view) && Object.isFrozen(view.fields) && Object.isFrozen(view.paths))
})

test('allDeclaredFields lists every declared field; NOT_RESTRICTED declares none and restricts nothing', async (t) => {
  const view = allDeclaredFields(tree)
  t.strictSame([view.restricted, view.fields, view.has('profile.city'), view.has('password')],
    [false, ['id', 'name', 'email', 'role', 'profile', 'tags'], true, false])
  t.strictSame([NOT_RESTRICTED.restricted, NOT_RESTRICTED.fields, NOT_RESTRICTED.paths, NOT_RESTRICTED.has('anything')], [false, [], [], true])
})
