/**
 * Which route each tool runs. A document's path is not a route's: it may
 * have lost the server's base path (@fastify/swagger strips it by default),
 * been rewritten by a transform, or be shared by two routes. So each `GET`
 * route is bound when it is declared: the `onRoute` hook gives its schema a
 * vendor key, which @fastify/swagger copies to the route's operation, and
 * the tool made from that operation runs the URL the route was registered
 * with, Fastify's prefix included. An operation without a key of a route
 * seen here is not a tool.
 */
import { isRecord } from '../json.js'
import { formatParamUrl } from '../openapi/operations.js'

/** The vendor key that carries a route's number from its schema to its operation. */
export const ROUTE_KEY = 'x-mcp-route'

/** A route a tool runs: its URL as registered, and that URL with `{name}` for each parameter, as a call fills it. */
export interface BoundRoute {
  /** The URL as Fastify registered it, prefix included (`/v1/users/:id`). */
  url: string
  /** The URL with `{name}` in place of each parameter (`/v1/users/{id}`), as @fastify/swagger writes it. */
  template: string
  /** The names of its parameters, in the URL's order. */
  params: readonly string[]
}

// Numbers are unique across instances of the plugin: two endpoints may bind the same route.
let lastRouteNumber = 0

/** The `GET` routes seen as they were declared, by the number their operations carry. */
export class RouteBindings {
  private readonly byNumber = new Map<number, BoundRoute>()

  /**
   * Records a route declared with `url` and `schema`, and returns the schema
   * its operation is documented from: a copy with the route's number (the
   * route's own object is not changed, as several routes may share it).
   * Another endpoint's number for the same route is kept, so that both find it.
   */
  record<Schema extends object> (url: string, schema: Schema | undefined): Schema {
    const carried: unknown = (schema as Record<string, unknown> | undefined)?.[ROUTE_KEY]
    // A number this endpoint gave another route (a schema copied from a declared route) is not this one's.
    const own = typeof carried === 'number' && !this.byNumber.has(carried) && carried <= lastRouteNumber ? carried : ++lastRouteNumber
    const template = formatParamUrl(url)
    this.byNumber.set(own, { url, template, params: [...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]) })
    return { ...schema, [ROUTE_KEY]: own } as Schema
  }

  /** The route an operation of the document was made from, or undefined when no route seen here made it. */
  routeOf (operation: unknown): BoundRoute | undefined {
    if (!isRecord(operation)) return undefined
    const number = operation[ROUTE_KEY]
    return typeof number === 'number' ? this.byNumber.get(number) : undefined
  }
}
