/**
 * The hooks of an opted-in route. They read the request's selection (and, on
 * routes with a visibility rule, what the request may see), keep it on the
 * request, and in preSerialization look up the serializer the route's state
 * chooses for the reply and hand it to Fastify.
 */
import type {
  FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod,
  preHandlerHookHandler, preSerializationHookHandler, preValidationHookHandler
} from 'fastify'
import { HiddenFieldsUnknownError, SelectionNotReadError } from './errors.js'
import type { HiddenFieldsRoute } from './options.js'
import type { RouteSpec, StatusSpec, UNDECLARED_STATUS } from './route.js'
import { hasRestriction, mayHoldBrackets } from './selection.js'
import type { Selection, SelectionReader } from './selection.js'
import type { RouteState } from './state.js'
import { NOT_RESTRICTED, selectedFields, allDeclaredFields } from './field-selection.js'
import type { FieldSelection } from './field-selection.js'
import type { Visibility, VisibilityCache } from './visibility.js'

/** Where a request keeps its selection and what its handlers read of it. */
export const kSelection = Symbol('fastify-restricted-fields.selection')
export const kFieldSelection = Symbol('fastify-restricted-fields.fieldSelection')
/** On routes with a visibility rule: the restriction parameters, set aside until the rule has run. */
export const kPending = Symbol('fastify-restricted-fields.pending')
/** On routes with a visibility rule: what the rule said this request may see, once it has run. */
export const kVisibility = Symbol('fastify-restricted-fields.visibility')

/** A request's selection before the plugin has read it (its decorated value): an earlier hook may reply first. */
export const UNREAD = 0
/** A request whose rule failed: nothing it may see is known. */
const RULE_FAILED = false

type SelectionCarrier = FastifyRequest & {
  [kSelection]: Selection | null | typeof UNREAD
  [kFieldSelection]: FieldSelection | null
  [kPending]: Query | null
  [kVisibility]: Visibility<Selection> | null | typeof RULE_FAILED
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

/**
 * Where an opted-in route's config keeps how the `restrictedFields` getter
 * reads a request's selection for a hook that asks before the route has.
 */
export const kRouteReading = Symbol('fastify-restricted-fields.route-reading')

/** How the `restrictedFields` getter of an opted-in route reads a selection the route has not read yet. */
export interface RouteReading {
  readonly route: string
  /** Reads it now; null where it cannot be known yet (before a `hiddenFields` rule has run). */
  readonly read: ((request: FastifyRequest) => void) | null
}

/** The hooks of an opted-in route, closed over its spec and its state. */
export interface RestrictedHooks {
  /** Set where something must see the parameters before validation: a querystring schema, or a visibility rule's set-aside. */
  preValidation: preValidationHookHandler | null
  /** Set on routes with a visibility rule, which is applied, with the selection, after the route's own hooks. */
  preHandler: preHandlerHookHandler | null
  preSerialization: preSerializationHookHandler<unknown>
  /**
   * Set on routes without a rule or a querystring schema: the selection is
   * read just before the handler runs, in a wrapper around it, which costs
   * less than a hook. A bad parameter is still answered before the handler runs.
   */
  wrapHandler: ((handler: RouteHandlerMethod) => RouteHandlerMethod) | null
  /** How the getter reads the selection of a request whose route has not read it yet. */
  reading: RouteReading
}

type Done = (error?: Error) => void
type SerializationDone = (error: Error | null, payload?: unknown) => void

/**
 * Reads a selection out of `query` with `readSelection` and gives it to the
 * request; `whole` stands for no parameters (every field the request may see).
 * Throws a coded 400 error for bad parameters.
 */
function select (
  request: FastifyRequest,
  spec: RouteSpec,
  unrestricted: () => FieldSelection,
  query: Query | null,
  readSelection: SelectionReader,
  whole: Selection | null
): void {
  const carrier = request as SelectionCarrier
  let parsed: Selection | null = null
  try {
    // The raw query string, the memo's key, is cut out of the URL only when there is something to read.
    // A bracketed key may be a form of the parameters the reader refuses.
    if (hasRestriction(query, spec.rules) || mayHoldBrackets(request.url)) parsed = readSelection(query, rawQueryOf(request))
  } catch (error) {
    // A success an error handler sends for the 400 still shows only what the request may see.
    carrier[kSelection] = whole
    carrier[kFieldSelection] = whole === null ? unrestricted() : null
    throw error
  }
  const selection = parsed ?? whole
  carrier[kSelection] = selection
  // A restricted request's view is built on first read (see restrictedFieldsGetter): most handlers never ask.
  carrier[kFieldSelection] = selection === null ? unrestricted() : null
  if (parsed !== null) normalizeQuery(request.query as Query, parsed, spec)
}

/** Sets the reply's serializer for what the request may see of this status; the payload itself, which later hooks see, is never changed. */
function restrictReply (
  state: RouteState, request: FastifyRequest, reply: FastifyReply, status: StatusSpec | typeof UNDECLARED_STATUS
): void {
  const carrier = request as SelectionCarrier
  const selection = carrier[kSelection] as Selection | null
  const visibility = carrier[kVisibility] as Visibility<Selection> | null
  const serializer = state.serializers.serializerFor(status, selection, visibility, reply)
  if (serializer !== null) reply.serializer(serializer)
}

/** The view of a request without restriction: every declared field, listed by the route's first such request, not at declaration. */
function unrestrictedView (spec: RouteSpec): () => FieldSelection {
  let view: FieldSelection | null = null
  return () => (view ??= allDeclaredFields(spec.tree))
}

/** The hooks of an opted-in route. */
export function restrictedHooks (spec: RouteSpec, state: RouteState): RestrictedHooks {
  return state.visibilities === null ? hooksWithoutRule(spec, state) : hooksWithRule(spec, state, state.visibilities)
}

/** A route without a visibility rule: the selection is read before validation, and restricts in preSerialization. */
function hooksWithoutRule (spec: RouteSpec, state: RouteState): RestrictedHooks {
  const unrestricted = unrestrictedView(spec)

  function readSelection (request: FastifyRequest): void {
    select(request, spec, unrestricted, request.query as Query, state.readSelection, spec.unrequested)
  }

  function restrictFieldsParse (request: FastifyRequest, _reply: FastifyReply, done: Done): void {
    // Read before validation: a querystring schema may strip or coerce the parameters. An earlier hook that asked has read them.
    try {
      if ((request as SelectionCarrier)[kSelection] === UNREAD) readSelection(request)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  function restrictFieldsSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SerializationDone): void {
    // Read, and nothing to restrict (no parameters, no default fields): no status to look up either.
    if ((request as SelectionCarrier)[kSelection] === null) {
      done(null, payload)
      return
    }
    const status = spec.statusOf(reply.statusCode)
    // Error bodies, including a custom error handler's, pass through untouched.
    if (status !== null) {
      if ((request as SelectionCarrier)[kSelection] === UNREAD) {
        readLate(request, reply, status, payload, done)
        return
      }
      restrictReply(state, request, reply, status)
    }
    done(null, payload)
  }

  /** An earlier hook replied before the parameters were read, so they are read now. */
  function readLate (
    request: FastifyRequest, reply: FastifyReply, status: StatusSpec | typeof UNDECLARED_STATUS, payload: unknown, done: SerializationDone
  ): void {
    restrictFieldsParse(request, reply, (error) => {
      if (error !== undefined) {
        done(error)
        return
      }
      restrictReply(state, request, reply, status)
      done(null, payload)
    })
  }

  /** Reads the selection just before the handler, unless a hook already asked for it; a bad parameter throws its 400 there. */
  function wrapHandler (handler: RouteHandlerMethod): RouteHandlerMethod {
    return function restrictFieldsHandler (this: FastifyInstance, request, reply) {
      if ((request as SelectionCarrier)[kSelection] === UNREAD) readSelection(request)
      return handler.call(this, request, reply)
    } as RouteHandlerMethod
  }

  // With a querystring schema, validation may strip or coerce the parameters: they are read before it.
  return {
    preValidation: spec.hasQuerystring ? restrictFieldsParse as preValidationHookHandler : null,
    preHandler: null,
    preSerialization: restrictFieldsSerialize as preSerializationHookHandler<unknown>,
    wrapHandler: spec.hasQuerystring ? null : wrapHandler,
    // Until validation, the query holds what the client sent: a hook that asks before it may have it read.
    reading: { route: spec.route, read: readSelection }
  }
}

/**
 * A route with a visibility rule: the parameters are set aside before
 * validation, and read once the rule (after the route's own hooks) has said
 * what the request may see.
 */
function hooksWithRule (spec: RouteSpec, state: RouteState, visibilities: VisibilityCache<Visibility<Selection>>): RestrictedHooks {
  const unrestricted = unrestrictedView(spec)
  const rule = spec.options.hiddenFields as (request: FastifyRequest, route: HiddenFieldsRoute) => unknown

  function restrictFieldsSetAside (request: FastifyRequest, _reply: FastifyReply, done: Done): void {
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

  /**
   * Takes the rule's answer and reads the selection against what it leaves visible; an answer that is
   * not declared names fails the rule.
   */
  function selectVisible (request: FastifyRequest, hidden: unknown): void {
    const carrier = request as SelectionCarrier
    let visibility: Visibility<Selection>
    try {
      visibility = visibilities.of(hidden)
    } catch (error) {
      ruleFailed(request)
      throw error
    }
    carrier[kVisibility] = visibility.hidden === null ? null : visibility
    // Set aside before validation where a querystring schema validates; else (or when an earlier hook replied) still in the query.
    select(request, spec, unrestricted, carrier[kPending] ?? request.query as Query, visibility.readSelection, visibility.whole)
  }

  let warnedPublic = false

  /** Runs the rule, once per request, and reads the selection against what it leaves visible. */
  function applyRule (request: FastifyRequest, reply: FastifyReply, done: Done): void {
    // From here on the reply depends on who asks: a shared cache must not give it to anyone else.
    if (!reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'private')
    } else if (!warnedPublic && /\bpublic\b/i.test(String(reply.getHeader('cache-control')))) {
      // An app-wide header set on purpose is kept, but once per route the app hears that it may share one caller's reply with another.
      warnedPublic = true
      request.log.warn(`fastify-restricted-fields: route ${spec.route} has a hiddenFields rule, so its replies depend on who asks, but an earlier hook set 'Cache-Control: ${String(reply.getHeader('cache-control'))}'; a shared cache may give one caller's reply to another. Set 'private', or add Vary on what the rule reads.`)
    }
    let hidden: unknown
    try {
      hidden = rule(request, state.ruleRoute)
    } catch (error) {
      ruleFailed(request)
      done(error as Error)
      return
    }
    if (!(hidden instanceof Promise)) {
      selectAndContinue(request, hidden, done)
      return
    }
    hidden.then((answer) => selectAndContinue(request, answer, done), (error: Error) => {
      ruleFailed(request)
      done(error)
    })
  }

  function selectAndContinue (request: FastifyRequest, hidden: unknown, done: Done): void {
    try {
      selectVisible(request, hidden)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  function restrictFieldsVisibility (request: FastifyRequest, reply: FastifyReply, done: Done): void {
    applyRule(request, reply, done)
  }

  function restrictVisibleSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SerializationDone): void {
    const status = spec.statusOf(reply.statusCode)
    if (status === null) {
      done(null, payload)
      return
    }
    const carrier = request as SelectionCarrier
    if (carrier[kVisibility] === RULE_FAILED) {
      // A success sent after the rule failed (by an error handler, say): what the request may see is unknown.
      done(new HiddenFieldsUnknownError(spec.route))
      return
    }
    if (carrier[kSelection] !== UNREAD) {
      restrictReply(state, request, reply, status)
      done(null, payload)
      return
    }
    // An earlier hook replied before the rule ran: it runs now, before anything is serialized.
    applyRule(request, reply, (error) => {
      if (error !== undefined) {
        done(error)
        return
      }
      restrictReply(state, request, reply, status)
      done(null, payload)
    })
  }

  return {
    // Without a querystring schema, validation cannot strip or name the parameters: they wait in the query.
    preValidation: spec.hasQuerystring ? restrictFieldsSetAside as preValidationHookHandler : null,
    preHandler: restrictFieldsVisibility as preHandlerHookHandler,
    preSerialization: restrictVisibleSerialize as preSerializationHookHandler<unknown>,
    wrapHandler: null,
    reading: { route: spec.route, read: null }
  }
}

/** A request whose rule failed: nothing it may see is known, and nothing is restricted by a selection. */
function ruleFailed (request: FastifyRequest): void {
  const carrier = request as SelectionCarrier
  carrier[kVisibility] = RULE_FAILED
  carrier[kSelection] = null
}

/**
 * The `restrictedFields` getter: the view of the request's selection, built
 * on first read and kept with the request; the route's unrestricted view
 * without one; NOT_RESTRICTED on routes not opted in. A hook that asks before
 * the route has read the selection has it read then (a bad parameter throws
 * its 400 there); where it cannot be known yet (before a `hiddenFields` rule
 * has run, or after it failed), the getter throws rather than answer "every
 * field", which would load what the selection leaves out.
 */
export function restrictedFieldsGetter (this: FastifyRequest): FieldSelection {
  const carrier = this as SelectionCarrier
  const known = carrier[kFieldSelection]
  if (known !== null) return known
  const reading = (this.routeOptions.config as unknown as Record<symbol, RouteReading | undefined>)[kRouteReading]
  if (reading === undefined) return NOT_RESTRICTED
  if (carrier[kVisibility] === RULE_FAILED) {
    throw new SelectionNotReadError(reading.route, 'after its hiddenFields rule failed, so what the request may see is unknown')
  }
  if (carrier[kSelection] === UNREAD) {
    if (reading.read === null) {
      throw new SelectionNotReadError(reading.route, "before its hiddenFields rule ran, so what the request may see is not known yet; read it in the handler (the rule runs after the route's own preHandler hooks)")
    }
    reading.read(this)
    if (carrier[kFieldSelection] !== null) return carrier[kFieldSelection]
  }
  carrier[kFieldSelection] = selectedFields((carrier[kSelection] as Selection).projection)
  return carrier[kFieldSelection]
}
