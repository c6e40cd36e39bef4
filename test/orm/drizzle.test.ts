import { end, test } from 'tap'
import Fastify from 'fastify'
import { eq, relations } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { drizzleQuery, drizzleSelect } from '../../lib/orm/drizzle.js'
import fastifyRestrictedFields from '../../lib/index.js'
import { appWith, checkPostStatements, grantOnlyNameAndCity, nameAndCity, fullName, loaded, postRequests, postsAppWith, quoted, seeded, isolated, statementsOf, userSchema, users as records } from './fixture.js'

const profiles = pgTable('profiles', { id: integer().primaryKey(), city: text().notNull(), phone: text() })
const users = pgTable('users', {
  id: integer().primaryKey(),
  name: text().notNull(),
  email: text(),
  isStaff: boolean('is_staff').notNull(),
  lastLogin: text('last_login'),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  profileId: integer('profile_id').references(() => profiles.id)
})
const posts = pgTable('posts', { id: integer().primaryKey(), authorId: integer('author_id').notNull(), title: text().notNull(), body: text().notNull() })
const usersRelations = relations(users, ({ one, many }) => ({
  profile: one(profiles, { fields: [users.profileId], references: [profiles.id] }),
  posts: many(posts)
}))
const postsRelations = relations(posts, ({ one }) => ({ author: one(users, { fields: [posts.authorId], references: [users.id] }) }))

const userFields = {
  relations: { profile: profiles, posts },
  fields: { last_login: 'lastLogin', full_name: { dependsOn: ['firstName', 'lastName'] } }
} as const

/** The statement Drizzle runs for a relational query of these columns of users, and of its profile and posts when given. */
function relationalQuery (columns: string[], profile?: string[], posts?: string[]): string {
  if (profile === undefined && posts === undefined) return `select ${quoted(columns)} from "users" "users" order by "users"."id"`
  const selected = [quoted(columns, '"users".')]
  const joins: string[] = []
  if (profile !== undefined) {
    selected.push('"users_profile"."data" as "profile"')
    joins.push(`left join lateral (select json_build_array(${quoted(profile, '"users_profile".')}) as "data" from (select * from "profiles" "users_profile" where "users_profile"."id" = "users"."profile_id" limit $1) "users_profile") "users_profile" on true`)
  }
  if (posts !== undefined) {
    selected.push('"users_posts"."data" as "posts"')
    joins.push(`left join lateral (select coalesce(json_agg(json_build_array(${quoted(posts, '"users_posts".')})), '[]'::json) as "data" from "posts" "users_posts" where "users_posts"."author_id" = "users"."id") "users_posts" on true`)
  }
  return `select ${selected.join(', ')} from "users" "users" ${joins.join(' ')} order by "users"."id"`
}

test('drizzleQuery loads exactly the columns and relations each response sends, and the response is the one served from memory', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({
    client,
    schema: { users, profiles, posts, usersRelations, postsRelations },
    logger: { logQuery: (query) => { sql.push(query) } }
  })
  const load = drizzleQuery(users, userFields)
  const app = await appWith(t, async (selection) => {
    const rows = await db.query.users.findMany({ ...load(selection), orderBy: users.id })
    return rows.map((row) => ({ ...row, last_login: row.lastLogin, full_name: fullName(row) }))
  })
  const ran = await statementsOf(t, app, sql)
  t.strictSame(ran, loaded.map(([columns, profile, posts]) => columns === null ? [] : [relationalQuery(columns, profile, posts)]))
})

// For the query builder, a left join of the profile; the posts, which are many, are not loaded.
const joinedFields = { relations: { profile: profiles }, fields: { last_login: 'lastLogin', full_name: { dependsOn: ['firstName', 'lastName'] }, posts: false } } as const

test('drizzleSelect loads the columns of the table and of a joined one that each response sends', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({ client, logger: { logQuery: (query) => { sql.push(query) } } })
  const load = drizzleSelect(users, joinedFields)
  const app = await appWith(t, async (selection) => {
    const rows = await db.select(load(selection)).from(users).leftJoin(profiles, eq(users.profileId, profiles.id)).orderBy(users.id)
    return rows.map((row: Record<string, any>) => ({ ...row, last_login: row.lastLogin, full_name: fullName(row) }))
  })
  const cases: Array<[string, Record<string, string>, string]> = [
    ['/users?only=id,name', {}, 'select "users"."id", "users"."name" from "users" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "users"."id"'],
    ['/users?only=name,profile.city', {}, 'select "users"."id", "users"."name", "profiles"."id", "profiles"."city" from "users" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "users"."id"'],
    ['/users?only=full_name,profile', { 'x-staff': 'yes' }, 'select "users"."id", "users"."first_name", "users"."last_name", "profiles"."id", "profiles"."city", "profiles"."phone" from "users" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "users"."id"']
  ]
  for (const [url, headers, statement] of cases) {
    sql.length = 0
    const fromDb = await app.inject({ url: `/db${url}`, headers })
    const fromMemory = await app.inject({ url: `/memory${url}`, headers })
    t.strictSame([fromDb.statusCode, fromDb.body, sql], [200, fromMemory.body, [statement]], url)
  }
})

test('a route that is not opted in loads every column, and a selection met again gets the same arguments', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({ client, logger: { logQuery: (query) => { sql.push(query) } } })
  const load = drizzleSelect(users, joinedFields)
  const query = drizzleQuery(users, userFields)
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields)
  app.get('/plain', async (request) => {
    t.equal(query(request.restrictedFields), undefined)
    return await db.select(load(request.restrictedFields)).from(users)
      .leftJoin(profiles, eq(users.profileId, profiles.id))
      .where(eq(users.id, 2))
  })
  const selections: unknown[] = []
  app.get('/restricted', { restrictFields: true, schema: { response: { 200: userSchema } } }, async (request) => {
    selections.push(load(request.restrictedFields), query(request.restrictedFields))
    return records[0]
  })
  t.strictSame((await app.inject('/plain')).json(), [{ id: 2, name: 'Grace', email: null, isStaff: false, lastLogin: null, passwordHash: 'h2', firstName: 'Grace', lastName: 'Hopper', profileId: 2, profile: { id: 2, city: 'Arlington', phone: null } }])
  t.strictSame(sql, ['select "users"."id", "users"."name", "users"."email", "users"."is_staff", "users"."last_login", "users"."password_hash", "users"."first_name", "users"."last_name", "users"."profile_id", "profiles"."id", "profiles"."city", "profiles"."phone" from "users" left join "profiles" on "users"."profile_id" = "profiles"."id" where "users"."id" = $1'])
  await app.inject('/restricted?only=name')
  await app.inject('/restricted?only=name')
  t.equal(selections[0], selections[2])
  t.equal(selections[1], selections[3])
  t.strictSame(Object.keys(selections[0] as object), ['id', 'name'])
  t.strictSame(selections[1], { columns: { id: true, name: true } })
  t.strictSame(Object.keys(drizzleSelect(posts)({ restricted: false, fields: [], paths: [], has: () => true })), ['id', 'authorId', 'title', 'body'])
})

test('a source that names what the tables do not have fails when the adapter is built, naming the field and the column', async (t) => {
  const invalid = (message: string) => ({ code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE', statusCode: 500, message })
  const columns = "its columns are 'id', 'name', 'email', 'isStaff', 'lastLogin', 'passwordHash', 'firstName', 'lastName', 'profileId'"
  // @ts-expect-error -- not a column of users
  t.throws(() => drizzleQuery(users, { fields: { last_login: 'last_login' } }), invalid(`Field 'last_login' loads column 'last_login', which table 'users' does not have; ${columns}`))
  // @ts-expect-error -- not a column of users
  t.throws(() => drizzleSelect(users, { always: ['uuid'] }), invalid(`Field '(always)' loads column 'uuid', which table 'users' does not have; ${columns}`))
  // @ts-expect-error -- not a relation given
  t.throws(() => drizzleQuery(users, { fields: { profile: { relation: 'profiles' } } }), invalid("Field 'profile' loads relation 'profiles', which table 'users' does not have; it has none"))
  t.throws(() => drizzleQuery(users, { relations: { profile: { table: profiles } }, fields: { profile: { relation: 'profile', fields: { town: 'town' } } } }),
    invalid("Field 'profile.town' loads column 'town', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'"))
  t.throws(() => drizzleQuery(users, { relations: { profile: profiles }, fields: { place: { dependsOn: ['profile.town'] } } }),
    invalid("Field 'place' loads column 'town', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'"))
  // @ts-expect-error -- users has no relation given
  t.throws(() => drizzleQuery(users, { fields: { place: { dependsOn: ['name.first'] } } }), invalid("Field 'place' depends on 'name.first', but 'name' is not a relation of table 'users'"))
})

const comments = pgTable('comments', { id: integer().primaryKey(), postId: integer('post_id').notNull(), authorId: integer('author_id').notNull(), body: text().notNull(), flagged: boolean().notNull() })
const postsWithComments = relations(posts, ({ one, many }) => ({
  author: one(users, { fields: [posts.authorId], references: [users.id] }),
  comments: many(comments)
}))
const commentsRelations = relations(comments, ({ one }) => ({
  post: one(posts, { fields: [comments.postId], references: [posts.id] }),
  author: one(users, { fields: [comments.authorId], references: [users.id] })
}))

// Three levels of relations: a post's author and the author's profile, its comments and each comment's author.
const postFields = {
  relations: { author: { table: users, relations: { profile: profiles } }, comments: { table: comments, relations: { author: users } } },
  fields: {
    author: { relation: 'author', fields: { full_name: { dependsOn: ['firstName', 'lastName'] } } },
    comments: { relation: 'comments', fields: { text: 'body' }, always: [] }
  }
} as const

/** A post row as the relational query gives it, as the API sends it. */
function postOf (row: Record<string, any>): Record<string, unknown> {
  return {
    ...row,
    author: row.author === undefined ? undefined : { ...row.author, full_name: fullName(row.author) },
    comments: row.comments?.map((comment: Record<string, unknown>) => ({ ...comment, text: comment.body }))
  }
}

test('drizzleQuery loads relations of relations, at any depth, with their own sources and hidden fields', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({
    client,
    schema: { users, profiles, posts, comments, usersRelations, postsWithComments, commentsRelations },
    logger: { logQuery: (query) => { sql.push(query) } }
  })
  const load = drizzleQuery(posts, postFields)
  const app = await postsAppWith(t, async (selection) => {
    const rows = await db.query.posts.findMany({ ...load(selection), orderBy: posts.id })
    return rows.map(postOf)
  })
  checkPostStatements(t, await statementsOf(t, app, sql, postRequests))
})

test('drizzleSelect joins one-to-one and many-to-one relations at any depth, each as a nested object', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({ client, logger: { logQuery: (query) => { sql.push(query) } } })
  // The comments, which are many, are not joined: a request for them is refused by the route's own field list.
  const load = drizzleSelect(posts, {
    relations: { author: { table: users, relations: { profile: profiles } } },
    fields: { ...postFields.fields, comments: false }
  })
  const app = await postsAppWith(t, async (selection) => {
    const rows = await db.select(load(selection)).from(posts)
      .leftJoin(users, eq(posts.authorId, users.id))
      .leftJoin(profiles, eq(users.profileId, profiles.id))
      .orderBy(posts.id)
    return rows.map((row: Record<string, any>) => postOf({ ...row, comments: undefined }))
  })
  const requests = postRequests.filter(({ url }) => url.includes('author') && !url.includes('comments'))
  t.strictSame(requests.map(({ url }) => url), ['/posts?only=title,author.profile.city', '/posts?only=author.profile'])
  const ran = await statementsOf(t, app, sql, requests)
  t.strictSame(ran, [
    ['select "posts"."id", "posts"."title", "users"."id", "profiles"."id", "profiles"."city" from "posts" left join "users" on "posts"."author_id" = "users"."id" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "posts"."id"'],
    ['select "posts"."id", "users"."id", "profiles"."id", "profiles"."city", "profiles"."phone" from "posts" left join "users" on "posts"."author_id" = "users"."id" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "posts"."id"']
  ])
})

test('with column privileges, the query builder names only the columns it reads; relational queries read whole related rows', async (t) => {
  const client = await isolated(t)
  await grantOnlyNameAndCity(client)
  const sql: string[] = []
  const db = drizzle({
    client,
    schema: { users, profiles, posts, usersRelations, postsRelations },
    logger: { logQuery: (query) => { sql.push(query) } }
  })
  const joined = drizzleSelect(users, joinedFields)
  const joinedApp = await appWith(t, async (selection) => {
    return await db.select(joined(selection)).from(users).leftJoin(profiles, eq(users.profileId, profiles.id)).orderBy(users.id)
  })
  const response = await joinedApp.inject('/db/users?only=name,profile.city')
  t.strictSame([response.statusCode, response.body], [200, nameAndCity])
  const related = drizzleQuery(users, userFields)
  const relationalApp = await appWith(t, async (selection) => await db.query.users.findMany({ ...related(selection), orderBy: users.id }))
  sql.length = 0
  t.equal((await relationalApp.inject('/db/users?only=name,profile.city')).statusCode, 500, 'permission denied for table profiles')
  t.match(sql[0], /\(select \* from "profiles" "users_profile"/, 'its inner query reads every column of the related table')
})

test('drizzleSelect tells a joined row kept with none of its fields from none by its primary key, and refuses a table without one', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = drizzle({ client, logger: { logQuery: (query) => { sql.push(query) } } })
  const keyless = pgTable('profiles', { city: text().notNull(), phone: text() })
  const routes = { profile: { relation: 'profile', always: [] }, posts: false } as const
  const byKey = drizzleSelect(users, { relations: { profile: profiles }, fields: { ...joinedFields.fields, ...routes } })
  const withoutKey = drizzleSelect(users, { relations: { profile: keyless }, fields: { ...joinedFields.fields, ...routes } })
  let load: typeof byKey = byKey
  const app = await appWith(t, async (selection) => {
    return await db.select(load(selection)).from(users).leftJoin(profiles, eq(users.profileId, profiles.id)).orderBy(users.id)
  })
  const fromDb = await app.inject('/db/users?only=name,profile&defer=profile.city')
  t.strictSame([fromDb.statusCode, fromDb.body], [200, (await app.inject('/memory/users?only=name,profile&defer=profile.city')).body])
  t.strictSame(sql, ['select "users"."id", "users"."name", "profiles"."id" from "users" left join "profiles" on "users"."profile_id" = "profiles"."id" order by "users"."id"'])
  load = withoutKey as typeof byKey
  const refused = await app.inject('/db/users?only=name,profile&defer=profile.city')
  t.strictSame([refused.statusCode, refused.json().code], [500, 'FST_RESTRICTED_FIELDS_LOAD_FAILED'])
})

// The shared database closes once every test has run.
end()
