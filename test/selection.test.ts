import { test } from 'tap'
import { parseSelection, selectionReader, selectionRules, unrequestedSelection } from '../lib/selection.js'
import { resolveFieldSets } from '../lib/field-sets.js'
import type { SelectionRules } from '../lib/selection.js'
import { rulesWith, treeOf, userSchema } from './fixtures.js'

const rules = rulesWith()
const tree = treeOf(userSchema)
const ALL = 'id,name,email,role,profile,tags'

/** The key of a selection without the quotes around its names (which keep any name from reading as structure). */
function keyOf (query: Record<string, unknown>, overrides: Partial<SelectionRules> = {}): string | null {
  return parseSelection(query, tree, rulesWith(overrides))?.key.replaceAll('"', '') ?? null
}

const cases: Array<{ title: string, query: Record<string, unknown>, key: string | null }> = [
  { title: 'neither parameter: no selection', query: { page: '2' }, key: null },
  { title: 'repeated only', query: { only: ['id', 'name'] }, key: 'id,name' },
  { title: 'comma-separated only', query: { only: 'name,id' }, key: 'id,name' },
  { title: 'bracket only', query: { 'only[]': ['name', 'id'] }, key: 'id,name' },
  { title: 'all three forms mixed', query: { only: ['id', 'email,role'], 'only[]': 'name' }, key: 'id,name,email,role' },
  { title: 'defer removes fields', query: { defer: 'email' }, key: 'id,name,role,profile,tags' },
  { title: 'bracket defer', query: { 'defer[]': ['email', 'role'] }, key: 'id,name,profile,tags' },
  { title: 'only first, then defer removes from it', query: { only: 'id,name', defer: 'name' }, key: 'id' },
  { title: 'whitespace trimmed, empty segments skipped, duplicates harmless', query: { only: [' id , ,name', 'id', ''] }, key: 'id,name' },
  { title: 'only naming nothing keeps nothing', query: { only: '' }, key: '' },
  { title: 'defer naming nothing keeps everything', query: { defer: ' , ' }, key: ALL },
  { title: 'a nested path keeps its parent with that field only', query: { only: 'profile.city' }, key: 'profile(city)' },
  { title: 'a path into an array of objects', query: { only: 'tags.label' }, key: 'tags(label)' },
  { title: 'defer of a nested field', query: { defer: 'profile.phone' }, key: 'id,name,email,role,profile(city),tags' },
  { title: 'levels mixed across only and defer', query: { only: 'id,profile', defer: 'profile.phone' }, key: 'id,profile(city)' },
  { title: 'a parent and its child: the parent wins', query: { only: 'profile.city,profile' }, key: 'profile' },
  { title: 'every child named is the parent kept whole', query: { only: 'profile.city,profile.phone' }, key: 'profile' },
  { title: 'deferring the parent of an only path removes it', query: { only: 'profile.city', defer: 'profile' }, key: '' },
  { title: 'only and defer of the same nested field leave the parent empty', query: { only: 'profile.city', defer: 'profile.city' }, key: 'profile()' },
  { title: 'segments are trimmed', query: { only: 'profile . city' }, key: 'profile(city)' },
  { title: 'other parameter names', query: { fields: 'id', omit: 'id' }, key: '' }
]

test('parseSelection turns every accepted syntax into a canonical key', async (t) => {
  for (const { title, query, key } of cases) {
    const overrides = title === 'other parameter names' ? { onlyParam: 'fields', deferParam: 'omit' } : {}
    t.equal(keyOf(query, overrides), key, title)
  }
})

test('parseSelection reports each declared name once, in the order first named', async (t) => {
  const selection = parseSelection({ only: ['profile.city', 'id', 'profile . city', ' id'], defer: ['name', 'name'] }, tree, rules)
  t.strictSame([selection?.only, selection?.defer, selection?.key], [['profile.city', 'id'], ['name'], '"id","profile"("city")'])
})

test('parseSelection accepts a null or missing query', async (t) => {
  t.equal(parseSelection(null, tree, rules), null)
  t.equal(parseSelection(undefined, tree, rules), null)
})

test('parseSelection projects declared fields in declared order', async (t) => {
  const selection = parseSelection({ only: 'tags.label,id' }, tree, rules)
  t.strictSame(selection?.projection.map(({ node, sub }) => [node.name, sub?.map((inner) => inner.node.name) ?? null]), [['id', null], ['tags', ['label']]])
})

const rejections: Array<{
  title: string
  query: Record<string, unknown>
  code: string
  message: string
  overrides?: Partial<SelectionRules>
}> = [
  {
    title: 'an undeclared top-level name',
    query: { only: 'id,password' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field 'password' in query parameter 'only'; allowed fields: id, name, email, role, profile, tags"
  },
  {
    title: 'an undeclared name in defer',
    query: { 'defer[]': 'Name' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field 'Name' in query parameter 'defer'; allowed fields: id, name, email, role, profile, tags"
  },
  {
    title: 'a field set in defer',
    query: { defer: 'id,@summary' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field '@summary' in query parameter 'defer'; allowed fields: id, name, email, role, profile, tags; 'defer' takes field names only, not field sets"
  },
  {
    title: 'every field in defer',
    query: { defer: '*' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field '*' in query parameter 'defer'; allowed fields: id, name, email, role, profile, tags; 'defer' takes field names only, not field sets"
  },
  {
    title: 'an undeclared nested name',
    query: { only: 'profile.zip' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field 'profile.zip' in query parameter 'only'; allowed fields of 'profile': city, phone"
  },
  {
    title: 'a path below a field without nested fields',
    query: { only: 'name.first' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field 'name.first' in query parameter 'only'; 'name' has no nested fields"
  },
  {
    title: 'an empty segment in a path',
    query: { only: 'profile..city' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field 'profile..city' in query parameter 'only'; allowed fields of 'profile': city, phone"
  },
  {
    title: 'prototype names are ordinary unknown names',
    query: { only: '__proto__' },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: "Unknown field '__proto__' in query parameter 'only'; allowed fields: id, name, email, role, profile, tags"
  },
  {
    title: 'a very long name is shortened in the message',
    query: { only: 'x'.repeat(100) },
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    message: `Unknown field '${'x'.repeat(64)}…' in query parameter 'only'; allowed fields: id, name, email, role, profile, tags`
  },
  {
    title: 'an object value, as qs makes of only[a]=b',
    query: { only: { a: 'b' } },
    code: 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER',
    message: "Query parameter 'only' must be a field name or a list of field names, got object"
  },
  {
    title: 'a list holding a non-string',
    query: { 'defer[]': ['id', { a: 1 }] },
    code: 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER',
    message: "Query parameter 'defer' must be a field name or a list of field names, got a list with a non-string item"
  },
  {
    title: 'more names than maxFields over both parameters',
    query: { only: 'id,name', defer: 'email' },
    overrides: { maxFields: 2 },
    code: 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS',
    message: "Too many field names in query parameters 'only' and 'defer': at most 2 are allowed"
  },
  {
    title: 'more distinct names than maxFields, each repeated',
    query: { only: ['id', 'id', 'name', 'name', 'id'], defer: ['id', 'id'] },
    overrides: { maxFields: 2 },
    code: 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS',
    message: "Too many field names in query parameters 'only' and 'defer': at most 2 are allowed"
  },
  {
    title: 'a path deeper than maxDepth',
    query: { only: Array.from({ length: 10_000 }, () => 'a').join('.') },
    code: 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP',
    message: `Field path '${'a.'.repeat(32)}…' in query parameter 'only' is too deep: at most 8 levels are allowed`
  }
]

test('parseSelection rejects bad input with a coded 400 error', async (t) => {
  for (const { title, query, code, message, overrides } of rejections) {
    t.throws(() => parseSelection(query, tree, rulesWith(overrides)), { code, message, statusCode: 400 }, title)
  }
})

test('parseSelection with unknownFields ignore drops unknown names', async (t) => {
  const ignore = { unknownFields: 'ignore' as const }
  t.equal(keyOf({ only: 'id,password,profile.zip,name.first' }, ignore), 'id')
  t.equal(keyOf({ only: 'password' }, ignore), '', 'only with no known name keeps nothing')
  t.equal(keyOf({ defer: 'password,email' }, ignore), 'id,name,role,profile,tags')
})

test('selectionReader remembers the selection of a raw query string from its second sighting on', async (t) => {
  const read = selectionReader(tree, rules, 2)
  const first = read({ only: 'id' }, 'only=id')
  const second = read({ only: 'id' }, 'only=id')
  t.not(second, first, 'seen once before: parsed again, and remembered')
  t.equal(read({ only: 'id' }, 'only=id'), second, 'the same query string is not parsed again')
  t.not(read({ only: 'id' }, 'only=id&page=2'), second, 'another query string is parsed')
  t.equal(read({ page: '1' }, 'page=1'), null, 'no restriction parameter: no selection')
  t.equal(read(null, ''), null)
})

test('selectionReader keeps what it remembers through a stream of query strings never seen before', async (t) => {
  const read = selectionReader(tree, rules, 2)
  read({ only: 'id' }, 'only=id')
  const popular = read({ only: 'id' }, 'only=id')
  for (let i = 0; i < 3; i++) read({ only: 'id' }, 'only=id')
  for (let i = 0; i < 50; i++) read({ only: 'name' }, `only=name&n=${i}`)
  t.equal(read({ only: 'id' }, 'only=id'), popular)
  const other = read({ only: 'email' }, 'only=email')
  t.not(read({ only: 'email' }, 'only=email'), other, 'a newcomer is parsed')
})

test('selectionReader does not remember long query strings, errors, or anything with a size of 0', async (t) => {
  const long = `only=id&x=${'y'.repeat(600)}`
  const read = selectionReader(tree, rules, 10)
  t.not(read({ only: 'id' }, long), read({ only: 'id' }, long))
  t.throws(() => read({ only: 'nope' }, 'only=nope'), { code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' })
  t.throws(() => read({ only: 'nope' }, 'only=nope'), { code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' }, 'still an error')
  const never = selectionReader(tree, rules, 0)
  t.not(never({ only: 'id' }, 'only=id'), never({ only: 'id' }, 'only=id'))
})

const setRules = (overrides: Partial<SelectionRules> = {}): SelectionRules => selectionRules(
  { onlyParam: 'only', deferParam: 'defer', unknownFields: 'reject', maxFields: 100, maxDepth: 8, ...overrides },
  resolveFieldSets({ summary: ['id', 'profile.city'] }, ['id', 'name'], tree, 'GET /users')
)

const setCases: Array<{ query: Record<string, unknown>, key: string, only: string[] | null, named: boolean }> = [
  { query: { only: '@summary' }, key: 'id,profile(city)', only: ['id', 'profile.city'], named: true },
  { query: { only: '@summary,name' }, key: 'id,name,profile(city)', only: ['id', 'profile.city', 'name'], named: false },
  { query: { only: ['name', '@summary'] }, key: 'id,name,profile(city)', only: ['name', 'id', 'profile.city'], named: false },
  { query: { 'only[]': ['@default', 'email'] }, key: 'id,name,email', only: ['id', 'name', 'email'], named: false },
  { query: { only: '@default' }, key: 'id,name', only: ['id', 'name'], named: true },
  { query: { only: '*' }, key: ALL, only: ['id', 'name', 'email', 'role', 'profile', 'tags'], named: true },
  { query: { only: '@summary,@summary' }, key: 'id,profile(city)', only: ['id', 'profile.city'], named: true },
  { query: { only: '@summary,@default' }, key: 'id,name,profile(city)', only: ['id', 'profile.city', 'name'], named: false },
  { query: { only: ['*', '@summary'] }, key: ALL, only: ['id', 'name', 'email', 'role', 'profile', 'tags'], named: false },
  { query: { only: '*', defer: 'tags' }, key: 'id,name,email,role,profile', only: ['id', 'name', 'email', 'role', 'profile', 'tags'], named: false },
  { query: { defer: 'name' }, key: 'id', only: null, named: false },
  { query: { only: '@summary', defer: 'profile' }, key: 'id', only: ['id', 'profile.city'], named: false }
]

test('parseSelection reads field sets, the default and * among names, in every form', async (t) => {
  for (const { query, key, only, named } of setCases) {
    const selection = parseSelection(query, tree, setRules())!
    t.strictSame([selection.key.replaceAll('"', ''), selection.only, selection.named], [key, only, named], JSON.stringify(query))
  }
  const unrequested = unrequestedSelection(tree, setRules())
  t.strictSame([unrequested.key.replaceAll('"', ''), unrequested.only, unrequested.defer, unrequested.named], ['id,name', null, null, true], 'no parameters: the default')
  t.equal(unrequestedSelection(tree, rules).key.replaceAll('"', ''), ALL, 'no parameters and no default: every field')
})

test('a field set counts once against maxFields, whatever its size; an unknown one is a coded 400 listing the sets', async (t) => {
  t.equal(parseSelection({ only: ['@summary', '@summary', 'name'] }, tree, setRules({ maxFields: 2 }))?.key.replaceAll('"', ''), 'id,name,profile(city)')
  t.throws(() => parseSelection({ only: '@summary,name,email' }, tree, setRules({ maxFields: 2 })), { code: 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS' })
  t.throws(() => parseSelection({ only: '@Summary' }, tree, setRules()), {
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET',
    statusCode: 400,
    message: "Unknown field set '@Summary' in query parameter 'only'; field sets: @default, @summary, *"
  })
  t.throws(() => parseSelection({ only: '@nope,id' }, tree, setRules({ unknownFields: 'ignore' })), { code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET' }, 'whatever unknownFields says')
  t.throws(() => parseSelection({ defer: '@summary' }, tree, setRules()), { code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' }, 'defer takes names only')
  t.strictSame(parseSelection({ defer: '*' }, tree, setRules({ unknownFields: 'ignore' }))?.key.replaceAll('"', ''), 'id,name', 'an ignored name in defer')
})

test('on an envelope-like route read as one record, an unknown name of its records says where they are and how to name them', async (t) => {
  const task = { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'string' } } }
  const page = treeOf({ type: 'object', properties: { total: { type: 'integer' }, tasks: { type: 'array', items: task } } })
  const noted = selectionRules({ onlyParam: 'only', deferParam: 'defer', unknownFields: 'reject', maxFields: 100, maxDepth: 8 }, undefined, 'tasks')
  const note = " (the records are under 'tasks': declare restrictFields: { resultsKey: 'tasks' } to restrict their fields)"
  const rows: Array<[Record<string, unknown>, string]> = [
    [{ only: 'id' }, `Unknown field 'id' in query parameter 'only'; allowed fields: total, tasks${note}`],
    [{ defer: 'status.code' }, `Unknown field 'status.code' in query parameter 'defer'; allowed fields: total, tasks${note}`],
    [{ only: 'nope' }, "Unknown field 'nope' in query parameter 'only'; allowed fields: total, tasks"],
    [{ only: 'tasks.nope' }, "Unknown field 'tasks.nope' in query parameter 'only'; allowed fields of 'tasks': id, status"]
  ]
  for (const [query, message] of rows) {
    t.throws(() => parseSelection(query, page, noted), { code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', message }, JSON.stringify(query))
  }
  const withoutStatus = treeOf({ type: 'object', properties: { total: { type: 'integer' }, tasks: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } })
  t.throws(() => parseSelection({ only: 'status' }, withoutStatus, noted), { message: "Unknown field 'status' in query parameter 'only'; allowed fields: total, tasks" },
    'read from the tree the request sees: a field hidden from it is not told of')
  t.throws(() => parseSelection({ only: 'id' }, page, rules), { message: "Unknown field 'id' in query parameter 'only'; allowed fields: total, tasks" }, 'other routes')
})

test('resolveFieldSets splits the entries and refuses one the tree does not declare', async (t) => {
  t.strictSame(resolveFieldSets({ a: ['id', 'profile.city'] }, null, tree, 'GET /u'), { fieldSets: new Map([['a', [['id'], ['profile', 'city']]]]), defaultFields: null })
  t.throws(() => resolveFieldSets({}, ['id', 'tags.color'], tree, 'GET /u'), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET',
    message: "fastify-restricted-fields, route GET /u: `defaultFields` names 'tags.color', which the route does not declare"
  })
})
