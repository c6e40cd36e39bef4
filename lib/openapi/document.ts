/**
 * Makes an OpenAPI 3.x or Swagger 2.0 document true for the routes that let
 * clients restrict their fields. A pure function of the finished document,
 * so it applies after every transform that produced it.
 *
 * On each opted-in operation it relaxes the restricted responses
 * (relax/), documents the plugin's 400 (error-response.ts) and the
 * `only` and `defer` parameters (parameters.ts), and tells generated
 * clients what each selection sends (route-fields.ts). A caller's document
 * is checked last (check/last-check.ts), and refused if it still names a field
 * hidden from that caller: the refusal is a value, which travels to the one
 * place that makes the HTTP reply.
 */
import rfdc from 'rfdc'
import { isRecord } from '../json.js'
import type { PathTrie } from '../hidden-paths.js'
import { Components } from './components.js'
import { documentError } from './error-response.js'
import { lastCheck } from './check/last-check.js'
import type { Position } from './check/last-check.js'
import { liftInnerReferences } from './relax/inner-references.js'
import { liftLocalDefinitions } from './relax/local-definitions.js'
import { documentVersion, findOperations } from './operations.js'
import type { Found } from './operations.js'
import { documentParameters } from './parameters.js'
import { Relaxation } from './relax/relaxation.js'
import { relaxSuccess } from './relax/responses.js'
import { prepareRouteFields } from './route-fields.js'
import type { RestrictedRoute } from './types.js'

/**
 * Why a caller's document was refused, for the log: the route, a JSON
 * pointer into the document, and what was found there: a hidden name, a
 * reference the check cannot follow, or, with the pointer `''`, no
 * operation where the route's was expected; with the kind of position the
 * name or reference was found at (`property`, `instance key`, `link
 * expression`…).
 */
export interface DocumentLeak {
  route: string
  pointer: string
  reason: 'hidden name' | 'unchecked reference' | 'operation not found'
  position?: Position
}

/** A caller's document, or why it was refused. */
export type DocumentAnswer = { document: unknown } | { refused: DocumentLeak }

/** Copies the document once per call, so that the generated one is never changed. */
const cloneDocument = rfdc()

/**
 * Returns the document made true for the given routes (by id, the value of
 * their `x-restricted-fields` key), or the document itself when it is
 * neither OpenAPI 3 nor Swagger 2.0. The input is not modified.
 *
 * With `hidden` (by route id, the paths its rule hides from one caller), it
 * is that caller's document: the hidden fields appear neither in the
 * parameters nor in the response schemas, and the components that only
 * served to name them are left out. If what it gives a route still names
 * one of them, refers to what the document does not hold, or the operation
 * of a route that hides something from the caller is missing, it returns
 * the refusal instead, with where.
 */
export function restrictedDocument (document: unknown, routes: ReadonlyMap<string, RestrictedRoute>): { document: unknown }
export function restrictedDocument (
  document: unknown,
  routes: ReadonlyMap<string, RestrictedRoute>,
  hidden: ReadonlyMap<string, PathTrie>
): DocumentAnswer
export function restrictedDocument (
  document: unknown,
  routes: ReadonlyMap<string, RestrictedRoute>,
  hidden?: ReadonlyMap<string, PathTrie>
): DocumentAnswer {
  if (!isRecord(document)) return { document }
  const version = documentVersion(document)
  if (version === null || !isRecord(document.paths)) return { document }
  const copy = cloneDocument(document)
  const found = findOperations(copy, version, routes)
  const missing = hidden === undefined ? null : missingOperation(routes, found, hidden)
  if (missing !== null) return refusal(missing, '', 'operation not found')
  if (found.length === 0) return { document: copy }
  const components = new Components(copy, version)
  liftLocalDefinitions(components, version, found)
  // A caller's document names no property by a pointer's segments: what a `$ref` points into gets a component of its own.
  if (hidden !== undefined && hidden.size > 0) liftInnerReferences(copy, components, version, found)
  const relaxation = new Relaxation(components)
  // OpenAPI 3.1 schemas are JSON Schema 2020-12: they have if, then, else and dependentRequired.
  const conditionals = version === '3' && !String(copy.openapi).startsWith('3.0')
  for (const { id, route, operation, pathItem, method, path } of found) {
    const hiddenHere = hidden?.get(id) ?? null
    // The records' declared schema is read before the response is relaxed.
    const describe = prepareRouteFields(components, version, { operation, method, path }, route, conditionals)
    relaxSuccess(relaxation, version, operation, route, hiddenHere)
    describe?.(relaxation, hiddenHere)
    documentError(components, operation, route.ownErrorHandler === true)
    documentParameters(components, operation, pathItem, route, hiddenHere)
  }
  // Twins made for different hidden sets are often the same schema; the originals they replace may be left unused.
  components.mergeEqualTwins(copy)
  const restricts = hidden !== undefined && hidden.size > 0
  components.dropUnreferenced(copy, !restricts)
  if (!restricts) return { document: copy }
  const leak = lastCheck(copy, version, found, hidden)
  if (leak !== null) return refusal(leak.place.route, leak.pointer, leak.reason, leak.position)
  return { document: copy }
}

function refusal (route: RestrictedRoute, pointer: string, reason: DocumentLeak['reason'], position?: Position): { refused: DocumentLeak } {
  const where = `${typeof route.method === 'string' ? route.method : route.method.join(',')} ${route.url}`
  return { refused: position === undefined ? { route: where, pointer, reason } : { route: where, pointer, reason, position } }
}

/**
 * The route whose operation a caller's document lacks while the route hides
 * something from that caller: a transform that moved it without its key, or
 * left it out, would have it served unchecked.
 */
function missingOperation (
  routes: ReadonlyMap<string, RestrictedRoute>,
  found: readonly Found[],
  hidden: ReadonlyMap<string, PathTrie>
): RestrictedRoute | null {
  const shown = new Set(found.map(({ id }) => id))
  for (const [id, route] of routes) {
    if (!shown.has(id) && route.undocumented !== true && (hidden.get(id)?.children.size ?? 0) > 0) return route
  }
  return null
}
