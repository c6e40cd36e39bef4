import { end, test } from 'tap'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { Prisma, PrismaClient } from './prisma/generated/client.js'
import { prismaSelect } from '../../lib/orm/prisma.js'
import { appWith, checkPostStatements, grantOnlyNameAndCity, nameAndCity, fullName, loaded, postRequests, postsAppWith, quoted, seeded, isolated, statementsOf } from './fixture.js'

const loadUsers = prismaSelect(
  { name: 'User', fields: Prisma.UserScalarFieldEnum },
  {
    relations: { profile: { name: 'Profile', fields: Prisma.ProfileScalarFieldEnum }, posts: { name: 'Post', fields: Prisma.PostScalarFieldEnum } },
    fields: { last_login: 'lastLogin', full_name: { dependsOn: ['firstName', 'lastName'] } }
  }
)

/**
 * The statements Prisma runs for these columns of users, and of its profile
 * and posts when given: one per table, each relation's key added by Prisma.
 */
function statements (columns: string[], profile?: string[], posts?: string[]): string[] {
  const users = profile === undefined ? columns : [...columns, 'profile_id']
  const ran = [`SELECT ${quoted(users, '"public"."users".')} FROM "public"."users" WHERE 1=1 ORDER BY "public"."users"."id" ASC OFFSET $1`]
  if (profile !== undefined) ran.push(`SELECT ${quoted(profile, '"public"."profiles".')} FROM "public"."profiles" WHERE "public"."profiles"."id" IN ($1,$2,$3) OFFSET $4`)
  if (posts !== undefined) ran.push(`SELECT ${quoted([...posts, 'author_id'], '"public"."posts".')} FROM "public"."posts" WHERE "public"."posts"."author_id" IN ($1,$2,$3) OFFSET $4`)
  return ran
}

test('prismaSelect loads exactly the columns and relations each response sends, and the response is the one served from memory', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client), log: [{ emit: 'event', level: 'query' }] })
  t.teardown(() => prisma.$disconnect())
  prisma.$on('query', (event) => { sql.push(event.query) })
  const app = await appWith(t, async (selection) => {
    const rows = await prisma.user.findMany({ select: loadUsers(selection), orderBy: { id: 'asc' } }) as Array<Record<string, any>>
    return rows.map((row) => ({ ...row, last_login: row.lastLogin, full_name: fullName(row) }))
  })
  t.strictSame(
    await statementsOf(t, app, sql),
    loaded.map(([columns, profile, posts]) => columns === null ? [] : statements(columns, profile, posts))
  )
})

test('on a route that is not opted in, Prisma loads every scalar field; a field of no model does not compile and throws', async (t) => {
  t.equal(loadUsers({ restricted: false, fields: [], paths: [], has: () => true }), undefined)
  // @ts-expect-error -- not a field of User
  t.throws(() => prismaSelect({ name: 'User', fields: Prisma.UserScalarFieldEnum }, { fields: { last_login: 'last_login' } }), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE',
    message: "Field 'last_login' loads column 'last_login', which table 'User' does not have; its columns are 'id', 'name', 'email', 'isStaff', 'lastLogin', 'passwordHash', 'firstName', 'lastName', 'profileId'"
  })
})

// Three levels of relations: a post's author and the author's profile, its comments and each comment's author.
const loadPosts = prismaSelect(
  { name: 'Post', fields: Prisma.PostScalarFieldEnum },
  {
    relations: {
      author: { name: 'User', fields: Prisma.UserScalarFieldEnum, relations: { profile: { name: 'Profile', fields: Prisma.ProfileScalarFieldEnum } } },
      comments: { name: 'Comment', fields: Prisma.CommentScalarFieldEnum, relations: { author: { name: 'User', fields: Prisma.UserScalarFieldEnum } } }
    },
    fields: {
      author: { relation: 'author', fields: { full_name: { dependsOn: ['firstName', 'lastName'] } } },
      comments: { relation: 'comments', fields: { text: 'body' }, always: [] }
    }
  }
)

test('prismaSelect nests a select for relations of relations, at any depth, with their own sources and hidden fields', async (t) => {
  const client = await seeded()
  const sql: string[] = []
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client), log: [{ emit: 'event', level: 'query' }] })
  t.teardown(() => prisma.$disconnect())
  prisma.$on('query', (event) => { sql.push(event.query) })
  const app = await postsAppWith(t, async (selection) => {
    const rows = await prisma.post.findMany({ select: loadPosts(selection), orderBy: { id: 'asc' } }) as Array<Record<string, any>>
    return rows.map((row) => ({
      ...row,
      author: row.author === undefined ? undefined : { ...row.author, full_name: fullName(row.author) },
      comments: row.comments?.map((comment: Record<string, unknown>) => ({ ...comment, text: comment.body }))
    }))
  })
  checkPostStatements(t, await statementsOf(t, app, sql, postRequests))
})

test('with column privileges, the statements name only the columns a selection reads, and the keys Prisma joins on, so they run', async (t) => {
  const client = await isolated(t)
  await grantOnlyNameAndCity(client)
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) })
  t.teardown(() => prisma.$disconnect())
  const app = await appWith(t, async (selection) => await prisma.user.findMany({ select: loadUsers(selection), orderBy: { id: 'asc' } }))
  const response = await app.inject('/db/users?only=name,profile.city')
  t.strictSame([response.statusCode, response.body], [200, nameAndCity])
})

test('a relation kept with none of its fields and no always-loaded column is refused with a 500 that names no column', async (t) => {
  const load = prismaSelect(
    { name: 'User', fields: Prisma.UserScalarFieldEnum },
    { relations: { profile: { name: 'Profile', fields: Prisma.ProfileScalarFieldEnum } }, fields: { profile: { relation: 'profile', always: [] } } }
  )
  const kept = { restricted: true, fields: ['profile'], paths: ['profile'], has: () => true }
  t.throws(() => load(kept), { code: 'FST_RESTRICTED_FIELDS_LOAD_FAILED', cause: { message: "Relation 'profile' is kept with none of its fields and has no always-loaded column to tell a row from none; give the relation `always`" } })
  t.strictSame(load({ ...kept, paths: ['profile', 'profile.city'] }), { id: true, profile: { select: { city: true } } })
})

// The shared database closes once every test has run.
end()
