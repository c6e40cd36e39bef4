/**
 * The per-request work of an opted-in route: reading the selection (and, on
 * routes with a visibility rule, what the request may see), and restricting
 * the payload in its preSerialization hook.
 */
import type {
  FastifyReply, FastifyRequest, preHandlerHookHandler, preSerializationHookHandler, preValidationHookHandler
} from 'fastify'
import { HiddenFieldsUnknownError } from './errors.js'
import { projectTree } from './projection.js'
import type { KeyedProjection } from './projection.js'
import { UNDECLARED_STATUS } from './route.js'
import type { RouteSpec, StatusSpec } from './route.js'
import { hasRestriction, selectionReader, unrequestedSelection } from './selection.js'
import type { Selection } from './selection.js'
import { StatusSerializers, strippingSerializer } from './serializer.js'
import { NOT_RESTRICTED, selectionView, unrestrictedView } from './view.js'
import type { FieldSelection } from './view.js'
import { VisibilityCache, visibleTree } from './visibility.js'
import type { Visibility, Visible } from './visibility.js'

/** Where a request keeps its selection and its handlers' view. */
export const kSelection = Symbol('fastify-restricted-fields.selection')
export const kView = Symbol('fastify-restricted-fields.view')
/** On routes with a visibility rule: the restriction parameters, set aside until the rule has run. */
export const kPending = Symbol('fastify-restricted-fields.pending')
/** On routes with a visibility rule: what the rule said this request may see, once it has run. */
export const kVisibility = Symbol('fastify-restricted-fields.visibility')

/** A request's selection before the plugin has read it (its decorated value): an earlier hook may reply first. */
export const UNREAD = 0
/** A request whose rule failed: nothing it may see is known. */
const RULE_FAILED = false

type RouteVisibility = Visibility<Selection> & {
  /** Each status's visible tree, worked out on first use. */
  readonly statusTrees: Map<StatusSpec, Visible>
}

type SelectionCarrier = FastifyRequest & {
  [kSelection]: Selection | null | typeof UNREAD
  [kView]: FieldSelection | null
  [kPending]: Query | null
  [kVisibility]: RouteVisibility | null | typeof RULE_FAILED
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
  const serializers = new Map<StatusSpec, StatusSerializers>(spec.statuses.map((status) => [status, new StatusSerializers(status, spec.options.cacheSize > 0)]))
  /** Projections of selections made for a status whose tree is not the route's, by status and selection. */
  const projections = new Map<StatusSpec, WeakMap<Selection, KeyedProjection>>(spec.statuses.map((status) => [status, new WeakMap()]))
  const unrestricted = unrestrictedView(spec.tree)
  const rule = spec.options.hiddenFields

  /**
   * Reads a selection out of `query` with `readSelection` and gives it to the
   * request; `whole` stands for no parameters (every field the request may see).
   */
  function select (request: FastifyRequest, query: Query | null, readSelection: (query: Query, rawQuery: string) => Selection | null, whole: Selection | null): void {
    const carrier = request as SelectionCarrier
    let parsed: Selection | null = null
    try {
      // The raw query string, the memo's key, is cut out of the URL only when there is something to read.
      if (hasRestriction(query, spec.rules)) parsed = readSelection(query, rawQueryOf(request))
    } catch (error) {
      // A success an error handler sends for the 400 still shows only what the request may see.
      carrier[kSelection] = whole
      carrier[kView] = whole === null ? unrestricted : null
      throw error
    }
    const selection = parsed ?? whole
    carrier[kSelection] = selection
    // A restricted request's view is built on first read (see restrictedFieldsGetter): most handlers never ask.
    carrier[kView] = selection === null ? unrestricted : null
    if (parsed !== null) normalizeQuery(request.query as Query, parsed, spec)
  }

  function restrictFieldsParse (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
    // Read before validation: a querystring schema may strip or coerce the parameters.
    try {
      select(request, request.query as Query, spec.readSelection, spec.unrequested)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  /** The projection of a selection for a status whose tree is not the route's: made from the selection's paths, once. */
  function otherProjection (status: StatusSpec, selection: Selection, visibility: RouteVisibility | null): KeyedProjection {
    const known = projections.get(status)!
    let projected = known.get(selection)
    if (projected === undefined) {
      projected = projectTree(visibility === null ? status.tree : treeFor(visibility, status).tree, selection.tries.only, selection.tries.defer)
      known.set(selection, projected)
    }
    return projected
  }

  /** Sets the reply's serializer for what the request may see of this status; the payload itself, which later hooks see, is never changed. */
  function restrictReply (request: FastifyRequest, reply: FastifyReply, status: StatusSpec | typeof UNDECLARED_STATUS): void {
    const carrier = request as SelectionCarrier
    const selection = carrier[kSelection] as Selection | null
    const visibility = carrier[kVisibility] as RouteVisibility | null
    if (status === UNDECLARED_STATUS) {
      // No fields to choose from: what the rule hides is removed wherever it appears.
      if (visibility !== null) reply.serializer(strippingSerializer(visibility.hidden!, spec.primary.shape))
      return
    }
    if (selection === null) return
    const visible = visibility === null ? null : treeFor(visibility, status)
    if (status.tree === spec.tree) {
      reply.serializer(serializers.get(status)!.restricted(reply, selection.projection, selection.key, selection, visible))
    } else {
      const { projection, key } = otherProjection(status, selection, visibility)
      reply.serializer(serializers.get(status)!.restricted(reply, projection, key, null, visible))
    }
  }

  function restrictFieldsSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
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
      restrictReply(request, reply, status)
    }
    done(null, payload)
  }

  /** A route without a rule: an earlier hook replied before the parameters were read, so they are read now. */
  function readLate (request: FastifyRequest, reply: FastifyReply, status: StatusSpec | typeof UNDECLARED_STATUS, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
    restrictFieldsParse(request, reply, (error) => {
      if (error !== undefined) {
        done(error)
        return
      }
      restrictReply(request, reply, status)
      done(null, payload)
    })
  }

  if (rule === null) {
    return {
      preValidation: restrictFieldsParse as preValidationHookHandler,
      preHandler: null,
      preSerialization: restrictFieldsSerialize as preSerializationHookHandler<unknown>
    }
  }

  /** A status's visible tree under a visibility, worked out once: the visibility's own when the status has the route's tree. */
  function treeFor (visibility: RouteVisibility, status: StatusSpec): Visible {
    let tree = visibility.statusTrees.get(status)
    if (tree === undefined) {
      tree = status.tree === spec.tree ? visibility : visibleTree(status.tree, visibility.hidden!)
      visibility.statusTrees.set(status, tree)
    }
    return tree
  }

  const visibilities = new VisibilityCache<RouteVisibility>(
    spec.tree,
    { tree: spec.tree, readSelection: spec.readSelection, whole: spec.unrequested, hidden: null, strips: false, statusTrees: new Map() } satisfies RouteVisibility,
    ({ tree, strips }, hidden): RouteVisibility => ({
      tree,
      readSelection: selectionReader(tree, spec.rules, spec.options.cacheSize),
      whole: unrequestedSelection(tree, spec.rules),
      hidden,
      strips,
      statusTrees: new Map()
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

  /** Takes the rule's answer and reads the selection against what it leaves visible; an answer that is not declared names fails the rule. */
  function selectVisible (request: FastifyRequest, hidden: unknown): void {
    const carrier = request as SelectionCarrier
    let visibility: RouteVisibility
    try {
      visibility = visibilities.of(hidden)
    } catch (error) {
      ruleFailed(request)
      throw error
    }
    carrier[kVisibility] = visibility.hidden === null ? null : visibility
    // Set aside before validation where a querystring schema validates; else (or when an earlier hook replied) still in the query.
    select(request, carrier[kPending] ?? request.query as Query, visibility.readSelection, visibility.whole)
  }

  /** Runs the rule, once per request, and reads the selection against what it leaves visible. */
  function applyRule (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    // From here on the reply depends on who asks: a shared cache must not give it to anyone else.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private')
    let hidden: unknown
    try {
      hidden = (rule as (request: FastifyRequest) => unknown)(request)
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

  function selectAndContinue (request: FastifyRequest, hidden: unknown, done: (error?: Error) => void): void {
    try {
      selectVisible(request, hidden)
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  }

  function ruleFailed (request: FastifyRequest): void {
    const carrier = request as SelectionCarrier
    carrier[kVisibility] = RULE_FAILED
    carrier[kSelection] = null
  }

  function restrictFieldsVisibility (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    applyRule(request, reply, done)
  }

  function restrictVisibleSerialize (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
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
      restrictReply(request, reply, status)
      done(null, payload)
      return
    }
    // An earlier hook replied before the rule ran: it runs now, before anything is serialized.
    applyRule(request, reply, (error) => {
      if (error !== undefined) {
        done(error)
        return
      }
      restrictReply(request, reply, status)
      done(null, payload)
    })
  }

  return {
    // Without a querystring schema, validation cannot strip or name the parameters: they wait in the query.
    preValidation: spec.hasQuerystring ? restrictFieldsSetAside as preValidationHookHandler : null,
    preHandler: restrictFieldsVisibility as preHandlerHookHandler,
    preSerialization: restrictVisibleSerialize as preSerializationHookHandler<unknown>
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
  if (selection === null || selection === UNREAD) return NOT_RESTRICTED
  carrier[kView] = selection.view ??= selectionView(selection.projection)
  return carrier[kView]
}
