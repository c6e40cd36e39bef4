// 1 call(s), each selecting 20 paths of a 72-field, 6-level record.
import type { RestrictedClient } from '../../../lib/client/types.js'
import type { Routes } from './routes.js'

declare const api: RestrictedClient<Routes>
export const call0 = await api.GET('/records', { params: { query: { only: ['f1_0', 'f1_4', 'f1_8', 'f1_1', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] } } })
export const read0 = call0.data?.results[0].l2
