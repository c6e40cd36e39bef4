import Fastify from 'fastify'
import { after, end, test } from 'tap'
import fastifyRestrictedFields from '../../lib/index.js'
import type { Test } from 'tap'
import { buildApp } from '../../example/app.js'
import { databaseStore, seededDatabase } from '../../example/database.js'
import { generateUsers } from '../../example/generate-users.js'

const users = generateUsers(30)
const database = seededDatabase(users)
// Closed when the last test has run (see end() below): an open database keeps the process alive ten more seconds, for its idle statistics timer.
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

const rows: Array<[string, string[]]> = [
  ['/api/users/?only=id,name', [COUNT, page('"id", "name"')]],
  ['/api/users/?only=name', [COUNT, page('"id", "name"')]],
  ['/api/users/?defer=email', [COUNT, page('"id", "name", "is_staff"')]],
  ['/api/users/?only=id,email&defer=id', [COUNT, page('"id", "email"')]],
  ['/api/users/?only=', [COUNT, page('"id"')]],
  ['/api/users/?page=2', [COUNT, page('"id", "name", "email", "is_staff"', true)]],
  ['/api/users/7?only[]=is_staff', [one('"id", "is_staff"')]],
  ['/api/users/?only=@summary', [COUNT, page('"id", "name"')]],
  ['/api/users/?only=@summary,email', [COUNT, page('"id", "name", "email"')]],
  ['/api/users/?only=@summary&only=is_staff&defer=name', [COUNT, page('"id", "is_staff"')]],
  ['/api/users/?only=*&defer=email', [COUNT, page('"id", "name", "is_staff"')]],
  ['/api/users/7?only=@summary', [one('"id", "name"')]]
]

test('the handler selects only the columns the response will contain', async (t) => {
  const { app, log } = await logged(t)
  for (const [url, sql] of rows) {
    log.length = 0
    t.equal((await app.inject(url)).statusCode, 200, url)
    t.same(log, sql, url)
  }
})

test('anonymous requests never select last_login; staff requests select it only when it is sent', async (t) => {
  const { app, log } = await logged(t)
  const staff = { authorization: 'Bearer staff-secret' }
  const cases: Array<[string, Record<string, string>, string[]]> = [
    ['/api/users/', {}, [COUNT, page('"id", "name", "email", "is_staff"')]],
    ['/api/users/?defer=email', {}, [COUNT, page('"id", "name", "is_staff"')]],
    ['/api/users/', staff, [COUNT, page('"id", "name", "email", "is_staff", "last_login"')]],
    ['/api/users/?only=last_login', staff, [COUNT, page('"id", "last_login"')]],
    ['/api/users/?defer=last_login', staff, [COUNT, page('"id", "name", "email", "is_staff"')]],
    ['/api/users/4', {}, [one('"id", "name", "email", "is_staff"')]],
    ['/api/users/4', staff, [one('"id", "name", "email", "is_staff", "last_login"')]],
    ['/api/users/?only=*', {}, [COUNT, page('"id", "name", "email", "is_staff"')]],
    ['/api/users/?only=*', staff, [COUNT, page('"id", "name", "email", "is_staff", "last_login"')]],
    ['/api/users/4?only=@summary,last_login', staff, [one('"id", "name", "last_login"')]]
  ]
  for (const [url, headers, sql] of cases) {
    log.length = 0
    t.equal((await app.inject({ url, headers })).statusCode, 200, url)
    t.same(log, sql, `${headers.authorization === undefined ? 'anonymous' : 'staff'} ${url}`)
  }
  log.length = 0
  t.equal((await app.inject('/api/users/?only=last_login')).statusCode, 400)
  t.same(log, [], 'a hidden name never reaches SQL')
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
    t.same(response.json(), body, url)
    t.same(log, [page(columns)], url)
  }
})

test('an unrestricted request never loads the password hash, which no field declares', async (t) => {
  const { app, log } = await logged(t)
  t.equal((await app.inject({ url: '/api/users/4', headers: { authorization: 'Bearer staff-secret' } })).statusCode, 200)
  t.notMatch(log.join('\n'), /password_hash/)
  t.same((await (await database).query('SELECT password_hash FROM users WHERE id = 4')).rows, [{ password_hash: 'hash-4' }], 'the column is there')
})

test('at LOG_LEVEL=debug, the database example logs each statement it runs', async (t) => {
  const lines: string[] = []
  const app = await buildApp({
    store: databaseStore(await database, (sql) => app.log.debug({ sql }, 'SQL statement')),
    pageSize: 10,
    logger: { level: 'debug', stream: { write: (line: string) => { lines.push(line) } } }
  })
  t.teardown(() => app.close())
  await app.inject('/api/users/?only=name')
  t.same(lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'SQL statement').map((entry) => entry.sql), [COUNT, page('"id", "name"')])
})

test('the restricted answers from the database', async (t) => {
  const { app } = await logged(t)
  t.same((await app.inject('/api/users/?only=name&page=3')).json().results.slice(0, 2), [{ name: 'Ada Turing' }, { name: 'Alan Lamarr' }])
  t.same((await app.inject('/api/users/9?defer=is_staff')).json(), { id: 9, name: 'Hedy Goldwasser', email: null })
})

const hostile = ['only=id;drop table users', "only=id'--", 'only="id"', 'only=__proto__', 'defer=constructor', 'only=id%00', 'only=users.id', 'defer=id,*']

test('hostile names are 400s and never reach SQL', async (t) => {
  const { app, log } = await logged(t)
  for (const query of hostile) {
    log.length = 0
    const response = await app.inject(`/api/users/?${query}`)
    t.same([response.statusCode, response.json().code, log], [400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', []], query)
  }
  t.same((await (await database).query('SELECT count(*)::integer AS n FROM users')).rows, [{ n: 30 }], 'the table is intact')
})

// Every test is declared: the file ends once they have run, and closes the database then instead of waiting for it.
end()
