/** Where the example's users come from: memory, or a database that selects only the columns it is asked for. */
import type { User } from './users.js'

/** The fields of a user, which are also the columns of the users table. */
export const USER_FIELDS = ['id', 'name', 'email', 'is_staff', 'last_login'] as const

export type UserRow = Partial<User>

export interface UserStore {
  count: () => Promise<number>
  /** Users in id order; `columns` are the fields the response needs (a store may return more). */
  page: (offset: number, limit: number, columns: readonly string[]) => Promise<UserRow[]>
  byId: (id: number, columns: readonly string[]) => Promise<UserRow | undefined>
}

/** A store over an array held in memory; it returns whole users and lets the plugin drop fields. */
export function memoryStore (users: User[]): UserStore {
  const byId = new Map(users.map((user) => [user.id, user]))
  return {
    count: async () => users.length,
    page: async (offset, limit) => users.slice(offset, offset + limit),
    byId: async (id) => byId.get(id)
  }
}
