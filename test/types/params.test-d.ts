// Compiled by `npm run test:types`: calls written as users write them (no `as const`), against the types
// generated from an app with GitHub's kind of parameters (test/types/generated/issues, kept up to date by
// test/client/methods.test.ts). Whatever else a call passes (enum literals, numbers, booleans and lists of
// enums in its query, enum path parameters, bodies with enum fields), its selection types the reply exactly.
import createClient from 'openapi-fetch'
import { restrictedClient } from '../../lib/client/index.js'
import type { paths } from './generated/issues/api.js'
import type { RestrictedRoutes } from './generated/issues/restricted.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://localhost' }))
const path = { owner: 'ada' }

export async function query (): Promise<void> {
  const open = await api.GET('/repos/{owner}/issues', { params: { path, query: { state: 'open', only: ['number', 'title'] } } })
  const state: Expect<Equal<typeof open.data, Array<{ number: number, title: string }> | undefined>> = true
  const sorted = await api.GET('/repos/{owner}/issues', { params: { path, query: { state: 'all', sort: 'created', direction: 'asc', only: ['number'] } } })
  const enums: Expect<Equal<typeof sorted.data, Array<{ number: number }> | undefined>> = true
  const paged = await api.GET('/repos/{owner}/issues', { params: { path, query: { per_page: 50, pinned: true, only: ['id'] } } })
  const scalars: Expect<Equal<typeof paged.data, Array<{ id: number }> | undefined>> = true
  const labelled = await api.GET('/repos/{owner}/issues', { params: { path, query: { labels: ['bug', 'docs'], only: ['id', 'labels'] } } })
  const lists: Expect<Equal<typeof labelled.data, Array<{ id: number, labels: Array<'bug' | 'feature' | 'docs'> }> | undefined>> = true
  const deferred = await api.GET('/repos/{owner}/issues', { params: { path, query: { only: ['id', 'user'], direction: 'desc', defer: ['user.login'] } } })
  const defer: Expect<Equal<typeof deferred.data, Array<{ id: number, user: { id: number } }> | undefined>> = true
  const inPath = await api.GET('/repos/{owner}/labels/{label}/issues', { params: { path: { owner: 'ada', label: 'bug' }, query: { state: 'closed', only: ['title'] } } })
  const enumPath: Expect<Equal<typeof inPath.data, Array<{ title: string }> | undefined>> = true
  console.log(state, enums, scalars, lists, defer, enumPath, open, sorted, paged, labelled, deferred, inPath)
  // Options built outside the call keep their literals only when declared so; widened, they do not compile.
  const fixed = { state: 'open', only: ['id'] } as const
  const built = await api.GET('/repos/{owner}/issues', { params: { path, query: fixed } })
  const asConst: Expect<Equal<typeof built.data, Array<{ id: number }> | undefined>> = true
  const widened = { state: 'open', only: ['id'] }
  // @ts-expect-error the state is a string, and the list any strings
  await api.GET('/repos/{owner}/issues', { params: { path, query: widened } })
  console.log(asConst, built)
  // @ts-expect-error body was not selected
  console.log(open.data?.[0].body)
  // @ts-expect-error 'opened' is no state
  await api.GET('/repos/{owner}/issues', { params: { path, query: { state: 'opened', only: ['id'] } } })
  // @ts-expect-error 'nmae' is not a field of an issue, whatever else the call holds
  await api.GET('/repos/{owner}/issues', { params: { path, query: { state: 'open', only: ['nmae'] } } })
  // @ts-expect-error 'wontfix' is no label
  await api.GET('/repos/{owner}/labels/{label}/issues', { params: { path: { owner: 'ada', label: 'wontfix' }, query: { only: ['id'] } } })
}

export async function methods (): Promise<void> {
  const created = await api.POST('/repos/{owner}/issues', { params: { path, query: { notify: 'none', only: ['id', 'state'] } }, body: { title: 'Bug', state: 'open', labels: ['bug'], priority: 1, locked: false } })
  const post: Expect<Equal<typeof created.data, { id: number, state: 'open' | 'closed' } | undefined>> = true
  const replaced = await api.PUT('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', number: 7 }, query: { mode: 'merge', only: ['title'] } }, body: { title: 'Bug', state: 'closed' } })
  const put: Expect<Equal<typeof replaced.data, { title: string } | undefined>> = true
  const updated = await api.PATCH('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', number: 7 }, query: { only: ['id', 'state'] } }, body: { state: 'closed', state_reason: 'completed' } })
  const patch: Expect<Equal<typeof updated.data, { id: number, state: 'open' | 'closed' } | undefined>> = true
  const deleted = await api.DELETE('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', number: 7 }, query: { reason: 'not_planned', only: ['number'] } } })
  const del: Expect<Equal<typeof deleted.data, { number: number } | undefined>> = true
  console.log(post, put, patch, del, created, replaced, updated, deleted)
  // @ts-expect-error 'done' is no state
  await api.PATCH('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', number: 7 }, query: { only: ['id'] } }, body: { state: 'done' } })
  // @ts-expect-error 'staet' is no parameter of the operation
  await api.GET('/repos/{owner}/issues', { params: { path, query: { staet: 'open', only: ['id'] } } })
  // @ts-expect-error 'sate' is not a field of the body
  await api.POST('/repos/{owner}/issues', { params: { path, query: { only: ['id'] } }, body: { title: 'Bug', sate: 'open' } })
  // @ts-expect-error 'onwer' is no path parameter
  await api.PUT('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', onwer: 'ada', number: 7 }, query: { only: ['id'] } }, body: { title: 'Bug' } })
  // @ts-expect-error 'qurey' is no kind of parameter
  await api.DELETE('/repos/{owner}/issues/{number}', { params: { path: { owner: 'ada', number: 7 }, qurey: { only: ['id'] } } })
}
