/**
 * A typed client of the example API: each call writes its selection once,
 * as a literal, and `data` is typed by it. The types come from the document
 * an anonymous caller is served (`npm run example:client-types`); the
 * requests go through openapi-fetch, which sends the same literal.
 */
import createClient from 'openapi-fetch'
import { restrictedClient } from '../lib/client/index.js'
import type { FetchClient } from '../lib/client/index.js'
import type { paths } from './api.js'
import type { RestrictedRoutes } from './restricted.js'

/**
 * Every key of `T`, each once: it compiles only when the list names them
 * all, so a test can compare a reply's keys with what its type allows.
 */
function keysOf<T> () {
  return <const K extends ReadonlyArray<keyof T>>(
    ...keys: K & ([keyof T] extends [K[number]] ? unknown : never)
  ): readonly string[] => keys.map(String)
}

/** One call: what it was sent, its reply, and the keys its type allows each record. */
export interface Call { path: string, data: unknown, records: readonly unknown[], keys: readonly string[] }

/** Calls both routes with `only`, a field set and `defer`, reading only what each selected. */
export async function tour (client: FetchClient, id: number): Promise<Call[]> {
  const api = restrictedClient<RestrictedRoutes>(client)
  const calls: Call[] = []

  // One user, two fields: the type has exactly these two.
  const picked = await api.GET('/api/users/{id}', { params: { path: { id }, query: { only: ['id', 'email'] } } })
  if (picked.data === undefined) throw new Error(`GET /api/users/${id}: ${JSON.stringify(picked.error)}`)
  const email: string | null = picked.data.email
  // @ts-expect-error name was not selected
  console.assert(picked.data.name === undefined, email)
  calls.push({ path: `/api/users/${id}`, data: picked.data, records: [picked.data], keys: keysOf<typeof picked.data>()('id', 'email') })

  // A page of users in the summary set (id and name, as the document says): the envelope's keys are kept.
  const page = await api.GET('/api/users/', { params: { query: { only: ['@summary'], page: '1' } } })
  if (page.data === undefined) throw new Error(`GET /api/users/: ${JSON.stringify(page.error)}`)
  const names: string[] = page.data.results.map((user) => `${user.id} ${user.name.toUpperCase()}`)
  const total: number = page.data.count
  // @ts-expect-error is_staff is not in the summary set
  console.assert(page.data.results[0]?.is_staff === undefined, names, total)
  calls.push({ path: '/api/users/', data: page.data, records: page.data.results, keys: keysOf<(typeof page.data.results)[number]>()('id', 'name') })

  // Every field but the email: without only, defer leaves the rest.
  const deferred = await api.GET('/api/users/{id}', { params: { path: { id }, query: { defer: ['email'] } } })
  if (deferred.data === undefined) throw new Error(`GET /api/users/${id}: ${JSON.stringify(deferred.error)}`)
  const staff: boolean = deferred.data.is_staff
  // @ts-expect-error email was deferred
  console.assert(deferred.data.email === undefined, staff)
  calls.push({ path: `/api/users/${id}`, data: deferred.data, records: [deferred.data], keys: keysOf<typeof deferred.data>()('id', 'name', 'is_staff', 'profile', 'posts') })

  return calls
}

/** The client of an example server at `baseUrl`. */
export function exampleClient (baseUrl: string): FetchClient {
  return createClient<paths>({ baseUrl })
}
