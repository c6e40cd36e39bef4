/**
 * The trie of dotted paths, in one place: its type, its building, its
 * descent, and the one key that says which paths it holds. A selection's
 * tries name the paths a request keeps or drops; a rule's trie, the paths it
 * hides, which the relaxer of a caller's document and its last check both
 * read. A hidden trie's `whole` marks a hidden field; below it, the paths
 * hidden inside a field that stays.
 */
import { fragmentReadings } from './json.js'

/** A trie of dotted paths; `whole` marks a path that was named itself, not only through a child. */
export interface PathTrie { whole: boolean, children: Map<string, PathTrie> }

/**
 * The children of a trie node that has none yet: shared, and never changed,
 * since a node is given a map of its own before a child is added to it. Most
 * nodes (every named top-level field) never get one.
 */
const NO_CHILDREN: Map<string, PathTrie> = new Map()

/** The child trie node of a name, made where missing. */
export function childOf (trie: PathTrie, name: string): PathTrie {
  let child = trie.children.get(name)
  if (child === undefined) {
    child = { whole: false, children: NO_CHILDREN }
    if (trie.children === NO_CHILDREN) trie.children = new Map()
    trie.children.set(name, child)
  }
  return child
}

/** The trie node of a path, made with its parents where missing. */
export function addToTrie (trie: PathTrie, segments: readonly string[]): PathTrie {
  let node = trie
  for (const segment of segments) node = childOf(node, segment)
  return node
}

/** The trie of hidden paths (`['ssn', 'owner.email']`): a field hidden whole stays hidden whole. */
export function hiddenTrie (paths: readonly string[]): PathTrie {
  const root: PathTrie = { whole: false, children: new Map() }
  for (const path of paths) addToTrie(root, path.split('.')).whole = true
  return root
}

/** Two tries as one, what either hides: the paths of several rules, or of a body's several places for its records. */
export function mergedTries (a: PathTrie, b: PathTrie): PathTrie {
  const children = new Map(a.children)
  for (const [name, below] of b.children) {
    const mine = children.get(name)
    children.set(name, mine === undefined ? below : mergedTries(mine, below))
  }
  return { whole: a.whole || b.whole, children }
}

/** Whether `name` is hidden whole at this level of a trie: `hiddenWhole(hiddenTrie(['ssn']), 'ssn')` is true. */
export function hiddenWhole (hidden: PathTrie, name: unknown): boolean {
  return typeof name === 'string' && hidden.children.get(name)?.whole === true
}

/** The names hidden whole at this level of a trie. */
export function wholeNames (hidden: PathTrie): string[] {
  const names: string[] = []
  for (const [name, below] of hidden.children) if (below.whole) names.push(name)
  return names
}

/**
 * Whether a path of names reaches a hidden path, itself or as part of a
 * field hidden whole. With `indexes`, a name of digits or `-` that the level
 * does not hide is an array's index or end, and passes through, as hidden
 * paths hold at every item.
 */
function namesReachHidden (names: readonly string[], hidden: PathTrie, indexes: boolean): boolean {
  let level = hidden
  for (const name of names) {
    const below = level.children.get(name)
    if (below === undefined) {
      if (indexes && /^(?:\d+|-)$/.test(name)) continue
      return false
    }
    if (below.whole) return true
    level = below
  }
  return false
}

/** Whether a dotted path (`owner.email`) is hidden, itself or as part of a field hidden whole. */
export function hidesPath (hidden: PathTrie, path: string): boolean {
  return namesReachHidden(path.split('.'), hidden, false)
}

/**
 * Whether a pointer into an instance (a link's `$response.body#/owner/ssn`,
 * as a fragment) reaches a hidden path, read either way it may be read: the
 * index of an array, or its end (`-`), passes through.
 */
export function pointerReachesHidden (fragment: string, hidden: PathTrie): boolean {
  return fragmentReadings(fragment).some((names) => namesReachHidden(names, hidden, true))
}

/**
 * One key per set of hidden paths, to key what is made for it (a view, a
 * relaxed twin): two tries that hide the same paths have the same key,
 * whatever order they were built in, and what sits below a field hidden
 * whole changes nothing.
 */
export function trieKey (hidden: PathTrie): string {
  let key = keys.get(hidden)
  if (key === undefined) {
    const names = [...hidden.children.keys()].sort()
    key = hidden.whole ? '1' : JSON.stringify(names.map((name) => [name, trieKey(hidden.children.get(name) as PathTrie)]))
    keys.set(hidden, key)
  }
  return key
}

// A hidden trie is not changed once made (a rule's answer is remembered): its key is worked out once.
const keys = new WeakMap<PathTrie, string>()

/**
 * The hidden paths of a response body whose records sit as `shape` says (the
 * body itself, its items, an envelope's key, or found at run time): an
 * envelope's records sit under its key, and a body whose records are found
 * at run time may hold them either way.
 */
export function bodyTrie (hidden: PathTrie, shape: { readonly kind: string, readonly key?: string }): PathTrie {
  if (shape.kind === 'object' || shape.kind === 'array') return hidden
  const envelope: PathTrie = { whole: false, children: new Map([[String(shape.key), hidden]]) }
  return shape.kind === 'envelope' ? envelope : mergedTries(hidden, envelope)
}
