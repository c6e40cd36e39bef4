/**
 * A route's fields read from its own declaration, as a type provider
 * (TypeBox, Zod) types it: its declared paths on the server, and its
 * `RouteFields` for a client sharing the schemas. Types only: nothing here
 * exists at run time.
 */
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
      ? unknown extends Reply
        ? string
        : DeclaredPaths<
          RecordsOf<NonNullable<Reply>, ResultsKeyOf<ConfigOptions<Config>>>,
          TypeDepth<MaxDepthOf<ConfigOptions<Config>>>
        > & string
      : string

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
