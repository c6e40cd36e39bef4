/**
 * The per-request work of an opted-in route: its preValidation hook (reading
 * the selection) and its preSerialization hook (restricting the payload).
 */
import type {
  FastifyReply, FastifyRequest, preHandlerHookHandler, preSerializationHookHandler, preValidationHookHandler
} from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import type { JsonSchema } from './declared.js'
import { projectWhole, wholeProjection } from './projection.js'
import type { Projection } from './projection.js'
import type { RouteSpec } from './route.js'
import type { Selection } from './selection.js'
import { ProjectionWriter, WRITER_GAVE_UP, copyProjection, pruneSchema, writerRoute } from './serializer.js'
import type { Serializer, WriterRoute } from './serializer.js'
import { NOT_RESTRICTED, selectionView, unrestrictedView } from './view.js'
import type { FieldSelection } from './view.js'
import { hasRestriction, selectionReader } from './selection.js'
import { VisibilityCache } from './visibility.js'
import type { Visibility } from './visibility.js'

/** Where a request keeps its selection and its handlers' view; decorated with null. */
export const kSelection = Symbol('fastify-restricted-fields.selection')
export const kView = Symbol('fastify-restricted-fields.view')
/** On routes with a visibility rule: the restriction parameters, set aside until the rule has run. */
export const kPending = Symbol('fastify-restricted-fields.pending')

type SelectionCarrier = FastifyRequest & {
  [kSelection]: Selection | null
  [kView]: FieldSelection | null
  [kPending]: Query | null
}
type Query = Record<string, unknown>

/** The raw query string, the memo's key; without a `?` (a custom query parser), the whole URL, which determines the query as well. */
function rawQueryOf (request: FastifyRequest): string {
  const url = request.url
  return url.slice(url.indexOf('?') + 1)
}

/**
 * Rewrites the restriction parameters as arrays of declared names under their
 * plain names, so that the querystring schema (which lists the declared names)
 * accepts the comma and bracket forms, and ignored unknown names, alike.
 */
function normalizeQuery (query: Query, selection: Selection, spec: RouteSpec): void {
  const { onlyParam, onlyListParam, deferParam, deferListParam } = spec.rules
  // Deleting only what is there keeps the query object's shape, and its property access fast.
  if (query[onlyListParam] !== undefined) delete query[onlyListParam]
  if (query[deferListParam] !== undefined) delete query[deferListParam]
  if (selection.only !== null) query[onlyParam] = selection.only.slice()
  if (selection.defer !== null) query[deferParam] = selection.defer.slice()
}

function compileOrNull (reply: FastifyReply, spec: RouteSpec, schema: JsonSchema): Serializer | null {
  try {
    // A Standard Schema route's compiler takes its own kind of schema, not JSON Schema.
    return spec.standard === null
      ? reply.compileSerializationSchema(schema, spec.statusKey) as Serializer
      : fastJsonStringify(schema)
  } catch (error) {
    // A custom serializer compiler may refuse a pruned schema; the plugin then writes or copies instead.
    reply.log.error({ err: error }, 'fastify-restricted-fields: could not compile a pruned response schema')
    return null
  }
}

/** Per-route state of the serializers that are not compiled per selection. */
interface RouteSerializers { copy: Serializer | null | undefined }

/** The restricted serializer of a reply whose selection has no compiled serializer: write, or copy where the writer gives up. */
function writingSerializer (reply: FastifyReply, spec: RouteSpec, state: RouteSerializers, projection: Projection): Serializer {
  return function writeRestricted (payload) {
    const compile = (schema: JsonSchema): Serializer | null => compileOrNull(reply, spec, schema)
    const writer = new ProjectionWriter(spec.writer, compile)
    try {
      return writer.write(payload, projection)
    } catch (error) {
      if (error !== WRITER_GAVE_UP) throw error
    }
    // The schema of every declared field without defaults: it serializes any copied selection.
    // Compiled once per route; null (a compiler that refused it) is remembered too.
    if (state.copy === undefined) state.copy = compileOrNull(reply, spec, pruneSchema(spec.declared!, wholeProjection(spec.tree), { defaults: false, variants: 'copy' }))
    const copy = copyProjection(payload, spec.tree, projection, spec.shape, (variants, record) => writer.choose(variants, record))
    return (state.copy ?? JSON.stringify)(copy)
  }
}

/**
 * Wraps a restricted serializer of a Standard Schema route: the payload goes
 * through the schema's own validation first, and what it outputs is
 * restricted. A payload it rejects goes to the route's own serializer, which
 * rejects it as it would without restriction.
 */
function validatingSerializer (reply: FastifyReply, spec: RouteSpec, encoded: WriterRoute, restricted: Serializer, projection: Projection): Serializer {
  const standard = spec.standard!
  return function validateThenRestrict (payload) {
    const result = standard['~standard'].validate(payload)
    if (!(result instanceof Promise) && result.issues === undefined) return restricted(result.value)
    if (result instanceof Promise) result.catch(() => {})
    const own = reply.compileSerializationSchema(standard as unknown as Record<string, unknown>, spec.statusKey) as Serializer
    // Reached only when the route's serializer accepts what validation did not (a codec, say):
    // its JSON is restricted as it stands, with nothing converted again.
    return new ProjectionWriter(encoded, () => null).write(JSON.parse(own(payload)), projection)
  }
}

/** The hooks of an opted-in route, closed over its spec. */
export interface RestrictedHooks {
  /** Null on a route with a visibility rule and no querystring schema: nothing can touch the parameters before the rule runs. */
  preValidation: preValidationHookHandler | null
  /** Set on routes with a visibility rule, which is applied, with the selection, after the route's own hooks. */
  preHandler: preHandlerHookHandler | null
  preSerialization: preSerializationHookHandler<unknown>
}

/**
 * The hooks of an opted-in route. `declaredElsewhere` tells whether a path
 * that a visibility rule hides is declared by another opted-in route.
 */
export function restrictedHooks (spec: RouteSpec, declaredElsewhere: (path: string) => boolean): RestrictedHooks {
  const state: RouteSerializers = { copy: undefined }
  const unrestricted = unrestrictedView(spec.tree)
  // The writer of JSON a Standard Schema route's own serializer wrote, for the rare payload only it accepts.
  const encoded = writerRoute(spec.shape, null)

  /**
   * Reads a selection out of `query` with `readSelection` and gives it to the
   * request; `whole` stands for no parameters (every field the request may see).
   */
  function select (request: FastifyRequest, query: Query | null, readSelection: (query: Query, rawQuery: string) => Selection | null, whole: Selection | null): void {
    // The raw query string, the memo's key, is cut out of the URL only when there is something to read.
    const parsed = hasRestriction(query, spec.rules) ? readSelection(query, rawQueryOf(request)) : null
    const selection = parsed ?? whole
    const carrier = request as SelectionCarrier
    carrier[kSelection] = selection
    // A restricted request's view is built on first read (see restrictedFieldsGetter): most handlers never ask.
    carrier[kView] = selection === null ? unrestricted : null
    if (parsed !== null) normalizeQuery(request.query as Query, parsed, spec)
  }

  function restrictFieldsParse (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    // Read before validation: a querystring schema may strip or coerce the parameters.
    try {
      select(request, request.query as Query, spec.readSelection, null)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  /** The compiled serializer of a selection, compiling it when the cache admits it; null or undefined when there is none. */
  function compiledSerializer (reply: FastifyReply, selection: Selection): Serializer | null | undefined {
    let serializer = selection.serializer ?? spec.cache.get(selection.key)
    if (serializer === undefined && spec.declared !== null && spec.cache.admit(selection.key)) {
      // A refusal is cached too (as null), so it is not tried again.
      serializer = compileOrNull(reply, spec, pruneSchema(spec.declared, selection.projection, { defaults: true, variants: 'choose' }))
      spec.cache.set(selection.key, serializer)
    }
    if (serializer !== undefined) selection.serializer = serializer
    return serializer
  }

  function restrictFieldsSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
    const selection = (request as SelectionCarrier)[kSelection]
    // Error bodies, including a custom error handler's, pass through untouched.
    if (selection !== null && spec.restricts(reply.statusCode)) {
      // Restriction chooses how the payload is serialized; the payload itself, which later hooks see, is never changed.
      const restricted = compiledSerializer(reply, selection) ?? writingSerializer(reply, spec, state, selection.projection)
      reply.serializer(spec.standard === null ? restricted : validatingSerializer(reply, spec, encoded, restricted, selection.projection))
    }
    done(null, payload)
  }

  const rule = spec.options.hiddenFields
  if (rule === null) {
    return {
      preValidation: restrictFieldsParse as preValidationHookHandler,
      preHandler: null,
      preSerialization: restrictFieldsSerialize as preSerializationHookHandler<unknown>
    }
  }

  const visibilities = new VisibilityCache<Selection>(
    spec.tree,
    { tree: spec.tree, readSelection: spec.readSelection, whole: null },
    (tree): Visibility<Selection> => ({
      tree,
      readSelection: selectionReader(tree, spec.rules, spec.options.cacheSize),
      whole: { ...projectWhole(tree), only: null, defer: null }
    }),
    declaredElsewhere,
    spec.route
  )

  function restrictFieldsSetAside (request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
    // The names can only be checked once the rule has said what this request may see, after the route's
    // own hooks; until then they are kept out of the query, so that validation cannot name them either.
    const query = request.query as Query | null | undefined
    let pending: Query | null = null
    if (hasRestriction(query, spec.rules)) {
      pending = {}
      for (const name of spec.rules.parameters) {
        if (query[name] === undefined) continue
        pending[name] = query[name]
        delete query[name]
      }
    }
    (request as SelectionCarrier)[kPending] = pending
    done()
  }

  function selectVisible (request: FastifyRequest, hidden: unknown): void {
    const visibility = visibilities.of(hidden)
    // Set aside before validation where a querystring schema validates; else still in the query.
    const query = spec.hasQuerystring ? (request as SelectionCarrier)[kPending] : request.query as Query
    select(request, query, visibility.readSelection, visibility.whole)
  }

  function restrictFieldsVisibility (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    let hidden: unknown
    try {
      hidden = (rule as (request: FastifyRequest) => unknown)(request)
      if (!(hidden instanceof Promise)) selectVisible(request, hidden)
    } catch (error) {
      done(error as Error)
      return
    }
    if (!(hidden instanceof Promise)) {
      done()
      return
    }
    hidden.then((answer) => {
      let failure: Error | undefined
      try {
        selectVisible(request, answer)
      } catch (error) {
        failure = error as Error
      }
      done(failure)
    }, done)
  }

  return {
    // Without a querystring schema, validation cannot strip or name the parameters: they wait in the query.
    preValidation: spec.hasQuerystring ? restrictFieldsSetAside as preValidationHookHandler : null,
    preHandler: restrictFieldsVisibility as preHandlerHookHandler,
    preSerialization: restrictFieldsSerialize as preSerializationHookHandler<unknown>
  }
}

/**
 * The `restrictedFields` getter: the view of the request's selection, built
 * on first read and kept with the (remembered) selection; the route's
 * unrestricted view without one; NOT_RESTRICTED on routes not opted in.
 */
export function restrictedFieldsGetter (this: FastifyRequest): FieldSelection {
  const carrier = this as SelectionCarrier
  const view = carrier[kView]
  if (view !== null) return view
  const selection = carrier[kSelection]
  if (selection === null) return NOT_RESTRICTED
  carrier[kView] = selection.view ??= selectionView(selection.projection)
  return carrier[kView]
}
