/**
 * What a handler sees of a request's selection (`request.restrictedFields`):
 * which declared fields the response will contain, so that it can fetch only
 * those. It names declared fields only, never client text.
 */
import type { FieldTree } from './schema/tree.js'
import { declaredPaths } from './schema/paths.js'
import type { Projection } from './projection.js'
import type { TopLevel } from './types/selection.js'

/** The fields a restricted response will contain. */
export interface FieldSelection<P extends string = string> {
  /** True when `only`, `defer` or the route's default fields restrict the response. */
  readonly restricted: boolean
  /**
   * Top-level fields the response will contain, in the order the route writes them (required ones
   * first, as fast-json-stringify writes them).
   */
  readonly fields: ReadonlyArray<TopLevel<P>>
  /** Every dotted path the response will contain, parents before children, in the order the route writes them. */
  readonly paths: readonly P[]
  /**
   * Whether the response will contain `path` (a field name or a dotted path); with a type provider,
   * only the route's declared paths compile.
   */
  has: (path: P) => boolean
}

function projectedPaths (projection: Projection, prefix: string, into: string[]): void {
  for (const { node, sub } of projection) {
    const path = prefix + node.name
    into.push(path)
    if (sub !== null) projectedPaths(sub, `${path}.`, into)
    else if (node.children !== null) into.push(...declaredPaths(node.children, `${path}.`))
  }
}

function fieldSelection (restricted: boolean, fields: string[], paths: string[]): FieldSelection {
  const known = new Set(paths)
  return Object.freeze({
    restricted,
    fields: Object.freeze(fields),
    paths: Object.freeze(paths),
    has: (path: string) => known.has(path)
  })
}

/** Field selections by projection, built on first read: most handlers never ask, and a remembered selection keeps its projection. */
const selections = new WeakMap<Projection, FieldSelection>()

/** What a selection's projection keeps, as a handler reads it. */
export function selectedFields (projection: Projection): FieldSelection {
  let selection = selections.get(projection)
  if (selection === undefined) {
    const paths: string[] = []
    projectedPaths(projection, '', paths)
    selection = fieldSelection(true, projection.map(({ node }) => node.name), paths)
    selections.set(projection, selection)
  }
  return selection
}

/** What a request without restriction parameters keeps: every declared field. */
export function allDeclaredFields (tree: FieldTree): FieldSelection {
  return fieldSelection(false, tree.nodes.map((node) => node.name), declaredPaths(tree))
}

/** What routes that are not opted in keep: nothing is restricted, no field is declared. */
export const NOT_RESTRICTED: FieldSelection = Object.freeze({
  restricted: false,
  fields: Object.freeze([]),
  paths: Object.freeze([]),
  has: () => true
})
