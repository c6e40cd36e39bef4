/**
 * Relaxes the restricted responses of a document: no field a client can
 * leave out is `required`, down to `maxDepth` levels, and a caller's hidden
 * paths are left out at any depth; an envelope around the records is kept as
 * declared. A named schema (`$ref`) gets a relaxed twin instead of being
 * changed, so routes that are not restricted keep the original.
 */
import { bodyTrie, trieKey } from '../../hidden-paths.js'
import { MAX_REF_HOPS, isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { COMPOSITIONS, CONDITIONALS, REQUIRING, TESTS, heldSchemas, holdsInstances } from '../../schema/vocabulary.js'
import { SKIP, walkSchema } from '../../schema/walk.js'
import type { Describes } from '../../schema/vocabulary.js'
import { stripHidden } from '../../visibility.js'
import type { Components } from '../components.js'
import type { Json } from '../types.js'
import { isExtension, namesNothing, strippedExample, withoutContents } from './instances.js'
import { LEAVE_OUT, relaxedKeyword, relaxedPatterns } from './keywords.js'
import type { LevelMaps } from './keywords.js'
import { namesPathOf } from './names.js'
import { overlay } from './overlay.js'

// The keywords that can make a shorter object invalid (REQUIRING) go at a level
// that can be restricted: a loosened schema stays true to every response the
// full one allowed. `discriminator` names a property a restriction may leave out.

/** Requiring keywords whose schemas may declare fields of the level itself, which fast-json-stringify writes. */
const BRANCHES = [...CONDITIONALS].filter((keyword) => !TESTS.has(keyword))

const FIELDS_AT: readonly Describes[] = ['same', 'items', 'properties']

/** Whether a held schema declares fields: names or patterns of its own. */
function declaresFields ({ schema }: { schema: unknown }): boolean {
  return isRecord(schema) && (isRecord(schema.properties) || isRecord(schema.patternProperties))
}

/**
 * The components that a full relaxation changes: those with a requiring
 * keyword where fields sit, and those that reach one through a `$ref`.
 */
function changingComponents (components: Components): Set<string> {
  const changing = new Set<string>()
  const refersTo = new Map<string, Set<string>>()
  for (const [owner, root] of Object.entries(components.schemas)) {
    walkSchema(root, ({ schema, describes }) => {
      // Where fields sit: the level itself, its items, the values of its names; not a definition (reached by `$ref`), nor a name.
      if (!FIELDS_AT.includes(describes)) return SKIP
      const target = components.nameOf(schema.$ref)
      if (target !== null) refersTo.set(target, (refersTo.get(target) ?? new Set()).add(owner))
      if (Object.keys(schema).some((keyword) => REQUIRING.has(keyword))) changing.add(owner)
    })
  }
  const queue = [...changing]
  while (queue.length > 0) {
    for (const owner of refersTo.get(queue.pop() as string) ?? []) {
      if (!changing.has(owner)) {
        changing.add(owner)
        queue.push(owner)
      }
    }
  }
  return changing
}

/** The relaxation of one document: twins are made once and shared by every operation. */
export class Relaxation {
  readonly #components: Components
  /** Components whose relaxed form differs from them. */
  readonly #changing: ReadonlySet<string>

  constructor (components: Components) {
    this.#components = components
    this.#changing = changingComponents(components)
  }

  /**
   * Relaxes a schema whose object level holds fields that can be restricted,
   * `depth` levels of them from here, and leaves out the `hidden` paths at
   * any depth. Returns the schema itself when nothing changes.
   */
  relaxRecords (schema: unknown, depth: number, hidden: PathTrie | null = null): unknown {
    const relaxing = depth >= 1
    if (!isRecord(schema) || (!relaxing && hidden === null)) return schema
    let changed = false
    let relaxed: Json = {}
    const maps = hidden === null ? null : this.#levelMaps(depth, hidden)
    // Branches that declare fields go (their fields may be left out); a level that closed its names over them cannot stay closed.
    const losesDeclarations = relaxing && BRANCHES.some((keyword) => heldSchemas(keyword, schema[keyword]).some(declaresFields))
    for (const [keyword, value] of Object.entries(schema)) {
      if (relaxing && (REQUIRING.has(keyword) || (losesDeclarations && keyword === 'additionalProperties' && value !== true))) {
        changed = true
        continue
      }
      let next = value
      if (keyword === '$ref') {
        next = this.#recordsRef(value, relaxing, hidden)
      } else if (keyword === 'properties' && isRecord(value)) {
        next = this.#relaxProperties(value, depth, hidden)
      } else if (keyword === 'items' && !Array.isArray(value)) {
        next = this.relaxRecords(value, depth, hidden)
      } else if (COMPOSITIONS.has(keyword) && Array.isArray(value)) {
        next = this.#mapArray(value, (member) => this.relaxRecords(member, depth, hidden))
      } else if (maps !== null) {
        next = relaxedKeyword(keyword, value, schema, hidden as PathTrie, maps)
      }
      if (next === LEAVE_OUT) {
        changed = true
        continue
      }
      changed ||= next !== value
      relaxed[keyword] = next
    }
    if (maps !== null) {
      const patterns = relaxedPatterns(relaxed, hidden as PathTrie, maps)
      changed ||= patterns !== relaxed
      relaxed = patterns
    }
    if (!changed) return schema
    // Loosened alternatives may overlap, and oneOf forbids that; so may variants that lost fields, or the tag that told them apart.
    const untagged = relaxed.discriminator === undefined && (relaxed.oneOf !== schema.oneOf || schema.discriminator !== undefined)
    if (relaxed.oneOf !== undefined && (relaxing ? relaxed.oneOf !== schema.oneOf : hidden !== null && untagged)) {
      const alternatives = relaxed.oneOf
      delete relaxed.oneOf
      if (relaxed.anyOf === undefined) relaxed.anyOf = alternatives
      else relaxed.allOf = [...(relaxed.allOf ?? []), { anyOf: alternatives }]
    }
    return relaxed
  }

  /** How the keywords of a level from which `hidden` is hidden are relaxed. */
  #levelMaps (depth: number, hidden: PathTrie): LevelMaps {
    return {
      sameLevel: (schema) => this.relaxRecords(schema, depth, hidden),
      below: (schema, below) => this.relaxRecords(schema, depth - 1, below),
      names: (schema) => namesPathOf(schema, hidden, this.#resolve),
      resolve: this.#resolve,
      contentsRef: this.#contentsRef,
      reference: (ref) => {
        // A discriminator's mapping may name a component by its name alone.
        const target = this.#components.nameOf(ref) ?? this.#components.nameOf(this.#components.ref(ref))
        return target === null ? ref : this.#recordsRef(this.#components.ref(target), depth >= 1, hidden) as string
      }
    }
  }

  /** A `$ref` to a component, as a schema that may describe a field hidden whole refers to it: to its twin without contents. */
  readonly #contentsRef = (ref: string): string => {
    const target = this.#components.nameOf(ref)
    return target === null
      ? ref
      : this.#components.twin(target, 'contents', (original) => withoutContents(original, this.#contentsRef) as Json,
        'As this caller is sent it where it may describe a field hidden from it: its type alone.')
  }

  /** What a `$ref` names among the components; a discriminator's mapping may name one by its name alone. */
  readonly #resolve = (ref: string): unknown => {
    const target = this.#components.nameOf(ref) ?? this.#components.nameOf(this.#components.ref(ref))
    return target === null ? undefined : this.#components.schemas[target]
  }

  #relaxProperties (properties: Json, depth: number, hidden: PathTrie | null): Json {
    let changed = false
    const relaxed: Json = {}
    for (const [name, property] of Object.entries(properties)) {
      const below = hidden?.children.get(name)
      if (below?.whole === true) {
        changed = true
        continue
      }
      relaxed[name] = this.relaxRecords(property, depth - 1, below ?? null)
      changed ||= relaxed[name] !== property
    }
    return changed ? relaxed : properties
  }

  /** A `$ref` to records: to the twin of the component relaxed (when that changes it) and without the hidden paths. */
  #recordsRef (ref: unknown, relaxing: boolean, hidden: PathTrie | null): unknown {
    const target = this.#components.nameOf(ref)
    if (target === null) return ref
    if (hidden === null) {
      if (!relaxing || !this.#changing.has(target)) return ref
      // One twin serves every depth: it is relaxed all the way down.
      return this.#components.twin(target, 'records', (original) => this.relaxRecords(original, Infinity) as Json,
        'As restricted responses send it: any field may be left out.')
    }
    return relaxing
      ? this.#components.twin(target, `records ${trieKey(hidden)}`, (original) => this.relaxRecords(original, Infinity, hidden) as Json,
        'As restricted responses send it: any field may be left out.')
      : this.#components.twin(target, `hidden ${trieKey(hidden)}`, (original) => this.#completeOver(target, original, hidden),
        'As this caller is sent it.')
  }

  /**
   * A component without the `hidden` paths, its `required` kept, as what it
   * adds to its relaxed form without them: that form is written for the
   * restricted responses anyway, and the complete one, which the
   * `x-restricted-fields` key reaches, repeats only what differs.
   */
  #completeOver (target: string, original: Json, hidden: PathTrie): Json {
    const complete = this.relaxRecords(original, 0, hidden) as Json
    if (complete === original) return original
    const relaxedRef = this.#recordsRef(this.#components.ref(target), true, hidden) as string
    return overlay(complete, this.#components.schemas[this.#components.nameOf(relaxedRef) as string], relaxedRef)
  }

  /** Relaxes the records array under `key` of an envelope, keeping the envelope as declared. */
  relaxEnvelope (schema: unknown, key: string, depth: number, hidden: PathTrie | null = null, hops = 0): unknown {
    // A chain of `$ref`s that loops never reaches an envelope.
    if (!isRecord(schema) || hops > MAX_REF_HOPS) return schema
    const target = this.#components.nameOf(schema.$ref)
    if (target !== null) {
      const relaxed = this.relaxEnvelope(this.#components.schemas[target], key, depth, hidden, hops + 1)
      if (relaxed === this.#components.schemas[target]) return schema
      const ref = this.#components.twin(target, `envelope ${key} ${depth} ${hidden === null ? '' : trieKey(hidden)}`, () => relaxed as Json,
        `As restricted responses send it: any field of the records in \`${key}\` may be left out.`)
      return { ...schema, $ref: ref }
    }
    let relaxed: Json = schema
    for (const keyword of COMPOSITIONS) {
      if (!Array.isArray(schema[keyword])) continue
      const members = this.#mapArray(schema[keyword], (member) => this.relaxEnvelope(member, key, depth, hidden, hops + 1))
      if (members !== schema[keyword]) relaxed = { ...relaxed, [keyword]: members }
    }
    if (isRecord(schema.properties) && Object.hasOwn(schema.properties, key)) {
      const records = this.relaxRecords(schema.properties[key], depth, hidden)
      if (records !== schema.properties[key]) relaxed = { ...relaxed, properties: { ...schema.properties, [key]: records } }
    }
    if (hidden !== null) {
      const body = bodyTrie(hidden, { kind: 'envelope', key })
      for (const keyword of Object.keys(schema)) {
        if (holdsInstances(keyword)) {
          relaxed = { ...relaxed, [keyword]: keyword === 'example' ? strippedExample(schema[keyword], body) : stripHidden(schema[keyword], body) }
        } else if (isExtension(keyword) && !namesNothing(schema[keyword])) relaxed = withoutKey(relaxed, keyword)
      }
    }
    return relaxed
  }

  #mapArray (array: unknown[], map: (value: unknown) => unknown): unknown[] {
    const mapped = array.map(map)
    return mapped.some((value, index) => value !== array[index]) ? mapped : array
  }
}

/** A copy of a schema without one keyword. */
function withoutKey (schema: Json, keyword: string): Json {
  const { [keyword]: _left, ...kept } = schema
  return kept
}
