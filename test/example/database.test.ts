import Fastify from 'fastify'
import { after, end, test } from 'tap'
import fastifyRestrictedFields from '../../lib/index.js'
import type { Test } from 'tap'
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { drizzleSelect } from '../../lib/orm/drizzle.js'
import { buildApp } from '../../example/app.js'
import { databaseStore, seededDatabase } from '../../example/database.js'
import { generateUsers } from '../../example/generate-users.js'

const users = generateUsers(30)
const database = seededDatabase(users)
// Closed when the last test has run (see end() below): an open database keeps the process alive
// ten more seconds, for its idle statistics timer.
after(async () => { await (await database).close() })

async function logged (t: Test) {
  const log: string[] = []
  const app = await buildApp({ store: databaseStore(await database, (sql) => log.push(sql)), pageSize: 10, staffToken: 'staff-secret' })
  t.teardown(() => app.close())
  return { app, log }
}

const COUNT = 'select count(*) from "users"'
// Drizzle leaves out an offset of 0: the first page has none.
const page = (columns: string, offset = false): string => `select ${columns} from "users" order by "users"."id" limit $1${offset ? ' offset $2' : ''}`
const one = (columns: string): string => `select ${columns} from "users" where "users"."id" = $1`
// With a profile, its table is joined, and Drizzle names every column with its table.
const JOINED = 'from "users" left join "profiles" on "profiles"."user_id" = "users"."id"'
const joinedPage = (columns: string, offset = false): string => `select ${columns} ${JOINED} order by "users"."id" limit $1${offset ? ' offset $2' : ''}`
const joinedOne = (columns: string): string => `select ${columns} ${JOINED} where "users"."id" = $1`
/** The second statement, for the posts of the `users` users loaded. */
const posts = (users = 10, columns = '"id", "user_id", "title"'): string =>
  `select ${columns} from "posts" where "posts"."user_id" in (${Array.from({ length: users }, (_, i) => `$${i + 1}`).join(', ')}) order by "posts"."id"`
const PUBLIC = '"users"."id", "users"."name", "users"."email", "users"."is_staff", "profiles"."city"'
const EVERY = '"users"."id", "users"."name", "users"."email", "users"."is_staff", "users"."last_login", "profiles"."city", "profiles"."phone"'

const rows: Array<[string, string[]]> = [
  ['/api/users/?only=id,name', [COUNT, page('"id", "name"')]],
  ['/api/users/?only=name', [COUNT, page('"id", "name"')]],
  ['/api/users/?defer=email', [COUNT, joinedPage('"users"."id", "users"."name", "users"."is_staff", "profiles"."city"'), posts()]],
  ['/api/users/?only=id,email&defer=id', [COUNT, page('"id", "email"')]],
  ['/api/users/?only=', [COUNT, page('"id"')]],
  ['/api/users/?page=2', [COUNT, joinedPage(PUBLIC, true), posts()]],
  ['/api/users/7?only[]=is_staff', [one('"id", "is_staff"')]],
  ['/api/users/?only=@summary', [COUNT, page('"id", "name"')]],
  ['/api/users/?only=@summary,email', [COUNT, page('"id", "name", "email"')]],
  ['/api/users/?only=@summary&only=is_staff&defer=name', [COUNT, page('"id", "is_staff"')]],
  ['/api/users/?only=*&defer=email,posts', [COUNT, joinedPage('"users"."id", "users"."name", "users"."is_staff", "profiles"."city"')]],
  ['/api/users/7?only=@summary', [one('"id", "name"')]],
  ['/api/users/?only=name,profile.city', [COUNT, joinedPage('"users"."id", "users"."name", "profiles"."city"')]],
  ['/api/users/7?only=profile', [joinedOne('"users"."id", "profiles"."city"')]],
  ['/api/users/?only=posts.title&page=3', [COUNT, page('"id"', true), posts()]],
  ['/api/users/7?only=id,posts', [one('"id"'), posts(1)]],
  // A profile or posts kept with every field left out: a profile's key tells it from none, and the posts' always-loaded columns count them.
  ['/api/users/?only=id,profile&defer=profile.city', [COUNT, joinedPage('"users"."id", "profiles"."user_id"')]],
  ['/api/users/?only=posts&defer=posts.id,posts.title', [COUNT, page('"id"'), posts(10, '"id", "user_id"')]]
]

test('the handler selects only the columns the response will contain', async (t) => {
  const { app, log } = await logged(t)
  for (const [url, sql] of rows) {
    log.length = 0
    t.equal((await app.inject(url)).statusCode, 200, url)
    t.strictSame(log, sql, url)
  }
  log.length = 0
  t.equal((await app.inject('/api/users/999?only=posts')).statusCode, 404)
  t.strictSame(log, [one('"id"')], 'no user, so no posts to look for')
})

test('anonymous requests never select last_login or a profile\'s phone; staff requests select them only when they are sent', async (t) => {
  const { app, log } = await logged(t)
  const staff = { authorization: 'Bearer staff-secret' }
  const cases: Array<[string, Record<string, string>, string[]]> = [
    ['/api/users/', {}, [COUNT, joinedPage(PUBLIC), posts()]],
    ['/api/users/?defer=email,posts', {}, [COUNT, joinedPage('"users"."id", "users"."name", "users"."is_staff", "profiles"."city"')]],
    ['/api/users/', staff, [COUNT, joinedPage(EVERY), posts()]],
    ['/api/users/?only=last_login', staff, [COUNT, page('"id", "last_login"')]],
    ['/api/users/?defer=last_login,posts', staff, [COUNT, joinedPage('"users"."id", "users"."name", "users"."email", "users"."is_staff", "profiles"."city", "profiles"."phone"')]],
    ['/api/users/?only=profile', {}, [COUNT, joinedPage('"users"."id", "profiles"."city"')]],
    ['/api/users/?only=profile', staff, [COUNT, joinedPage('"users"."id", "profiles"."city", "profiles"."phone"')]],
    ['/api/users/?only=profile.phone', staff, [COUNT, joinedPage('"users"."id", "profiles"."phone"')]],
    ['/api/users/?only=profile&defer=profile.city', staff, [COUNT, joinedPage('"users"."id", "profiles"."phone"')]],
    ['/api/users/4', {}, [joinedOne(PUBLIC), posts(1)]],
    ['/api/users/4', staff, [joinedOne(EVERY), posts(1)]],
    ['/api/users/?only=*', {}, [COUNT, joinedPage(PUBLIC), posts()]],
    ['/api/users/?only=*', staff, [COUNT, joinedPage(EVERY), posts()]],
    ['/api/users/4?only=@summary,last_login', staff, [one('"id", "name", "last_login"')]]
  ]
  for (const [url, headers, sql] of cases) {
    log.length = 0
    t.equal((await app.inject({ url, headers })).statusCode, 200, url)
    t.strictSame(log, sql, `${headers.authorization === undefined ? 'anonymous' : 'staff'} ${url}`)
  }
  for (const query of ['only=last_login', 'only=profile.phone', 'defer=profile.phone', 'only=profile.city,profile.phone']) {
    log.length = 0
    t.equal((await app.inject(`/api/users/?${query}`)).statusCode, 400, query)
    t.strictSame(log, [], `a hidden name never reaches SQL: ${query}`)
  }
})

test('no anonymous request reads a profile\'s phone, whatever it selects', async (t) => {
  const { app, log } = await logged(t)
  const queries = ['', 'only=*', 'only=profile', 'defer=profile.city', 'only=profile&defer=profile.city', 'only=@summary,profile', 'defer=name,email,posts', 'page=last']
  for (const query of queries) {
    for (const path of ['/api/users/', '/api/users/7']) {
      log.length = 0
      t.equal((await app.inject(`${path}?${query}`)).statusCode, 200, `${path}?${query}`)
      t.notMatch(log.join('\n'), /phone|last_login|password_hash/, `${path}?${query}`)
    }
  }
  log.length = 0
  await app.inject({ url: '/api/users/7?only=profile', headers: { authorization: 'Bearer staff-secret' } })
  t.match(log.join('\n'), /"profiles"\."phone"/, 'staff do read it')
})

test('a route with default fields selects the default columns, and what field sets add to them', async (t) => {
  const log: string[] = []
  const store = databaseStore(await database, (sql) => log.push(sql))
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'name'] } })
  app.get('/users', {
    restrictFields: { defaultFields: ['id', 'name', 'is_staff'] },
    schema: { response: { 200: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: ['string', 'null'] }, is_staff: { type: 'boolean' } } } } } }
  }, async (request) => store.page(0, 2, request.restrictedFields))
  const cases: Array<[string, string, unknown]> = [
    ['/users', '"id", "name", "is_staff"', [{ id: 1, name: users[0].name, is_staff: users[0].is_staff }, { id: 2, name: users[1].name, is_staff: users[1].is_staff }]],
    ['/users?defer=name', '"id", "is_staff"', [{ id: 1, is_staff: users[0].is_staff }, { id: 2, is_staff: users[1].is_staff }]],
    ['/users?only=@default,email&defer=is_staff', '"id", "name", "email"', [{ id: 1, name: users[0].name, email: users[0].email }, { id: 2, name: users[1].name, email: users[1].email }]],
    ['/users?only=@summary', '"id", "name"', [{ id: 1, name: users[0].name }, { id: 2, name: users[1].name }]]
  ]
  for (const [url, columns, body] of cases) {
    log.length = 0
    const response = await app.inject(url)
    t.strictSame(response.json(), body, url)
    t.strictSame(log, [page(columns)], url)
  }
})

test('an unrestricted request never loads the password hash, which no field declares', async (t) => {
  const { app, log } = await logged(t)
  t.equal((await app.inject({ url: '/api/users/4', headers: { authorization: 'Bearer staff-secret' } })).statusCode, 200)
  t.notMatch(log.join('\n'), /password_hash/)
  t.strictSame((await (await database).query('SELECT password_hash FROM users WHERE id = 4')).rows, [{ password_hash: 'hash-4' }], 'the column is there')
})

test('at LOG_LEVEL=debug, the database example logs each statement it runs', async (t) => {
  const lines: string[] = []
  const app = await buildApp({
    store: databaseStore(await database, (sql) => app.log.debug({ sql }, 'SQL statement')),
    pageSize: 10,
    logger: { level: 'debug', stream: { write: (line: string) => { lines.push(line) } } }
  })
  t.teardown(() => app.close())
  await app.inject('/api/users/?only=name,profile.city')
  const statements: string[] = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'SQL statement').map((entry) => entry.sql)
  t.strictSame(statements, [COUNT, joinedPage('"users"."id", "users"."name", "profiles"."city"')])
  // What the statement selects, between `select` and `from`: of the profile's columns, the city alone.
  const selected = /^select (.*?) from /.exec(statements[1])![1].split(', ')
  t.strictSame(selected.filter((column) => column.startsWith('"profiles".')), ['"profiles"."city"'])
})

test('a store whose loader cannot load a declared field stops the app when its routes are declared, naming the route and the field', async (t) => {
  // A users table that has no profile relation: the route's profile.city has no column to come from.
  const bare = pgTable('users', { id: integer().primaryKey(), name: text(), email: text(), is_staff: boolean(), last_login: text() })
  const store = { ...databaseStore(await database), loads: drizzleSelect(bare) }
  await t.rejects(buildApp({ store, pageSize: 10 }), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE',
    message: "Route GET /api/users/: Field 'profile' loads column 'profile', which table 'users' does not have; its columns are 'id', 'name', 'email', 'is_staff', 'last_login'"
  })
})

test('the restricted answers from the database', async (t) => {
  const { app } = await logged(t)
  t.strictSame((await app.inject('/api/users/?only=name&page=3')).json().results.slice(0, 2), [{ name: 'Ada Turing' }, { name: 'Alan Lamarr' }])
  t.strictSame((await app.inject('/api/users/9?defer=is_staff')).json(), { id: 9, name: 'Hedy Goldwasser', email: null, profile: { city: 'Tokyo' }, posts: [{ id: 11, title: 'Notes on software reliability' }] })
  t.strictSame((await app.inject('/api/users/?only=id,profile,posts.title&page=3')).json().results.slice(6), [
    { id: 27, profile: { city: 'Eindhoven' }, posts: [{ title: 'Notes on computable numbers' }, { title: 'More on compilers' }] },
    { id: 28, profile: { city: 'Princeton' }, posts: [{ title: 'Notes on data abstraction' }, { title: 'More on frequency hopping' }] },
    { id: 29, profile: { city: 'Geneva' }, posts: [{ title: 'Notes on information theory' }] },
    { id: 30, profile: null, posts: [] }
  ], 'the posts come in id order, each with its user')
})

const hostile = ['only=id;drop table users', "only=id'--", 'only="id"', 'only=__proto__', 'defer=constructor', 'only=id%00', 'only=users.id', 'defer=id,*']

test('hostile names are 400s and never reach SQL', async (t) => {
  const { app, log } = await logged(t)
  for (const query of hostile) {
    log.length = 0
    const response = await app.inject(`/api/users/?${query}`)
    t.strictSame([response.statusCode, response.json().code, log], [400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', []], query)
  }
  t.strictSame((await (await database).query('SELECT count(*)::integer AS n FROM users')).rows, [{ n: 30 }], 'the table is intact')
})

// Every test is declared: the file ends once they have run, and closes the database then instead of waiting for it.
end()
