/**
 * The per-request work of an opted-in route: its preValidation hook (reading
 * the selection) and its preSerialization hook (restricting the payload).
 */
import type {
  FastifyReply, FastifyRequest, preSerializationHookHandler, preValidationHookHandler
} from 'fastify'
import { applySelection, wholeProjection } from './apply.js'
import { pruneSchema } from './prune.js'
import type { RouteSpec } from './route.js'
import type { Selection, Serializer } from './selection.js'
import { NOT_RESTRICTED, selectionView, unrestrictedView } from './view.js'
import type { FieldSelection } from './view.js'

/** Where a request keeps its selection and its handlers' view; decorated with null. */
export const kSelection = Symbol('fastify-restricted-fields.selection')
export const kView = Symbol('fastify-restricted-fields.view')

type SelectionCarrier = FastifyRequest & { [kSelection]: Selection | null, [kView]: FieldSelection | null }
type Query = Record<string, unknown>

/**
 * Rewrites the restriction parameters as arrays of declared names under their
 * plain names, so that the querystring schema (which lists the declared names)
 * accepts the comma and bracket forms, and ignored unknown names, alike.
 */
function normalizeQuery (query: Query, selection: Selection, spec: RouteSpec): void {
  const { onlyParam, onlyListParam, deferParam, deferListParam } = spec.rules
  delete query[onlyListParam]
  delete query[deferListParam]
  if (selection.only !== null) query[onlyParam] = selection.only.slice()
  if (selection.defer !== null) query[deferParam] = selection.defer.slice()
}

function compileOrNull (reply: FastifyReply, spec: RouteSpec, schema: Record<string, unknown>): Serializer | null {
  try {
    return reply.compileSerializationSchema(schema, spec.statusKey) as Serializer
  } catch (error) {
    // A custom serializer compiler may refuse a pruned schema; copying still answers correctly.
    reply.log.error({ err: error }, 'fastify-restricted-fields: could not compile a pruned response schema')
    return null
  }
}

function copySerializer (reply: FastifyReply, spec: RouteSpec, state: { copy: Serializer | null | undefined }): Serializer {
  // The schema of every declared field without defaults: it serializes any copied selection.
  // Compiled once per route; null (a compiler that refused it) is remembered too.
  if (state.copy === undefined) state.copy = compileOrNull(reply, spec, pruneSchema(spec.declared!, wholeProjection(spec.tree), { defaults: false }))
  return state.copy ?? JSON.stringify
}

/** The two hooks of an opted-in route, closed over its spec. */
export function restrictedHooks (spec: RouteSpec): { preValidation: preValidationHookHandler, preSerialization: preSerializationHookHandler<unknown> } {
  const state: { copy: Serializer | null | undefined } = { copy: undefined }
  const unrestricted = unrestrictedView(spec.tree)

  function restrictFieldsParse (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    // Read before validation: a querystring schema may strip or coerce the parameters.
    let selection: Selection | null
    const query = request.query as Query
    try {
      const url = request.url
      const queryStart = url.indexOf('?')
      selection = spec.readSelection(query, queryStart === -1 ? '' : url.slice(queryStart + 1))
    } catch (error) {
      done(error as Error)
      return
    }
    const carrier = request as SelectionCarrier
    carrier[kSelection] = selection
    // A restricted request's view is built on first read (see restrictedFieldsGetter): most handlers never ask.
    carrier[kView] = selection === null ? unrestricted : null
    if (selection !== null) normalizeQuery(query, selection, spec)
    done()
  }

  function restrictFieldsSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
    const selection = (request as SelectionCarrier)[kSelection]
    // Error bodies, including a custom error handler's, pass through untouched.
    if (selection === null || !spec.restricts(reply.statusCode)) {
      done(null, payload)
      return
    }
    if (spec.declared === null) {
      done(null, applySelection(payload, selection.projection, spec.shape))
      return
    }
    let serializer = selection.serializer ?? spec.cache.get(selection.key)
    if (serializer === undefined && spec.cache.admit(selection.key)) {
      // A refusal is cached too (as null), so it is not tried again.
      serializer = compileOrNull(reply, spec, pruneSchema(spec.declared, selection.projection, { defaults: true }))
      spec.cache.set(selection.key, serializer)
    }
    if (serializer !== undefined) selection.serializer = serializer
    if (serializer !== undefined && serializer !== null) {
      reply.serializer(serializer)
      done(null, payload)
      return
    }
    reply.serializer(copySerializer(reply, spec, state))
    done(null, applySelection(payload, selection.projection, spec.shape))
  }

  return {
    preValidation: restrictFieldsParse as preValidationHookHandler,
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
