/**
 * The one walk of a JSON Schema, and its one rewriting: every module that
 * visits or edits the schemas a schema holds goes through here, reading what
 * each keyword holds from the vocabulary (vocabulary.ts).
 */
import { isRecord, pointerTo } from '../json.js'
import { eachHeld } from './vocabulary.js'
import type { Describes, UnknownKeywords } from './vocabulary.js'

/** Where the walk meets a schema. */
export interface Place {
  readonly schema: Record<string, any>
  /** Its JSON pointer: from the walk's root, or from the document of the `$ref` target it is in. */
  readonly pointer: string
  /** The place of the schema that holds it; null at the root. */
  readonly parent: Place | null
  /** The keyword of `parent` that holds it (`'$ref'` for a reference's target); null at the root. */
  readonly keyword: string | null
  /** Its name in a map of schemas, or its index in a list of them; null where the keyword holds it alone. */
  readonly key: string | number | null
  /** What it describes against the value `parent` describes (`'same'` at the root and for a `$ref`'s target). */
  readonly describes: Describes
  /** The id its relative `$ref`s resolve against: its own `$id`, or that of the nearest schema around it that has one. */
  readonly base: string
}

/** A `$ref`'s target as `resolve` finds it; `base` (the id of its document) defaults to the referrer's, `pointer` (in it) to `''`. */
export interface Reached { readonly schema: unknown, readonly base?: string, readonly pointer?: string }

export interface WalkOptions {
  /** The id the root's relative `$ref`s resolve against; `''` by default. */
  readonly base?: string
  /** Follows a `$ref`: its target, or undefined to leave it unfollowed (the default for every `$ref`). */
  readonly resolve?: (ref: string, place: Place) => Reached | undefined
  /** How keywords of no dialect are read; `'skip'` by default. */
  readonly unknownKeywords?: UnknownKeywords
}

/** Returned by a visit: the schemas this one holds are not walked from here; met at another place, it is visited again there. */
export const SKIP = Symbol('skip')

// An `$id` that names a document (not a plain-name fragment) starts a new base, as fast-json-stringify reads it: as written.
function baseOf (schema: Record<string, any>, outer: string): string {
  return typeof schema.$id === 'string' && schema.$id !== '' && !schema.$id.startsWith('#') ? schema.$id : outer
}

function placeIn (parent: Place, keyword: string, key: string | number | null, schema: Record<string, any>, describes: Describes): Place {
  const pointer = key === null ? pointerTo(parent.pointer, keyword) : pointerTo(pointerTo(parent.pointer, keyword), key)
  return { schema, pointer, parent, keyword, key, describes, base: baseOf(schema, parent.base) }
}

/**
 * Visits every schema that `root` holds, itself first, each once: a schema
 * met again (shared, or a `$ref`'s target reached twice) is not visited
 * again, so loops end. It reads the vocabulary's table to find the held
 * schemas, so a property named like a keyword (`default`, `enum`,
 * `if`) is visited as the schema it is, and an instance (`default`,
 * `example`, `enum`, `const`) is never walked. A `$ref` is followed only
 * when `options.resolve` finds its target, which is visited before the
 * keywords beside the `$ref`. Visits go depth first, in the schema's order.
 * A visit that returns SKIP leaves the schemas held by that one unwalked
 * from that place. Without recursion: a deep schema cannot overflow the stack.
 *
 * @example
 * // Every `$ref` a component reaches, components followed once each:
 * const refs: string[] = []
 * walkSchema(document.components.schemas.user, (place) => {
 *   if (typeof place.schema.$ref === 'string') refs.push(place.schema.$ref)
 * }, { resolve: (ref) => ({ schema: valueAtPointer(document, ref), pointer: ref.slice(1) }) })
 * // Only where fields sit: a schema that describes no value of the record (a definition) is skipped.
 * walkSchema(schema, (place) => place.describes === 'none' ? SKIP : check(place.schema))
 */
export function walkSchema (root: unknown, visit: (place: Place) => void | typeof SKIP, options: WalkOptions = {}): void {
  if (!isRecord(root)) return
  const unknownKeywords = options.unknownKeywords ?? 'skip'
  const seen = new Set<object>()
  const pending: Place[] = [
    { schema: root, pointer: '', parent: null, keyword: null, key: null, describes: 'same', base: baseOf(root, options.base ?? '') }
  ]
  for (let place = pending.pop(); place !== undefined; place = pending.pop()) {
    const { schema } = place
    if (seen.has(schema)) continue
    seen.add(schema)
    if (visit(place) === SKIP) {
      // Skipped here, it may be walked where it is met next (a definition that is also a property's schema).
      seen.delete(schema)
      continue
    }
    const held: Place[] = []
    if (typeof schema.$ref === 'string' && options.resolve !== undefined) {
      const target = options.resolve(schema.$ref, place)
      if (target !== undefined && isRecord(target.schema)) {
        const reached = baseOf(target.schema, target.base ?? place.base)
        held.push({ schema: target.schema, pointer: target.pointer ?? '', parent: place, keyword: '$ref', key: null, describes: 'same', base: reached })
      }
    }
    for (const [keyword, value] of Object.entries(schema)) {
      eachHeld(keyword, value, unknownKeywords, (inner, key, describes) => {
        if (isRecord(inner)) held.push(placeIn(place, keyword, key, inner, describes))
      })
    }
    // Last in, first out: pushed in reverse, the first held schema is visited next.
    for (let i = held.length - 1; i >= 0; i--) pending.push(held[i])
  }
}

/**
 * A copy of `root` whose schemas are each `edit`ed, at every place it holds
 * them: `edit` gets a schema (with its place, as walkSchema gives it) and
 * returns the copy's own keywords; the schemas that those keywords hold (by
 * the vocabulary's table) are then copied and edited in their turn, while
 * every other value (an instance, a list of names, an annotation) is kept as
 * it is. A schema shared by two places is copied at each; one that holds
 * itself is kept as it is where it does. `$ref`s are not followed. A value
 * that is not an object is returned as it is. With `keepUnchanged`, a schema
 * that its edit returned as it is, holding only schemas kept so, is kept
 * itself, not copied: what reads the result keeps no second copy of it.
 *
 * @example
 * // Without `if`, `then` and `else` at any level: a property named `if` is kept.
 * mapSchema(schema, (own) => Object.fromEntries(Object.entries(own).filter(([keyword]) => !CONDITIONALS.has(keyword))))
 */
export function mapSchema (
  root: unknown,
  edit: (schema: Record<string, any>, place: Place) => Record<string, any>,
  options: Omit<WalkOptions, 'resolve'> & { readonly keepUnchanged?: boolean } = {}
): unknown {
  if (!isRecord(root)) return root
  const unknownKeywords = options.unknownKeywords ?? 'skip'
  const around = new Set<object>()
  const copy = (place: Place): Record<string, any> => {
    around.add(place.schema)
    const own = edit(place.schema, place)
    let changed = own !== place.schema
    const copied: Record<string, any> = {}
    for (const [keyword, value] of Object.entries(own)) {
      copied[keyword] = value
      let container: any = null
      eachHeld(keyword, value, unknownKeywords, (inner, key, describes) => {
        if (!isRecord(inner) || around.has(inner)) return
        const mapped = copy(placeIn(place, keyword, key, inner, describes))
        if (mapped === inner) return
        changed = true
        if (key === null) copied[keyword] = mapped
        else (container ??= copied[keyword] = Array.isArray(value) ? [...value] : { ...value })[key] = mapped
      })
    }
    around.delete(place.schema)
    return options.keepUnchanged === true && !changed ? place.schema : copied
  }
  return copy({ schema: root, pointer: '', parent: null, keyword: null, key: null, describes: 'same', base: baseOf(root, options.base ?? '') })
}
