/**
 * A client that writes each selection once, as a literal in the call, and
 * gets the reply typed exactly by it: a typed view of an openapi-fetch
 * client (or any client with its `GET`), over the `RestrictedRoutes` type
 * generated from the server's OpenAPI document. The literal the call writes
 * is the one openapi-fetch sends (`only=id&only=profile.city`), so the type
 * and the request cannot disagree. Nothing of the server is imported.
 */
import type { RestrictedClient } from './types.js'

export type { CallOptions, ErrorBody, RestrictedClient, RestrictedData, RestrictedGetPaths, RestrictedInit, RestrictedOperation, RestrictedParams, RestrictedQuery, RestrictedResult } from './types.js'
export type { DeclaredPaths, NarrowedReply, OnlyName, Restricted, RouteShape, Selected, Deferred } from '../types/selection.js'

/** The part of an openapi-fetch client that the restricted client calls. */
export interface FetchClient {
  GET: (path: any, ...init: any[]) => Promise<any>
}

/**
 * The same client, with `GET` typed by `Routes` (the generated
 * `RestrictedRoutes`): `data` is narrowed by the call's `only` and `defer`.
 *
 * @example const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl }))
 */
export function restrictedClient<Routes> (client: FetchClient): RestrictedClient<Routes> {
  return { GET: (path: string, ...init: unknown[]) => client.GET(path, ...init) } as RestrictedClient<Routes>
}
