import { after, end, test } from 'tap'
import type { Test } from 'tap'
import type { PGlite } from '@electric-sql/pglite'
import { buildApp } from '../../example/app.js'
import { databaseStore, seededDatabase } from '../../example/database.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'
import { parameterChoices } from '../helpers.js'

type Storage = 'memory' | 'database'
type Build = (count?: number, pageSize?: number, staffToken?: string) => ReturnType<typeof buildApp>

/** The most users a test asks for. */
const SEEDED = 25
/** One database for the whole file: starting an embedded database takes seconds, emptying a table in a transaction does not. */
let database: Promise<PGlite> | undefined
// Closed when the last test has run (see end() below): an open database keeps the process alive ten more
// seconds, for its idle statistics timer.
after(async () => { await (await database)?.close() })

/**
 * The database holding generateUsers(count). The first `count` of generateUsers(SEEDED) are generateUsers(count),
 * so for fewer users the others are deleted in a transaction that is rolled back when the test ends.
 */
async function databaseOf (t: Test, count: number): Promise<PGlite> {
  if (count > SEEDED) throw new Error(`the database holds ${SEEDED} users, not ${count}`)
  database ??= seededDatabase(generateUsers(SEEDED))
  const db = await database
  if (count < SEEDED) {
    await db.exec('BEGIN')
    t.teardown(() => db.exec('ROLLBACK'))
    await db.query('DELETE FROM users WHERE id > $1', [count])
  }
  return db
}

/** Declares a test that runs once over each store: the example answers the same from memory and from the database. */
function exampleTest (title: string, body: (t: Test, example: Build) => Promise<void>): void {
  for (const storage of ['memory', 'database'] as Storage[]) {
    test(`${storage}: ${title}`, async (t) => {
      await body(t, async (count = SEEDED, pageSize = 10, staffToken = STAFF_TOKEN) => {
        const store = storage === 'database' ? databaseStore(await databaseOf(t, count)) : memoryStore(generateUsers(count))
        const app = await buildApp({ store, pageSize, staffToken })
        t.teardown(() => app.close())
        return app
      })
    })
  }
}

const STAFF_TOKEN = 'staff-secret'
const STAFF = { authorization: `Bearer ${STAFF_TOKEN}` }

const ids = (body: { results: Array<{ id: number }> }): number[] => body.results.map((user) => user.id)

exampleTest('GET /api/users/ returns the first page in an envelope with absolute links, whatever Host the client sends', async (t, example) => {
  const app = await example()
  const response = await app.inject({ url: '/api/users/?only=id&only=name', headers: { host: 'evil.example' } })
  const body = response.json()
  t.strictSame([response.statusCode, body.count, body.next, body.previous, body.results[0]], [
    200, 25, 'http://localhost/api/users/?only=id&only=name&page=2', null, { id: 1, name: 'Ada Lovelace' }
  ])
  t.equal(body.results.length, 10)
})

test('the links come from the configured public URL, or from a trusted proxy\'s X-Forwarded-* headers, never from the Host a client sends', async (t) => {
  const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }
  const configured = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10, publicUrl: 'https://api.example.com' })
  t.teardown(() => configured.close())
  t.equal((await configured.inject({ url: '/api/users/?only=id', headers: forged })).json().next, 'https://api.example.com/api/users/?only=id&page=2')
  const untrusting = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10 })
  t.teardown(() => untrusting.close())
  t.equal((await untrusting.inject({ url: '/api/users/?only=id', headers: forged })).json().next, 'http://localhost/api/users/?only=id&page=2', 'X-Forwarded-* ignored without trustProxy')
  const proxied = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10, trustProxy: true })
  t.teardown(() => proxied.close())
  const behindProxy = { 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' }
  t.equal((await proxied.inject({ url: '/api/users/?only=id', headers: behindProxy })).json().next, 'https://api.example.com/api/users/?only=id&page=2')
  const listening = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10 })
  t.teardown(() => listening.close())
  const address = await listening.listen({ host: '127.0.0.1', port: 0 })
  const body = await (await fetch(`${address}/api/users/?only=id`, { headers: { 'x-forwarded-host': 'evil.example' } })).json() as { next: string }
  t.equal(body.next, `${address}/api/users/?only=id&page=2`, 'a listening server links to its own address')
})

test('/api/users without the slash is sent to /api/users/, its query kept', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10 })
  t.teardown(() => app.close())
  for (const [url, location] of [['/api/users', '/api/users/'], ['/api/users?only=id&page=2', '/api/users/?only=id&page=2']]) {
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.headers.location], [308, location], url)
  }
})

exampleTest('without a restriction every field is sent', async (t, example) => {
  const app = await example()
  t.strictSame((await app.inject('/api/users/?page=3')).json().results[4], {
    id: 25, name: 'Donald Backus', email: 'donald.backus.25@example.com', is_staff: false, profile: null, posts: [{ id: 31, title: 'Notes on hypertext' }]
  })
})

exampleTest('links keep the restriction parameters in their form and drop page for page 1', async (t, example) => {
  const app = await example()
  const body = (await app.inject('/api/users/?defer=email,is_staff,posts&defer[]=profile.city&page=2')).json()
  t.strictSame([body.next, body.previous, body.results[0]], [
    'http://localhost/api/users/?defer=email,is_staff,posts&defer[]=profile.city&page=3',
    'http://localhost/api/users/?defer=email,is_staff,posts&defer[]=profile.city',
    { id: 11, name: 'Katherine Johnson', profile: {} }
  ])
})

exampleTest('page=last is the last page, which has no next link', async (t, example) => {
  const app = await example()
  const body = (await app.inject('/api/users/?page=last&only[]=id')).json()
  t.strictSame([ids(body), body.next, body.previous], [[21, 22, 23, 24, 25], null, 'http://localhost/api/users/?page=2&only[]=id'])
})

exampleTest('a malformed page is a 400 and a page past the end a 404, with clear messages', async (t, example) => {
  const app = await example()
  const bad = await app.inject('/api/users/?page=two')
  t.strictSame([bad.statusCode, bad.json()], [400, { statusCode: 400, error: 'Bad Request', message: "Invalid page 'two': page must be an integer from 1 to 999999999, or 'last'" }])
  const past = await app.inject('/api/users/?page=4')
  t.strictSame([past.statusCode, past.json()], [404, { statusCode: 404, error: 'Not Found', message: 'Page 4 does not exist: there are 3 pages' }])
})

exampleTest('an empty list has page 1 with count 0, and no page 2', async (t, example) => {
  const app = await example(0)
  t.strictSame((await app.inject('/api/users/')).json(), { count: 0, next: null, previous: null, results: [] })
  t.strictSame((await app.inject('/api/users/?page=2')).json().message, 'Page 2 does not exist: there is 1 page')
})

exampleTest('GET /api/users/:id returns one user, restricted, or a 404', async (t, example) => {
  const app = await example()
  t.strictSame((await app.inject('/api/users/2?defer=email')).json(), { id: 2, name: 'Alan Hopper', is_staff: false, profile: { city: 'Berkeley' }, posts: [] })
  t.strictSame((await app.inject('/api/users/3?only=name')).json(), { name: 'Barbara Wirth' })
  const missing = await app.inject('/api/users/999')
  t.strictSame([missing.statusCode, missing.json().message], [404, 'User 999 not found'])
  t.equal((await app.inject('/api/users/0')).statusCode, 400)
})

exampleTest('an unknown field is a coded 400 listing the allowed names', async (t, example) => {
  const app = await example()
  const response = await app.inject('/api/users/?only=password')
  t.strictSame([response.statusCode, response.json()], [400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: "Unknown field 'password' in query parameter 'only'; allowed fields: id, name, email, is_staff, profile, posts"
  }])
})

exampleTest('paths into the profile and the posts restrict them; a user without a profile has null, one without posts an empty list', async (t, example) => {
  const app = await example()
  const page = (await app.inject('/api/users/?only=name,profile.city')).json()
  t.strictSame([page.next, page.results.slice(0, 5)], ['http://localhost/api/users/?only=name,profile.city&page=2', [
    { name: 'Ada Lovelace', profile: { city: 'Boston' } },
    { name: 'Alan Hopper', profile: { city: 'Berkeley' } },
    { name: 'Barbara Wirth', profile: { city: 'Oslo' } },
    { name: 'Claude Turing', profile: { city: 'Cambridge' } },
    { name: 'Donald Lamarr', profile: null }
  ]])
  t.strictSame((await app.inject('/api/users/?only=id,posts.title&page=2')).json().results.slice(2, 5), [
    { id: 13, posts: [{ title: 'Notes on analytical engines' }] },
    { id: 14, posts: [] },
    { id: 15, posts: [{ title: 'Notes on data abstraction' }, { title: 'More on frequency hopping' }] }
  ])
  t.strictSame((await app.inject('/api/users/5?defer=email,posts.id')).json(), { id: 5, name: 'Donald Lamarr', is_staff: false, profile: null, posts: [{ title: 'Notes on structured programming' }] })
  t.strictSame((await app.inject('/api/users/3?only=@summary,posts&defer=posts.title')).json(), { id: 3, name: 'Barbara Wirth', posts: [{ id: 2 }, { id: 3 }] })
  // A profile or a post with every field left out is sent empty, as the memory store's are.
  t.strictSame((await app.inject('/api/users/?only=id,profile&defer=profile.city')).json().results.slice(3, 5), [{ id: 4, profile: {} }, { id: 5, profile: null }])
  t.strictSame((await app.inject('/api/users/?only=posts&defer=posts.id,posts.title')).json().results.slice(0, 3), [{ posts: [{}] }, { posts: [] }, { posts: [{}, {}] }])
  t.strictSame((await app.inject({ url: '/api/users/3?only=profile&defer=profile.city,profile.phone', headers: STAFF })).json(), { profile: {} })
  const unknown = await app.inject('/api/users/?only=posts.body')
  t.strictSame([unknown.statusCode, unknown.json().message], [400, "Unknown field 'posts.body' in query parameter 'only'; allowed fields of 'posts': id, title"])
})

exampleTest('the OpenAPI document lists only and defer with the user fields, and Swagger UI is served', async (t, example) => {
  const app = await example()
  const enums: unknown[] = []
  for (const headers of [{ authorization: `Bearer ${STAFF_TOKEN}` }, {}]) {
    const document = (await app.inject({ url: '/documentation/json', headers })).json()
    const parameters = document.paths['/api/users/'].get.parameters
    t.strictSame(parameters.map((p: { name: string }) => p.name), ['only', 'defer', 'page'])
    enums.push(parameterChoices(document, parameters[0]))
    t.equal(parameters[0].schema.items.$ref, parameters[1].schema.items.$ref, 'only and defer share one list')
  }
  t.strictSame(enums, [
    ['id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'profile.phone', 'posts', 'posts.id', 'posts.title', 'last_login', '*', '@summary'],
    ['id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'posts', 'posts.id', 'posts.title', '*', '@summary']
  ], 'staff, then anonymous')
  const ui = await app.inject('/documentation/')
  t.strictSame([ui.statusCode, ui.headers['content-type']], [200, 'text/html; charset=utf-8'])
})

exampleTest('anonymous requests see the public fields; last_login and a profile\'s phone do not exist for them', async (t, example) => {
  const app = await example()
  t.strictSame((await app.inject('/api/users/7')).json(), {
    id: 7, name: 'Frances Liskov', email: 'frances.liskov.7@example.com', is_staff: false, profile: { city: 'Geneva' }, posts: [{ id: 7, title: 'Notes on frequency hopping' }, { id: 8, title: 'More on hypertext' }]
  })
  t.strictSame((await app.inject('/api/users/7?only=profile')).json(), { profile: { city: 'Geneva' } }, 'a whole profile is its public fields')
  const rows: Array<[string, string]> = [
    ['only=last_login', "Unknown field 'last_login' in query parameter 'only'; allowed fields: id, name, email, is_staff, profile, posts"],
    ['defer=last_login', "Unknown field 'last_login' in query parameter 'defer'; allowed fields: id, name, email, is_staff, profile, posts"],
    ['only=id,last_login', "Unknown field 'last_login' in query parameter 'only'; allowed fields: id, name, email, is_staff, profile, posts"],
    ['only=profile.phone', "Unknown field 'profile.phone' in query parameter 'only'; allowed fields of 'profile': city"],
    ['defer=profile.phone', "Unknown field 'profile.phone' in query parameter 'defer'; allowed fields of 'profile': city"]
  ]
  for (const [query, message] of rows) {
    const response = await app.inject(`/api/users/?${query}`)
    t.strictSame([response.statusCode, response.json()], [400, { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message }], query)
  }
})

exampleTest('staff requests see last_login and restrict it like any field', async (t, example) => {
  const app = await example()
  const full = {
    id: 3,
    name: 'Barbara Wirth',
    email: 'barbara.wirth.3@example.com',
    is_staff: false,
    profile: { city: 'Oslo', phone: '+44 20 7946 0003' },
    posts: [{ id: 2, title: 'Notes on information theory' }, { id: 3, title: 'More on formal grammars' }],
    last_login: '2026-01-08T15:00:00.000Z'
  }
  const response = await app.inject({ url: '/api/users/3', headers: STAFF })
  t.strictSame(response.json(), full)
  t.strictSame(Object.keys(response.json()), ['id', 'name', 'email', 'is_staff', 'profile', 'posts', 'last_login'], 'required fields first, as the serializer writes them')
  t.strictSame((await app.inject({ url: '/api/users/7?only=last_login', headers: STAFF })).json(), { last_login: null }, 'user 7 never logged in')
  t.strictSame((await app.inject({ url: '/api/users/3?defer=last_login,email,posts,profile.city', headers: STAFF })).json(), { id: 3, name: 'Barbara Wirth', is_staff: false, profile: { phone: '+44 20 7946 0003' } })
  t.strictSame((await app.inject({ url: '/api/users/?only=profile.phone', headers: STAFF })).json().results.slice(3, 5), [{ profile: { phone: '+44 20 7946 0004' } }, { profile: null }])
  const page = (await app.inject({ url: '/api/users/?only=id,last_login&page=2', headers: STAFF })).json()
  t.strictSame([page.next, page.results[0]], ['http://localhost/api/users/?only=id,last_login&page=3', { id: 11, last_login: '2026-01-28T23:00:00.000Z' }])
})

exampleTest('a wrong or malformed token is a 401 with a clear message; without STAFF_TOKEN nobody is staff', async (t, example) => {
  const app = await example()
  const rows: Array<[string, string]> = [
    ['Bearer wrong', 'Invalid bearer token'],
    [`Bearer ${STAFF_TOKEN}x`, 'Invalid bearer token'],
    [STAFF_TOKEN, "The Authorization header must be 'Bearer <token>'"],
    ['Basic c3RhZmY6c2VjcmV0', "The Authorization header must be 'Bearer <token>'"]
  ]
  for (const [authorization, message] of rows) {
    const response = await app.inject({ url: '/api/users/?only=id', headers: { authorization } })
    t.strictSame([response.statusCode, response.headers['www-authenticate'], response.json()], [401, 'Bearer', { statusCode: 401, error: 'Unauthorized', message }], authorization)
  }
  const nobody = await example(25, 10, '')
  const response = await nobody.inject({ url: '/api/users/', headers: STAFF })
  t.strictSame([response.statusCode, response.json().message], [401, 'Invalid bearer token'])
  t.equal((await nobody.inject('/api/users/3')).json().last_login, undefined, 'and anonymous requests are served as ever')
})

// Every test is declared: the file ends once they have run, and closes the database then instead of waiting for it.
end()
