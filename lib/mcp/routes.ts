/**
 * Which route each tool runs. A document's path is not a route's: it may
 * have lost the server's base path (@fastify/swagger strips it by default)
 * or be shared by two routes. So each `GET` route is recorded as it is
 * declared, its URL as registered (Fastify's prefix included) and its
 * operation id, and an operation runs the one recorded route that
 * @fastify/swagger could have documented at the operation's path with the
 * operation's id: none or several, and the operation is not a tool. Nothing
 * is written into a route's schema, so the document is @fastify/swagger's own.
 */
import { isRecord } from '../json.js'
import { candidatePaths, documentVersion, formatParamUrl } from '../openapi/operations.js'

/** A route a tool runs: its URL as registered, and that URL with `{name}` for each parameter, as a call fills it. */
export interface BoundRoute {
  /** The URL as Fastify registered it, prefix included (`/v1/users/:id`). */
  url: string
  /** The URL with `{name}` in place of each parameter (`/v1/users/{id}`), as @fastify/swagger writes it. */
  template: string
  /** The names of its parameters, in the URL's order. */
  params: readonly string[]
}

/** A `GET` route as it was declared: what @fastify/swagger makes its operation's path and id of. */
interface DeclaredRoute { url: string, operationId: string | undefined }

/** An operation id as @fastify/swagger copies it from a route's schema to its operation: a string that is not empty, or none. */
function operationIdOf (value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The `GET` routes seen as they were declared, and the operations of a document that each could have made. */
export class RouteBindings {
  private readonly declared: DeclaredRoute[] = []
  private readonly bound = new Map<string, BoundRoute>()
  // The routes by the document paths they may have, for the servers of the documents last read: made on the first call.
  private byPath: { servers: string, routes: Map<string, DeclaredRoute[]> } | undefined

  /**
   * Records a `GET` route declared with `url` and `schema`; the schema is
   * only read. A route hidden from the document (`hide`) has no operation.
   */
  record (url: string, schema: unknown): void {
    if (isRecord(schema) && schema.hide === true) return
    this.declared.push({ url, operationId: operationIdOf(isRecord(schema) ? schema.operationId : undefined) })
    this.byPath = undefined
  }

  /**
   * The route that the operation at `path` of `document` was made from: the
   * one recorded route documented at that path with that operation id.
   * Undefined when none was (a route declared before the endpoint, a
   * transform that rewrote its URL or its id), and when several may have
   * been (two routes without an operation id whose paths collide).
   */
  routeOf (operation: Record<string, unknown>, path: string, document: Record<string, unknown>): BoundRoute | undefined {
    const operationId = operationIdOf(operation.operationId)
    const makers = (this.routesByPath(document).get(path) ?? []).filter((route) => route.operationId === operationId)
    return makers.length === 1 ? this.boundRoute(makers[0].url) : undefined
  }

  private routesByPath (document: Record<string, unknown>): Map<string, DeclaredRoute[]> {
    const version = documentVersion(document) ?? '3'
    const servers = JSON.stringify([version, document.servers, document.basePath])
    if (this.byPath?.servers !== servers) {
      const routes = new Map<string, DeclaredRoute[]>()
      for (const route of this.declared) {
        for (const path of candidatePaths(document, version, route.url)) {
          const atPath = routes.get(path)
          if (atPath === undefined) routes.set(path, [route])
          else atPath.push(route)
        }
      }
      this.byPath = { servers, routes }
    }
    return this.byPath.routes
  }

  private boundRoute (url: string): BoundRoute {
    let route = this.bound.get(url)
    if (route === undefined) {
      const template = formatParamUrl(url)
      route = { url, template, params: [...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]) }
      this.bound.set(url, route)
    }
    return route
  }
}
