import { end, test } from 'tap'
import { Kysely } from 'kysely'
import type { Generated } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import { KyselyPGlite } from 'kysely-pglite'
import { kyselySelect } from '../../lib/orm/kysely.js'
import { appWith, checkPostStatements, grantOnlyNameAndCity, nameAndCity, fullName, loaded, postRequests, postsAppWith, quoted, seeded, isolated, statementsOf } from './fixture.js'

interface Database {
  users: {
    id: Generated<number>
    name: string
    email: string | null
    is_staff: boolean
    last_login: string | null
    password_hash: string
    first_name: string
    last_name: string
    profile_id: number | null
  }
  profiles: { id: number, city: string, phone: string | null }
  posts: { id: number, author_id: number, title: string, body: string }
  comments: { id: number, post_id: number, author_id: number, body: string, flagged: boolean }
}

const loadUsers = kyselySelect<Database, 'users', { profile: 'profiles', posts: 'posts' }>(
  { table: 'users', columns: ['id', 'name', 'email', 'is_staff', 'last_login', 'first_name', 'last_name', 'profile_id'] },
  {
    relations: { profile: { table: 'profiles', columns: ['id', 'city', 'phone'] }, posts: { table: 'posts', columns: ['id', 'title'] } },
    fields: { isStaff: 'is_staff', full_name: { dependsOn: ['first_name', 'last_name'] } }
  }
)

/** The statement the handler below runs for these columns of users, and of its profile and posts when given. */
function selectStatement (columns: string[], profile?: string[], posts?: string[]): string {
  const selected = [quoted(columns)]
  if (profile !== undefined) selected.push(`(select to_json(obj) from (select ${quoted(profile)} from "profiles" where "profiles"."id" = "users"."profile_id") as obj) as "profile"`)
  if (posts !== undefined) selected.push(`(select coalesce(json_agg(agg), '[]') from (select ${quoted(posts)} from "posts" where "posts"."author_id" = "users"."id" order by "posts"."id") as agg) as "posts"`)
  return `select ${selected.join(', ')} from "users" order by "users"."id"`
}

test('kyselySelect loads exactly the columns and relations each response sends, and the response is the one served from memory', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = new Kysely<Database>({ dialect: new KyselyPGlite(client).dialect, log: (event) => { if (event.level === 'query') sql.push(event.query.sql) } })
  const app = await appWith(t, async (selection) => {
    const plan = loadUsers(selection)
    const { profile, posts } = plan.relations
    const rows = await db.selectFrom('users').select(plan.columns)
      .$if(profile !== undefined, (query) => query.select((eb) => jsonObjectFrom(eb.selectFrom('profiles').select(profile!.columns).whereRef('profiles.id', '=', 'users.profile_id')).as('profile')))
      .$if(posts !== undefined, (query) => query.select((eb) => jsonArrayFrom(eb.selectFrom('posts').select(posts!.columns).whereRef('posts.author_id', '=', 'users.id').orderBy('posts.id')).as('posts')))
      .orderBy('users.id').execute()
    return rows.map((row: Record<string, any>) => ({
      ...row,
      isStaff: row.is_staff,
      full_name: fullName({ firstName: row.first_name, lastName: row.last_name })
    }))
  })
  t.strictSame(
    await statementsOf(t, app, sql),
    loaded.map(([columns, profile, posts]) => columns === null ? [] : [selectStatement(columns, profile, posts)])
  )
})

test('on a route that is not opted in, the plan holds every column listed and every relation', async (t) => {
  const notOptedIn = { restricted: false, fields: [], paths: [], has: () => true }
  t.strictSame(loadUsers(notOptedIn), {
    columns: ['id', 'name', 'email', 'is_staff', 'last_login', 'first_name', 'last_name', 'profile_id'],
    relations: { profile: { columns: ['id', 'city', 'phone'], relations: {} }, posts: { columns: ['id', 'title'], relations: {} } }
  })
  t.strictSame(kyselySelect<Database, 'posts'>({ table: 'posts', columns: ['id', 'title'] })(notOptedIn), { columns: ['id', 'title'], relations: {} })
  // @ts-expect-error -- not a column of posts
  t.throws(() => kyselySelect<Database, 'posts'>({ table: 'posts', columns: ['id', 'title'] }, { fields: { heading: 'headline' } }), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE',
    message: "Field 'heading' loads column 'headline', which table 'posts' does not have; its columns are 'id', 'title'"
  })
})

// Three levels of relations: a post's author and the author's profile, its comments and each comment's author.
const loadPosts = kyselySelect<Database, 'posts', { author: { table: 'users', relations: { profile: 'profiles' } }, comments: { table: 'comments', relations: { author: 'users' } } }>(
  { table: 'posts', columns: ['id', 'title'] },
  {
    relations: {
      author: { table: 'users', columns: ['id', 'name', 'first_name', 'last_name'], relations: { profile: { table: 'profiles', columns: ['id', 'city', 'phone'] } } },
      comments: { table: 'comments', columns: ['id', 'body', 'flagged'], relations: { author: { table: 'users', columns: ['id', 'name'] } } }
    },
    fields: {
      author: { relation: 'author', fields: { full_name: { dependsOn: ['first_name', 'last_name'] } } },
      comments: { relation: 'comments', fields: { text: 'body' }, always: [] }
    }
  }
)

test('kyselySelect plans relations of relations, at any depth, with their own sources and hidden fields', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const db = new Kysely<Database>({ dialect: new KyselyPGlite(client).dialect, log: (event) => { if (event.level === 'query') sql.push(event.query.sql) } })
  const app = await postsAppWith(t, async (selection) => {
    const plan = loadPosts(selection)
    const { author, comments } = plan.relations
    const profile = author?.relations.profile
    const commenter = comments?.relations.author
    const rows = await db.selectFrom('posts').select(plan.columns)
      .$if(author !== undefined, (query) => query.select((eb) => jsonObjectFrom(eb.selectFrom('users').select(author!.columns)
        .$if(profile !== undefined, (inner) => inner.select((eb) => jsonObjectFrom(eb.selectFrom('profiles').select(profile!.columns).whereRef('profiles.id', '=', 'users.profile_id')).as('profile')))
        .whereRef('users.id', '=', 'posts.author_id')).as('author')))
      .$if(comments !== undefined, (query) => query.select((eb) => jsonArrayFrom(eb.selectFrom('comments').select(comments!.columns)
        .$if(commenter !== undefined, (inner) => inner.select((eb) => jsonObjectFrom(eb.selectFrom('users').select(commenter!.columns).whereRef('users.id', '=', 'comments.author_id')).as('author')))
        .whereRef('comments.post_id', '=', 'posts.id').orderBy('comments.id')).as('comments')))
      .orderBy('posts.id').execute()
    return rows.map((row: Record<string, any>) => ({
      ...row,
      author: row.author === undefined
        ? undefined
        : { ...row.author, full_name: fullName({ firstName: row.author.first_name, lastName: row.author.last_name }) },
      comments: row.comments?.map((comment: Record<string, unknown>) => ({ ...comment, text: comment.body }))
    }))
  })
  checkPostStatements(t, await statementsOf(t, app, sql, postRequests))
})

test('with column privileges, the statements name only the columns a selection reads, so they run', async (t) => {
  const client = await isolated(t)
  await grantOnlyNameAndCity(client)
  const db = new Kysely<Database>({ dialect: new KyselyPGlite(client).dialect })
  const app = await appWith(t, async (selection) => {
    const plan = loadUsers(selection)
    const profile = plan.relations.profile
    return await db.selectFrom('users').select(plan.columns)
      .$if(profile !== undefined, (query) => query.select((eb) => jsonObjectFrom(eb.selectFrom('profiles').select(profile!.columns).whereRef('profiles.id', '=', 'users.profile_id')).as('profile')))
      .orderBy('users.id').execute()
  })
  const response = await app.inject('/db/users?only=name,profile.city')
  t.strictSame([response.statusCode, response.body], [200, nameAndCity])
})

// The shared database closes once every test has run.
end()
