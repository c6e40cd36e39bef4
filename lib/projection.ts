/**
 * The object-copy path: builds new records that hold only the projected
 * fields, in declared order. Used for routes without a response schema, and
 * for selections whose serializer is not compiled (yet).
 */
import type { FieldTree } from './declared.js'
import type { Projection, ProjectedField } from './selection.js'
import type { PayloadShape } from './declared.js'

const wholeProjections = new WeakMap<FieldTree, Projection>()

/** The projection that keeps every declared field of a level, built once per level. */
export function wholeProjection (tree: FieldTree): Projection {
  let projection = wholeProjections.get(tree)
  if (projection === undefined) {
    projection = tree.nodes.map((node): ProjectedField => ({ node, sub: null }))
    wholeProjections.set(tree, projection)
  }
  return projection
}

function copyValue (value: unknown, projection: Projection): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => copyValue(item, projection))
  return copyRecord(value as Record<string, unknown>, projection)
}

function copyRecord (record: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const { node, sub } of projection) {
    const value = record[node.name]
    if (value === undefined) {
      // The compiled serializer writes a declared default for a missing field; so must the copy.
      if (node.hasDefault) copy[node.name] = node.defaultValue
      continue
    }
    // Fields kept whole are still copied level by level, so undeclared keys never pass.
    copy[node.name] = node.children === null
      ? value
      : copyValue(value, sub ?? wholeProjection(node.children))
  }
  return copy
}

/**
 * Applies a projection to a payload of the given shape and returns the new
 * payload. Values that are not records (null, strings) are returned as they are.
 */
export function applySelection (payload: unknown, projection: Projection, shape: PayloadShape): unknown {
  if (shape.kind === 'envelope' || shape.kind === 'auto') {
    if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
      const results = (payload as Record<string, unknown>)[shape.key]
      if (Array.isArray(results)) {
        return { ...payload, [shape.key]: copyValue(results, projection) }
      }
    }
  }
  return copyValue(payload, projection)
}
