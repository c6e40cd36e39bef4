/**
 * The database example's store: an embedded Postgres (PGlite, compiled to
 * WebAssembly, no server to run) that selects only the columns a response
 * will contain. Every statement sent is appended to `log`.
 */
import { PGlite } from '@electric-sql/pglite'
import { USER_FIELDS } from './store.js'
import type { UserRow, UserStore } from './store.js'
import type { User } from './users.js'

/** Creates an in-memory database with a users table holding `users`. */
export async function seededDatabase (users: User[]): Promise<PGlite> {
  const db = await PGlite.create()
  // last_login is kept as the ISO text the API sends, so that both stores answer byte for byte alike.
  await db.exec('CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, email text, is_staff boolean NOT NULL, last_login text)')
  await db.transaction(async (tx) => {
    for (const user of users) {
      await tx.query('INSERT INTO users (id, name, email, is_staff, last_login) VALUES ($1, $2, $3, $4, $5)', [user.id, user.name, user.email, user.is_staff, user.last_login])
    }
  })
  return db
}

/**
 * The column list for a set of fields: the primary key (which ordering and
 * paging need) and the requested fields, each checked against the table's
 * columns. The plugin only ever names declared fields; the check is a second lock.
 */
export function columnList (fields: readonly string[]): string {
  const columns = USER_FIELDS.filter((column) => column === 'id' || fields.includes(column))
  return columns.map((column) => `"${column}"`).join(', ')
}

export function databaseStore (db: PGlite, log: string[] = []): UserStore {
  async function query<T> (sql: string, params: unknown[] = []): Promise<T[]> {
    log.push(sql)
    return (await db.query<T>(sql, params)).rows
  }
  return {
    count: async () => (await query<{ n: number }>('SELECT count(*)::integer AS n FROM users'))[0].n,
    page: async (offset, limit, fields) => query<UserRow>(`SELECT ${columnList(fields)} FROM users ORDER BY id LIMIT $1 OFFSET $2`, [limit, offset]),
    byId: async (id, fields) => (await query<UserRow>(`SELECT ${columnList(fields)} FROM users WHERE id = $1`, [id]))[0]
  }
}
