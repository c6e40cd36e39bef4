// Compiled by `npm run test:types`: a client typed from a generated document (test/types/generated,
// kept up to date by test/client/methods.test.ts) narrows the records of every method and every
// restricted status by the call's selection; a list whose names are not known leaves every field
// optional; a route's maxDepth bounds the paths.
import createClient from 'openapi-fetch'
import { restrictedClient } from '../../lib/client/index.js'
import type { components, paths } from './generated/api.js'
import type { RestrictedRoutes } from './generated/restricted.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

type User = components['schemas']['userVisible']
const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://localhost' }))

export async function methods (): Promise<void> {
  // A POST whose 201 sends the created user: narrowed as a GET is; the body is the operation's.
  const created = await api.POST('/users', { body: { name: 'Ada' }, params: { query: { only: ['id', 'address.city'] } } })
  const post: Expect<Equal<typeof created.data, { id: number, address: { city: string } } | undefined>> = true
  // PUT takes its path parameter and body.
  const replaced = await api.PUT('/users/{id}', { params: { path: { id: 1 }, query: { only: ['@summary'] } }, body: { name: 'Ada' } })
  const put: Expect<Equal<typeof replaced.data, { id: number, name: string } | undefined>> = true
  // PATCH: its 200 sends a user and its 202 a change, each narrowed by the same selection.
  const updated = await api.PATCH('/users/{id}', { params: { path: { id: 1 }, query: { only: ['id', 'status'] } } })
  const patch: Expect<Equal<typeof updated.data, { id: number } | { id: number, status: string } | undefined>> = true
  // DELETE: its 200 narrowed, its 204 without a body.
  const deleted = await api.DELETE('/users/{id}', { params: { path: { id: 1 }, query: { defer: ['address'] } } })
  const del: Expect<Equal<typeof deleted.data, { id: number, name: string, email: string | null } | undefined>> = true
  // Without only, the route's default fields (here id), in the envelope the route names (items).
  const listed = await api.GET('/users')
  const list: Expect<Equal<NonNullable<typeof listed.data>, { total: number, items: Array<{ id: number }> }>> = true
  // An empty list sends no parameter: the default fields again.
  const none = await api.GET('/users', { params: { query: { only: [] } } })
  const empty: Expect<Equal<NonNullable<typeof none.data>['items'], Array<{ id: number }>>> = true
  console.log(post, put, patch, del, list, empty, created, replaced, updated, deleted, listed, none)

  // @ts-expect-error a POST sends its body
  await api.POST('/users', { params: { query: { only: ['id'] } } })
  // @ts-expect-error the body is the operation's
  await api.POST('/users', { body: { nickname: 'Ada' } })
  // @ts-expect-error 'nmae' is not a field of a record of PATCH
  await api.PATCH('/users/{id}', { params: { path: { id: 1 }, query: { only: ['nmae'] } } })
  // @ts-expect-error secret is hidden from the document's caller
  await api.DELETE('/users/{id}', { params: { path: { id: 1 }, query: { only: ['secret'] } } })
  // @ts-expect-error /users has no restricted DELETE
  await api.DELETE('/users', {})
}

export async function notLiteral (fields: string[], names: Array<'id' | 'email'>): Promise<void> {
  // @ts-expect-error a list of any strings may name what the route does not declare
  await api.GET('/users', { params: { query: { only: fields } } })
  // A list of known names that is not a literal may send any of them, or none: every field is optional, at every depth.
  const some = await api.POST('/users', { body: { name: 'Ada' }, params: { query: { only: names } } })
  const optional: Expect<Equal<
    typeof some.data,
    { id?: number, name?: string, email?: string | null, address?: { city?: string, geo?: { lat?: number } } } | undefined
  >> = true
  const deferred = await api.GET('/users', { params: { query: { only: ['id', 'name'], defer: names } } })
  const loose: Expect<Equal<NonNullable<typeof deferred.data>['items'], Array<{ id?: number, name?: string }>>> = true
  // @ts-expect-error the email may not have been sent
  console.log(optional, loose, deferred, some.data?.email.length)
}

export async function depth (): Promise<void> {
  // maxDepth 2: address.geo is kept whole, and nothing below it can be named.
  const shallow = await api.GET('/shallow/{id}', { params: { path: { id: 1 }, query: { only: ['address.geo'] } } })
  const whole: Expect<Equal<typeof shallow.data, { address: { geo: { lat: number } } } | undefined>> = true
  // @ts-expect-error address.geo.lat is deeper than the route's maxDepth
  await api.GET('/shallow/{id}', { params: { path: { id: 1 }, query: { only: ['address.geo.lat'] } } })
  // @ts-expect-error nor may defer name it
  await api.GET('/shallow/{id}', { params: { path: { id: 1 }, query: { defer: ['address.geo.lat'] } } })
  // The same record on a route of the default depth accepts it.
  const deep = await api.PUT('/users/{id}', { params: { path: { id: 1 }, query: { only: ['address.geo.lat'] } }, body: { name: 'Ada' } })
  const lat: Expect<Equal<typeof deep.data, { address: { geo: { lat: number } } } | undefined>> = true
  console.log(whole, lat, shallow, deep, {} as User)
}
