/**
 * The shape of a route's replies, as narrowing them needs it: where the
 * records sit in a reply, their complete type, the route's field sets,
 * default fields and `maxDepth`, and the names `only` and `defer` accept.
 * Types only: nothing here exists at run time.
 */
import type { DeclaredPaths, IsList, IsUnion, Leaf, TypeDepth } from './paths.js'

/** Where a route's records sit in its reply: the reply itself, an array's items, or an envelope's records array. */
export type RecordsKind = 'object' | 'array' | 'envelope'

/**
 * How the plugin reads a reply type: an array of records, an envelope (an object, not a union, whose `Key` holds an array), or one
 * record.
 */
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
