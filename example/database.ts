/**
 * The database example's store: an embedded Postgres (PGlite, compiled to
 * WebAssembly, no server to run) queried through Drizzle, loading only the
 * columns a response will contain, through the plugin's Drizzle adapter.
 */
import { PGlite } from '@electric-sql/pglite'
import { count, eq } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { drizzleSelect } from '../lib/orm/drizzle.js'
import type { UserRow, UserStore } from './store.js'
import type { User } from './users.js'

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

/** Creates an in-memory database with a users table holding `users`. */
export async function seededDatabase (seed: User[]): Promise<PGlite> {
  const db = await PGlite.create()
  await db.exec('CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, email text, is_staff boolean NOT NULL, last_login text, password_hash text NOT NULL)')
  await db.transaction(async (tx) => {
    for (const user of seed) {
      await tx.query('INSERT INTO users (id, name, email, is_staff, last_login, password_hash) VALUES ($1, $2, $3, $4, $5, $6)', [user.id, user.name, user.email, user.is_staff, user.last_login, `hash-${user.id}`])
    }
  })
  return db
}

// The API's fields are the table's column keys, so no field needs a source; `id` is always loaded, to order and page by.
const loadUsers = drizzleSelect(users)

/** A store over the database; `onQuery` gets each statement Drizzle runs. */
export function databaseStore (client: PGlite, onQuery: (sql: string) => void = () => {}): UserStore {
  const db = drizzle({ client, logger: { logQuery: (sql) => { onQuery(sql) } } })
  return {
    count: async () => (await db.select({ n: count() }).from(users))[0].n,
    page: async (offset, limit, selection) => await db.select(loadUsers(selection)).from(users).orderBy(users.id).limit(limit).offset(offset) as UserRow[],
    byId: async (id, selection) => (await db.select(loadUsers(selection)).from(users).where(eq(users.id, id)) as UserRow[])[0]
  }
}
