/**
 * Types that narrow a record type by a selection, exactly as the plugin
 * restricts a record: what `only` keeps and `defer` drops, at any depth,
 * through nullable objects, arrays of objects and the variants of a union;
 * and the same where some names may or may not have been sent. Types only:
 * nothing here exists at run time.
 */
import type { Below, DeclaredPaths, Head, IsList, IsUnion, Leaf } from './paths.js'

/** Whether two types are the same type, modifiers and all. */
type Identical<A, B> = (<X>() => X extends A ? 1 : 2) extends (<X>() => X extends B ? 1 : 2) ? true : false

/** The members of the union `All` identical to `T`: `T`'s twins, itself among them. */
type Twins<T, All> = All extends unknown ? (Identical<All, T> extends true ? All : never) : never

/** One member of a union, the same one for the same union: the last, as the checker orders them. */
type OneOf<U> = (
  (U extends unknown ? (member: () => U) => void : never) extends (member: infer Each) => void ? Each : never
) extends () => infer Last ? Last : never

/**
 * A union with identical members made one: variants of a record that a
 * selection narrows to the same object are one object. Each member is
 * replaced by one of its twins, the same for all of them, which the union
 * then holds once.
 */
export type Collapsed<U> = Exclude<U, Leaf> extends infer Records
  ? Identical<Records, OneOf<Records>> extends true ? U : TwinsMadeOne<U, Records>
  : U

type TwinsMadeOne<U, Records> = U extends Leaf ? U : OneOf<Twins<U, Records>>

/** `Collapsed`, where only it can matter: when the type narrowed is a union of records (a check much cheaper than the collapse). */
type CollapsedIf<T, U> = true extends IsUnion<Exclude<T, Leaf>> ? Collapsed<U> : U

/** `Selected` without its check of the paths, for the recursion and for `Restricted`, which checks its own. */
export type Select<T, P extends string> = CollapsedIf<T, SelectEach<T, P>>

type SelectEach<T, P extends string> = T extends Leaf
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
export type Defer<T, D extends string> = CollapsedIf<T, DeferEach<T, D>>

type DeferEach<T, D extends string> = [D] extends [never]
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

/** The records with every field optional, at every depth: what a selection not known to the types may send. */
export type Loosened<T> = CollapsedIf<T, LoosenedEach<T>>

type LoosenedEach<T> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<Loosened<(T & readonly unknown[])[number]>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? { [K in keyof T]?: Loosened<T[K]> }
        : T

/** An object type written out, its modifiers kept: what the two halves of a partly optional object read as. */
type Flat<T> = { [K in keyof T]: T[K] }

/**
 * `Select` where some names may or may not have been sent (`Maybe`): a field
 * that only they name is optional. `Whole` says the object may also have
 * been sent whole (an uncertain name named it), so that every field is.
 */
export type SelectSome<T, P extends string, Maybe extends string, Whole extends boolean> =
  CollapsedIf<T, SelectSomeEach<T, P, Maybe, Whole>>

type SelectSomeEach<T, P extends string, Maybe extends string, Whole extends boolean> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<SelectSome<(T & readonly unknown[])[number], P, Maybe, Whole>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? Flat<{ [K in keyof T as K extends Head<P> ? K : never]: SomeOf<T, K, P, Maybe, Whole> }
        & {
          [K in keyof T as K extends Head<P> ? never : Whole extends true ? K : K extends Head<Maybe> ? K : never]?:
          SomeOf<T, K, P, Maybe, Whole>
        }>
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
          ? IsUnion<Below<Maybe, K & string>> extends true
            ? SelectSome<T[K], never, Below<Maybe, K & string>, false>
            : SelectSome<T[K], Below<Maybe, K & string>, never, false>
          : SelectSome<T[K], Below<P, K & string>, Below<Maybe, K & string>, false>

/** A field that may come whole: whole, unless names reach below it. */
type SomeBelow<V, P extends string, Maybe extends string, Whole extends boolean> = [P | Maybe] extends [never]
  ? V
  : SelectSome<V, P, Maybe, Whole>

/** `Defer` where some names may or may not have been deferred (`Maybe`): a field they name is optional. */
export type DeferSome<T, D extends string, Maybe extends string> = CollapsedIf<T, DeferSomeEach<T, D, Maybe>>

type DeferSomeEach<T, D extends string, Maybe extends string> = T extends Leaf
  ? T
  : IsList<T> extends true
    ? Array<DeferSome<(T & readonly unknown[])[number], D, Maybe>>
    : T extends readonly unknown[]
      ? T
      : T extends object
        ? Flat<{ [K in keyof T as K extends D | Maybe ? never : K]: DeferredOf<T, K, D, Maybe> }
        & { [K in keyof T as K extends D ? never : K extends Maybe ? K : never]?: DeferredOf<T, K, D, Maybe> }>
        : T

type DeferredOf<T, K extends keyof T, D extends string, Maybe extends string> = K extends Head<D> | Head<Maybe>
  ? DeferSome<T[K], Below<D, K & string>, Below<Maybe, K & string>>
  : T[K]
