import fp from 'fastify-plugin'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { declaredPaths } from './declared.js'
import { kSelection, kView, restrictedFieldsGetter, restrictedHooks } from './hooks.js'
import { normalizeOptions, resolveRouteOptions } from './options.js'
import type { RestrictFieldsRouteOptions, RestrictedFieldsOptions } from './options.js'
import { withRestrictionParameters } from './querystring.js'
import { buildRouteSpec } from './route.js'
import type { FieldSelection } from './view.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The fields this request's response will contain, from the first hook
     * after validation on. On routes without `restrictFields` nothing is
     * restricted and no field is declared.
     */
    restrictedFields: FieldSelection
  }
  interface RouteShorthandOptions {
    /** Lets clients restrict this route's response fields with `?only=` and `?defer=`. */
    restrictFields?: boolean | RestrictFieldsRouteOptions
  }
  interface FastifyContextConfig {
    /** Same as the `restrictFields` route option. */
    restrictFields?: boolean | RestrictFieldsRouteOptions
  }
}

function appendHook<T> (existing: T | T[] | undefined, hook: T): T[] {
  // A new array: Fastify shares the original one with the automatic HEAD route.
  if (existing === undefined) return [hook]
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook]
}

async function fastifyRestrictedFields (fastify: FastifyInstance, options: RestrictedFieldsOptions): Promise<void> {
  const globalOptions = normalizeOptions(options)
  fastify.decorateRequest(kSelection as unknown as string, null)
  fastify.decorateRequest(kView as unknown as string, null)
  fastify.decorateRequest('restrictedFields', { getter: restrictedFieldsGetter })

  fastify.addHook('onRoute', function restrictFieldsOnRoute (this: FastifyInstance, routeOptions: RouteOptions) {
    const value = routeOptions.restrictFields ?? routeOptions.config?.restrictFields
    const route = `${String(routeOptions.method)} ${routeOptions.url}`
    const resolved = resolveRouteOptions(value, globalOptions, route)
    if (resolved === null) return
    const spec = buildRouteSpec(resolved, routeOptions.schema as Record<string, any> | undefined, this.getSchemas() as Record<string, Record<string, unknown>>, route)
    const hooks = restrictedHooks(spec)
    const schema = routeOptions.schema as Record<string, any> | undefined
    routeOptions.schema = {
      ...schema,
      querystring: withRestrictionParameters(schema?.querystring, resolved.onlyParam, resolved.deferParam, declaredPaths(spec.tree))
    }
    routeOptions.preValidation = appendHook(routeOptions.preValidation, hooks.preValidation)
    routeOptions.preSerialization = appendHook(routeOptions.preSerialization, hooks.preSerialization)
  })
}

const plugin = fp(fastifyRestrictedFields, {
  name: 'fastify-restricted-fields',
  fastify: '5.x'
})

export default plugin
export { plugin as fastifyRestrictedFields }
export type { FieldSelection, RestrictFieldsRouteOptions, RestrictedFieldsOptions }
export {
  InvalidOptionError, InvalidParameterError, NoDeclaredFieldsError, PathTooDeepError,
  TooManyFieldsError, UnknownFieldError, UnresolvedReferenceError
} from './errors.js'
