// A record of 72 fields over 6 levels (an array of objects at level 3, a nullable object at level 4), for measuring type-check cost.
export interface Level1 {
  f1_0: number
  f1_1: string
  f1_2: string | null
  f1_3: boolean
  f1_4?: number | null
  f1_5: string
  f1_6: number
  f1_7: string
  f1_8: string | null
  f1_9?: boolean
  f1_10: number | null
  l2: Level2
}
export interface Level2 {
  f2_0: number
  f2_1: string
  f2_2: string | null
  f2_3: boolean
  f2_4?: number | null
  f2_5: string
  f2_6: number
  f2_7: string
  f2_8: string | null
  f2_9?: boolean
  f2_10: number | null
  l3: Level3[]
}
export interface Level3 {
  f3_0: number
  f3_1: string
  f3_2: string | null
  f3_3: boolean
  f3_4?: number | null
  f3_5: string
  f3_6: number
  f3_7: string
  f3_8: string | null
  f3_9?: boolean
  f3_10: number | null
  l4: Level4 | null
}
export interface Level4 {
  f4_0: number
  f4_1: string
  f4_2: string | null
  f4_3: boolean
  f4_4?: number | null
  f4_5: string
  f4_6: number
  f4_7: string
  f4_8: string | null
  f4_9?: boolean
  f4_10: number | null
  l5: Level5
}
export interface Level5 {
  f5_0: number
  f5_1: string
  f5_2: string | null
  f5_3: boolean
  f5_4?: number | null
  f5_5: string
  f5_6: number
  f5_7: string
  f5_8: string | null
  f5_9?: boolean
  f5_10: number | null
  l6: Level6
}
export interface Level6 {
  f6_0: number
  f6_1: string
  f6_2: string | null
  f6_3: boolean
  f6_4?: number | null
  f6_5: string
  f6_6: number
  f6_7: string
  f6_8: string | null
  f6_9?: boolean
  f6_10: number | null
  f6_11: string
}
