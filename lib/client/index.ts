/**
 * A client that writes each selection once, as a literal in the call, and
 * gets the reply typed exactly by it: a typed view of an openapi-fetch
 * client (or any client with its methods), over the `RestrictedRoutes` type
 * generated from the server's OpenAPI document. The literal the call writes
 * is the one openapi-fetch sends (`only=id&only=profile.city`), so the type
 * and the request cannot disagree. Nothing of the server is imported.
 */
import type { RestrictedClient } from './types.js'

export type {
  CallablePaths, CallOptions, DocumentedOperation, ErrorBody, Method, OperationOf, OperationOnlyName, OperationPath, RequestBody,
  RestrictedClient, RestrictedData, RestrictedGetPaths, RestrictedInit, RestrictedMethod, RestrictedOperation, RestrictedParams,
  RestrictedPaths, RestrictedQuery, RestrictedResult, RestrictedStatus, WrittenQuery
} from './types.js'
export type {
  DeclaredPaths, NarrowedReply, OnlyName, Restricted, RoutePath, RouteShape, Selected, Deferred, TypeDepth
} from '../types/selection.js'

/** A method of an openapi-fetch client: a path, then the call's options. */
export type FetchMethod = (path: any, ...init: any[]) => Promise<any>

/**
 * The part of an openapi-fetch client that the restricted client calls: `GET`,
 * and the other methods it has. Declared as methods, so that a client whose
 * document has no path for a method (its `url` is `never`) still fits.
 */
export interface FetchClient {
  GET (path: any, ...init: any[]): Promise<any>
  POST? (path: any, ...init: any[]): Promise<any>
  PUT? (path: any, ...init: any[]): Promise<any>
  PATCH? (path: any, ...init: any[]): Promise<any>
  DELETE? (path: any, ...init: any[]): Promise<any>
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * The same client, with `GET`, `POST`, `PUT`, `PATCH` and `DELETE` typed by
 * `Routes` (the generated `RestrictedRoutes`): `data` is narrowed by the
 * call's `only` and `defer`. Each call is passed to the client as it is.
 *
 * @example const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl }))
 */
export function restrictedClient<Routes> (client: FetchClient): RestrictedClient<Routes> {
  const methods: Partial<Record<(typeof METHODS)[number], FetchMethod>> = {}
  for (const method of METHODS) {
    methods[method] = async (path, ...init) => {
      const call = client[method]
      if (typeof call !== 'function') throw new TypeError(`restrictedClient: the client it was given has no ${method} method`)
      return await (call as FetchMethod).call(client, path, ...init)
    }
  }
  return methods as RestrictedClient<Routes>
}
