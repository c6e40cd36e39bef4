/**
 * A route's fields read from its own declaration, as a type provider
 * (TypeBox, Zod) types it: its declared paths on the server, and its
 * `RouteFields` for a client sharing the schemas. Types only: nothing here
 * exists at run time.
 */
import type { RestrictFieldsRouteOptions } from '../options.js'
import type { DeclaredPaths, IsList, Leaf, TypeDepth } from './paths.js'
import type { RouteFields } from './route-shape.js'

/** The schemas of a route's successful statuses, by its `response` schema's keys (`200`, `'2xx'`). */
type SuccessSchemas<S> = S extends { response: infer R }
  ? { [K in keyof R]: `${K & (string | number)}` extends `2${string}` ? R[K] : never }[keyof R]
  : never

/** The records of the fields of an object that hold arrays of records: an envelope's, when the types do not know its key. */
type ArrayItems<T> = {
  [K in keyof T]: NonNullable<T[K]> extends infer V
    ? IsList<V> extends true ? Exclude<(V & readonly unknown[])[number], Leaf> : never
    : never
}[keyof T]

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

/** The key a route's own `restrictFields` object is carried under, in its `config` type only: no value has it. */
declare const kRouteRestrictFields: unique symbol

/**
 * A route's `restrictFields` route option, carried in the type of its
 * `config` to its request and hooks: Fastify's route types carry a route's
 * schema and `config` there, not its other options. Types only: the route's
 * `config` never holds it.
 */
export interface CarriedRouteOptions<Options> {
  readonly [kRouteRestrictFields]?: Options
}

/** The route option carried in a `config` type; never where none is. */
type CarriedOf<Config> = Config extends CarriedRouteOptions<infer O> ? unknown extends O ? never : O : never

/** The `restrictFields` options of a route, as its types have them: the route option carried, else its `config`'s. */
type ConfigOptions<Config> = [CarriedOf<Config>] extends [never] ? OwnConfigOptions<Config> : CarriedOf<Config>

type OwnConfigOptions<Config> = Config extends { readonly restrictFields: infer O } ? O : {}

/**
 * The route's `resultsKey`, where the types see it; `string` where the
 * options may hold one the types do not know (a wide options type); the
 * plugin's default, `results`, otherwise.
 */
type ResultsKeyOf<Options> = Options extends { readonly resultsKey: infer K extends string }
  ? K
  : 'resultsKey' extends keyof Options ? string : 'results'

/** The route's `maxDepth`, where the types see it; 8 otherwise. */
type MaxDepthOf<Options> = Options extends { readonly maxDepth: infer D extends number } ? D : 8

/**
 * The declared paths of a route whose type provider (TypeBox, Zod) gives the
 * type of its successful replies, read from its records where the route's
 * `restrictFields` option (carried in `Config`, see CarriedRouteOptions) or
 * its `config.restrictFields` says they are (`resultsKey`) and down to its
 * `maxDepth`; `string` where the types say nothing (a plain JSON Schema
 * route, a hook shared by routes). A `resultsKey` given to the plugin is not
 * seen: the plugin's default is read.
 */
export type RoutePaths<Provider, Schema, Config = unknown> = [SuccessSchemas<Schema>] extends [never]
  ? string
  : (Provider & { schema: SuccessSchemas<Schema> }) extends { serializer: infer Reply }
      ? unknown extends Reply
        ? string
        : DeclaredPaths<
          RecordsOf<NonNullable<Reply>, ResultsKeyOf<ConfigOptions<Config>>>,
          TypeDepth<MaxDepthOf<ConfigOptions<Config>>>
        > & string
      : string

/**
 * The object the `restrictFields` route option takes: its default fields and
 * sets name the route's declared paths, where the types know them. There, a
 * route's own `resultsKey` is taken only where the option is carried to the
 * request (see CarriedRouteOptions), so that no type reads the records from
 * another key than the plugin does.
 */
export type RouteOptionsObject<Provider, Schema, Config> = RoutePaths<Provider, Schema, Config> extends infer P extends string
  ? string extends P
    ? RestrictFieldsRouteOptions
    : [CarriedOf<Config>] extends [never] ? RestrictFieldsRouteOptions<P> & { readonly resultsKey?: never } : RestrictFieldsRouteOptions<P>
  : never

/** The `restrictFields` option of a route's options, at the top or in its `config`. */
type RestrictFieldsOf<Route> = Route extends { readonly restrictFields: infer O }
  ? O
  : Route extends { readonly config: { readonly restrictFields: infer O } } ? O : never

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
export type RouteFieldsOf<
  Route extends { readonly schema?: unknown },
  Provider,
  PluginSets extends { readonly [name: string]: readonly string[] } = {}
> =
  RestrictFieldsOf<Route> extends infer Options
    ? RouteFields<
      ReplyOf<Provider, Route['schema']>,
      Omit<PluginSets, keyof (Options extends { readonly fieldSets: infer S } ? S : {})>
      & (Options extends { readonly fieldSets: infer S extends { readonly [name: string]: readonly string[] } } ? S : {}),
      Options extends { readonly defaultFields: ReadonlyArray<infer D extends string> } ? D : never,
      ResultsKeyOf<Options>,
      MaxDepthOf<Options>
    >
    : never
