// 10 selection(s) of 20 paths each over a 72-field, 6-level record.
import type { Restricted, RouteFields } from '../../../lib/types/selection.js'
import type { Level1 } from './record.js'

export type Route = RouteFields<Level1[]>
export type Call0 = Restricted<Route, { only: ['f1_0', 'f1_4', 'f1_8', 'f1_1', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] }>
declare const call0: Call0
export const read0 = call0[0].l2
export type Call1 = Restricted<Route, { only: ['f1_3', 'f1_7', 'f1_0', 'f1_4', 'l2.f2_3', 'l2.f2_7', 'l2.f2_0', 'l2.f2_4', 'l2.l3.f3_3', 'l2.l3.f3_7', 'l2.l3.f3_0', 'l2.l3.l4.f4_3', 'l2.l3.l4.f4_7', 'l2.l3.l4.f4_0', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] }>
declare const call1: Call1
export const read1 = call1[0].l2
export type Call2 = Restricted<Route, { only: ['f1_6', 'f1_10', 'f1_3', 'f1_7', 'l2.f2_6', 'l2.f2_10', 'l2.f2_3', 'l2.f2_7', 'l2.l3.f3_6', 'l2.l3.f3_10', 'l2.l3.f3_3', 'l2.l3.l4.f4_6', 'l2.l3.l4.f4_10', 'l2.l3.l4.f4_3', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.l6.f6_6', 'l2.l3.l4.l5.l6.f6_10', 'l2.l3.l4.l5.l6.f6_2'] }>
declare const call2: Call2
export const read2 = call2[0].l2
export type Call3 = Restricted<Route, { only: ['f1_9', 'f1_2', 'f1_6', 'f1_10', 'l2.f2_9', 'l2.f2_2', 'l2.f2_6', 'l2.f2_10', 'l2.l3.f3_9', 'l2.l3.f3_2', 'l2.l3.f3_6', 'l2.l3.l4.f4_9', 'l2.l3.l4.f4_2', 'l2.l3.l4.f4_6', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.l6.f6_9', 'l2.l3.l4.l5.l6.f6_1', 'l2.l3.l4.l5.l6.f6_5'] }>
declare const call3: Call3
export const read3 = call3[0].l2
export type Call4 = Restricted<Route, { only: ['f1_1', 'f1_5', 'f1_9', 'f1_2', 'l2.f2_1', 'l2.f2_5', 'l2.f2_9', 'l2.f2_2', 'l2.l3.f3_1', 'l2.l3.f3_5', 'l2.l3.f3_9', 'l2.l3.l4.f4_1', 'l2.l3.l4.f4_5', 'l2.l3.l4.f4_9', 'l2.l3.l4.l5.f5_1', 'l2.l3.l4.l5.f5_5', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] }>
declare const call4: Call4
export const read4 = call4[0].l2
export type Call5 = Restricted<Route, { only: ['f1_4', 'f1_8', 'f1_1', 'f1_5', 'l2.f2_4', 'l2.f2_8', 'l2.f2_1', 'l2.f2_5', 'l2.l3.f3_4', 'l2.l3.f3_8', 'l2.l3.f3_1', 'l2.l3.l4.f4_4', 'l2.l3.l4.f4_8', 'l2.l3.l4.f4_1', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.f5_8', 'l2.l3.l4.l5.f5_1', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] }>
declare const call5: Call5
export const read5 = call5[0].l2
export type Call6 = Restricted<Route, { only: ['f1_7', 'f1_0', 'f1_4', 'f1_8', 'l2.f2_7', 'l2.f2_0', 'l2.f2_4', 'l2.f2_8', 'l2.l3.f3_7', 'l2.l3.f3_0', 'l2.l3.f3_4', 'l2.l3.l4.f4_7', 'l2.l3.l4.f4_0', 'l2.l3.l4.f4_4', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.f5_0', 'l2.l3.l4.l5.f5_4', 'l2.l3.l4.l5.l6.f6_6', 'l2.l3.l4.l5.l6.f6_10', 'l2.l3.l4.l5.l6.f6_2'] }>
declare const call6: Call6
export const read6 = call6[0].l2
export type Call7 = Restricted<Route, { only: ['f1_10', 'f1_3', 'f1_7', 'f1_0', 'l2.f2_10', 'l2.f2_3', 'l2.f2_7', 'l2.f2_0', 'l2.l3.f3_10', 'l2.l3.f3_3', 'l2.l3.f3_7', 'l2.l3.l4.f4_10', 'l2.l3.l4.f4_3', 'l2.l3.l4.f4_7', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.f5_3', 'l2.l3.l4.l5.f5_7', 'l2.l3.l4.l5.l6.f6_9', 'l2.l3.l4.l5.l6.f6_1', 'l2.l3.l4.l5.l6.f6_5'] }>
declare const call7: Call7
export const read7 = call7[0].l2
export type Call8 = Restricted<Route, { only: ['f1_2', 'f1_6', 'f1_10', 'f1_3', 'l2.f2_2', 'l2.f2_6', 'l2.f2_10', 'l2.f2_3', 'l2.l3.f3_2', 'l2.l3.f3_6', 'l2.l3.f3_10', 'l2.l3.l4.f4_2', 'l2.l3.l4.f4_6', 'l2.l3.l4.f4_10', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.f5_6', 'l2.l3.l4.l5.f5_10', 'l2.l3.l4.l5.l6.f6_0', 'l2.l3.l4.l5.l6.f6_4', 'l2.l3.l4.l5.l6.f6_8'] }>
declare const call8: Call8
export const read8 = call8[0].l2
export type Call9 = Restricted<Route, { only: ['f1_5', 'f1_9', 'f1_2', 'f1_6', 'l2.f2_5', 'l2.f2_9', 'l2.f2_2', 'l2.f2_6', 'l2.l3.f3_5', 'l2.l3.f3_9', 'l2.l3.f3_2', 'l2.l3.l4.f4_5', 'l2.l3.l4.f4_9', 'l2.l3.l4.f4_2', 'l2.l3.l4.l5.f5_5', 'l2.l3.l4.l5.f5_9', 'l2.l3.l4.l5.f5_2', 'l2.l3.l4.l5.l6.f6_3', 'l2.l3.l4.l5.l6.f6_7', 'l2.l3.l4.l5.l6.f6_11'] }>
declare const call9: Call9
export const read9 = call9[0].l2
