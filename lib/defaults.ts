/**
 * A declared default is written for a missing field as it stands (as
 * fast-json-stringify writes it), so under restriction it is a value like
 * any other: it keeps only the kept fields, and loses the paths the request
 * may not see. The projected default of a field is worked out once per
 * projection, for the compiled, written and copied paths alike.
 */
import type { FieldNode, FieldTree } from './schema/tree.js'
import { wholeProjection } from './projection.js'
import type { ProjectedField, Projection } from './projection.js'
import { stripHidden } from './visibility.js'
import { hasToJSON } from './json.js'

/** A projected default, as a value and as the JSON text a writer sends. */
interface ProjectedDefault { readonly value: unknown, readonly json: string }

/** By node, then by the projection of its nested fields (the node itself for a leaf). */
const projectedDefaults = new WeakMap<FieldNode, WeakMap<object, ProjectedDefault>>()
const fieldsByName = new WeakMap<Projection, Map<string, ProjectedField>>()

function byName (projection: Projection): Map<string, ProjectedField> {
  let fields = fieldsByName.get(projection)
  if (fields === undefined) {
    fields = new Map(projection.map((field) => [field.node.name, field]))
    fieldsByName.set(projection, fields)
  }
  return fields
}

/**
 * A JSON value with, in every object of every array, only the keys the
 * projection keeps, in the value's own order; a key the level does not
 * declare is left out, and a leaf loses the hidden paths it carries.
 */
function projectValue (value: unknown, tree: FieldTree, projection: Projection): unknown {
  if (value === null || typeof value !== 'object') return value
  if (hasToJSON(value)) return projectValue(value.toJSON(), tree, projection)
  if (Array.isArray(value)) return value.map((item) => projectValue(item, tree, projection))
  const kept = byName(projection)
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const field = kept.get(key)
    if (field === undefined) continue
    const inner = (value as Record<string, unknown>)[key]
    const { node, sub } = field
    const projected = node.children === null
      ? (node.strip === undefined ? inner : stripHidden(inner, node.strip))
      : projectValue(inner, node.children, sub ?? wholeProjection(node.children))
    // A key named __proto__ stays a key.
    Object.defineProperty(copy, key, { value: projected, enumerable: true, writable: true, configurable: true })
  }
  return copy
}

function projected (node: FieldNode, sub: Projection | null): ProjectedDefault {
  const key: object = node.children === null ? node : sub ?? wholeProjection(node.children)
  let byProjection = projectedDefaults.get(node)
  if (byProjection === undefined) projectedDefaults.set(node, byProjection = new WeakMap())
  let result = byProjection.get(key)
  if (result === undefined) {
    const value = node.children === null
      ? (node.strip === undefined ? node.defaultValue : stripHidden(node.defaultValue, node.strip))
      : projectValue(node.defaultValue, node.children, sub ?? wholeProjection(node.children))
    result = { value, json: JSON.stringify(value) }
    byProjection.set(key, result)
  }
  return result
}

/** The default of a kept field (`sub`: its projection, null when kept whole), as the selection and the request's visibility leave it. */
export function projectedDefault (node: FieldNode, sub: Projection | null): unknown {
  return projected(node, sub).value
}

/** The JSON text of `projectedDefault`, made once. */
export function projectedDefaultJson (node: FieldNode, sub: Projection | null): string {
  return projected(node, sub).json
}
