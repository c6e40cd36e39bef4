/**
 * Per-request visibility: the declared fields a request may not see are
 * removed from the tree it is parsed and projected against. A hidden field is
 * then exactly a field that does not exist: naming it is an unknown name, the
 * allowed names leave it out, and no projection can reach it.
 */
import { declaredPaths, makeTree } from './declared.js'
import type { FieldNode, FieldTree } from './declared.js'
import { InvalidHiddenFieldsError } from './errors.js'

/** A tree of hidden paths: `true` hides a field whole, a map hides some of its nested fields. */
type HiddenTrie = Map<string, HiddenTrie | true>

function hiddenTrie (paths: readonly string[]): HiddenTrie {
  const root: HiddenTrie = new Map()
  for (const path of paths) {
    const segments = path.split('.')
    let level: HiddenTrie | true = root
    for (let i = 0; i < segments.length && level !== true; i++) {
      const next: HiddenTrie | true | undefined = level.get(segments[i])
      // A field hidden whole stays hidden whole, whatever else is hidden below it.
      if (i === segments.length - 1) level.set(segments[i], true)
      else if (next === undefined) level.set(segments[i], new Map())
      level = level.get(segments[i]) as HiddenTrie | true
    }
  }
  return root
}

function wholeKeyOf (name: string, children: FieldTree): string {
  return `${name}(${children.nodes.map((node) => node.wholeKey).join(',')})`
}

function withoutHidden (tree: FieldTree, hidden: HiddenTrie): FieldTree {
  const nodes: FieldNode[] = []
  for (const node of tree.nodes) {
    const below = hidden.get(node.name)
    if (below === undefined) {
      nodes.push(node)
    } else if (below !== true && node.children !== null) {
      // Hiding a path through a field keeps the field with what is left of it.
      const children = withoutHidden(node.children, below)
      nodes.push({ ...node, children, wholeKey: wholeKeyOf(node.name, children) })
    }
  }
  return makeTree(nodes, tree)
}

/**
 * The tree a request sees: `tree` without the `hidden` paths (each a declared
 * field or dotted path of it). Fields that keep some nested fields get new
 * nodes whose `wholeKey` names what they still hold; every other node is shared.
 */
export function visibleTree (tree: FieldTree, hidden: readonly string[]): FieldTree {
  return withoutHidden(tree, hiddenTrie(hidden))
}

/** One text for a set of hidden paths, whatever their order or repetitions; JSON, so no two sets share one. */
export function hiddenKey (hidden: readonly string[]): string {
  // One path, the usual answer, skips the JSON: its key starts with a space, which JSON text never does.
  return hidden.length === 1 ? ' ' + hidden[0] : JSON.stringify([...new Set(hidden)].sort())
}

/** What one set of hidden fields gives a route: its visible tree, its own remembered parses, its selection without parameters. */
export interface Visibility<S> {
  readonly tree: FieldTree
  readonly readSelection: (query: Record<string, unknown>, rawQuery: string) => S | null
  /** The selection of a request that names no field (every visible field); null when nothing is hidden. */
  readonly whole: S | null
}

/** Most distinct sets of hidden fields remembered per route; more are worked out per request. */
export const MAX_VISIBILITIES = 32

/**
 * Turns what a route's rule returned into the request's Visibility,
 * remembering one per distinct set of hidden fields, so that requests that see
 * the same fields share parses and nothing is shared between requests that do not.
 */
export class VisibilityCache<S> {
  readonly #tree: FieldTree
  readonly #declared: ReadonlySet<string>
  readonly #unhidden: Visibility<S>
  readonly #create: (tree: FieldTree) => Visibility<S>
  readonly #declaredElsewhere: (path: string) => boolean
  readonly #route: string
  readonly #known = new Map<string, Visibility<S>>()
  /** By identity, for frozen answers (a rule returning constants): they cannot change behind the cache's back. */
  readonly #frozen = new WeakMap<readonly unknown[], Visibility<S>>()

  /**
   * `unhidden` serves requests that hide nothing; `create` builds the
   * visibility of a visible tree. A path the route does not declare is
   * ignored when `declaredElsewhere` says another route declares it (one
   * rule may serve several routes) and is an error otherwise (a typo must not
   * silently show a field).
   */
  constructor (tree: FieldTree, unhidden: Visibility<S>, create: (tree: FieldTree) => Visibility<S>, declaredElsewhere: (path: string) => boolean, route: string) {
    this.#tree = tree
    this.#declared = new Set(declaredPaths(tree))
    this.#unhidden = unhidden
    this.#create = create
    this.#declaredElsewhere = declaredElsewhere
    this.#route = route
  }

  /** The visibility of a rule's answer; throws InvalidHiddenFieldsError for an answer that is not declared names. */
  of (hidden: unknown): Visibility<S> {
    const known = Array.isArray(hidden) ? this.#frozen.get(hidden) : undefined
    if (known !== undefined) return known
    const visibility = this.#resolve(hidden)
    if (Object.isFrozen(hidden)) this.#frozen.set(hidden as readonly unknown[], visibility)
    return visibility
  }

  #resolve (hidden: unknown): Visibility<S> {
    if (!Array.isArray(hidden) || !allStrings(hidden)) {
      throw new InvalidHiddenFieldsError(this.#route, `must return an array of field names, instead returned ${describe(hidden)}`)
    }
    if (hidden.length === 0) return this.#unhidden
    const key = hiddenKey(hidden)
    let visibility = this.#known.get(key)
    if (visibility === undefined) {
      const kept = hidden.filter((path) => this.#declared.has(path))
      for (const path of hidden) {
        if (!kept.includes(path) && !this.#declaredElsewhere(path)) {
          throw new InvalidHiddenFieldsError(this.#route, `returned '${path}', which no route with restrictFields declares`)
        }
      }
      visibility = kept.length === 0 ? this.#unhidden : this.#create(visibleTree(this.#tree, kept))
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
