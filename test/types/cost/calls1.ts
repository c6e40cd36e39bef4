// 1 selection(s) of 20 paths each over a 72-field, 6-level record.
import type { Restricted, RouteFields } from '../../../lib/types/selection.js'
import type { Level1 } from './record.js'

export type Route = RouteFields<Level1[]>
export type Call0 = Restricted<Route, { only: ['f1_0', 'f1_4', 'f1_8', 'f1_1', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] }>
declare const call0: Call0
export const read0 = call0[0].l2
