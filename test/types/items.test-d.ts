// scratch
import createClient from 'openapi-fetch'
import { restrictedClient } from '../../lib/client/index.js'
import type { paths } from './generated/items/api.js'
import type { RestrictedRoutes } from './generated/items/restricted.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://localhost' }))
declare const which: 'id' | 'name'

export async function scratch (): Promise<void> {
  const a = await api.GET('/items', { params: { query: { only: [which] } } })
  const ta: Expect<Equal<typeof a.data, Array<{ id?: number, name?: string }> | undefined>> = true
  const b = await api.POST('/items', { body: { name: 'Ada', labels: ['x'] }, params: { query: { only: ['id'] } } })
  const tb: Expect<Equal<typeof b.data, { id: number } | undefined>> = true
  const c = await api.POST('/items/batch', { body: [{ name: 'Ada' }], params: { query: { only: ['id'] } } })
  const tc: Expect<Equal<typeof c.data, Array<{ id: number }> | undefined>> = true
  const d = await api.GET('/items', { params: { query: { tag: ['new'], only: ['id'] } } })
  const td: Expect<Equal<typeof d.data, Array<{ id: number }> | undefined>> = true
  const e = await api.POST('/notes', { body: { text: 'x' } })
  const te: Expect<Equal<typeof e.data, { id: number, text: string } | undefined>> = true
  console.log(ta, tb, tc, td, te)
}
