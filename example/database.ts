/**
 * The database example's store: an embedded Postgres (PGlite, compiled to
 * WebAssembly, no server to run) queried through Drizzle, loading only the
 * columns and relations a response will contain, through the plugin's
 * Drizzle adapter.
 */
import { PGlite } from '@electric-sql/pglite'
import { count, eq, inArray } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type { FieldSelection } from '../lib/index.js'
import { drizzleSelect } from '../lib/orm/drizzle.js'
import type { UserRow, UserStore } from './store.js'
import type { Post, User } from './users.js'

// last_login is kept as the ISO text the API sends, so that both stores answer byte for byte alike.
// password_hash is declared by no response field: the adapter never loads it.
const users = pgTable('users', {
  id: integer().primaryKey(),
  name: text().notNull(),
  email: text(),
  is_staff: boolean().notNull(),
  last_login: text(),
  password_hash: text().notNull()
})

// One row per user who has a profile, keyed by the user: with no `id` column, a profile loads no key of its own.
const profiles = pgTable('profiles', {
  user_id: integer().primaryKey().references(() => users.id),
  city: text().notNull(),
  phone: text().notNull()
})

const posts = pgTable('posts', {
  id: integer().primaryKey(),
  user_id: integer().notNull().references(() => users.id),
  title: text().notNull()
})

/** Creates an in-memory database holding `users`, their profiles and their posts. */
export async function seededDatabase (seed: User[]): Promise<PGlite> {
  const db = await PGlite.create()
  await db.exec(`CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, email text, is_staff boolean NOT NULL, last_login text, password_hash text NOT NULL);
    CREATE TABLE profiles (user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE, city text NOT NULL, phone text NOT NULL);
    CREATE TABLE posts (id integer PRIMARY KEY, user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE, title text NOT NULL)`)
  await db.transaction(async (tx) => {
    for (const user of seed) {
      await tx.query('INSERT INTO users (id, name, email, is_staff, last_login, password_hash) VALUES ($1, $2, $3, $4, $5, $6)', [user.id, user.name, user.email, user.is_staff, user.last_login, `hash-${user.id}`])
      if (user.profile !== null) await tx.query('INSERT INTO profiles (user_id, city, phone) VALUES ($1, $2, $3)', [user.id, user.profile.city, user.profile.phone])
      for (const post of user.posts) await tx.query('INSERT INTO posts (id, user_id, title) VALUES ($1, $2, $3)', [post.id, user.id, post.title])
    }
  })
  return db
}

// The API's fields are the tables' column keys, so no field needs a source; a user's `id` is always loaded, to
// order and page by, and to find the posts. `profile` is a left join: Drizzle gives null where a user has none.
// `posts`, a one-to-many, is not joined: its columns come from the same plan, and a second query loads the posts
// of every user of the page at once, keyed by user id. Drizzle's relational queries (drizzleQuery) would load it
// in the same statement, but they read a one-to-one relation through `select *` of its table: here each statement
// names the columns it reads, and a profile's phone is never read for a caller who may not see it.
const loadUsers = drizzleSelect(users, {
  relations: { profile: profiles, posts },
  // A post's user_id is loaded whatever is selected, to group the posts by user; no response field declares it.
  fields: { posts: { relation: 'posts', always: ['id', 'user_id'] } }
})

/** A store over the database; `onQuery` gets each statement Drizzle runs. */
export function databaseStore (client: PGlite, onQuery: (sql: string) => void = () => {}): UserStore {
  const db = drizzle({ client, logger: { logQuery: (sql) => { onQuery(sql) } } })

  /** A page of users in id order, or the user with an id, with what `selection` sends of their profiles and posts. */
  async function load (selection: FieldSelection, which: { offset: number, limit: number } | { id: number }): Promise<UserRow[]> {
    // The adapter's type does not tell the posts' select object from a column: both are read as Drizzle's select objects.
    const { posts: postColumns, ...columns } = loadUsers(selection) as Readonly<Record<string, SelectedFields[string]>>
    let query = db.select(columns).from(users).$dynamic()
    if ('profile' in columns) query = query.leftJoin(profiles, eq(profiles.user_id, users.id))
    query = 'id' in which ? query.where(eq(users.id, which.id)) : query.orderBy(users.id).limit(which.limit).offset(which.offset)
    const rows = await query as UserRow[]
    if (postColumns === undefined || rows.length === 0) return rows
    const byUser = new Map<number, Array<Partial<Post>>>(rows.map((row) => [row.id as number, []]))
    const found = await db.select(postColumns as SelectedFields)
      .from(posts)
      .where(inArray(posts.user_id, [...byUser.keys()]))
      .orderBy(posts.id) as Array<Partial<Post> & { user_id: number }>
    for (const { user_id: userId, ...post } of found) byUser.get(userId)!.push(post)
    return rows.map((row) => ({ ...row, posts: byUser.get(row.id as number) as Post[] }))
  }

  return {
    count: async () => (await db.select({ n: count() }).from(users))[0].n,
    page: async (offset, limit, selection) => await load(selection, { offset, limit }),
    byId: async (id, selection) => (await load(selection, { id }))[0],
    loads: loadUsers
  }
}
