/**
 * Copies the kept fields of a payload into new records, in declared order:
 * the exact but slower answer for values the writer leaves to it, serialized
 * afterwards with one schema of every declared field. The handler's payload
 * is not changed.
 */
import type { FieldTree, PayloadShape, Variants } from './schema/tree.js'
import { variantProjection, wholeProjection } from './projection.js'
import type { Projection } from './projection.js'
import { stripHidden } from './visibility.js'
import { hasToJSON } from './json.js'
import { projectedDefault } from './defaults.js'

/** Tells the index of the variant a record is, as the route's serializer chooses it; -1 for none. */
export type VariantChooser = (variants: Variants, record: Record<string, unknown>) => number

/** Each level's variant key, worked out on its first copy rather than for every record. */
const variantKeys = new WeakMap<FieldTree, string>()

/**
 * The key under which a copy of a record of a level of variants carries the
 * index of its variant: a name the level does not declare. The key is not
 * enumerable, so only the copy schema's tests read it: its serializer writes
 * the declared fields alone, and JSON.stringify skips it. A copy may fit
 * several variants once fields are left out, and they may order and write
 * its fields differently; the index says which one the record is.
 */
export function variantKey (tree: FieldTree): string {
  let key = variantKeys.get(tree)
  if (key === undefined) {
    key = '\u0000variant'
    while (tree.byName.has(key)) key += '\u0000'
    variantKeys.set(tree, key)
  }
  return key
}

/** What a copy is made with: the variant chooser, and whether values kept whole may be handed over as they are. */
interface Copier {
  readonly choose: VariantChooser
  readonly handOver: boolean
}

function copyValue (value: unknown, tree: FieldTree, projection: Projection, copier: Copier): unknown {
  if (value === null || typeof value !== 'object') return value
  // As fast-json-stringify does, an object's toJSON() stands for it: called once, not again on what it returns.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON()
    if (value === null || typeof value !== 'object') return value
  }
  if (Array.isArray(value)) return copyItems(value, tree, projection, copier)
  return copyRecord(value as Record<string, unknown>, tree, projection, copier)
}

function copyItems (items: unknown[], tree: FieldTree, projection: Projection, copier: Copier): unknown[] {
  const copies = new Array(items.length)
  for (let i = 0; i < items.length; i++) {
    let item = items[i]
    if (item !== null && typeof item === 'object' && typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      item = (item as { toJSON: () => unknown }).toJSON()
    }
    copies[i] = item === null || typeof item !== 'object'
      ? item
      : Array.isArray(item)
        ? copyItems(item, tree, projection, copier)
        : copyRecord(item as Record<string, unknown>, tree, projection, copier)
  }
  return copies
}

function copyRecord (record: Record<string, unknown>, tree: FieldTree, projection: Projection, copier: Copier): Record<string, unknown> {
  // A record of a level of variants keeps the fields of its own variant. One that matches none keeps
  // all the kept fields and carries no index: the copy schema then fails it, as the route does.
  if (tree.variants !== null) {
    const index = copier.choose(tree.variants, record)
    const own = tree.variants.own[index]
    if (own !== undefined) {
      const copy = copyRecord(record, own, variantProjection(projection, own), copier)
      Object.defineProperty(copy, variantKey(tree), { value: index })
      return copy
    }
  }
  const handOver = copier.handOver
  const copy: Record<string, unknown> = {}
  for (let i = 0; i < projection.length; i++) {
    const field = projection[i]
    const node = field.node
    const value = record[node.name]
    if (value === undefined) {
      // The compiled serializer writes a declared default for a missing field; so must the copy.
      if (node.hasDefault) copy[node.name] = projectedDefault(node, field.sub)
      continue
    }
    const children = node.children
    // Fields kept whole are copied level by level unless handed over as they are, so undeclared keys never pass.
    copy[node.name] = children === null
      ? (node.strip === undefined ? value : stripHidden(value, node.strip))
      : handOver && field.asIs ? value : copyValue(value, children, field.sub ?? wholeProjection(children), copier)
  }
  return copy
}

/**
 * Copies the projected fields of a payload of the given shape into a new
 * payload. Values that are not records (null, strings) are returned as they
 * are. With `handOver`, the copy is written by a serializer of `tree`'s
 * declared fields that writes nothing else at any level (the copy schema):
 * a nested field kept whole is then handed over as it is, not copied level
 * by level, where its levels need nothing added or taken out.
 */
export function copyProjection (
  payload: unknown,
  tree: FieldTree,
  projection: Projection,
  shape: PayloadShape,
  choose: VariantChooser,
  handOver = false
): unknown {
  const copier: Copier = { choose, handOver }
  if (shape.kind === 'envelope' || shape.kind === 'auto') {
    // An envelope's toJSON() stands for it too, before its records are found.
    if (hasToJSON(payload)) payload = payload.toJSON()
    if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
      const results = (payload as Record<string, unknown>)[shape.key]
      if (Array.isArray(results)) {
        return { ...payload, [shape.key]: copyValue(results, tree, projection, copier) }
      }
    }
  }
  return copyValue(payload, tree, projection, copier)
}
