// 10 call(s), each selecting 20 paths of a 72-field, 6-level record.
import type { RestrictedClient } from '../../../lib/client/types.js'
import type { Routes } from './routes.js'

declare const api: RestrictedClient<Routes>
export const call0 = await api.GET('/records', { params: { query: { only: ['f1_0', 'f1_4', 'f1_8', 'f1_1', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] } } })
export const read0 = call0.data?.results[0].l2
export const call1 = await api.GET('/records', { params: { query: { only: ['f1_3', 'f1_7', 'f1_0', 'f1_4', 'l2.f2_3', 'l2.f2_7', 'l2.f2_0', 'l2.f2_4', 'l2.l3.f3_3', 'l2.l3.f3_7', 'l2.l3.f3_0', 'l2.l3.l4.f4_3', 'l2.l3.l4.f4_7', 'l2.l3.l4.f4_0', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] } } })
export const read1 = call1.data?.results[0].l2
export const call2 = await api.GET('/records', { params: { query: { only: ['f1_6', 'f1_10', 'f1_3', 'f1_7', 'l2.f2_6', 'l2.f2_10', 'l2.f2_3', 'l2.f2_7', 'l2.l3.f3_6', 'l2.l3.f3_10', 'l2.l3.f3_3', 'l2.l3.l4.f4_6', 'l2.l3.l4.f4_10', 'l2.l3.l4.f4_3', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.l6.f6_6', 'l2.l3.l4.l5.l6.f6_10', 'l2.l3.l4.l5.l6.f6_2'] } } })
export const read2 = call2.data?.results[0].l2
export const call3 = await api.GET('/records', { params: { query: { only: ['f1_9', 'f1_2', 'f1_6', 'f1_10', 'l2.f2_9', 'l2.f2_2', 'l2.f2_6', 'l2.f2_10', 'l2.l3.f3_9', 'l2.l3.f3_2', 'l2.l3.f3_6', 'l2.l3.l4.f4_9', 'l2.l3.l4.f4_2', 'l2.l3.l4.f4_6', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.l6.f6_9', 'l2.l3.l4.l5.l6.f6_1', 'l2.l3.l4.l5.l6.f6_5'] } } })
export const read3 = call3.data?.results[0].l2
export const call4 = await api.GET('/records', { params: { query: { only: ['f1_1', 'f1_5', 'f1_9', 'f1_2', 'l2.f2_1', 'l2.f2_5', 'l2.f2_9', 'l2.f2_2', 'l2.l3.f3_1', 'l2.l3.f3_5', 'l2.l3.f3_9', 'l2.l3.l4.f4_1', 'l2.l3.l4.f4_5', 'l2.l3.l4.f4_9', 'l2.l3.l4.l5.f5_1', 'l2.l3.l4.l5.f5_5', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] } } })
export const read4 = call4.data?.results[0].l2
export const call5 = await api.GET('/records', { params: { query: { only: ['f1_4', 'f1_8', 'f1_1', 'f1_5', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.f2_5', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.f3_1', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.f4_1', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.f5_1', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] } } })
export const read5 = call5.data?.results[0].l2
export const call6 = await api.GET('/records', { params: { query: { only: ['f1_7', 'f1_0', 'f1_4', 'f1_8', 'l2.f2_7', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.l3.f3_7', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.l4.f4_7', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.l6.f6_6', 'l2.l3.l4.l5.l6.f6_10', 'l2.l3.l4.l5.l6.f6_2'] } } })
export const read6 = call6.data?.results[0].l2
export const call7 = await api.GET('/records', { params: { query: { only: ['f1_10', 'f1_3', 'f1_7', 'f1_0', 'l2.f2_10', 'l2.f2_3', 'l2.f2_7', 'l2.f2_0', 'l2.l3.f3_10', 'l2.l3.f3_3', 'l2.l3.f3_7', 'l2.l3.l4.f4_10', 'l2.l3.l4.f4_3', 'l2.l3.l4.f4_7', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.l6.f6_9', 'l2.l3.l4.l5.l6.f6_1', 'l2.l3.l4.l5.l6.f6_5'] } } })
export const read7 = call7.data?.results[0].l2
export const call8 = await api.GET('/records', { params: { query: { only: ['f1_2', 'f1_6', 'f1_10', 'f1_3', 'l2.f2_2', 'l2.f2_6', 'l2.f2_10', 'l2.f2_3', 'l2.l3.f3_2', 'l2.l3.f3_6', 'l2.l3.f3_10', 'l2.l3.l4.f4_2', 'l2.l3.l4.f4_6', 'l2.l3.l4.f4_10', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] } } })
export const read8 = call8.data?.results[0].l2
export const call9 = await api.GET('/records', { params: { query: { only: ['f1_5', 'f1_9', 'f1_2', 'f1_6', 'l2.f2_5', 'l2.f2_9', 'l2.f2_2', 'l2.f2_6', 'l2.l3.f3_5', 'l2.l3.f3_9', 'l2.l3.f3_2', 'l2.l3.l4.f4_5', 'l2.l3.l4.f4_9', 'l2.l3.l4.f4_2', 'l2.l3.l4.l5.f5_5', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] } } })
export const read9 = call9.data?.results[0].l2
