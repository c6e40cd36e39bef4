/** Where the example's users come from: memory, or a database that selects only the columns it is asked for. */
import type { FieldSelection, LoadCheck } from '../lib/index.js'
import type { User } from './users.js'

export type UserRow = Partial<User>

export interface UserStore {
  count: () => Promise<number>
  /** Users in id order; `selection` says which fields the response needs (a store may return more). */
  page: (offset: number, limit: number, selection: FieldSelection) => Promise<UserRow[]>
  byId: (id: number, selection: FieldSelection) => Promise<UserRow | undefined>
  /** The loader a store loads through, whose sources every declared field is checked against when the routes are declared. */
  loads?: LoadCheck
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
