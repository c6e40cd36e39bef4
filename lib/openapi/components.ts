/**
 * The schema components of one document (`#/components/schemas` or
 * `#/definitions`): looking up what a `$ref` names, adding components under
 * free names, the relaxed twins and the lists of field names, each written
 * once, and dropping what nothing refers to.
 */
import { createHash } from 'node:crypto'
import { decodePointerToken, encodePointerToken, isRecord } from '../json.js'
import { fieldList } from './field-lists.js'
import type { Json, Version } from './types.js'

/** Appended to a relaxed twin's name (`user` → `userRestricted`). */
const TWIN_SUFFIX = 'Restricted'

export class Components {
  readonly version: Version
  /** The components, by name: the document's own object, changed in place. */
  readonly schemas: Json
  readonly #prefix: string
  /** Twin names by kind and original name. */
  readonly #twins = new Map<string, string>()
  /** What this document added: twins and lists, which equal contents make one, and the originals of twins. */
  readonly #made = new Set<string>()
  readonly #originals = new Set<string>()
  /** The list components, by their names' JSON. */
  readonly #lists = new Map<string, string>()

  /** Makes sure `document` has its components object. */
  constructor (document: Json, version: Version) {
    this.version = version
    if (version === '2.0') {
      document.definitions = isRecord(document.definitions) ? document.definitions : {}
      this.schemas = document.definitions
      this.#prefix = '#/definitions/'
    } else {
      document.components = isRecord(document.components) ? document.components : {}
      document.components.schemas = isRecord(document.components.schemas) ? document.components.schemas : {}
      this.schemas = document.components.schemas
      this.#prefix = '#/components/schemas/'
    }
  }

  /** The component a `$ref` names, or null for a pointer inside one or into another document. */
  nameOf (ref: unknown): string | null {
    if (typeof ref !== 'string' || !ref.startsWith(this.#prefix)) return null
    const name = ref.slice(this.#prefix.length)
    if (name.includes('/')) return null
    const decoded = decodePointerToken(name)
    return Object.hasOwn(this.schemas, decoded) && isRecord(this.schemas[decoded]) ? decoded : null
  }

  /** The component a `$ref` names or points inside (`#/components/schemas/user/properties/id`), or null. */
  holderOf (ref: unknown): string | null {
    if (typeof ref !== 'string' || !ref.startsWith(this.#prefix)) return null
    const name = decodePointerToken(ref.slice(this.#prefix.length).split('/')[0])
    return Object.hasOwn(this.schemas, name) ? name : null
  }

  ref (name: string): string {
    return this.#prefix + encodePointerToken(name)
  }

  /** `base`, or `base2`, `base3`… when taken. */
  freeName (base: string, takenBy: (schema: unknown) => boolean = () => true): string {
    let name = base
    for (let n = 2; Object.hasOwn(this.schemas, name) && takenBy(this.schemas[name]); n++) name = `${base}${n}`
    return name
  }

  /**
   * The `$ref` of the relaxed twin of component `name`, made on first use for
   * each `kind` of relaxation. `relax` makes its content, or returns the
   * original or `{ $ref }` to another component for none of its own; the
   * name is reserved first, so a recursive schema's twin refers to itself.
   */
  twin (name: string, kind: string, relax: (schema: Json) => Json, note: string, suffix = TWIN_SUFFIX): string {
    const key = `${kind} ${name}`
    let twin = this.#twins.get(key)
    if (twin === undefined) {
      twin = this.freeName(name + suffix)
      this.#twins.set(key, twin)
      this.#made.add(twin)
      this.#originals.add(name)
      this.schemas[twin] = {}
      const original = this.schemas[name]
      const relaxed = relax(original)
      // A relaxation that changes nothing (a caller's hidden paths that do not reach this component) keeps the original;
      // one that comes out as another component (`{ $ref }` alone) is that component.
      const same = relaxed === original ? name : Object.keys(relaxed).length === 1 ? this.nameOf(relaxed.$ref) : null
      // A loop of references comes back to the twin itself, which then keeps its reference.
      if (same !== null && same !== twin) {
        delete this.schemas[twin]
        this.#made.delete(twin)
        this.#twins.set(key, same)
        return this.ref(same)
      }
      this.schemas[twin] = {
        ...relaxed,
        ...(typeof original.title === 'string' ? { title: original.title + suffix } : {}),
        description: typeof original.description === 'string' ? `${original.description} ${note}` : note
      }
    }
    return this.ref(twin)
  }

  /**
   * The `$ref` of a string whose choices are `names`, at most `limit` of
   * them listed (fieldList): one component per list, shared by every
   * parameter that offers it. Its name is a hash of what it lists, so it
   * names none of the fields it leaves out.
   */
  choices (names: readonly string[], limit: number): string {
    const list = fieldList(names, limit)
    // Lists that bound alike are one: routes whose deep paths differ (each hiding its own) share their top levels.
    const key = JSON.stringify(list.enum ?? list)
    let ref = this.#lists.get(key)
    if (ref === undefined) {
      ref = this.add(`Fields-${createHash('sha256').update(key).digest('hex').slice(0, 8)}`, list)
      this.#lists.set(key, ref)
    }
    return ref
  }

  /** Adds a component under a free name made from `base`; returns its `$ref`. */
  add (base: string, schema: Json): string {
    const name = this.freeName(base)
    this.schemas[name] = schema
    return this.ref(name)
  }

  /**
   * Makes the twins whose contents are equal one component, until none
   * are: twins of twins become equal once the twins they refer to are one.
   * Every `$ref`, and a discriminator's mapping, then names the first.
   */
  mergeEqualTwins (document: Json): void {
    for (;;) {
      const byContent = new Map<string, string>()
      const renamed = new Map<string, string>()
      for (const name of this.#made) {
        const content = JSON.stringify(this.schemas[name])
        const first = byContent.get(content)
        if (first === undefined) {
          byContent.set(content, name)
        } else {
          renamed.set(this.ref(name), this.ref(first))
          delete this.schemas[name]
          this.#made.delete(name)
        }
      }
      if (renamed.size === 0) return
      renameReferences(document, renamed)
    }
  }

  /**
   * Removes the components that nothing outside the components refers to,
   * directly or through other components. With `onlyOurs`, only what this
   * document added and the originals of twins may go, and the app's own
   * unused components stay; without, everything unreferenced goes: in a
   * caller's document, the originals of the twins that left out hidden
   * fields.
   */
  dropUnreferenced (document: Json, onlyOurs = false): void {
    const reached = new Set<string>()
    const queue: string[] = []
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) {
        for (const item of value) visit(item)
      } else if (isRecord(value)) {
        // A `$ref` inside a component needs the component, as a whole one does.
        const target = this.holderOf(value.$ref)
        if (target !== null && !reached.has(target)) {
          reached.add(target)
          queue.push(target)
        }
        for (const member of Object.values(value)) if (member !== this.schemas) visit(member)
      }
    }
    visit(document)
    while (queue.length > 0) visit(this.schemas[queue.pop() as string])
    for (const name of Object.keys(this.schemas)) {
      if (!reached.has(name) && (!onlyOurs || this.#made.has(name) || this.#originals.has(name))) delete this.schemas[name]
    }
  }
}

/**
 * Rewrites every `$ref` (and a discriminator's mapping to one) that names a
 * component in `renamed`. Twins are referred to whole: the relaxer writes no
 * pointer into one.
 */
function renameReferences (value: unknown, renamed: ReadonlyMap<string, string>): void {
  const rename = (ref: string): string => renamed.get(ref) ?? ref
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const next = stack.pop()
    if (Array.isArray(next)) {
      for (const item of next) if (item !== null && typeof item === 'object') stack.push(item)
    } else if (isRecord(next)) {
      if (typeof next.$ref === 'string') next.$ref = rename(next.$ref)
      if (isRecord(next.discriminator) && isRecord(next.discriminator.mapping)) {
        const mapping = next.discriminator.mapping
        for (const [tag, target] of Object.entries(mapping)) if (typeof target === 'string') mapping[tag] = rename(target)
      }
      for (const member of Object.values(next)) if (member !== null && typeof member === 'object') stack.push(member)
    }
  }
}
