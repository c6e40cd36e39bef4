/**
 * What the ORM tests share: the tables, their rows, the API's record schema
 * over them, and an app that serves the same route from a database and from
 * memory, with a rule that hides staff-only fields from anonymous callers.
 */
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { after } from 'tap'
import type { Test } from 'tap'
import { PGlite } from '@electric-sql/pglite'
import fastifyRestrictedFields from '../../lib/index.js'
import type { FieldSelection } from '../../lib/index.js'

export const ddl = `
  CREATE TABLE profiles (id integer PRIMARY KEY, city text NOT NULL, phone text);
  CREATE TABLE users (
    id integer PRIMARY KEY, name text NOT NULL, email text, is_staff boolean NOT NULL, last_login text,
    password_hash text NOT NULL, first_name text NOT NULL, last_name text NOT NULL, profile_id integer UNIQUE REFERENCES profiles (id)
  );
  CREATE TABLE posts (id integer PRIMARY KEY, author_id integer NOT NULL REFERENCES users (id), title text NOT NULL, body text NOT NULL);
  INSERT INTO profiles VALUES (1, 'London', '555-0101'), (2, 'Arlington', NULL);
  INSERT INTO users VALUES
    (1, 'Ada', 'ada@example.com', true, '2026-11-01T09:00:00.000Z', 'h1', 'Ada', 'Lovelace', 1),
    (2, 'Grace', NULL, false, NULL, 'h2', 'Grace', 'Hopper', 2),
    (3, 'Alan', 'alan@example.com', false, '2026-10-12T17:30:00.000Z', 'h3', 'Alan', 'Turing', NULL);
  INSERT INTO posts VALUES (1, 1, 'Notes', 'On the engine'), (2, 1, 'Sketch', 'Of a program'), (3, 2, 'Compilers', 'A first one');
  CREATE TABLE comments (id integer PRIMARY KEY, post_id integer NOT NULL REFERENCES posts (id), author_id integer NOT NULL REFERENCES users (id), body text NOT NULL, flagged boolean NOT NULL);
  INSERT INTO comments VALUES (1, 1, 2, 'Brilliant', false), (2, 1, 3, 'Spam?', true), (3, 3, 1, 'Indeed', false);
  CREATE TABLE t (id integer PRIMARY KEY, x text, y text, xy text);
  INSERT INTO t VALUES (1, 'x', 'y', 'xy');
`

let shared: Promise<PGlite> | undefined

/**
 * The database with the tables and rows above, one per test file: its tests
 * only read it, and starting a database costs seconds of CPU (many times
 * that on a busy machine), so each file pays for one. It is closed when the
 * file's last test has run (each file ends with `end()`): an open database
 * keeps the process alive ten more seconds, for its idle statistics timer.
 */
export async function seeded (): Promise<PGlite> {
  if (shared === undefined) {
    shared = PGlite.create().then(async (db) => {
      await db.exec(ddl)
      return db
    })
    const opened = shared
    after(async () => { await (await opened).close() })
  }
  return await shared
}

/** A database of its own with the tables and rows above, for a test that changes its session (its role). */
export async function isolated (t: Test): Promise<PGlite> {
  const db = await PGlite.create()
  t.teardown(() => db.close())
  await db.exec(ddl)
  return db
}

/** The API's users, as a route that loads everything sends them. */
export const users = [
  { id: 1, name: 'Ada', email: 'ada@example.com', isStaff: true, last_login: '2026-11-01T09:00:00.000Z', full_name: 'Ada Lovelace', profile: { city: 'London', phone: '555-0101' }, posts: [{ id: 1, title: 'Notes' }, { id: 2, title: 'Sketch' }] },
  { id: 2, name: 'Grace', email: null, isStaff: false, last_login: null, full_name: 'Grace Hopper', profile: { city: 'Arlington', phone: null }, posts: [{ id: 3, title: 'Compilers' }] },
  { id: 3, name: 'Alan', email: 'alan@example.com', isStaff: false, last_login: '2026-10-12T17:30:00.000Z', full_name: 'Alan Turing', profile: null, posts: [] }
]

export const userSchema = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    isStaff: { type: 'boolean' },
    last_login: { type: ['string', 'null'] },
    full_name: { type: 'string' },
    profile: { type: ['object', 'null'], properties: { city: { type: 'string' }, phone: { type: ['string', 'null'] } } },
    posts: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } }
  }
}

/** The parts of a row the handler turns into API fields: the full name, from the two columns it depends on. */
export function fullName (row: { firstName?: string, lastName?: string }): string | undefined {
  return row.firstName === undefined ? undefined : `${row.firstName} ${row.lastName}`
}

/** Who may see what: anonymous callers never see when a user last logged in, nor a phone number. */
function hiddenFields (request: FastifyRequest): string[] {
  return request.headers['x-staff'] === 'yes' ? [] : ['last_login', 'profile.phone']
}

/**
 * An app with `/db/users` served by `load` (which pushes each statement it
 * runs to `sql`) and `/memory/users` serving `users`; both with the
 * `@summary` set, and `/db/people` and `/memory/people` with default fields.
 */
export async function appWith (t: Test, load: (selection: FieldSelection) => Promise<unknown[]>): Promise<FastifyInstance> {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { hiddenFields })
  const schema = { response: { 200: { type: 'array', items: userSchema } } }
  const sets = { fieldSets: { summary: ['id', 'name', 'profile.city'] } }
  app.get('/db/users', { restrictFields: sets, schema }, async (request) => await load(request.restrictedFields))
  app.get('/memory/users', { restrictFields: sets, schema }, async () => users)
  const defaults = { defaultFields: ['id', 'full_name'] }
  app.get('/db/people', { restrictFields: defaults, schema }, async (request) => await load(request.restrictedFields))
  app.get('/memory/people', { restrictFields: defaults, schema }, async () => users)
  return app
}

/** The requests every ORM answers, anonymous and as staff. */
export const requests: Array<{ url: string, staff?: boolean, status?: number }> = [
  { url: '/users' },
  { url: '/users', staff: true },
  { url: '/users?only=id,name' },
  { url: '/users?only=isStaff' },
  { url: '/users?only=full_name' },
  { url: '/users?only=name,profile.city' },
  { url: '/users?only=profile' },
  { url: '/users?only=profile', staff: true },
  { url: '/users?only=posts.title' },
  { url: '/users?only=@summary' },
  { url: '/users?only=*' },
  { url: '/users?only=*', staff: true },
  { url: '/users?only=last_login', status: 400 },
  { url: '/users?only=last_login', staff: true },
  { url: '/users?defer=posts,profile,email' },
  { url: '/people' },
  { url: '/people?only=@default,isStaff' },
  // The phone is hidden, so the profile is kept with none of its fields: its key tells {} from null.
  { url: '/users?defer=profile.city' },
  { url: '/users?only=posts&defer=posts.id,posts.title' }
]

const everything = ['id', 'name', 'email', 'is_staff', 'first_name', 'last_name']
const staffEverything = ['id', 'name', 'email', 'is_staff', 'last_login', 'first_name', 'last_name']

/**
 * The columns each request must load, in SQL names: of users, of the profile
 * and of the posts (absent: the relation is not loaded); null for no query at
 * all. Never `password_hash` nor `body`, which no field sends; `last_login`
 * and `phone` only for staff; both names for the full name.
 */
export const loaded: Array<[string[] | null, string[]?, string[]?]> = [
  [everything, ['id', 'city'], ['id', 'title']],
  [staffEverything, ['id', 'city', 'phone'], ['id', 'title']],
  [['id', 'name']],
  [['id', 'is_staff']],
  [['id', 'first_name', 'last_name']],
  [['id', 'name'], ['id', 'city']],
  [['id'], ['id', 'city']],
  [['id'], ['id', 'city', 'phone']],
  [['id'], undefined, ['id', 'title']],
  [['id', 'name'], ['id', 'city']],
  [everything, ['id', 'city'], ['id', 'title']],
  [staffEverything, ['id', 'city', 'phone'], ['id', 'title']],
  [null],
  [['id', 'last_login']],
  [['id', 'name', 'is_staff', 'first_name', 'last_name']],
  [['id', 'first_name', 'last_name']],
  [['id', 'is_staff', 'first_name', 'last_name']],
  [everything, ['id'], ['id', 'title']],
  [['id'], undefined, ['id']]
]

/** `"a", "b"`, each name qualified by `prefix`. */
export function quoted (columns: readonly string[], prefix = ''): string {
  return columns.map((column) => `${prefix}"${column}"`).join(', ')
}

/**
 * Runs each request against the database route and the memory route: the
 * bodies must be equal, and the statements the database ran are returned,
 * by request, for the caller to compare with what they expected.
 */
export async function statementsOf (
  t: Test,
  app: FastifyInstance,
  sql: string[],
  which: Array<{ url: string, staff?: boolean, status?: number }> = requests
): Promise<string[][]> {
  const ran: string[][] = []
  for (const { url, staff, status } of which) {
    const headers = staff === true ? { 'x-staff': 'yes' } : {}
    sql.length = 0
    const fromDb = await app.inject({ url: `/db${url}`, headers })
    const fromMemory = await app.inject({ url: `/memory${url}`, headers })
    t.strictSame([fromDb.statusCode, fromMemory.statusCode], [status ?? 200, status ?? 200], url)
    t.equal(fromDb.body, fromMemory.body, `${url}${staff === true ? ' as staff' : ''}: the same body as from memory`)
    ran.push([...sql])
  }
  return ran
}

/**
 * The API's posts, three relations deep: each post's author (many to one)
 * with the author's profile (one to one), and its comments (one to many),
 * each with its own author. `text` is the column `body`; the author's
 * `full_name` depends on two columns.
 */
export const posts = [
  {
    id: 1,
    title: 'Notes',
    author: { name: 'Ada', full_name: 'Ada Lovelace', profile: { city: 'London', phone: '555-0101' } },
    comments: [{ id: 1, text: 'Brilliant', flagged: false, author: { name: 'Grace' } }, { id: 2, text: 'Spam?', flagged: true, author: { name: 'Alan' } }]
  },
  { id: 2, title: 'Sketch', author: { name: 'Ada', full_name: 'Ada Lovelace', profile: { city: 'London', phone: '555-0101' } }, comments: [] },
  {
    id: 3,
    title: 'Compilers',
    author: { name: 'Grace', full_name: 'Grace Hopper', profile: { city: 'Arlington', phone: null } },
    comments: [{ id: 3, text: 'Indeed', flagged: false, author: { name: 'Ada' } }]
  }
]

const nameSchema = { type: 'string' }

export const postSchema = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    author: {
      type: 'object',
      properties: {
        name: nameSchema,
        full_name: { type: 'string' },
        profile: { type: ['object', 'null'], properties: { city: { type: 'string' }, phone: { type: ['string', 'null'] } } }
      }
    },
    comments: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, text: { type: 'string' }, flagged: { type: 'boolean' }, author: { type: 'object', properties: { name: nameSchema } } }
      }
    }
  }
}

/** Anonymous callers see neither an author's phone nor whether a comment was flagged: hidden two levels down. */
function hiddenPostFields (request: FastifyRequest): string[] {
  return request.headers['x-staff'] === 'yes' ? [] : ['author.profile.phone', 'comments.flagged']
}

/** An app with `/db/posts` served by `load` and `/memory/posts` serving `posts`, both behind the rule above. */
export async function postsAppWith (t: Test, load: (selection: FieldSelection) => Promise<unknown[]>): Promise<FastifyInstance> {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { hiddenFields: hiddenPostFields })
  const schema = { response: { 200: { type: 'array', items: postSchema } } }
  app.get('/db/posts', { restrictFields: true, schema }, async (request) => await load(request.restrictedFields))
  app.get('/memory/posts', { restrictFields: true, schema }, async () => posts)
  return app
}

/** The requests every ORM answers on the posts: relations two and three levels down, anonymous and as staff. */
export const postRequests: Array<{ url: string, staff?: boolean, status?: number, sendsText?: true }> = [
  { url: '/posts', sendsText: true },
  { url: '/posts', staff: true, sendsText: true },
  { url: '/posts?only=title,author.profile.city' },
  { url: '/posts?only=comments.author.name' },
  { url: '/posts?only=comments.text,author.full_name', sendsText: true },
  { url: '/posts?only=author.profile', staff: true },
  { url: '/posts?only=comments.flagged', status: 400 },
  { url: '/posts?only=comments.flagged', staff: true },
  { url: '/posts?defer=comments,author.profile' }
]

/**
 * Checks the statements each post request ran: a hidden column (`phone`,
 * `flagged`) is read only for staff, `password_hash` never, a comment's
 * `body` only when its text is sent; and every statement is the one the
 * snapshot holds, so that any other change shows.
 */
export function checkPostStatements (t: Test, ran: string[][]): void {
  postRequests.forEach(({ url, staff, status, sendsText }, index) => {
    const text = ran[index].join('\n')
    if (status !== undefined) t.strictSame(ran[index], [], `${url}: no statement for a refused request`)
    if (staff !== true) t.notMatch(text, /phone|flagged/, `${url}: no hidden column read for an anonymous caller`)
    t.notMatch(text, /password_hash/, `${url}: no column that no field declares`)
    if (sendsText !== true) t.notMatch(text, /"body"/, `${url}: no comment body unless its text is sent`)
  })
  t.matchSnapshot(ran, 'the statements of each request')
}

/**
 * Makes the database's session a role that may read only the columns an
 * anonymous `only=name,profile.city` needs (and the keys that join them),
 * as a database with column privileges would.
 */
export async function grantOnlyNameAndCity (client: PGlite): Promise<void> {
  await client.exec(`
    CREATE ROLE reader;
    GRANT SELECT (id, name, profile_id) ON users TO reader;
    GRANT SELECT (id, city) ON profiles TO reader;
    SET ROLE reader;
  `)
}

/** The body of an anonymous `only=name,profile.city` from memory. */
export const nameAndCity = '[{"name":"Ada","profile":{"city":"London"}},{"name":"Grace","profile":{"city":"Arlington"}},{"name":"Alan","profile":null}]'
