/**
 * A projection is what a selection keeps of the declared fields: per object
 * level, the kept fields in the tree's order, each kept whole or narrowed by a
 * projection of its own. It is built from the tries of requested paths that
 * lib/selection.ts reads out of the query, and read by the serializers.
 */
import type { PathTrie } from './hidden-paths.js'
import type { FieldNode, FieldTree } from './schema/tree.js'

/** One kept field; `sub` is null when the field is kept whole. */
export interface ProjectedField {
  readonly node: FieldNode
  readonly sub: Projection | null
  /**
   * Set on a nested field kept whole whose levels hold nothing that a copy
   * adds or takes out (a default, a variant's index, a hidden path): a copy
   * written by a schema of its declared fields alone may hold its value as it is.
   */
  readonly asIs: boolean
}

/** The fields one object level keeps, in the tree's order. */
export type Projection = readonly ProjectedField[]

const plainLevels = new WeakMap<FieldTree, boolean>()

/** Whether a level, and every level below it, has no variants and no field with a default or a hidden path. */
function plainLevel (tree: FieldTree): boolean {
  let plain = plainLevels.get(tree)
  if (plain === undefined) {
    plain = tree.variants === null && tree.nodes.every((node) =>
      !node.hasDefault && node.strip === undefined && (node.children === null || plainLevel(node.children)))
    plainLevels.set(tree, plain)
  }
  return plain
}

/** A field kept whole. */
function keptWhole (node: FieldNode): ProjectedField {
  return { node, sub: null, asIs: node.children !== null && plainLevel(node.children) }
}

const wholeProjections = new WeakMap<FieldTree, Projection>()

/** The projection that keeps every declared field of a level, built once per level. */
export function wholeProjection (tree: FieldTree): Projection {
  let projection = wholeProjections.get(tree)
  if (projection === undefined) {
    projection = tree.nodes.map(keptWhole)
    wholeProjections.set(tree, projection)
  }
  return projection
}

const KEEP_ALL: PathTrie = { whole: true, children: new Map() }

/** A projection and its canonical key: equal projections get equal keys, whatever their spelling. */
export interface KeyedProjection {
  readonly projection: Projection
  readonly key: string
}

interface Projected { projection: ProjectedField[], key: string, whole: boolean }

function project (tree: FieldTree, only: PathTrie, defer: PathTrie | undefined): Projected {
  const projection: ProjectedField[] = []
  // A field kept whole is the same in every projection: the level's whole projection holds it.
  const wholeFields = wholeProjection(tree)
  const drops = defer !== undefined && defer.children.size > 0
  let key = ''
  let whole = true
  for (let i = 0; i < tree.nodes.length; i++) {
    const node = tree.nodes[i]
    const kept = only.whole ? KEEP_ALL : only.children.get(node.name)
    const dropped = drops ? defer.children.get(node.name) : undefined
    if (kept === undefined || dropped?.whole === true) {
      whole = false
      continue
    }
    if (key !== '') key += ','
    if (node.children === null || (kept.whole && dropped === undefined)) {
      projection.push(wholeFields[i])
      key += node.wholeKey
      continue
    }
    const inner = project(node.children, kept, dropped)
    // A level that keeps every field whole is the field kept whole: one spelling, one cache key.
    if (inner.whole) {
      projection.push(wholeFields[i])
      key += node.wholeKey
    } else {
      whole = false
      projection.push({ node, sub: inner.projection, asIs: false })
      key += `${JSON.stringify(node.name)}(${inner.key})`
    }
  }
  return { projection, key, whole }
}

/**
 * Projects a tree through the paths `only` keeps (every field when its root is
 * `whole`) minus the paths `defer` drops. Depth is bounded by the tree.
 */
export function projectTree (tree: FieldTree, only: PathTrie, defer: PathTrie): KeyedProjection {
  const { projection, key } = project(tree, only, defer)
  return { projection, key }
}

const byName = new WeakMap<Projection, Map<string, ProjectedField>>()
const ownProjections = new WeakMap<Projection, Map<FieldTree, Projection>>()

/**
 * A projection of a level of variants, read into one variant's own fields:
 * the kept fields that the variant has, in its own order (the order its
 * serializer writes them in), nested levels read into its own nested fields.
 * Built once per projection and variant.
 */
export function variantProjection (projection: Projection, own: FieldTree): Projection {
  let byTree = ownProjections.get(projection)
  if (byTree === undefined) {
    byTree = new Map()
    ownProjections.set(projection, byTree)
  }
  let translated = byTree.get(own)
  if (translated === undefined) {
    let names = byName.get(projection)
    if (names === undefined) {
      names = new Map(projection.map((field) => [field.node.name, field]))
      byName.set(projection, names)
    }
    const fields: ProjectedField[] = []
    for (const node of own.nodes) {
      const field = names.get(node.name)
      if (field === undefined) continue
      // A field kept whole is read through the fields the request sees of it, so hidden ones stay hidden.
      if (node.children === null || field.node.children === null) {
        fields.push(keptWhole(node))
        continue
      }
      fields.push({ node, sub: variantProjection(field.sub ?? wholeProjection(field.node.children), node.children), asIs: false })
    }
    translated = fields
    byTree.set(own, translated)
  }
  return translated
}
