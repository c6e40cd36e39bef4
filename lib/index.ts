import fp from 'fastify-plugin'
import type {
  ContextConfigDefault, FastifyInstance, FastifyRequest, FastifySchema, RouteGenericInterface, RouteHandlerMethod, RouteOptions,
  RouteShorthandOptionsWithHandler
} from 'fastify'
import { declaredPaths } from './schema/paths.js'
import {
  DocumentLeakError, DocumentNotMadeError, HiddenFieldsUnknownError, InvalidFieldSetError, InvalidHiddenFieldsError, InvalidOptionError,
  InvalidParameterError, InvalidResultsKeyError, InvalidSourceError, LoadFailedError, NoDeclaredFieldsError, PathTooDeepError,
  SelectionNotReadError, TooManyFieldsError, UnaddressableFieldError, UnknownFieldError, UnknownFieldSetError, UnreadableSchemaError,
  UnresolvedReferenceError, UnsupportedSchemaError
} from './errors.js'
import { answersErrorsItself, documentRestrictedRoutes, requestOnRoute, requestRouteOptions } from './openapi/callers.js'
import type { DocumentOptions } from './openapi/callers.js'
import { swaggerUiVisibility } from './openapi/swagger-ui.js'
import type { SwaggerUiOptions, SwaggerUiVisibility } from './openapi/swagger-ui.js'
import { checkLoaders, planner } from './orm/load.js'
import { UNREAD, kFieldSelection, kPending, kRouteReading, kSelection, kVisibility } from './hooks.js'
import { restrictedFieldsGetter, restrictedHooks } from './hooks.js'
import { normalizeOptions, resolveRouteOptions } from './options.js'
import type { HiddenFieldsRoute, HiddenFieldsRule, ResolvedRouteOptions, RestrictFieldsRouteOptions, RestrictedFieldsOptions } from './options.js'
import { withRestrictionParameters } from './querystring.js'
import { usesStandardSchemas } from './standard-schema.js'
import { automaticRouteSpec, buildRouteSpec, successSchemas } from './route.js'
import type { RouteSpec } from './route.js'
import { unrestrictedSenders, unrestrictedSendersWarning } from './shared-records.js'
import type { RestrictingRoute, SendingRoute } from './shared-records.js'
import type { JsonSchema } from './schema/tree.js'
import { routeState } from './state.js'
import type { RouteState } from './state.js'
import type { RouteCompiling } from './serializer.js'
import type { RestrictedRoute } from './openapi/types.js'
import { DeclaredAnywhere } from './visibility.js'
import type { FieldSelection } from './field-selection.js'
import type { RoutePaths } from './types/selection.js'
import type { CarriedRouteOptions, RouteOptionsObject } from './types/declarations.js'

declare module 'fastify' {
  // The type parameters repeat Fastify's names, as merging requires, used or not.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger, RequestType> {
    /**
     * The fields this request's response will contain, from the first hook
     * after validation on. On routes without `restrictFields` nothing is
     * restricted and no field is declared. Where a type provider gives the
     * route's reply type, its paths are the route's declared ones.
     */
    restrictedFields: FieldSelection<RoutePaths<TypeProvider, SchemaCompiler, ContextConfig>>
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {
    /**
     * Lets clients restrict this route's response fields with `?only=` and `?defer=`. An options
     * object is carried, in the types, to the route's request, so that its `resultsKey` and
     * `maxDepth` say which paths its default fields, sets and `restrictedFields` name.
     */
    restrictFields?: boolean | RouteOptionsObject<TypeProvider, SchemaCompiler, ContextConfig>
  }
  // Fastify's route methods infer a route's schema and `config` for its request, not its other options: these
  // overloads, tried before Fastify's own, also infer an options object given as `restrictFields` and carry it
  // in the `config` type (see CarriedRouteOptions). Each repeats one of Fastify's signatures.
  interface RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger> {
    <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault,
      const SchemaCompiler extends FastifySchema = FastifySchema,
      const Options extends RestrictFieldsRouteOptions = RestrictFieldsRouteOptions>(
      path: string,
      opts: RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig & CarriedRouteOptions<Options>,
        SchemaCompiler, TypeProvider, Logger> & { readonly restrictFields: Options },
      handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig & CarriedRouteOptions<Options>,
        SchemaCompiler, TypeProvider, Logger>
    ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
    <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault,
      const SchemaCompiler extends FastifySchema = FastifySchema,
      const Options extends RestrictFieldsRouteOptions = RestrictFieldsRouteOptions>(
      path: string,
      opts: RouteShorthandOptionsWithHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig & CarriedRouteOptions<Options>,
        SchemaCompiler, TypeProvider, Logger> & { readonly restrictFields: Options }
    ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  }
  interface FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> {
    route<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault,
      const SchemaCompiler extends FastifySchema = FastifySchema,
      const Options extends RestrictFieldsRouteOptions = RestrictFieldsRouteOptions>(
      opts: RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig & CarriedRouteOptions<Options>,
        SchemaCompiler, TypeProvider, Logger> & { readonly restrictFields: Options }
    ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
    /**
     * The OpenAPI document (from @fastify/swagger) as the caller of `request`
     * may see it: the fields each route's `hiddenFields` rule hides from it are
     * left out. YAML text with `{ yaml: true }`; null before ready or without @fastify/swagger.
     * With `{ shared: true }`, one object made once for every caller hidden the same fields: read it, never modify it.
     */
    restrictedFieldsDocument: (request: FastifyRequest, options?: DocumentOptions) => Promise<unknown>
    /** Whether `restrictedFieldsDocument` may differ between callers: true when some opted-in route has a `hiddenFields` rule. */
    restrictedFieldsDocumentVaries: () => boolean
    /** Options to spread into @fastify/swagger-ui's, so that each caller fetches its own document. */
    restrictedFieldsSwaggerUi: (options?: SwaggerUiOptions) => SwaggerUiVisibility
  }
  interface FastifyContextConfig {
    /** Same as the `restrictFields` route option. */
    restrictFields?: boolean | RestrictFieldsRouteOptions
  }
}

/** Logged when the app is ready and no route has opted in: the usual cause is a registration that was not awaited. */
const NO_OPTED_IN_ROUTE = 'fastify-restricted-fields: no route has opted in with restrictFields, so no response will be restricted. ' +
  'The plugin sees only routes declared after it has loaded: await app.register(fastifyRestrictedFields) before declaring routes ' +
  '(in CommonJS, declare them in app.register(fastifyRestrictedFields).after(() => { ... }))'

function appendHook<T> (existing: T | T[] | undefined, hook: T): T[] {
  // A new array: Fastify shares the original one with the automatic HEAD route.
  if (existing === undefined) return [hook]
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook]
}

/**
 * The instance's shared schemas, the one object `known` holds for it while
 * they stay the same: Fastify's getSchemas() returns a new copy on every call,
 * and every route keeps the object it was handed.
 */
function sharedSchemasOf (
  instance: FastifyInstance, known: WeakMap<FastifyInstance, Record<string, JsonSchema>>
): Record<string, JsonSchema> {
  const current = instance.getSchemas() as Record<string, JsonSchema>
  const last = known.get(instance)
  const ids = Object.keys(current)
  if (last !== undefined && Object.keys(last).length === ids.length && ids.every((id) => last[id] === current[id])) return last
  known.set(instance, current)
  return current
}

/** What a GET route read when it was declared, lent to the HEAD route Fastify declares next from the same options. */
interface Declared {
  readonly url: string
  readonly schema: unknown
  readonly value: unknown
  readonly shared: Record<string, JsonSchema>
  readonly serializerCompiler: unknown
  readonly spec: RouteSpec
  readonly state: RouteState
  readonly compiling: RouteCompiling
  readonly paths: readonly string[]
  readonly querystring: unknown
}

/** `before`, when `routeOptions` declare its HEAD route from the same options, as Fastify does right after a GET route; else null. */
function headRouteOf (
  before: Declared | null, routeOptions: RouteOptions, value: unknown, shared: Record<string, JsonSchema>
): Declared | null {
  if (routeOptions.method !== 'HEAD' || before === null) return null
  const same = before.url === routeOptions.url && before.schema === routeOptions.schema && before.value === value &&
    before.shared === shared && before.serializerCompiler === routeOptions.serializerCompiler
  return same ? before : null
}

/** The route as a rule is told of it; one frozen object per route. */
function ruleRouteOf (routeOptions: RouteOptions): HiddenFieldsRoute {
  return Object.freeze({ method: routeOptions.method, url: routeOptions.url, config: routeOptions.config ?? {} })
}

/**
 * How a caller's document asks a route's rule what it hides: with the caller's
 * request seen from the route (its `routeOptions` those of the route), checked
 * by the route's own visibilities.
 */
function hiddenFromDocument (
  rule: HiddenFieldsRule | null, state: RouteState, routeOptions: RouteOptions, instance: FastifyInstance
): RestrictedRoute['hiddenFrom'] {
  const visibilities = state.visibilities
  if (rule === null || visibilities === null) return undefined
  let seenFromRoute: FastifyRequest['routeOptions'] | undefined
  return async function hiddenFromCaller (request: FastifyRequest) {
    seenFromRoute ??= requestRouteOptions(routeOptions, instance)
    return visibilities.of(await rule(requestOnRoute(request, seenFromRoute), state.ruleRoute)).hidden
  }
}

/**
 * The spec of a route that the `global` option opts in, or null to leave it
 * alone: it sends no records, or records the plugin cannot restrict and no
 * rule hides fields from (a warning then names it). With a rule, such a route
 * is refused: the rule could hide nothing from its replies.
 */
function automaticSpec (
  options: ResolvedRouteOptions,
  routeOptions: RouteOptions,
  shared: Record<string, Record<string, unknown>>,
  route: string,
  instance: FastifyInstance
): RouteSpec | null {
  const read = automaticRouteSpec(options, routeOptions.schema as Record<string, any> | undefined, shared, route)
  if (read === null || !('unrestrictable' in read)) return read
  // A HEAD reply has no body; the GET route Fastify made it from has been told.
  if (routeOptions.method === 'HEAD') return null
  const why = read.unrestrictable.message
  if (options.hiddenFields !== null) {
    const refusal = new InvalidOptionError(`fastify-restricted-fields, route ${route}: the \`global\` option opts it in, as it sends records, ` +
      `but it cannot be restricted, so the hiddenFields rule could hide nothing from it: ${why}. Set restrictFields: false on the route to send its replies unrestricted`)
    throw Object.assign(refusal, { cause: read.unrestrictable })
  }
  instance.log.warn(`fastify-restricted-fields, route ${route}: left out of the \`global\` option, as it cannot be restricted (${why}): ` +
    'its replies are sent unrestricted. Set restrictFields: false on the route to leave it out without this warning')
  return null
}

async function fastifyRestrictedFields (fastify: FastifyInstance, options: RestrictedFieldsOptions): Promise<void> {
  const globalOptions = normalizeOptions(options)
  fastify.decorateRequest(kSelection as unknown as string, UNREAD)
  fastify.decorateRequest(kFieldSelection as unknown as string, null)
  fastify.decorateRequest(kPending as unknown as string, null)
  fastify.decorateRequest(kVisibility as unknown as string, null)
  // Every path some opted-in route declares: a visibility rule may name fields of other routes, not unknown ones.
  const declaredByAnyRoute = new DeclaredAnywhere()
  fastify.decorateRequest('restrictedFields', { getter: restrictedFieldsGetter })
  const documentation = documentRestrictedRoutes(fastify, { cacheBytes: globalOptions.documentCacheBytes })
  fastify.decorate('restrictedFieldsDocument', function restrictedFieldsDocument (request: FastifyRequest, options?: DocumentOptions) {
    return documentation.documentFor(request, options)
  })
  fastify.decorate('restrictedFieldsDocumentVaries', function restrictedFieldsDocumentVaries () {
    return documentation.variesByCaller()
  })
  fastify.decorate('restrictedFieldsSwaggerUi', function restrictedFieldsSwaggerUi (options?: SwaggerUiOptions) {
    return swaggerUiVisibility(documentation, options)
  })
  // Fastify runs onRoute hooks when a route is declared and keeps no list of routes that a plugin can
  // read later (neither the route's options nor its config), so a route declared before this plugin
  // loaded cannot be found: all the plugin can tell is that it saw no opted-in route at all.
  let optedInRoutes = 0
  fastify.addHook('onReady', function warnWithoutOptedInRoutes (this: FastifyInstance, done: (error?: Error) => void) {
    if (optedInRoutes === 0) this.log.warn(NO_OPTED_IN_ROUTE)
    done()
  })

  // The variant tests a route's first written reply would compile past the cost bound, compiled before any request.
  const preparing: Array<() => void> = []
  fastify.addHook('onReady', function prepareRestrictedRoutes (done: (error?: Error) => void) {
    for (const prepare of preparing.splice(0)) prepare()
    done()
  })

  // The routes that send records without restriction, and those whose rule restricts records, until the app is ready.
  let sending: SendingRoute[] = []
  let restricting: RestrictingRoute[] = []
  fastify.addHook('onReady', function warnOfUnrestrictedSenders (this: FastifyInstance, done: (error?: Error) => void) {
    const warning = unrestrictedSendersWarning(unrestrictedSenders(restricting, sending))
    sending = []
    restricting = []
    if (warning !== null) this.log.warn(warning)
    done()
  })
  const knownSharedSchemas = new WeakMap<FastifyInstance, Record<string, JsonSchema>>()
  // Fastify declares the HEAD route of a GET route right after it, from the same options (the same schema object): it reads
  // nothing again, shares the GET route's variant tests, and gets the same querystring schema object, which ajv compiles once.
  let lastGet: Declared | null = null

  fastify.addHook('onRoute', function restrictFieldsOnRoute (this: FastifyInstance, routeOptions: RouteOptions) {
    const value = routeOptions.restrictFields ?? routeOptions.config?.restrictFields
    const route = `${String(routeOptions.method)} ${routeOptions.url}`
    const before = lastGet
    lastGet = null
    const automatic = value === undefined && globalOptions.global
    const resolved = resolveRouteOptions(automatic ? true : value, globalOptions, route)
    const schema = routeOptions.schema as Record<string, any> | undefined
    const schemas = successSchemas(schema)
    const server = this
    const sharedSchemas = (): Record<string, Record<string, unknown>> => server.getSchemas() as Record<string, Record<string, unknown>>
    // `restrictFields: false` is the app's word that the route may send every field; a HEAD reply has no body.
    const sends = value !== false && routeOptions.method !== 'HEAD' && schemas.length > 0
    const leftAlone = (): void => { if (sends) sending.push({ route, schemas, shared: sharedSchemas }) }
    if (resolved === null) return leftAlone()
    const shared = sharedSchemasOf(this, knownSharedSchemas)
    const twin = headRouteOf(before, routeOptions, value, shared)
    const spec = twin === null && automatic
      ? automaticSpec(resolved, routeOptions, shared, route, this)
      : buildRouteSpec(resolved, schema, shared, route, twin?.spec)
    if (spec === null) return leftAlone()
    optedInRoutes++
    if (resolved.hiddenFields !== null) restricting.push({ route, schemas, shared: sharedSchemas, resultsKey: resolved.resultsKey })
    const paths = twin?.paths ?? declaredPaths(spec.tree)
    checkLoaders(resolved.loads, paths, route)
    if (twin === null) declaredByAnyRoute.add(spec.tree)
    const compiling = twin?.compiling ?? { shared, ownCompiler: routeOptions.serializerCompiler !== undefined }
    const state = routeState(spec, (path) => declaredByAnyRoute.has(path), ruleRouteOf(routeOptions), compiling, twin?.state)
    const hooks = restrictedHooks(spec, state)
    preparing.push(() => state.serializers.prepare(server))
    // Only a JSON Schema querystring is extended, so that a strict one accepts the parameters. A route
    // without one gets none: its validator compiler may take no JSON Schema (Zod's does not).
    if (schema?.querystring !== undefined && !usesStandardSchemas(schema)) {
      routeOptions.schema = {
        ...schema,
        querystring: twin?.querystring ??
          withRestrictionParameters(schema?.querystring, resolved.onlyParam, resolved.deferParam, paths, resolved)
      }
    }
    if (routeOptions.method === 'GET') {
      const { url, serializerCompiler } = routeOptions
      const querystring = routeOptions.schema?.querystring
      lastGet = { url, schema, value, shared, serializerCompiler, spec, state, compiling, paths, querystring }
    }
    const [primary, ...others] = spec.statuses
    routeOptions.schema = documentation.record({
      ...resolved,
      method: routeOptions.method,
      url: routeOptions.url,
      statusKey: primary.key,
      shape: primary.shape,
      otherStatuses: others.map((status) => ({ statusKey: status.key as string, shape: status.shape })),
      paths,
      hidesFields: resolved.hiddenFields !== null,
      // @fastify/swagger leaves out a route whose schema says `hide`, and the HEAD routes Fastify adds unless told otherwise.
      undocumented: schema?.hide === true || routeOptions.method === 'HEAD',
      hiddenFrom: hiddenFromDocument(resolved.hiddenFields, state, routeOptions, this)
    }, routeOptions.schema, () => answersErrorsItself(routeOptions, server))
    if (hooks.preValidation !== null) routeOptions.preValidation = appendHook(routeOptions.preValidation, hooks.preValidation)
    if (hooks.preHandler !== null) routeOptions.preHandler = appendHook(routeOptions.preHandler, hooks.preHandler)
    routeOptions.preSerialization = appendHook(routeOptions.preSerialization, hooks.preSerialization)
    if (hooks.wrapHandler !== null) routeOptions.handler = hooks.wrapHandler(routeOptions.handler)
    // Found there by the restrictedFields getter of a hook that asks before the route has read the selection.
    routeOptions.config = { ...routeOptions.config, [kRouteReading]: hooks.reading } as typeof routeOptions.config
  })
}

const plugin = fp(fastifyRestrictedFields, {
  name: 'fastify-restricted-fields',
  fastify: '5.x'
})

// require() of this module returns its 'module.exports' export (Node 20.19+):
// the plugin itself, as Fastify's own plugins give CommonJS users, with the
// other exports on it, so that `require(...).UnknownFieldError` and TypeScript's
// CommonJS output of `import { UnknownFieldError } from ...` find them.
Object.assign(plugin, {
  default: plugin,
  fastifyRestrictedFields: plugin,
  DocumentLeakError,
  DocumentNotMadeError,
  HiddenFieldsUnknownError,
  InvalidFieldSetError,
  InvalidHiddenFieldsError,
  InvalidOptionError,
  InvalidParameterError,
  InvalidResultsKeyError,
  InvalidSourceError,
  LoadFailedError,
  loadPlanner: planner,
  NoDeclaredFieldsError,
  PathTooDeepError,
  SelectionNotReadError,
  TooManyFieldsError,
  UnaddressableFieldError,
  UnknownFieldError,
  UnknownFieldSetError,
  UnreadableSchemaError,
  UnresolvedReferenceError,
  UnsupportedSchemaError
})

export default plugin
export { plugin as fastifyRestrictedFields, planner as loadPlanner }
// Kept out of the published declarations (stripInternal): TypeScript before
// 5.6 cannot parse a string export name, and the named exports already give
// TypeScript everything require() returns.
/** @internal */
export { plugin as 'module.exports' }
export type {
  DeclaredPaths, Deferred, NarrowedReply, OnlyName, RecordsKind, Restricted, RouteFields, RouteFieldsOf, RoutePath, RoutePaths, RouteShape,
  Selected, Selection, TypeDepth
} from './types/selection.js'
export type { FieldSource, FieldSources, LoadOptions, LoadPlan, Loader, Planner, RelationSource, TableShape } from './orm/load.js'
export type { LoadCheck } from './options.js'
export type {
  FieldSelection, HiddenFieldsRoute, HiddenFieldsRule, RestrictFieldsRouteOptions, RestrictedFieldsOptions,
  SwaggerUiOptions, SwaggerUiVisibility
}
export {
  DocumentLeakError, DocumentNotMadeError, HiddenFieldsUnknownError, InvalidFieldSetError, InvalidHiddenFieldsError, InvalidOptionError,
  InvalidParameterError, InvalidResultsKeyError, InvalidSourceError, LoadFailedError, NoDeclaredFieldsError, PathTooDeepError,
  SelectionNotReadError, TooManyFieldsError, UnaddressableFieldError, UnknownFieldError, UnknownFieldSetError, UnreadableSchemaError,
  UnresolvedReferenceError, UnsupportedSchemaError
}
