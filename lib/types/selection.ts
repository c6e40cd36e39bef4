/**
 * Types that narrow a record type by a selection, exactly as the plugin
 * restricts a record: what `only` keeps and `defer` drops, at any depth,
 * through nullable objects, arrays of objects and the variants of a union.
 * Types only: nothing here exists at run time.
 *
 * They follow the plugin's reading of a schema: strings, numbers, booleans,
 * `null`, `Date` (a JSON string) and tuples are leaves; a record with an index
 * signature (a map, a free-form object) is one leaf too; deeper than `Depth`
 * segments (8, as `maxDepth`) a level is kept whole.
 */

/** Values the plugin writes whole: they have no fields to select. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date

/** One fewer, for depth counters: `Down[8]` is 7. */
type Down = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/** The first name of a dotted path. */
type Head<P extends string> = P extends `${infer H}.${string}` ? H : P

/** What a path names below its first name `K`; never when it names `K` itself, or another field. */
type Below<P extends string, K extends string> = P extends `${K}.${infer R}` ? R : never

/** Whether `T` is an array whose length is not fixed (a tuple is a leaf). */
type IsList<T> = T extends readonly unknown[] ? (number extends T['length'] ? true : false) : false

/**
 * Every dotted path of a record type, at most `Depth` segments deep: the
 * names `only` and `defer` accept. Each variant of a union adds its own.
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
        : string extends keyof T
          ? never
          : T extends object
            ? { [K in keyof T & string]-?: K | PathsBelow<K, NonNullable<T[K]>, Down[Depth]> }[keyof T & string]
            : never

type PathsBelow<K extends string, V, Depth extends number> = DeclaredPaths<V, Depth> extends infer P extends string
  ? [P] extends [never] ? never : `${K}.${P}`
  : never

/**
 * The record type as `only` leaves it: the named fields and paths, each
 * field keeping its own required-ness, nullability and readonly-ness; every
 * other field absent. A name of a field keeps it whole.
 *
 * @example Selected<{ id: number, name?: string, email: string }, 'id' | 'name'> // { id: number, name?: string }
 */
export type Selected<T, P extends string> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<Selected<(T & readonly unknown[])[number], P>>
    : T extends readonly unknown[]
      ? T
      : string extends keyof T
        ? T
        : T extends object
          ? { [K in keyof T as K extends Head<P> ? K : never]: K extends P ? T[K] : Selected<T[K], Below<P, K & string>> }
          : T

/**
 * The record type as `defer` leaves it: without the named fields and paths,
 * every other field as it was.
 *
 * @example Deferred<{ id: number, profile: { city: string, phone: string } }, 'profile.phone'> // { id: number, profile: { city: string } }
 */
export type Deferred<T, D extends string> = [D] extends [never]
  ? T
  : T extends Leaf
    ? T
    : IsList<T> extends true
      ? Array<Deferred<(T & readonly unknown[])[number], D>>
      : T extends readonly unknown[]
        ? T
        : string extends keyof T
          ? T
          : T extends object
            ? { [K in keyof T as K extends D ? never : K]: K extends Head<D> ? Deferred<T[K], Below<D, K & string>> : T[K] }
            : T

/**
 * What a route declares beside its record type: its field sets (by name,
 * without `@`) and its default fields (every field when absent).
 */
export interface RouteFields<Record, Sets extends { readonly [name: string]: readonly string[] } = {}, Default extends string = never> {
  readonly record: Record
  readonly sets: Sets
  readonly defaultFields: Default
}

/** A name `only` accepts on a route: a declared path, `*`, `@default`, or `@` and a set's name. */
export type OnlyName<R extends RouteFields<any, any, any>> = DeclaredPaths<R['record']> | '*' | '@default' | `@${keyof R['sets'] & string}`

/** The paths a name of `only` stands for: a set's members, `@default`'s, every top-level field for `*`. */
type Expanded<R extends RouteFields<any, any, any>, N extends string> = N extends '*'
  ? keyof R['record'] & string
  : N extends '@default'
    ? DefaultPaths<R>
    : N extends `@${infer S}`
      ? R['sets'][S][number]
      : N

type DefaultPaths<R extends RouteFields<any, any, any>> = [R['defaultFields']] extends [never] ? keyof R['record'] & string : R['defaultFields']

/**
 * The record type a request with these parameters is sent, on a route with
 * these fields: `only` first (its sets resolved; the route's default fields
 * without it), then `defer`. Fields hidden from the request by a rule depend
 * on who asks, so no type can know them.
 *
 * @example Restricted<RouteFields<User, { summary: ['id', 'name'] }>, { only: ['@summary', 'profile.city'] }>
 */
export type Restricted<R extends RouteFields<any, any, any>, Q extends { readonly only?: readonly OnlyName<R>[], readonly defer?: readonly DeclaredPaths<R['record']>[] }> =
  Deferred<
    Selected<R['record'], Q['only'] extends readonly string[] ? Expanded<R, Q['only'][number]> : DefaultPaths<R>>,
    Q['defer'] extends readonly string[] ? Q['defer'][number] : never
  >

/** The schemas of a route's successful statuses, by its `response` schema's keys (`200`, `'2xx'`). */
type SuccessSchemas<S> = S extends { response: infer R }
  ? { [K in keyof R]: `${K & (string | number)}` extends `2${string}` ? R[K] : never }[keyof R]
  : never

/** The records of a reply type: an array's items, an envelope's `results`, or the reply itself. */
type RecordsOf<T> = T extends readonly unknown[] ? T[number] : T extends { results: readonly unknown[] } ? T['results'][number] : T

/**
 * The declared paths of a route whose type provider (TypeBox, Zod) gives the
 * type of its successful replies; `string` where the types say nothing (a
 * plain JSON Schema route, a hook shared by routes).
 */
export type RoutePaths<Provider, Schema> = [SuccessSchemas<Schema>] extends [never]
  ? string
  : (Provider & { schema: SuccessSchemas<Schema> }) extends { serializer: infer Reply }
      ? unknown extends Reply ? string : DeclaredPaths<RecordsOf<Reply>> & string
      : string

/** The top-level names of some paths. */
export type TopLevel<P extends string> = P extends `${infer H}.${string}` ? H : P
