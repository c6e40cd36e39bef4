/**
 * Types that narrow a record type by a selection, exactly as the plugin
 * restricts a record: what `only` keeps and `defer` drops, at any depth,
 * through nullable objects, arrays of objects and the variants of a union.
 * Types only: nothing here exists at run time.
 *
 * They follow the plugin's reading of a schema: strings, numbers, booleans,
 * `null`, `Date` (a JSON string) and tuples are leaves; a record with an index
 * signature and no known property (a map) is one leaf too, and one with known
 * properties is selected by them; deeper than `Depth` segments (8, as
 * `maxDepth`) a level is kept whole.
 */

/** Values the plugin writes whole: they have no fields to select. */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date

/** One fewer, for depth counters: `Down[8]` is 7. */
type Down = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/**
 * The depth the types read a route to: its `maxDepth` when it is 1 to 8, and
 * 8 otherwise (a deeper route's longer paths are not typed, which keeps the
 * checker's work bounded; a `number` that is not a literal reads as 8).
 */
export type TypeDepth<MaxDepth> = MaxDepth extends 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 ? MaxDepth : 8

/** The first name of a dotted path. */
type Head<P extends string> = P extends `${infer H}.${string}` ? H : P

/** What a path names below its first name `K`; never when it names `K` itself, or another field. */
type Below<P extends string, K extends string> = P extends `${K}.${infer R}` ? R : never

/** Whether `T` is an array whose length is not fixed (a tuple is a leaf). */
type IsList<T> = T extends readonly unknown[] ? (number extends T['length'] ? true : false) : false

/**
 * The names of an object's fields: its known properties. An index signature
 * names none (a map, or the extra fields of a loose object, are not declared).
 */
type FieldNames<T> = string extends keyof T
  ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 } & string
  : keyof T & string

/** The field names of every variant of a union: what `*` and a route without default fields send. */
type AllFieldNames<T> = T extends unknown ? FieldNames<T> : never

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

/** `Selected` without its check of the paths, for the recursion and for `Restricted`, which checks its own. */
type Select<T, P extends string> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<Select<(T & readonly unknown[])[number], P>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        // An index signature is no field name: the mapping leaves it out, as the plugin leaves out undeclared keys.
        ? { [K in keyof T as K extends Head<P> ? K : never]: K extends P ? T[K] : Select<T[K], Below<P, K & string>> }
        : T

/**
 * The record type as `only` leaves it: the named fields and paths, each
 * field keeping its own required-ness, nullability and readonly-ness; every
 * other field absent. A name of a field keeps it whole. Only declared paths
 * are accepted.
 *
 * @example Selected<{ id: number, name?: string, email: string }, 'id' | 'name'> // { id: number, name?: string }
 */
export type Selected<T, P extends DeclaredPaths<T>> = Select<T, P>

/** `Deferred` without its check of the paths. */
type Defer<T, D extends string> = [D] extends [never]
  ? T
  : T extends Leaf
    ? T
    : IsList<T> extends true
      ? Array<Defer<(T & readonly unknown[])[number], D>>
      : T extends readonly unknown[]
        ? T
        : T extends object
          ? { [K in keyof T as K extends D ? never : K]: K extends Head<D> ? Defer<T[K], Below<D, K & string>> : T[K] }
          : T

/**
 * The record type as `defer` leaves it: without the named fields and paths,
 * every other field as it was. Only declared paths are accepted.
 *
 * @example Deferred<{ id: number, profile: { city: string, phone: string } }, 'profile.phone'> // { id: number, profile: { city: string } }
 */
export type Deferred<T, D extends DeclaredPaths<T>> = Defer<T, D>

/** Where a route's records sit in its reply: the reply itself, an array's items, or an envelope's records array. */
export type RecordsKind = 'object' | 'array' | 'envelope'

/** Whether `T` is a union of several types. */
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never

/** How the plugin reads a reply type: an array of records, an envelope (an object, not a union, whose `Key` holds an array), or one record. */
type KindOf<Reply, Key extends string> = IsList<Reply> extends true
  ? 'array'
  : [Reply] extends [object]
      ? Key extends keyof Reply
        ? NonNullable<Reply[Key]> extends readonly unknown[] ? (true extends IsUnion<Reply> ? 'object' : 'envelope') : 'object'
        : 'object'
      : 'object'

/** The record type of a reply type, as the plugin reads it: an array's items, an envelope's records, or the reply itself. */
type RecordOf<Reply, Kind extends RecordsKind, Key extends string> = Kind extends 'array'
  ? (Reply & readonly unknown[])[number]
  : Kind extends 'envelope'
    ? (NonNullable<Reply[Key & keyof Reply]> & readonly unknown[])[number]
    : Reply

/** Why a reply type is refused, as the compiler shows it where the route's fields are used. */
type Refused = 'a reply type must be a record type, an array of records, or an envelope holding an array of records'

/** A record type, or why it is refused. */
type Readable<R> = [R] extends [never] ? Refused : R extends Leaf ? Refused : R extends readonly unknown[] ? Refused : R

/**
 * What narrowing a route's replies needs: where the records sit in a reply
 * (`records`, `key`), their complete type (`record`), the route's field
 * sets and default fields. `RouteFields` makes one from a reply type; a
 * generated client reads one from the document.
 */
export interface RouteShape {
  /** The reply type as the route documents it, around its records. */
  readonly reply: unknown
  /** One record, complete: every declared field, with its required-ness and nullability. */
  readonly record: object
  readonly records: RecordsKind
  /** The envelope's records key, for `records: 'envelope'`. */
  readonly key: string
  /** The route's field sets, by name without `@`. */
  readonly sets: { readonly [name: string]: readonly string[] }
  /** The route's default fields; never when it has none (every field is sent). */
  readonly defaultFields: string
  /** The route's `maxDepth`: the most segments of a path it accepts (the types read at most 8). */
  readonly maxDepth: number
}

/**
 * A route's reply type read as the plugin reads it (an array's items, an
 * envelope's records under `Key`, a nullable reply's record, or one record),
 * with the route's field sets (by name, without `@`) and its default fields
 * (every field when absent). A reply whose records are not objects is
 * refused where the route's fields are used, with the reason.
 *
 * @example RouteFields<{ count: number, results: User[] }, { summary: ['id', 'name'] }> // records: User, in an envelope
 */
export type RouteFields<
  Reply,
  Sets extends { readonly [name: string]: readonly string[] } = {},
  Default extends string = never,
  Key extends string = 'results',
  MaxDepth extends number = 8
> = KindOf<NonNullable<Reply>, Key> extends infer Kind extends RecordsKind
  ? {
      readonly reply: Reply
      readonly records: Kind
      readonly record: Readable<RecordOf<NonNullable<Reply>, Kind, Key>>
      readonly key: Key
      readonly sets: Sets
      readonly defaultFields: Default
      readonly maxDepth: MaxDepth
    }
  : never

/** A path `only` and `defer` accept on a route: a declared path of its record, within its `maxDepth`. */
export type RoutePath<R extends RouteShape> = DeclaredPaths<R['record'], TypeDepth<R['maxDepth']>>

/** A name `only` accepts on a route: a declared path, `*`, `@default`, or `@` and a set's name. */
export type OnlyName<R extends RouteShape> = RoutePath<R> | '*' | '@default' | `@${keyof R['sets'] & string}`

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

/** The records with every field optional, at every depth: what a selection not known to the types may send. */
type Loosened<T> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<Loosened<(T & readonly unknown[])[number]>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? { [K in keyof T]?: Loosened<T[K]> }
        : T

/**
 * The names of a list written with a name typed as a union (`[which]`, with
 * `which: 'id' | 'name'`): one of the union's members is sent, and the types
 * cannot tell which.
 */
type Uncertain<L> = L extends readonly unknown[] ? { [I in keyof L]: IsUnion<L[I]> extends true ? L[I] : never }[number] : never

/** The names of a list that are sent whatever a union-typed name of it turns out to be. */
type Certain<L> = L extends readonly unknown[] ? { [I in keyof L]: IsUnion<L[I]> extends true ? never : L[I] }[number] : never

/** An object type written out, its modifiers kept: what the two halves of a partly optional object read as. */
type Flat<T> = { [K in keyof T]: T[K] }

/**
 * `Select` where some names may or may not have been sent (`Maybe`): a field
 * that only they name is optional. `Whole` says the object may also have
 * been sent whole (an uncertain name named it), so that every field is.
 */
type SelectSome<T, P extends string, Maybe extends string, Whole extends boolean> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<SelectSome<(T & readonly unknown[])[number], P, Maybe, Whole>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? Flat<{ [K in keyof T as K extends Head<P> ? K : never]: SomeOf<T, K, P, Maybe, Whole> }
        & { [K in keyof T as K extends Head<P> ? never : Whole extends true ? K : K extends Head<Maybe> ? K : never]?: SomeOf<T, K, P, Maybe, Whole> }>
        : T

/**
 * What `SelectSome` keeps of the field `K`: whole when a certain name names
 * it whole, or when it may only come whole; when only uncertain names reach
 * it and by just one path, that path was sent.
 */
type SomeOf<T, K extends keyof T, P extends string, Maybe extends string, Whole extends boolean> = K extends P
  ? T[K]
  : Whole extends true ? SomeBelow<T[K], Below<P, K & string>, Below<Maybe, K & string>, true>
    : K extends Maybe ? SomeBelow<T[K], Below<P, K & string>, Below<Maybe, K & string>, true>
      : [Below<P, K & string>] extends [never]
          ? IsUnion<Below<Maybe, K & string>> extends true ? SelectSome<T[K], never, Below<Maybe, K & string>, false> : SelectSome<T[K], Below<Maybe, K & string>, never, false>
          : SelectSome<T[K], Below<P, K & string>, Below<Maybe, K & string>, false>

/** A field that may come whole: whole, unless names reach below it. */
type SomeBelow<V, P extends string, Maybe extends string, Whole extends boolean> = [P | Maybe] extends [never] ? V : SelectSome<V, P, Maybe, Whole>

/** `Defer` where some names may or may not have been deferred (`Maybe`): a field they name is optional. */
type DeferSome<T, D extends string, Maybe extends string> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<DeferSome<(T & readonly unknown[])[number], D, Maybe>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? Flat<{ [K in keyof T as K extends D | Maybe ? never : K]: DeferredOf<T, K, D, Maybe> } & { [K in keyof T as K extends D ? never : K extends Maybe ? K : never]?: DeferredOf<T, K, D, Maybe> }>
        : T

type DeferredOf<T, K extends keyof T, D extends string, Maybe extends string> = K extends Head<D> | Head<Maybe> ? DeferSome<T[K], Below<D, K & string>, Below<Maybe, K & string>> : T[K]

/** The records of literal lists one of whose names is a union: what is certain kept as it is, the rest optional. */
type NarrowedSome<R extends RouteShape, Only, Deferred> = DeferSome<
  SelectSome<R['record'], SendsNothing<Only> extends true ? DefaultPaths<R> : Expanded<R, Certain<Only> & string>, Expanded<R, Uncertain<Only> & string>, false>,
  Certain<Deferred> & string,
  Uncertain<Deferred> & string
>

/** The paths `only` keeps: its names expanded, or the route's default fields when it sends none. */
type OnlyPaths<R extends RouteShape, Only> = SendsNothing<Only> extends true ? DefaultPaths<R> : Expanded<R, (Only & readonly string[])[number]>

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
        ? Defer<Select<R['record'], OnlyPaths<R, Only>>, [Deferred] extends [readonly string[]] ? Deferred[number] : never>
        // A name typed as a union sends one of its members: the fields only such names keep, or leave out, may be absent.
        : NarrowedSome<R, Only, Deferred>
    // Any of the names may be sent: the widest records it may keep, none of their fields certain.
    : Loosened<Select<R['record'], IsLiteral<Only> extends true ? OnlyPaths<R, Only> : Expanded<R, (Only & readonly string[])[number]> | DefaultPaths<R>>>
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

/** The schemas of a route's successful statuses, by its `response` schema's keys (`200`, `'2xx'`). */
type SuccessSchemas<S> = S extends { response: infer R }
  ? { [K in keyof R]: `${K & (string | number)}` extends `2${string}` ? R[K] : never }[keyof R]
  : never

/** The records of the fields of an object that hold arrays of records: an envelope's, when the types do not know its key. */
type ArrayItems<T> = { [K in keyof T]: NonNullable<T[K]> extends infer V ? IsList<V> extends true ? Exclude<(V & readonly unknown[])[number], Leaf> : never : never }[keyof T]

/**
 * The records of a reply type, as the plugin finds them: an array's items,
 * an envelope's records under `Key`, or the reply itself. A `Key` that is no
 * literal (`string`: the route names its own, which the types were not told)
 * reads the items of every array the reply holds, the reply itself when it
 * holds none.
 */
type RecordsOf<T, Key extends string> = T extends readonly unknown[]
  ? T[number]
  : string extends Key
    ? [ArrayItems<T>] extends [never] ? T : ArrayItems<T>
    : Key extends keyof T ? (NonNullable<T[Key]> extends infer V ? IsList<V> extends true ? (V & readonly unknown[])[number] : T : T) : T

/** The `restrictFields` options a route's `config` holds, as its type has them. */
type ConfigOptions<Config> = Config extends { readonly restrictFields: infer O } ? O : {}

/** The route's `resultsKey`, where the types see it; the plugin's default, `results`, otherwise. */
type ResultsKeyOf<Options> = Options extends { readonly resultsKey: infer K extends string } ? K : 'results'

/** The route's `maxDepth`, where the types see it; 8 otherwise. */
type MaxDepthOf<Options> = Options extends { readonly maxDepth: infer D extends number } ? D : 8

/**
 * The declared paths of a route whose type provider (TypeBox, Zod) gives the
 * type of its successful replies, read from its records where the route's
 * `config.restrictFields` says they are (`resultsKey`) and down to its
 * `maxDepth`; `string` where the types say nothing (a plain JSON Schema
 * route, a hook shared by routes). Fastify's route types carry a route's
 * schema and `config`, not its other options: a `resultsKey` or `maxDepth`
 * given beside the schema is not seen, and the plugin's defaults are read.
 */
export type RoutePaths<Provider, Schema, Config = unknown> = [SuccessSchemas<Schema>] extends [never]
  ? string
  : (Provider & { schema: SuccessSchemas<Schema> }) extends { serializer: infer Reply }
      ? unknown extends Reply ? string : DeclaredPaths<RecordsOf<NonNullable<Reply>, ResultsKeyOf<ConfigOptions<Config>>>, TypeDepth<MaxDepthOf<ConfigOptions<Config>>>> & string
      : string

/** The `restrictFields` option of a route's options, at the top or in its `config`. */
type RestrictFieldsOf<Route> = Route extends { readonly restrictFields: infer O } ? O : Route extends { readonly config: { readonly restrictFields: infer O } } ? O : never

/** The reply type a type provider gives a route's successful replies. */
type ReplyOf<Provider, Schema> = (Provider & { schema: SuccessSchemas<Schema> }) extends { serializer: infer Reply } ? Reply : never

/**
 * The fields of a route read from its own declaration: `Route` is the type of
 * its options (`typeof route`, declared `as const` and passed to `app.get`),
 * whose reply type `Provider` (TypeBox's, Zod's) gives; its field sets (with
 * the plugin's `PluginSets`), default fields and `resultsKey` are its own. A
 * client sharing the schemas restates nothing.
 *
 * @example type Users = RouteFieldsOf<typeof listUsers, TypeBoxTypeProvider, { summary: ['id', 'name'] }>
 */
export type RouteFieldsOf<Route extends { readonly schema?: unknown }, Provider, PluginSets extends { readonly [name: string]: readonly string[] } = {}> =
  RestrictFieldsOf<Route> extends infer Options
    ? RouteFields<
      ReplyOf<Provider, Route['schema']>,
      Omit<PluginSets, keyof (Options extends { readonly fieldSets: infer S } ? S : {})> & (Options extends { readonly fieldSets: infer S extends { readonly [name: string]: readonly string[] } } ? S : {}),
      Options extends { readonly defaultFields: ReadonlyArray<infer D extends string> } ? D : never,
      ResultsKeyOf<Options>,
      MaxDepthOf<Options>
    >
    : never

/** The top-level names of some paths. */
export type TopLevel<P extends string> = P extends `${infer H}.${string}` ? H : P
