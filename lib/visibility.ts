/**
 * Per-request visibility: the declared fields a request may not see are
 * removed from the tree it is parsed and projected against. A hidden field is
 * then exactly a field that does not exist: naming it is an unknown name, the
 * allowed names leave it out, and no projection can reach it. A hidden path
 * inside a value the route declares as one leaf (a free-form object, a map, a
 * level below `maxDepth`) marks that leaf, and is removed from its value.
 */
import { makeTree } from './schema/tree.js'
import type { PathTrie } from './hidden-paths.js'
import type { FieldNode, FieldTree, PayloadShape } from './schema/tree.js'
import { InvalidHiddenFieldsError } from './errors.js'
import { hiddenTrie } from './hidden-paths.js'
import { hasToJSON } from './json.js'
import type { Serializer } from './json.js'

// The tries of hidden paths have their own module, which the document's relaxer and last check share.

function wholeKeyOf (node: FieldNode, children: FieldTree): string {
  return `${JSON.stringify(node.name)}(${children.nodes.map((child) => child.wholeKey).join(',')})`
}

/** A tree without what `hidden` hides; `strips` is set when some leaf got paths to remove from its value. */
export interface Visible { readonly tree: FieldTree, readonly strips: boolean }

function withoutHidden (tree: FieldTree, hidden: PathTrie): Visible {
  const nodes: FieldNode[] = []
  let strips = false
  for (const node of tree.nodes) {
    const below = hidden.children.get(node.name)
    if (below === undefined) {
      nodes.push(node)
    } else if (below.whole) {
      continue
    } else if (node.children !== null) {
      // Hiding a path through a field keeps the field with what is left of it.
      const inner = withoutHidden(node.children, below)
      strips ||= inner.strips
      nodes.push({ ...node, children: inner.tree, wholeKey: wholeKeyOf(node, inner.tree) })
    } else {
      strips = true
      nodes.push({ ...node, strip: below })
    }
  }
  // Each variant's own fields lose what is hidden too: a record is written with its own variant's nodes.
  let variants = tree.variants
  if (variants !== null) {
    const own = variants.own.map((fields) => withoutHidden(fields, hidden))
    strips ||= own.some((visible) => visible.strips)
    variants = { tests: variants.tests, own: own.map((visible) => visible.tree) }
  }
  return { tree: makeTree(nodes, { variants, nullable: tree.nullable }), strips }
}

/**
 * The tree a request sees: `tree` without the `hidden` paths. Fields that
 * keep some nested fields get new nodes whose `wholeKey` names what they
 * still hold; a leaf with hidden paths inside its value gets a node that
 * carries them (`strip`); every other node is shared.
 */
export function visibleTree (tree: FieldTree, hidden: PathTrie): Visible {
  return withoutHidden(tree, hidden)
}

/**
 * A copy of a JSON value without the paths of `hidden`, at every item of an
 * array, as the value is serialized (an object's `toJSON()` stands for it).
 */
export function stripHidden (value: unknown, hidden: PathTrie): unknown {
  if (value === null || typeof value !== 'object') return value
  if (hasToJSON(value)) return stripHidden(value.toJSON(), hidden)
  if (Array.isArray(value)) return value.map((item) => stripHidden(item, hidden))
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const below = hidden.children.get(key)
    if (below?.whole === true) continue
    const kept = below === undefined ? (value as Record<string, unknown>)[key] : stripHidden((value as Record<string, unknown>)[key], below)
    // A key named __proto__ stays a key.
    Object.defineProperty(copy, key, { value: kept, enumerable: true, writable: true, configurable: true })
  }
  return copy
}

/** Whether a JSON value holds a path of `hidden`, at any item of an array. */
export function holdsHidden (value: unknown, hidden: PathTrie): boolean {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((item) => holdsHidden(item, hidden))
  for (const [key, below] of hidden.children) {
    if (!Object.hasOwn(value, key)) continue
    if (below.whole || holdsHidden((value as Record<string, unknown>)[key], below)) return true
  }
  return false
}

/**
 * JSON text a serializer wrote for a value whose `hidden` paths were already
 * removed, without what its schema wrote back itself (a default or a `const`
 * inside it): the text as it is when it holds no hidden path.
 */
export function stripHiddenText (text: string, hidden: PathTrie): string {
  const value: unknown = JSON.parse(text)
  return holdsHidden(value, hidden) ? JSON.stringify(stripHidden(value, hidden)) : text
}

/** One text for a set of hidden paths, whatever their order or repetitions; JSON, so no two sets share one. */
export function hiddenKey (hidden: readonly string[]): string {
  // One path, the usual answer, skips the JSON: its key starts with a space, which JSON text never does.
  return hidden.length === 1 ? ' ' + hidden[0] : JSON.stringify([...new Set(hidden)].sort())
}

/** What one set of hidden fields gives a route: its visible tree, its own remembered parses, its selection without parameters. */
export interface Visibility<S> {
  readonly tree: FieldTree
  readonly readSelection: (query: Record<string, unknown> | null | undefined, rawQuery: string) => S | null
  /** The selection of a request that names no field (every visible field); null when nothing is hidden. */
  readonly whole: S | null
  /** Every path the rule hid, this route's or not; null when nothing is hidden. Replies with no declared fields lose these. */
  readonly hidden: PathTrie | null
  /** Whether some leaf of `tree` has hidden paths removed from its value. */
  readonly strips: boolean
}

/** Most distinct sets of hidden fields remembered per route; more are worked out per request. */
export const MAX_VISIBILITIES = 32

/**
 * Whether one name of a path inside a leaf's value is well formed: not empty,
 * without surrounding spaces, brackets or commas. Inside a free-form value any
 * key may exist, so the grammar is what catches a slip there.
 */
function isKeyName (name: string): boolean {
  return name !== '' && name.trim() === name && !/[[\],]/.test(name)
}

/**
 * Why a hidden path names nothing in `tree`; null when it names a declared
 * field, or a well-formed path inside the value of a leaf that may hold keys
 * (a free-form object, a map, a level below `maxDepth`).
 */
export function hiddenPathProblem (tree: FieldTree, path: string): string | null {
  const names = path.split('.')
  let at = 0
  let node = tree.byName.get(names[0])
  while (node?.children != null && at < names.length - 1) node = node.children.byName.get(names[++at])
  if (node === undefined) return 'which no route with restrictFields declares'
  if (at === names.length - 1) return null
  // A leaf, with names left below it.
  const leaf = names.slice(0, at + 1).join('.')
  if (!node.holdsFields) return `but '${leaf}' holds no fields`
  return names.slice(at + 1).every(isKeyName) ? null : `which is not a well-formed path inside the value of '${leaf}'`
}

/**
 * The fields that every opted-in route declares, and the leaves whose values
 * may hold keys: one rule may serve every route, so a path that another route
 * declares is no typo. The paths are listed when a rule's answer is first
 * checked: most apps have no rule.
 */
export class DeclaredAnywhere {
  readonly #paths = new Set<string>()
  readonly #open = new Set<string>()
  /** The trees added since the paths were last listed. */
  readonly #pending: FieldTree[] = []

  add (tree: FieldTree): void {
    this.#pending.push(tree)
  }

  #list (tree: FieldTree, prefix: string): void {
    for (const node of tree.nodes) {
      const path = prefix + node.name
      this.#paths.add(path)
      if (node.children !== null) this.#list(node.children, path + '.')
      else if (node.holdsFields) this.#open.add(path)
    }
  }

  /** Whether some route declares `path`, or it is a well-formed path inside the value of a leaf some route declares. */
  has (path: string): boolean {
    for (const tree of this.#pending.splice(0)) this.#list(tree, '')
    if (this.#paths.has(path)) return true
    const names = path.split('.')
    for (let i = 1; i < names.length; i++) {
      if (this.#open.has(names.slice(0, i).join('.'))) return names.slice(i).every(isKeyName)
    }
    return false
  }
}

/**
 * Turns what a route's rule returned into the request's Visibility,
 * remembering one per distinct set of hidden fields, so that requests that see
 * the same fields share parses and nothing is shared between requests that do not.
 */
export class VisibilityCache<V extends Visibility<unknown>> {
  readonly #tree: FieldTree
  readonly #unhidden: V
  readonly #create: (visible: Visible, hidden: PathTrie) => V
  readonly #declaredElsewhere: (path: string) => boolean
  readonly #route: string
  readonly #known = new Map<string, V>()
  /** By identity, for frozen answers (a rule returning constants): they cannot change behind the cache's back. */
  readonly #frozen = new WeakMap<readonly unknown[], V>()

  /**
   * `unhidden` serves requests that hide nothing; `create` builds the
   * visibility of a visible tree. A path the route neither declares nor
   * reaches inside a leaf's value is ignored when `declaredElsewhere` says another
   * route declares it (one rule may serve several routes) and is an error
   * otherwise (a typo must not silently show a field).
   */
  constructor (
    tree: FieldTree,
    unhidden: V,
    create: (visible: Visible, hidden: PathTrie) => V, declaredElsewhere: (path: string) => boolean, route: string
  ) {
    this.#tree = tree
    this.#unhidden = unhidden
    this.#create = create
    this.#declaredElsewhere = declaredElsewhere
    this.#route = route
  }

  /** The visibility of a rule's answer; throws InvalidHiddenFieldsError for an answer that is not declared names. */
  of (hidden: unknown): V {
    const known = Array.isArray(hidden) ? this.#frozen.get(hidden) : undefined
    if (known !== undefined) return known
    const visibility = this.#resolve(hidden)
    if (Object.isFrozen(hidden)) this.#frozen.set(hidden as readonly unknown[], visibility)
    return visibility
  }

  #resolve (hidden: unknown): V {
    if (!Array.isArray(hidden) || !allStrings(hidden)) {
      throw new InvalidHiddenFieldsError(this.#route, `must return an array of field names, instead returned ${describe(hidden)}`)
    }
    if (hidden.length === 0) return this.#unhidden
    const key = hiddenKey(hidden)
    let visibility = this.#known.get(key)
    if (visibility === undefined) {
      for (const path of hidden) {
        const problem = hiddenPathProblem(this.#tree, path)
        if (problem !== null && !this.#declaredElsewhere(path)) {
          throw new InvalidHiddenFieldsError(this.#route, `returned '${path}', ${problem}`)
        }
      }
      // Even a path this route does not declare is kept out: a record level that allows undeclared
      // keys would send it under the route's own serializer, so hiding anything means restricting.
      const trie = hiddenTrie(hidden)
      visibility = this.#create(visibleTree(this.#tree, trie), trie)
      if (this.#known.size >= MAX_VISIBILITIES) this.#known.delete(this.#known.keys().next().value as string)
      this.#known.set(key, visibility)
    }
    return visibility
  }
}

function allStrings (values: unknown[]): boolean {
  for (let i = 0; i < values.length; i++) if (typeof values[i] !== 'string') return false
  return true
}

function describe (value: unknown): string {
  if (Array.isArray(value)) return 'an array with a non-string item'
  return value === null ? 'null' : typeof value
}

/** JSON text of a payload of `shape` whose records may not hold the `hidden` paths, without them. */
export function stripRecordsText (text: string, hidden: PathTrie, shape: PayloadShape): string {
  if (shape.kind !== 'envelope') return stripHiddenText(text, hidden)
  // Only the records: the envelope's own fields are not restricted.
  const payload = JSON.parse(text) as Record<string, unknown>
  const records = payload[shape.key]
  return holdsHidden(records, hidden) ? JSON.stringify({ ...payload, [shape.key]: stripHidden(records, hidden) }) : text
}

/**
 * The serializer of a reply whose status declares no fields: the payload as
 * JSON without the hidden paths, in the object, its items, and an envelope's records.
 */
export function strippingSerializer (hidden: PathTrie, shape: PayloadShape): Serializer {
  return function stripHiddenPaths (payload) {
    const stripped = stripHidden(payload, hidden)
    if ((shape.kind === 'envelope' || shape.kind === 'auto') && stripped !== null && typeof stripped === 'object' && !Array.isArray(stripped)) {
      const records = (stripped as Record<string, unknown>)[shape.key]
      if (Array.isArray(records)) return JSON.stringify({ ...stripped, [shape.key]: stripHidden(records, hidden) })
    }
    return JSON.stringify(stripped)
  }
}
