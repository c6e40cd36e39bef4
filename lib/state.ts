/**
 * What an opted-in route learns while it serves, in one place beside its
 * immutable RouteSpec: the parses it remembers, the visibilities its rule's
 * answers made, and its serializers with their caches.
 */
import type { HiddenFieldsRoute } from './options.js'
import type { RouteSpec } from './route.js'
import { selectionReader, unrequestedSelection } from './selection.js'
import type { Selection, SelectionReader } from './selection.js'
import { RouteSerializers } from './serializer.js'
import type { RouteCompiling } from './serializer.js'
import { VisibilityCache } from './visibility.js'
import type { Visibility } from './visibility.js'

export interface RouteState {
  /** Reads a request's parsed and raw query into a selection, remembering frequent ones; throws a coded 400 error for a bad one. */
  readonly readSelection: SelectionReader
  /** What each answer of the route's rule lets a request see, with its own remembered parses; null on a route without a rule. */
  readonly visibilities: VisibilityCache<Visibility<Selection>> | null
  readonly serializers: RouteSerializers
  /** The route as its rule is told of it, the same object on every request and in every caller's document. */
  readonly ruleRoute: HiddenFieldsRoute
}

/**
 * `declaredElsewhere` tells whether a path that the route's rule hides is
 * declared by another opted-in route; `compiling` what the route's compiles
 * are handed; `like`, the state of the GET route whose HEAD route this is,
 * declared by Fastify from the same options, whose variant tests it shares.
 */
export function routeState (
  spec: RouteSpec,
  declaredElsewhere: (path: string) => boolean,
  ruleRoute: HiddenFieldsRoute,
  compiling: RouteCompiling,
  like: RouteState | null = null
): RouteState {
  const { tree, rules, options } = spec
  const readSelection = selectionReader(tree, rules, options.cacheSize)
  const visibilities = options.hiddenFields === null
    ? null
    : new VisibilityCache<Visibility<Selection>>(
      tree,
      { tree, readSelection, whole: spec.unrequested, hidden: null, strips: false },
      ({ tree, strips }, hidden) => ({
        tree,
        readSelection: selectionReader(tree, rules, options.cacheSize),
        whole: unrequestedSelection(tree, rules),
        hidden,
        strips
      }),
      declaredElsewhere,
      spec.route
    )
  return { readSelection, visibilities, serializers: new RouteSerializers(spec, compiling, like?.serializers), ruleRoute }
}
