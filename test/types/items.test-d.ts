// Compiled by `npm run test:types`: calls as a new user writes them, against the types generated from
// an app (test/types/generated/items, kept up to date by test/client/methods.test.ts) whose restricted
// routes take a list in their body, an array body and a list parameter of their own, beside routes
// that did not opt in. A name typed as a union never types a field as sent; a literal list anywhere in
// the call keeps the selection exact; a route that did not opt in is called as openapi-fetch types it.
import createClient from 'openapi-fetch'
import { restrictedClient } from '../../lib/client/index.js'
import type { paths } from './generated/items/api.js'
import type { RestrictedRoutes } from './generated/items/restricted.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

interface Owner { id: number, name: string }
const client = createClient<paths>({ baseUrl: 'http://localhost' })
const api = restrictedClient<RestrictedRoutes>(client)

export async function unionNames (which: 'id' | 'name', part: 'owner' | 'labels', nested: 'owner.id' | 'owner.name'): Promise<void> {
  // One of the two is sent: neither is certain.
  const one = await api.GET('/items', { params: { query: { only: [which] } } })
  const either: Expect<Equal<typeof one.data, Array<{ id?: number, name?: string }> | undefined>> = true
  // @ts-expect-error the name may not have been sent
  console.log(either, one.data?.[0].name.toUpperCase())
  // A name written beside it stays certain, with its own required-ness.
  const beside = await api.POST('/items', { body: { name: 'Ada' }, params: { query: { only: ['id', which] } } })
  const sure: Expect<Equal<typeof beside.data, { id: number, name?: string } | undefined>> = true
  // A field that only the union names may be absent, and comes whole when it is sent.
  const whole = await api.GET('/items', { params: { query: { only: [part] } } })
  const kept: Expect<Equal<typeof whole.data, Array<{ owner?: Owner, labels?: string[] }> | undefined>> = true
  // A certain path into a field the union may send whole: the field is sent, the rest of it may be.
  const into = await api.GET('/items', { params: { query: { only: ['owner.id', part] } } })
  const inside: Expect<Equal<typeof into.data, Array<{ owner: { id: number, name?: string }, labels?: string[] }> | undefined>> = true
  // defer: each member of a union-typed name may be left out.
  const left = await api.GET('/items', { params: { query: { defer: [which] } } })
  const maybeLeft: Expect<Equal<typeof left.data, Array<{ id?: number, name?: string, labels: string[], owner: Owner }> | undefined>> = true
  const deep = await api.GET('/items', { params: { query: { only: ['owner'], defer: [nested] } } })
  const deeper: Expect<Equal<typeof deep.data, Array<{ owner: { id?: number, name?: string } }> | undefined>> = true
  // @ts-expect-error the owner's id may have been deferred
  console.log(sure, kept, inside, maybeLeft, deeper, beside, whole, into, left, deep.data?.[0].owner.id.toFixed())
  // Without a union, as before: every name written is sent.
  const both = await api.GET('/items', { params: { query: { only: ['id', 'name'] } } })
  const exact: Expect<Equal<typeof both.data, Array<{ id: number, name: string }> | undefined>> = true
  console.log(exact, both)
}

export async function conditionals (compact: boolean, brief: boolean): Promise<void> {
  // A list written as a condition sends one of its branches: a field one of them leaves out may be absent.
  const either = await api.GET('/items', { params: { query: { only: compact ? ['id'] : ['id', 'name'] } } })
  const optional: Expect<Equal<typeof either.data, Array<{ id: number, name?: string }> | undefined>> = true
  // @ts-expect-error the name may not have been sent
  console.log(optional, either.data?.[0].name.toUpperCase())
  // A branch that sends nothing sends the route's default fields (here every field).
  const some = await api.GET('/items', { params: { query: { only: compact ? ['id'] : undefined } } })
  const orAll: Expect<Equal<typeof some.data, Array<{ id: number, name?: string, labels?: string[], owner?: Owner }> | undefined>> = true
  // In defer, each branch's names may have been left out; both lists may be conditions.
  const both = await api.POST('/items', { body: { name: 'Ada' }, params: { query: { only: compact ? ['id', 'owner'] : ['id', 'name', 'owner'], defer: brief ? ['owner.name'] : [] } } })
  const deferred: Expect<Equal<typeof both.data, { id: number, name?: string, owner: { id: number, name?: string } } | undefined>> = true
  // @ts-expect-error the owner's name may have been deferred
  console.log(orAll, deferred, some, both.data?.owner.name.length)
}

export async function literals (): Promise<void> {
  // A list in the body does not loosen the selection.
  const created = await api.POST('/items', { body: { name: 'Ada', labels: ['x'] }, params: { query: { only: ['id'] } } })
  const body: Expect<Equal<typeof created.data, { id: number } | undefined>> = true
  // Nor does an array body.
  const batch = await api.POST('/items/batch', { body: [{ name: 'Ada' }], params: { query: { only: ['id'] } } })
  const array: Expect<Equal<typeof batch.data, Array<{ id: number }> | undefined>> = true
  // Nor a list parameter of the operation's own, beside only or defer.
  const tagged = await api.GET('/items', { params: { query: { tag: ['new'], only: ['id'] } } })
  const query: Expect<Equal<typeof tagged.data, Array<{ id: number }> | undefined>> = true
  const rest = await api.GET('/items', { params: { query: { tag: ['new'], defer: ['labels', 'owner'] } } })
  const deferred: Expect<Equal<typeof rest.data, Array<{ id: number, name: string }> | undefined>> = true
  console.log(body, array, query, deferred, created, batch, tagged, rest)
  // @ts-expect-error the body's labels are strings
  await api.POST('/items', { body: { name: 'Ada', labels: [1] }, params: { query: { only: ['id'] } } })
  // @ts-expect-error 'nmae' is not a field of an item, whatever else the call holds
  await api.POST('/items/batch', { body: [{ name: 'Ada' }], params: { query: { only: ['nmae'] } } })
  // @ts-expect-error the tag parameter is a list of strings
  await api.GET('/items', { params: { query: { tag: [true], only: ['id'] } } })
}

export async function notOptedIn (): Promise<void> {
  // The same client calls a route that did not opt in; its reply is typed as openapi-fetch types it.
  const note = await api.POST('/notes', { body: { text: 'hi' } })
  const direct = await client.POST('/notes', { body: { text: 'hi' } })
  const asDocumented: Expect<Equal<typeof note.data, { id: number, text: string } | undefined>> = true
  const asOpenapiFetch: Expect<Equal<typeof note.data, typeof direct.data>> = true
  const error: Expect<Equal<typeof note.error, { message: string } | undefined>> = true
  const read = await api.GET('/notes/{id}', { params: { path: { id: 1 } } })
  const got: Expect<Equal<typeof read.data, { id: number, text: string } | undefined>> = true
  console.log(asDocumented, asOpenapiFetch, error, got, note, direct)
  // @ts-expect-error the note's body is the operation's
  await api.POST('/notes', { body: { txt: 'hi' } })
  // @ts-expect-error the note's id is a required path parameter
  await api.GET('/notes/{id}')
  // @ts-expect-error a route that did not opt in takes no only
  await api.GET('/notes/{id}', { params: { path: { id: 1 }, query: { only: ['id'] } } })
  // @ts-expect-error /notes has no GET
  await api.GET('/notes')
  // @ts-expect-error a note has no title
  console.log(read.data?.title)
}
