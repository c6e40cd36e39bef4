/**
 * The declared field tree and lists of dotted paths: a tree built from a
 * route's `fields` list, the paths a tree declares, several trees merged,
 * and the key an object's records likely sit under.
 */
import { makeTree } from './tree.js'
import type { FieldNode, FieldTree } from './tree.js'

/**
 * Builds the declared fields from a list of dotted paths (`['id', 'profile.city']`),
 * for routes without a response schema. A path names its parents implicitly.
 */
export function declaredFromList (paths: readonly string[]): FieldTree {
  interface Draft { names: string[], children: Map<string, Draft> }
  const root: Draft = { names: [], children: new Map() }
  for (const path of paths) {
    let level = root
    for (const segment of path.split('.')) {
      let next = level.children.get(segment)
      if (next === undefined) {
        next = { names: [], children: new Map() }
        level.children.set(segment, next)
        level.names.push(segment)
      }
      level = next
    }
  }
  const build = (draft: Draft): FieldTree => makeTree(draft.names.map((name) => {
    const child = draft.children.get(name) as Draft
    return {
      name,
      jsonKey: JSON.stringify(name) + ':',
      wholeKey: JSON.stringify(name),
      schema: {},
      schemaWithoutDefault: {},
      children: child.names.length > 0 ? build(child) : null,
      isArray: false,
      nullable: true,
      hasDefault: false,
      defaultValue: undefined,
      simpleType: null,
      // Nothing says what a listed field holds: a path inside its value may name a key.
      holdsFields: true
    }
  }))
  return build(root)
}

/** Lists the dotted paths of a tree, depth first, in the tree's order. */
export function declaredPaths (tree: FieldTree, prefix = ''): string[] {
  const paths: string[] = []
  for (const node of tree.nodes) {
    const path = prefix + node.name
    paths.push(path)
    if (node.children !== null) paths.push(...declaredPaths(node.children, path + '.'))
  }
  return paths
}

/**
 * The fields of several trees in one, in first-seen order: a field declared
 * with nested fields in one tree and as a leaf in another keeps the nested ones.
 */
export function mergeTrees (trees: readonly FieldTree[]): FieldTree {
  const merged = new Map<string, FieldNode>()
  for (const tree of trees) {
    for (const node of tree.nodes) {
      const seen = merged.get(node.name)
      if (seen === undefined || seen.children === null) merged.set(node.name, seen === undefined || node.children !== null ? node : seen)
      else if (node.children !== null) merged.set(node.name, { ...seen, children: mergeTrees([seen.children, node.children]) })
    }
  }
  return makeTree([...merged.values()])
}

/**
 * The key of an object that looks like an envelope: one field holding an
 * array of objects with fields, beside fields that hold no keys (`total`,
 * `next`); null for any other object, or a choice of variants.
 *
 * @example likelyRecordsKey(tree of { total, tasks: [{ id, status }] }) // 'tasks'
 */
export function likelyRecordsKey (tree: FieldTree): string | null {
  if (tree.variants !== null) return null
  let key: string | null = null
  for (const node of tree.nodes) {
    if (node.isArray && node.children !== null && key === null) key = node.name
    else if (node.children !== null || node.holdsFields) return null
  }
  return key
}
