/**
 * The paths of a record type, as the plugin reads a schema: strings,
 * numbers, booleans, `null`, `Date` (a JSON string) and tuples are leaves; a
 * record with an index signature and no known property (a map) is one leaf
 * too, and one with known properties is selected by them; deeper than
 * `Depth` segments (8, as `maxDepth`) a level is kept whole. Types only:
 * nothing here exists at run time.
 */

/** Values the plugin writes whole: they have no fields to select. */
export type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date

/** One fewer, for depth counters: `Down[8]` is 7. */
type Down = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/**
 * The depth the types read a route to: its `maxDepth` when it is 1 to 8, and
 * 8 otherwise (a deeper route's longer paths are not typed, which keeps the
 * checker's work bounded; a `number` that is not a literal reads as 8).
 */
export type TypeDepth<MaxDepth> = MaxDepth extends 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 ? MaxDepth : 8

/** The first name of a dotted path. */
export type Head<P extends string> = P extends `${infer H}.${string}` ? H : P

/** What a path names below its first name `K`; never when it names `K` itself, or another field. */
export type Below<P extends string, K extends string> = P extends `${K}.${infer R}` ? R : never

/** Whether `T` is an array whose length is not fixed (a tuple is a leaf). */
export type IsList<T> = T extends readonly unknown[] ? (number extends T['length'] ? true : false) : false

/**
 * The names of an object's fields: its known properties. An index signature
 * names none (a map, or the extra fields of a loose object, are not declared).
 */
export type FieldNames<T> = string extends keyof T
  ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 } & string
  : keyof T & string

/** The field names of every variant of a union: what `*` and a route without default fields send. */
export type AllFieldNames<T> = T extends unknown ? FieldNames<T> : never

/**
 * Every dotted path of a record type, at most `Depth` segments deep: the
 * names `only` and `defer` accept. Each variant of a union adds its own; an
 * object with an index signature adds its known properties.
 *
 * @example DeclaredPaths<{ id: number, profile: { city: string } | null }> // 'id' | 'profile' | 'profile.city'
 */
export type DeclaredPaths<T, Depth extends number = 8> = [Depth] extends [0]
  ? never
  : T extends Leaf
    ? never
    : IsList<T> extends true
      ? DeclaredPaths<(T & readonly unknown[])[number], Depth>
      : T extends readonly unknown[]
        ? never
        : T extends object
          ? { [K in FieldNames<T>]-?: K | PathsBelow<K, NonNullable<T[K]>, Down[Depth]> }[FieldNames<T>]
          : never

type PathsBelow<K extends string, V, Depth extends number> = DeclaredPaths<V, Depth> extends infer P extends string
  ? [P] extends [never] ? never : `${K}.${P}`
  : never

/** Whether `T` is a union of several types. */
export type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never

/** The top-level names of some paths. */
export type TopLevel<P extends string> = P extends `${infer H}.${string}` ? H : P
