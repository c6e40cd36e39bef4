/**
 * The types of a client that narrows each reply by the selection it sends.
 * Types only: nothing here exists at run time.
 */
import type { DeclaredPaths, NarrowedReply, RecordsKind, TypeDepth } from '../types/selection.js'

/** One status whose records are restricted: its reply type, where the records sit in it, and the caller's complete record. */
export interface RestrictedStatus {
  /** openapi-typescript's type of the reply, around its records. */
  readonly reply: unknown
  /** One record, complete: every field the caller may be sent, with its required-ness and nullability. */
  readonly record: object
  readonly records: RecordsKind
  /** The envelope's records key, for `records: 'envelope'`. */
  readonly key: string
}

/**
 * What a client knows of one restricted operation: openapi-typescript's
 * type of the operation, each status whose records are restricted, the
 * names of its parameters, its field sets, default fields and `maxDepth`.
 * The generated `RestrictedRoutes` holds one per path and method.
 */
export interface RestrictedOperation {
  /** openapi-typescript's operation: its `parameters`, `requestBody` and `responses`. */
  readonly operation: unknown
  /** The restricted statuses, by the keys openapi-typescript gives them (`200`, `201`, `'2XX'`). */
  readonly statuses: object
  /** The name of the parameter that keeps fields (`only`). */
  readonly only: string
  /** The name of the parameter that leaves fields out (`defer`). */
  readonly defer: string
  /** The route's field sets, by name without `@`. */
  readonly sets: { readonly [name: string]: readonly string[] }
  /** The route's default fields; never when it has none (every field is sent). */
  readonly defaultFields: string
  /** The most segments of a path the route accepts. */
  readonly maxDepth: number
}

/**
 * An operation the plugin does not restrict (its route did not opt in), as
 * the generated `RestrictedRoutes` lists it: openapi-typescript's type of
 * it, called as documented.
 */
export interface DocumentedOperation {
  /** openapi-typescript's operation: its `parameters`, `requestBody` and `responses`. */
  readonly operation: unknown
}

/** A documented operation read as a restricted one with no restricted status: its replies as documented. */
interface Unrestricted<Operation> {
  readonly operation: Operation
  readonly statuses: {}
  readonly only: never
  readonly defer: never
  readonly sets: {}
  readonly defaultFields: never
  readonly maxDepth: 8
}

/** The HTTP methods a client calls, as openapi-typescript keys them. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch'

/** The paths of `Routes` whose operation for `M` is restricted. */
export type RestrictedPaths<Routes, M extends Method> = {
  [P in keyof Routes]: Routes[P] extends { readonly [K in M]: RestrictedOperation } ? P : never
}[keyof Routes] & string

/** The paths of `Routes` whose GET operation is restricted. */
export type RestrictedGetPaths<Routes> = RestrictedPaths<Routes, 'get'>

/** The paths of `Routes` with an operation for `M`, restricted or not. */
export type CallablePaths<Routes, M extends Method> = {
  [P in keyof Routes]: Routes[P] extends { readonly [K in M]: DocumentedOperation } ? P : never
}[keyof Routes] & string

/** The operation of `Routes` at path `P` for method `M`: a restricted one as it is, another as one with no restricted status. */
export type OperationOf<Routes, P, M extends Method> = P extends keyof Routes
  ? Routes[P] extends { readonly [K in M]: infer O extends DocumentedOperation }
    ? O extends RestrictedOperation ? O : Unrestricted<O['operation']>
    : never
  : never

type Operation<O extends RestrictedOperation> = O['operation'] extends object ? O['operation'] : {}

type Parameters<O extends RestrictedOperation> = Operation<O> extends { readonly parameters: infer P extends object } ? P : {}

type QueryOf<O extends RestrictedOperation> = Parameters<O> extends { readonly query?: infer Q } ? NonNullable<Q> : {}

/** Every record the operation may send, over its restricted statuses. */
type RecordOf<O extends RestrictedOperation> = { [S in keyof O['statuses']]: O['statuses'][S] extends { readonly record: infer R } ? R : never }[keyof O['statuses']]

/** A path `only` and `defer` accept on the operation: declared by a record of any of its statuses, within its `maxDepth`. */
export type OperationPath<O extends RestrictedOperation> = DeclaredPaths<RecordOf<O>, TypeDepth<O['maxDepth']>>

/** A name `only` accepts on the operation: a path, `*`, `@default`, or `@` and a set's name. */
export type OperationOnlyName<O extends RestrictedOperation> = OperationPath<O> | '*' | '@default' | `@${keyof O['sets'] & string}`

/**
 * A list of names, as the call writes it. The tuple beside the array makes
 * the checker read an array literal as a tuple, whose names the types know,
 * without a `const` type parameter: that one would also make the body's and
 * the other parameters' arrays readonly, which their mutable types refuse.
 */
type NameList<N> = readonly N[] | readonly [N, ...N[]]

/**
 * The same names, known to be strings before the call's path is: the checker
 * reads a literal's names as literals only where it can tell they are
 * strings (`only`'s `'*'` tells it), else it widens them to `string`.
 */
type Names<N> = [N] extends [infer S extends string] ? S : never

/** The query of a call: the operation's own parameters, with `only` and `defer` as lists of the names the route accepts. */
export type RestrictedQuery<O extends RestrictedOperation> = Omit<QueryOf<O>, O['only'] | O['defer']>
& { readonly [K in O['only']]?: NameList<OperationOnlyName<O>> }
& { readonly [K in O['defer']]?: NameList<Names<OperationPath<O>>> }

/** The `params` of a call: path, header and cookie parameters as the document types them, and the restricted query. */
export type RestrictedParams<O extends RestrictedOperation> = Omit<Parameters<O>, 'query'> & { readonly query?: RestrictedQuery<O> }

/** The other options of a call, passed through to the client (openapi-fetch's `headers`, `signal`, `baseUrl`…). */
export interface CallOptions {
  readonly headers?: Record<string, string | number | boolean | readonly string[] | null | undefined> | Array<[string, string]>
  readonly signal?: AbortSignal | null
  readonly baseUrl?: string
}

/** Whether an operation's path, header and cookie parameters may all be left out. */
type ParamsOptional<O extends RestrictedOperation> = {} extends Omit<Parameters<O>, 'query'> ? true : false

/** A body's type by media type, JSON first. */
type ContentOf<C> = C extends object ? ('application/json' extends keyof C ? C['application/json'] : C[keyof C]) : never

/** The `body` of a call, as the operation's `requestBody` has it: required, optional, or absent. */
export type RequestBody<O extends RestrictedOperation> = Operation<O> extends { readonly requestBody: { readonly content: infer C } }
  ? { readonly body: ContentOf<C> }
  : Operation<O> extends { readonly requestBody?: { readonly content: infer C } }
    ? [ContentOf<C>] extends [never] ? { readonly body?: never } : { readonly body?: ContentOf<C> }
    : { readonly body?: never }

/** Whether a call needs options: a path parameter or a body it must send. */
type InitOptional<O extends RestrictedOperation> = ParamsOptional<O> extends true ? ({} extends RequestBody<O> ? true : false) : false

/** The options of a call: `params` may be left out when the operation requires none; `body` as the operation takes it. */
export type RestrictedInit<O extends RestrictedOperation> = CallOptions & RequestBody<O> & (ParamsOptional<O> extends true
  ? { readonly params?: RestrictedParams<O> }
  : { readonly params: RestrictedParams<O> })

/** The list a call's options send under the parameter `Name`: undefined when they send none. */
type Sent<Init, Name extends string> = Init extends { readonly params?: { readonly query?: infer Q } }
  ? Name extends keyof Q ? Q[Name] : undefined
  : undefined

/** What narrowing one status needs: its records, with the operation's sets, default fields and depth. */
type StatusShape<O extends RestrictedOperation, S extends keyof O['statuses']> =
  O['statuses'][S] & RestrictedStatus & Pick<O, 'sets' | 'defaultFields' | 'maxDepth'>

type Responses<O extends RestrictedOperation> = Operation<O> extends { readonly responses: infer R extends object } ? R : {}

/** A response body as openapi-fetch types it: its JSON content, else its one content, else undefined. */
type BodyOf<R> = R extends { readonly content: infer C } ? ContentOf<C> : undefined

/** Whether a status key is a success, as openapi-fetch reads them. */
type IsSuccess<S> = `${S & (string | number)}` extends `2${string}` ? true : false

/**
 * The reply a call is sent: for each successful status, its records narrowed
 * by the `only` and `defer` lists the call's options hold when the status is
 * restricted, its body as documented otherwise.
 */
export type RestrictedData<O extends RestrictedOperation, Init> = {
  [S in keyof Responses<O>]: IsSuccess<S> extends true
    ? S extends keyof O['statuses']
      ? NarrowedReply<StatusShape<O, S>, Sent<Init, O['only']>, Sent<Init, O['defer']>>
      : BodyOf<Responses<O>[S]>
    : never
}[keyof Responses<O>]

/** The bodies of an operation's responses that are not successful. */
export type ErrorBody<O extends RestrictedOperation> = {
  [S in keyof Responses<O>]: IsSuccess<S> extends true ? never : BodyOf<Responses<O>[S]>
}[keyof Responses<O>]

/** What a call resolves to, as openapi-fetch has it: the narrowed `data`, or the `error` body; and the `response`. */
export type RestrictedResult<O extends RestrictedOperation, Init> =
  | { data: RestrictedData<O, Init>, error?: never, response: Response }
  | { data?: never, error: ErrorBody<O>, response: Response }

/** Where the selection sits in a call's options: the lists `only` and `defer` send are read from the query. */
export interface WrittenQuery<Query> { readonly params?: { readonly query?: Query } }

/**
 * The query a call writes, inferred on its own, then gone: `{}` once it is
 * known, so that the call's options are checked against the operation's
 * types alone (a misspelt parameter or body field is refused), and nothing
 * else of them is inferred. Were the options inferred as one type, an enum
 * literal beside the selection (`state: 'open'`) would be widened to
 * `string`, the inference would fail the operation's types, and the checker
 * would fall back to them, whose lists are not literals: the selection
 * would be lost without a word. The checker infers through both branches of
 * the condition, which stays open until the query is known.
 */
type QueryInferred<Query> = [Query] extends [never] ? WrittenQuery<Query> : {}

/**
 * One method of the client: a call to an operation, with or without options; a restricted one's records narrowed, another's reply as
 * documented.
 */
export interface RestrictedMethod<Routes, M extends Method> {
  /** Without options: the route's default fields, or every field. */
  <P extends CallablePaths<Routes, M>>(
    path: InitOptional<OperationOf<Routes, P, M>> extends true ? P : never
  ): Promise<RestrictedResult<OperationOf<Routes, P, M>, {}>>
  /**
   * With options: the selection their query writes narrows the reply; their other parameters and body are the operation's, and change
   * nothing of it.
   */
  <P extends CallablePaths<Routes, M>, Query>(
    path: P,
    init: RestrictedInit<OperationOf<Routes, P, M>> & QueryInferred<Query>
  ): Promise<RestrictedResult<OperationOf<Routes, P, M>, WrittenQuery<Query>>>
}

/**
 * A client whose methods type `data` by the selection the call writes:
 * `api.GET('/users/{id}', { params: { path: { id: 7 }, query: { only: ['id', 'profile.city'] } } })`
 * resolves with `data` of type `{ id: number, profile: { city: string } }`;
 * a `POST` whose 201 sends the created record narrows it the same way.
 */
export interface RestrictedClient<Routes> {
  GET: RestrictedMethod<Routes, 'get'>
  POST: RestrictedMethod<Routes, 'post'>
  PUT: RestrictedMethod<Routes, 'put'>
  PATCH: RestrictedMethod<Routes, 'patch'>
  DELETE: RestrictedMethod<Routes, 'delete'>
}
