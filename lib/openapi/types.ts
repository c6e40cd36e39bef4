/**
 * What the OpenAPI code knows of an opted-in route, and the vendor key that
 * finds its operation in a generated document.
 */
import type { PathTrie } from '../hidden-paths.js'
import type { DocumentedSets } from '../querystring.js'

export type Json = Record<string, any>

/** The document's kind: Swagger 2.0 or OpenAPI 3.x. */
export type Version = '2.0' | '3'

/** Where the records sit in a response; `key` names an envelope's records array. */
export interface RecordsShape { readonly kind: 'object' | 'array' | 'envelope' | 'auto', readonly key?: string }

/** What the document needs to know about one opted-in route. */
export interface RestrictedRoute extends DocumentedSets {
  /** The route's method, or methods. */
  readonly method: string | readonly string[]
  /** The route's URL as Fastify has it, prefix included (`/api/users/:id`). */
  readonly url: string
  /** The response status whose records are restricted (`'200'`, `'2xx'`); undefined for a `fields` route. */
  readonly statusKey: string | undefined
  /** Where the records sit in that response; `key` names an envelope's records array. */
  readonly shape: RecordsShape
  /** The other restricted 2xx statuses, with where their records sit. */
  readonly otherStatuses?: ReadonlyArray<{ readonly statusKey: string, readonly shape: RecordsShape }>
  /** How many levels of fields can be restricted. */
  readonly maxDepth: number
  /** The most names a list of the route's choices names (its `maxListedFields`). */
  readonly maxListedFields: number
  readonly onlyParam: string
  readonly deferParam: string
  /** The declared dotted paths: the choices of both parameters. */
  readonly paths: readonly string[]
  /**
   * Whether @fastify/swagger leaves the route out of the document by what
   * the route declares (its schema's `hide`): a caller's document without
   * its operation is then not refused.
   */
  readonly undocumented?: boolean
  /**
   * Whether the app answers the route's errors with a handler of its own, so
   * that the body of the plugin's 400 is the app's to say; set when the app is ready.
   */
  readonly ownErrorHandler?: boolean
  /** Whether a `hiddenFields` rule hides some fields from some requests. */
  readonly hidesFields?: boolean
  /**
   * Asks the route's `hiddenFields` rule what it hides from the caller of a
   * document request, about this route, checking the answer exactly as the
   * route checks it on its own requests; absent on a route without a rule.
   */
  readonly hiddenFrom?: (request: any) => Promise<PathTrie | null>
}

/**
 * The vendor key that carries a route's id from its schema to its operation:
 * @fastify/swagger copies every `x-` key of a route schema to the operation.
 */
export const OPERATION_KEY = 'x-restricted-fields'
