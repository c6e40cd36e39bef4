/**
 * What a request's selection makes of a route's reply: its `only` and
 * `defer` lists read (sets, `@default` and `*` expanded; literal lists,
 * lists of known names of unknown length, names typed as unions), and its
 * records narrowed where the reply holds them. The entry of the `types`
 * folder: the package exports these types from here. Types only: nothing
 * here exists at run time.
 */
import type { AllFieldNames, IsUnion } from './paths.js'
import type { Defer, DeferSome, Loosened, Select, SelectSome } from './narrowing.js'
import type { OnlyName, RecordsKind, RouteShape, RoutePath } from './route-shape.js'

export type { DeclaredPaths, TopLevel, TypeDepth } from './paths.js'
export type { Deferred, Selected } from './narrowing.js'
export type { OnlyName, RecordsKind, RouteFields, RoutePath, RouteShape } from './route-shape.js'
export type { RouteFieldsOf, RoutePaths } from './declarations.js'

/** The paths a name of `only` stands for: a set's members, `@default`'s, every top-level field of each variant for `*`. */
type Expanded<R extends RouteShape, N extends string> = [N & ('*' | `@${string}`)] extends [never] ? N : ExpandedEach<R, N>

type ExpandedEach<R extends RouteShape, N extends string> = N extends '*'
  ? AllFieldNames<R['record']>
  : N extends '@default'
    ? DefaultPaths<R>
    : N extends `@${infer S}`
      ? R['sets'][S][number]
      : N

type DefaultPaths<R extends RouteShape> = [R['defaultFields']] extends [never] ? AllFieldNames<R['record']> : R['defaultFields']

/** The narrowed records put back where the reply holds them; a nullable reply stays nullable. */
type Reshaped<Reply, Kind extends RecordsKind, Key extends string, Narrowed> = Reply extends null | undefined
  ? Reply
  : Kind extends 'array'
    ? Narrowed[]
    : Kind extends 'envelope'
      ? { [K in keyof Reply]: K extends Key ? ListOf<Reply[K], Narrowed> : Reply[K] }
      : Narrowed

type ListOf<V, Narrowed> = V extends readonly unknown[] ? Narrowed[] : V

/** The parameters a request sends: `only` and `defer`, each a list of names. */
export interface Selection<R extends RouteShape> {
  readonly only?: readonly OnlyName<R>[]
  readonly defer?: readonly RoutePath<R>[]
}

/** Whether a list's names are known: a tuple (what a literal is) rather than an array of any length. */
type IsLiteral<L> = L extends readonly unknown[] ? (number extends L['length'] ? false : true) : true

/** A list that sends nothing: absent, or empty (a client leaves an empty list out of the query). */
type SendsNothing<L> = [L] extends [readonly string[]] ? ([L] extends [readonly []] ? true : false) : true

/**
 * The names of a list written with a name typed as a union (`[which]`, with
 * `which: 'id' | 'name'`): one of the union's members is sent, and the types
 * cannot tell which.
 */
type Uncertain<L> = L extends readonly unknown[] ? { [I in keyof L]: IsUnion<L[I]> extends true ? L[I] : never }[number] : never

/** The names of a list that are sent whatever a union-typed name of it turns out to be. */
type Certain<L> = L extends readonly unknown[] ? { [I in keyof L]: IsUnion<L[I]> extends true ? never : L[I] }[number] : never

/**
 * The paths one branch of a list sends whatever its union-typed names turn
 * out to be: its other names expanded, the route's default fields when it
 * sends none. A list written as a condition (`flag ? ['id'] : ['id', 'name']`)
 * is a union of lists, its branches, one of which is sent.
 */
type SurePaths<R extends RouteShape, L> = SendsNothing<L> extends true ? DefaultPaths<R> : Expanded<R, Certain<L> & string>

/** The paths every branch of `only` sends: what each sends for certain, in common (read as the intersection of their unions). */
type SentByEvery<R extends RouteShape, L> =
  (L extends unknown ? (sent: SurePaths<R, L>) => void : never) extends (sent: infer Sure) => void ? Sure & string : never

/** The paths some branch of `only` may send. */
type SentBySome<R extends RouteShape, L> = L extends unknown ? SurePaths<R, L> | Expanded<R, Uncertain<L> & string> : never

/** The names every branch of `defer` leaves out for certain. */
type DeferredByEvery<L> =
  (L extends unknown ? (sent: Certain<L>) => void : never) extends (sent: infer Sure) => void ? Sure & string : never

/**
 * The records of literal lists that may send one of several selections: a
 * list written as a condition, or with a name typed as a union. What every
 * one of them keeps is kept as it is; a field that some keep and others
 * leave out, or that some leave out by `defer`, is optional.
 */
type NarrowedSome<R extends RouteShape, Only, Deferred> = SentByEvery<R, Only> extends infer Sure extends string
  ? DeferredByEvery<Deferred> extends infer SureDeferred extends string
    ? DeferSome<
      SelectSome<R['record'], Sure, Exclude<SentBySome<R, Only>, Sure>, false>,
      SureDeferred,
      Exclude<Certain<Deferred> | Uncertain<Deferred>, SureDeferred> & string
    >
    : never
  : never

/**
 * The paths `only` may keep: its names expanded, or the route's default fields when it sends none; each branch's, for a list written as
 * a condition.
 */
type OnlyPaths<R extends RouteShape, Only> = Only extends unknown
  ? SendsNothing<Only> extends true ? DefaultPaths<R> : Expanded<R, (Only & readonly string[])[number]>
  : never

/**
 * The reply a request sends on a route, given its `only` and `defer` lists
 * (undefined when it sends none), unchecked: `Restricted` checks the names,
 * and a client checks them where the call writes them. A list whose names
 * the types do not know (`string[]`, `Array<'id' | 'email'>`, not a literal)
 * may name any of them, or none: the records it may send have every field
 * optional.
 */
export type NarrowedReply<R extends RouteShape, Only, Deferred> = Reshaped<R['reply'], R['records'], R['key'],
  [IsLiteral<Only>, IsLiteral<Deferred>] extends [true, true]
    ? [Uncertain<Only> | Uncertain<Deferred>] extends [never]
        ? true extends IsUnion<Only> | IsUnion<Deferred>
          // A list written as a condition sends one of its branches: the fields some branch leaves out may be absent.
          ? NarrowedSome<R, Only, Deferred>
          : Defer<Select<R['record'], OnlyPaths<R, Only>>, [Deferred] extends [readonly string[]] ? Deferred[number] : never>
        // A name typed as a union sends one of its members: the fields only such names keep, or leave out, may be absent.
        : NarrowedSome<R, Only, Deferred>
    // Any of the names may be sent: the widest records it may keep, none of their fields certain.
    : Loosened<Select<R['record'], IsLiteral<Only> extends true
      ? OnlyPaths<R, Only>
      : Expanded<R, (Only & readonly string[])[number]> | DefaultPaths<R>>>
>

/**
 * The reply a request with these parameters is sent, on a route with these
 * fields: its records narrowed by `only` first (its sets resolved; the
 * route's default fields without it), then by `defer`, where the reply holds
 * them; an envelope keeps its other keys. Fields hidden from the request by a
 * rule depend on who asks, so no type can know them.
 *
 * @example Restricted<RouteFields<User, { summary: ['id', 'name'] }>, { only: ['@summary', 'profile.city'] }>
 */
export type Restricted<R extends RouteShape, Q extends Selection<R>> = NarrowedReply<R, Q['only'], Q['defer']>
