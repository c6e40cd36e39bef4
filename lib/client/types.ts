/**
 * The types of a client that narrows each reply by the selection it sends.
 * Types only: nothing here exists at run time.
 */
import type { DeclaredPaths, NarrowedReply, OnlyName, RouteShape } from '../types/selection.js'

/**
 * What a client knows of one restricted operation: its record and field sets
 * (a `RouteShape`), the names of its parameters, and openapi-typescript's
 * types of its parameters and responses. The generated `RestrictedRoutes`
 * holds one per operation.
 */
export interface RestrictedOperation extends RouteShape {
  /** The name of the parameter that keeps fields (`only`). */
  readonly only: string
  /** The name of the parameter that leaves fields out (`defer`). */
  readonly defer: string
  /** openapi-typescript's `parameters` of the operation. */
  readonly parameters: unknown
  /** openapi-typescript's `responses` of the operation. */
  readonly responses: unknown
}

/** The paths of `Routes` whose GET operation is restricted. */
export type RestrictedGetPaths<Routes> = { [P in keyof Routes]: Routes[P] extends { readonly get: RestrictedOperation } ? P : never }[keyof Routes] & string

type GetOf<Routes, P extends keyof Routes> = Routes[P] extends { readonly get: infer O extends RestrictedOperation } ? O : never

type Parameters<O extends RestrictedOperation> = O['parameters'] extends object ? O['parameters'] : {}

type QueryOf<O extends RestrictedOperation> = Parameters<O> extends { readonly query?: infer Q } ? NonNullable<Q> : {}

/** The query of a call: the operation's own parameters, with `only` and `defer` as lists of the names the route accepts. */
export type RestrictedQuery<O extends RestrictedOperation> = Omit<QueryOf<O>, O['only'] | O['defer']>
& { readonly [K in O['only']]?: readonly OnlyName<O>[] }
& { readonly [K in O['defer']]?: readonly DeclaredPaths<O['record']>[] }

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

/** The options of a call: `params` may be left out when the operation requires none. */
export type RestrictedInit<O extends RestrictedOperation> = CallOptions & (ParamsOptional<O> extends true
  ? { readonly params?: RestrictedParams<O> }
  : { readonly params: RestrictedParams<O> })

type Sent<Init, Name extends string> = Init extends { readonly params?: { readonly query?: infer Q } }
  ? Q extends { readonly [K in Name]?: infer L } ? L : undefined
  : undefined

/** The reply a call is sent: the records narrowed by the `only` and `defer` lists its options hold. */
export type RestrictedData<O extends RestrictedOperation, Init> = NarrowedReply<O, Sent<Init, O['only']>, Sent<Init, O['defer']>>

/** The bodies of an operation's responses that are not successful. */
export type ErrorBody<O extends RestrictedOperation> = {
  [S in keyof O['responses']]: `${S & (string | number)}` extends `2${string}` ? never : O['responses'][S] extends { content: infer C } ? C[keyof C] : never
}[keyof O['responses']]

/** What a call resolves to, as openapi-fetch has it: the narrowed `data`, or the `error` body; and the `response`. */
export type RestrictedResult<O extends RestrictedOperation, Init> =
  | { data: RestrictedData<O, Init>, error?: never, response: Response }
  | { data?: never, error: ErrorBody<O>, response: Response }

/**
 * A client whose `GET` types `data` by the selection the call writes:
 * `api.GET('/users/{id}', { params: { path: { id: 7 }, query: { only: ['id', 'profile.city'] } } })`
 * resolves with `data` of type `{ id: number, profile: { city: string } }`.
 */
export interface RestrictedClient<Routes> {
  GET: {
    /** Without options: the route's default fields, or every field. */
    <P extends RestrictedGetPaths<Routes>>(path: ParamsOptional<GetOf<Routes, P>> extends true ? P : never): Promise<RestrictedResult<GetOf<Routes, P>, {}>>
    <P extends RestrictedGetPaths<Routes>, const Init extends RestrictedInit<GetOf<Routes, P>>>(path: P, init: Init): Promise<RestrictedResult<GetOf<Routes, P>, Init>>
  }
}
