/**
 * A projection is what a selection keeps of the declared fields: per object
 * level, the kept fields in the tree's order, each kept whole or narrowed by a
 * projection of its own. It is built from the tries of requested paths that
 * lib/selection.ts reads out of the query, and read by the serializers.
 */
import type { FieldNode, FieldTree, PathTrie } from './schema/tree.js'

/** One kept field; `sub` is null when the field is kept whole. */
export interface ProjectedField {
  readonly node: FieldNode
  readonly sub: Projection | null
}

/** The fields one object level keeps, in the tree's order. */
export type Projection = readonly ProjectedField[]

/** The trie node of a path, made with its parents where missing. */
export function addToTrie (trie: PathTrie, segments: readonly string[]): PathTrie {
  let node = trie
  for (const segment of segments) {
    let next = node.children.get(segment)
    if (next === undefined) {
      next = { whole: false, children: new Map() }
      node.children.set(segment, next)
    }
    node = next
  }
  return node
}

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

const KEEP_ALL: PathTrie = { whole: true, children: new Map() }

/** A projection and its canonical key: equal projections get equal keys, whatever their spelling. */
export interface KeyedProjection {
  readonly projection: Projection
  readonly key: string
}

interface Projected { projection: ProjectedField[], key: string, whole: boolean }

function project (tree: FieldTree, only: PathTrie, defer: PathTrie | undefined): Projected {
  const projection: ProjectedField[] = []
  let key = ''
  let whole = true
  for (const node of tree.nodes) {
    const kept = only.whole ? KEEP_ALL : only.children.get(node.name)
    const dropped = defer?.children.get(node.name)
    if (kept === undefined || dropped?.whole === true) {
      whole = false
      continue
    }
    if (key !== '') key += ','
    if (node.children === null || (kept.whole && dropped === undefined)) {
      projection.push({ node, sub: null })
      key += node.wholeKey
      continue
    }
    const inner = project(node.children, kept, dropped)
    // A level that keeps every field whole is the field kept whole: one spelling, one cache key.
    if (inner.whole) {
      projection.push({ node, sub: null })
      key += node.wholeKey
    } else {
      whole = false
      projection.push({ node, sub: inner.projection })
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
      const sub = node.children === null || field.node.children === null
        ? null
        : variantProjection(field.sub ?? wholeProjection(field.node.children), node.children)
      fields.push({ node, sub })
    }
    translated = fields
    byTree.set(own, translated)
  }
  return translated
}
