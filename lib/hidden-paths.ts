/**
 * Tries of the paths a rule hides, and the one reading of the JSON pointers
 * that may name them: what the relaxer of a caller's document and its last
 * check both need, kept in one place so that the two never read a path in
 * two ways. A trie's `whole` marks a hidden field; below it, the paths
 * hidden inside a field that stays.
 */
import { addToTrie } from './projection.js'
import type { PathTrie } from './schema/tree.js'

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

/** Whether a dotted path (`owner.email`) is hidden, itself or as part of a field hidden whole. */
export function hidesPath (hidden: PathTrie, path: string): boolean {
  let level = hidden
  for (const segment of path.split('.')) {
    const below = level.children.get(segment)
    if (below === undefined) return false
    if (below.whole) return true
    level = below
  }
  return false
}

/** One text per trie, to key what is made for it (a relaxed twin, a component checked once): equal texts are equal tries. */
export function trieText (hidden: PathTrie): string {
  let text = texts.get(hidden)
  if (text === undefined) {
    text = JSON.stringify([...hidden.children].map(([name, below]) => [name, below.whole ? 1 : trieText(below)]))
    texts.set(hidden, text)
  }
  return text
}

// A trie is not changed once made (a rule's answer is remembered): its text is worked out once.
const texts = new WeakMap<PathTrie, string>()

/** Where a response's records sit: the body itself, its items, an envelope's key, or found at run time. */
export interface RecordsPlace { readonly kind: 'object' | 'array' | 'envelope' | 'auto', readonly key?: string }

/**
 * The hidden paths of a response body whose records sit at `place`: an
 * envelope's records sit under its key, and a body whose records are found
 * at run time may hold them either way.
 */
export function bodyTrie (hidden: PathTrie, place: RecordsPlace): PathTrie {
  if (place.kind === 'object' || place.kind === 'array') return hidden
  const envelope: PathTrie = { whole: false, children: new Map([[String(place.key), hidden]]) }
  return place.kind === 'envelope' ? envelope : mergedTries(hidden, envelope)
}

/** A JSON pointer token as a name, per RFC 6901: `~1` is `/`, then `~0` is `~`. */
export function decodePointerToken (token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~')
}

/** A name as a JSON pointer token. */
export function encodePointerToken (name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The names of a JSON pointer (`/owner/a~1b`): split at each `/`, each token decoded. */
export function pointerNames (pointer: string): string[] {
  return pointer.split('/').slice(1).map(decodePointerToken)
}

/**
 * The ways a pointer written in a URI fragment (`#/s%73n`, a `$ref`'s, a
 * runtime expression's) may be read, as lists of names: percent-decoded
 * first, then read as a JSON pointer (RFC 6901, section 6: `%2F` is then a
 * `/` between two names); and as it stands, as a reader that does not
 * decode it reads it. A fragment whose percent-encoding is malformed has
 * that one reading.
 */
export function fragmentReadings (fragment: string): string[][] {
  const readings = [pointerNames(fragment)]
  try {
    const decoded = decodeURIComponent(fragment)
    if (decoded !== fragment) readings.unshift(pointerNames(decoded))
  } catch {}
  return readings
}

/**
 * Whether a pointer into an instance (a link's `$response.body#/owner/ssn`,
 * as a fragment) reaches a hidden path, read either way it may be read: the
 * index of an array, or its end (`-`), passes through, as hidden paths hold
 * at every item.
 */
export function pointerReachesHidden (fragment: string, hidden: PathTrie): boolean {
  return fragmentReadings(fragment).some((names) => namesReachHidden(names, hidden))
}

function namesReachHidden (names: readonly string[], hidden: PathTrie): boolean {
  let level = hidden
  for (const name of names) {
    const below = level.children.get(name)
    if (below === undefined) {
      if (/^(?:\d+|-)$/.test(name)) continue
      return false
    }
    if (below.whole) return true
    level = below
  }
  return false
}
