/**
 * Keeps the OpenAPI document that @fastify/swagger generates true for the
 * opted-in routes. Each route's schema gets a vendor key that swagger copies
 * to its operation; once the app is ready, swagger's decorator is wrapped so
 * that its document passes through `restrictedDocument`, after every user
 * transform and transformObject.
 */
import type { FastifyInstance } from 'fastify'
import { OPERATION_KEY, restrictedDocument } from './openapi.js'
import { toYaml } from './yaml.js'
import type { RestrictedRoute } from './openapi.js'

export interface RouteDocumentation {
  /** Records an opted-in route; returns its route schema with the key that finds its operation. */
  record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined): Schema
}

type DocumentFunction = (this: unknown, options?: { yaml?: boolean }) => unknown

// Ids are unique across instances of the plugin: two registrations may wrap the same decorator.
let lastRouteId = 0

function restrictedDocumentFunction (generate: DocumentFunction, routes: ReadonlyMap<string, RestrictedRoute>): DocumentFunction {
  let source: unknown
  let document: unknown
  let yaml: string | undefined
  return function restrictedFieldsDocument (options) {
    const generated = generate.call(this)
    if (generated === null || typeof generated !== 'object') return generate.call(this, options)
    // Swagger returns the same object until its cache is reset: relax each one once.
    if (generated !== source) {
      source = generated
      document = restrictedDocument(generated, routes)
      yaml = undefined
    }
    if (options?.yaml === true) return (yaml ??= toYaml(document))
    return document
  }
}

/**
 * Sets up the documentation of the instance's opted-in routes. `decorator` is
 * the name of @fastify/swagger's decorator (its `decorator` option); without
 * one, the routes' schemas keep their vendor key and nothing else happens.
 */
export function documentRestrictedRoutes (fastify: FastifyInstance, decorator = 'swagger'): RouteDocumentation {
  const routes = new Map<string, RestrictedRoute>()
  fastify.addHook('onReady', function wrapSwaggerDocument (done) {
    // The decorator may sit on an ancestor instance: wrap it where it is, so every instance sees the wrapper.
    let owner: Record<string, unknown> | null = fastify as unknown as Record<string, unknown>
    while (owner !== null && !Object.hasOwn(owner, decorator)) owner = Object.getPrototypeOf(owner)
    if (owner !== null && typeof owner[decorator] === 'function' && routes.size > 0) {
      owner[decorator] = restrictedDocumentFunction(owner[decorator] as DocumentFunction, routes)
    }
    done()
  })
  return {
    record<Schema extends object> (route: RestrictedRoute, schema: Schema | undefined): Schema {
      const id = String(++lastRouteId)
      routes.set(id, route)
      return { ...schema, [OPERATION_KEY]: id } as Schema
    }
  }
}
