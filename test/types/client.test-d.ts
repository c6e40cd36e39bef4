// Compiled by `npm run test:types`: a client typed from the example's generated document types
// (example/api.ts and example/restricted.ts) gets each reply exactly as its selection makes it.
import createClient from 'openapi-fetch'
import { restrictedClient } from '../../lib/client/index.js'
import type { RestrictedData, RestrictedQuery } from '../../lib/client/index.js'
import type { components, paths } from '../../example/api.js'
import type { RestrictedRoutes } from '../../example/restricted.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

type One = RestrictedRoutes['/api/users/{id}']['get']
type List = RestrictedRoutes['/api/users/']['get']
type Page = components['schemas']['pageRestricted' & keyof components['schemas']] extends never ? paths['/api/users/']['get']['responses'][200]['content']['application/json'] : never

const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://localhost' }))

// Required-ness and nullability as in the complete user; only the selected fields.
export type Picked = Expect<Equal<RestrictedData<One, { params: { query: { only: readonly ['id', 'email'] } } }>, { id: number, email: string | null }>>
// A set, by name, with its members from the document.
export type Summary = Expect<Equal<RestrictedData<One, { params: { query: { only: readonly ['@summary', 'is_staff'] } } }>, { id: number, name: string, is_staff: boolean }>>
// Without only, every field (the route has no default fields); `*` too; defer after only.
export type Everything = Expect<Equal<RestrictedData<One, {}>, components['schemas']['userVisible']>>
export type Star = Expect<Equal<RestrictedData<One, { params: { query: { only: readonly ['*'], defer: readonly ['email', 'name', 'posts'] } } }>, { id: number, is_staff: boolean, profile: { city: string } | null }>>
// The envelope keeps its keys as documented; its records are narrowed.
export type Envelope = Expect<Equal<RestrictedData<List, { params: { query: { only: readonly ['name'] } } }>,
  { count: number, next: string | null, previous: string | null, results: Array<{ name: string }> }>>
export type EnvelopeIsDocumented = Expect<Equal<Omit<Page, 'results'>, { count: number, next: string | null, previous: string | null }>>
// The query keeps the operation's own parameters.
export type Query = Expect<Equal<RestrictedQuery<List>['page'], string | undefined>>

export async function calls (): Promise<void> {
  const one = await api.GET('/api/users/{id}', { params: { path: { id: 1 }, query: { only: ['id', 'email'] } } })
  if (one.data !== undefined) {
    const exact: Expect<Equal<typeof one.data, { id: number, email: string | null }>> = true
    // @ts-expect-error name was not selected
    console.log(exact, one.data.name)
  } else {
    const code: number = one.error.statusCode
    console.log(code)
  }
  const list = await api.GET('/api/users/', { params: { query: { only: ['@summary'] } } })
  const summary: Expect<Equal<NonNullable<typeof list.data>['results'], Array<{ id: number, name: string }>>> = true
  const all = await api.GET('/api/users/')
  const every: Expect<Equal<NonNullable<typeof all.data>['results'], Array<components['schemas']['userVisible']>>> = true
  console.log(summary, every, list.response.status, all.response.status)
  // @ts-expect-error 'nmae' is not a field of the user
  await api.GET('/api/users/{id}', { params: { path: { id: 1 }, query: { only: ['nmae'] } } })
  // @ts-expect-error last_login is hidden from the anonymous document's caller
  await api.GET('/api/users/', { params: { query: { only: ['last_login'] } } })
  // @ts-expect-error the envelope's keys are not fields of its records
  await api.GET('/api/users/', { params: { query: { only: ['count'] } } })
  // @ts-expect-error defer takes names, not sets
  await api.GET('/api/users/', { params: { query: { defer: ['@summary'] } } })
  // @ts-expect-error there is no set '@card'
  await api.GET('/api/users/', { params: { query: { only: ['@card'] } } })
  // @ts-expect-error the user's id is a required path parameter
  await api.GET('/api/users/{id}', { params: { query: { only: ['id'] } } })
  // @ts-expect-error /api/users is no restricted operation of the document
  await api.GET('/api/users', {})
}
