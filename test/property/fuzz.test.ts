import { test } from 'tap'
import type { Test } from 'tap'
import fc from 'fast-check'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'
import type { UserStore } from '../../example/store.js'
import { databaseStore, seededDatabase } from '../../example/database.js'
import { propertyRuns } from './generators.js'

/** The fields an anonymous caller may be sent: at the top level, in a profile (never its phone), in a post. */
const DECLARED = new Set(['id', 'name', 'email', 'is_staff', 'profile', 'posts'])
const PROFILE = new Set(['city'])
const POST = new Set(['id', 'title'])

function checkKeys (record: Record<string, unknown>, allowed: Set<string>, query: string): void {
  for (const key of Object.keys(record)) {
    if (!allowed.has(key)) throw new Error(`?${query} sent undeclared field ${key}`)
  }
}
const numRuns = Number(process.env.FUZZ_RUNS ?? propertyRuns(3))

async function example (t: Test, store: UserStore = memoryStore(generateUsers(30))) {
  const app = await buildApp({ store, pageSize: 10 })
  t.teardown(() => app.close())
  return app
}

/** What every answer must be: a 2xx with only declared fields, or a coded (or explained) 4xx. */
function checkAnswer (status: number, body: string, query: string): void {
  const parsed = JSON.parse(body)
  if (status === 200) {
    const records = parsed.results ?? [parsed]
    for (const record of records) {
      checkKeys(record, DECLARED, query)
      if (record.profile != null) checkKeys(record.profile, PROFILE, query)
      for (const post of record.posts ?? []) checkKeys(post, POST, query)
    }
    return
  }
  if (status < 400 || status >= 500) throw new Error(`?${query} answered ${status}: ${body}`)
  if (typeof parsed.message !== 'string' || parsed.message === '') throw new Error(`?${query}: ${status} without a message`)
  if (status === 400 && parsed.code !== undefined && !String(parsed.code).startsWith('FST_')) throw new Error(`?${query}: unexpected code ${parsed.code}`)
}

const hostileName = fc.constantFrom(
  'id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'profile.phone', 'posts', 'posts.id', 'posts.title', 'last_login', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  'id.x', 'name.first', '', ' ', '.', '..', 'id..name', '[]', '[', ']', 'only', 'defer', 'page',
  '%00', '%', '%zz', '%E2%82%AC', '😀', 'ı', 'İD', 'id;drop table users', "id'--", '"id"', 'a'.repeat(300)
)
const name = fc.oneof(hostileName, fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 }))
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('only', 'defer', 'only[]', 'defer[]', 'only%5B%5D', 'page') },
  { weight: 1, arbitrary: fc.constantFrom('only[0]', 'only[a]', '__proto__', 'constructor', '', '[]', 'ONLY', 'only[][]') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }
)
const part = fc.tuple(key, fc.array(name, { maxLength: 4 }), fc.boolean()).map(([k, names, encode]) => {
  const value = names.join(fc.sample(fc.constantFrom(',', ',,', ' , '), 1)[0])
  return `${k}=${encode ? encodeURIComponent(value) : value.replaceAll('&', '').replaceAll('#', '')}`
})
const query = fc.array(part, { maxLength: 8 }).map((parts) => parts.join('&'))

test('random and hostile query strings end as a 2xx or a 4xx, never a 5xx or an undeclared field', async (t) => {
  const app = await example(t)
  let answered = 0
  await fc.assert(fc.asyncProperty(query, fc.constantFrom('/api/users/', '/api/users/3'), async (q, path) => {
    const response = await app.inject(`${path}?${q}`)
    checkAnswer(response.statusCode, response.body, q)
    answered++
  }), { numRuns })
  t.equal(answered, numRuns)
})

test('the database store answers random and hostile query strings as the memory store does, never with a 5xx', async (t) => {
  const database = await seededDatabase(generateUsers(30))
  t.teardown(() => database.close())
  const fromDatabase = await example(t, databaseStore(database))
  const fromMemory = await example(t)
  const runs = Math.ceil(numRuns / 10)
  let answered = 0
  await fc.assert(fc.asyncProperty(query, fc.constantFrom('/api/users/', '/api/users/3', '/api/users/5'), async (q, path) => {
    const [response, expected] = await Promise.all([fromDatabase.inject(`${path}?${q}`), fromMemory.inject(`${path}?${q}`)])
    checkAnswer(response.statusCode, response.body, q)
    if (response.statusCode !== expected.statusCode || response.body !== expected.body) throw new Error(`?${q}: the database answered ${response.statusCode} ${response.body}, memory ${expected.statusCode} ${expected.body}`)
    answered++
  }), { numRuns: runs })
  t.equal(answered, runs)
})

const extremes: Array<[string, string, number, string | undefined]> = [
  ['thousands of repeated parameters, one name', 'only=id&'.repeat(5000), 200, undefined],
  ['thousands of comma-separated repetitions of one name', `only=${'id,'.repeat(5000)}`, 200, undefined],
  ['thousands of distinct unknown names', `only=${Array.from({ length: 5000 }, (_, i) => `f${i}`).join(',')}`, 400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'],
  ['thousands of empty names', `only=${','.repeat(20000)}`, 200, undefined],
  ['a 10,000-segment path', `only=${Array.from({ length: 10_000 }, () => 'id').join('.')}`, 400, 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP'],
  ['a 100,000-character name', `only=${'x'.repeat(100_000)}`, 400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'],
  ['brackets without a name', '[]=id&[]=name', 200, undefined],
  ['__proto__ as a parameter', '__proto__=id&__proto__[only]=id', 200, undefined],
  ['__proto__ as a field', 'only=__proto__', 400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'],
  ['constructor.prototype as a path', 'defer=constructor.prototype', 400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'],
  ['a repeated page, with only between', 'page=2&only=id&page=2', 400, 'FST_ERR_VALIDATION'],
  ['whitespace names', 'only=%20%09,%0A', 200, undefined],
  ['percent-encoded brackets', 'only%5B%5D=name', 200, undefined],
  ['a malformed percent escape', 'only=%E0%A4%A', 400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD']
]

test('extreme query strings are answered quickly with the right status', async (t) => {
  const app = await example(t)
  for (const [title, q, status, code] of extremes) {
    const response = await app.inject(`/api/users/?${q}`)
    checkAnswer(response.statusCode, response.body, q.slice(0, 40))
    t.strictSame([response.statusCode, response.json().code], [status, code], title)
  }
})
