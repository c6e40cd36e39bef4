/**
 * Relaxes the restricted responses of a document: no field a client can
 * leave out is `required`, down to `maxDepth` levels, and a caller's hidden
 * paths are left out at any depth; an envelope around the records is kept as
 * declared. A named schema (`$ref`) gets a relaxed twin instead of being
 * changed, so routes that are not restricted keep the original.
 */
import { MAX_REF_HOPS, isRecord } from '../json.js'
import type { PathTrie } from '../schema/tree.js'
import { heldSchemas, holdsInstances, keywordOf } from '../schema/vocabulary.js'
import type { Describes } from '../schema/vocabulary.js'
import { stripHidden } from '../visibility.js'
import type { Components } from './components.js'
import { LEAVE_OUT, hiddenKeyword, withoutHiddenPatterns } from './hidden-keywords.js'
import type { LevelMaps } from './hidden-keywords.js'
import { namesHidden } from './hidden-names.js'
import { hiddenText } from './leaks.js'
import { restrictedStatuses } from './operations.js'
import { withoutHiddenLinks } from './links.js'
import { shapeNote, withNote } from './notes.js'
import type { Json, RecordsShape, RestrictedRoute, Version } from './types.js'

// The modules that describe a route read these from here.
export { hiddenText } from './leaks.js'
export { responseKey } from './operations.js'

// Keywords that can make a shorter object invalid. At a level that can be
// restricted they go: a loosened schema stays true to every response the full
// one allowed. `discriminator` names a property a restriction may leave out.
const REQUIRING = ['required', 'minProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'if', 'then', 'else', 'not', 'discriminator']

/** Requiring keywords whose schemas may declare fields of the level itself, which fast-json-stringify writes. */
const BRANCHES = ['then', 'else', 'dependentSchemas', 'dependencies']

const FIELDS_AT: readonly Describes[] = ['same', 'items', 'properties']

/**
 * The components that a full relaxation changes: those with a requiring
 * keyword where fields sit, and those that reach one through a `$ref`.
 */
function changingComponents (components: Components): Set<string> {
  const changing = new Set<string>()
  const refersTo = new Map<string, Set<string>>()
  const visit = (schema: unknown, owner: string): void => {
    if (!isRecord(schema)) return
    const target = components.nameOf(schema.$ref)
    if (target !== null) refersTo.set(target, (refersTo.get(target) ?? new Set()).add(owner))
    if (REQUIRING.some((keyword) => Object.hasOwn(schema, keyword))) changing.add(owner)
    // Where fields sit: the level itself, its items, and the values of its names; not a definition (reached through a `$ref`), nor a name.
    for (const [keyword, value] of Object.entries(schema)) {
      for (const held of heldSchemas(keyword, value)) if (FIELDS_AT.includes(held.describes)) visit(held.schema, owner)
    }
  }
  for (const [name, schema] of Object.entries(components.schemas)) visit(schema, name)
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
    const losesDeclarations = relaxing && BRANCHES.some((keyword) => heldSchemas(keyword, schema[keyword]).some(({ schema: branch }) => isRecord(branch) && (isRecord(branch.properties) || isRecord(branch.patternProperties))))
    for (const [keyword, value] of Object.entries(schema)) {
      if (relaxing && (REQUIRING.includes(keyword) || (losesDeclarations && keyword === 'additionalProperties' && value !== true))) {
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
      } else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') && Array.isArray(value)) {
        next = this.#mapArray(value, (member) => this.relaxRecords(member, depth, hidden))
      } else if (maps !== null) {
        next = hiddenKeyword(keyword, value, schema, hidden as PathTrie, maps)
      }
      if (next === LEAVE_OUT) {
        changed = true
        continue
      }
      changed ||= next !== value
      relaxed[keyword] = next
    }
    if (maps !== null) {
      const patterns = withoutHiddenPatterns(relaxed, hidden as PathTrie, maps)
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
      names: (schema) => namesHidden(schema, hidden, this.#resolve),
      resolve: this.#resolve,
      reference: (ref) => {
        // A discriminator's mapping may name a component by its name alone.
        const target = this.#components.nameOf(ref) ?? this.#components.nameOf(this.#components.ref(ref))
        return target === null ? ref : this.#recordsRef(this.#components.ref(target), depth >= 1, hidden) as string
      }
    }
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
      ? this.#components.twin(target, `records ${hiddenText(hidden)}`, (original) => this.relaxRecords(original, Infinity, hidden) as Json,
        'As restricted responses send it to this caller: any field may be left out.')
      : this.#components.twin(target, `hidden ${hiddenText(hidden)}`, (original) => this.relaxRecords(original, 0, hidden) as Json,
        'As this caller is sent it.')
  }

  /** Relaxes the records array under `key` of an envelope, keeping the envelope as declared. */
  relaxEnvelope (schema: unknown, key: string, depth: number, hidden: PathTrie | null = null, hops = 0): unknown {
    // A chain of `$ref`s that loops never reaches an envelope.
    if (!isRecord(schema) || hops > MAX_REF_HOPS) return schema
    const target = this.#components.nameOf(schema.$ref)
    if (target !== null) {
      const relaxed = this.relaxEnvelope(this.#components.schemas[target], key, depth, hidden, hops + 1)
      if (relaxed === this.#components.schemas[target]) return schema
      const ref = this.#components.twin(target, `envelope ${key} ${depth} ${hidden === null ? '' : hiddenText(hidden)}`, () => relaxed as Json,
        `As restricted responses send it: any field of the records in \`${key}\` may be left out.`)
      return { ...schema, $ref: ref }
    }
    let relaxed: Json = schema
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      if (!Array.isArray(schema[keyword])) continue
      const members = this.#mapArray(schema[keyword], (member) => this.relaxEnvelope(member, key, depth, hidden, hops + 1))
      if (members !== schema[keyword]) relaxed = { ...relaxed, [keyword]: members }
    }
    if (isRecord(schema.properties) && Object.hasOwn(schema.properties, key)) {
      const records = this.relaxRecords(schema.properties[key], depth, hidden)
      if (records !== schema.properties[key]) relaxed = { ...relaxed, properties: { ...schema.properties, [key]: records } }
    }
    if (hidden !== null) {
      for (const keyword of Object.keys(schema)) {
        if (holdsInstances(keyword)) relaxed = { ...relaxed, [keyword]: envelopeValues(keyword, schema[keyword], key, hidden) }
      }
    }
    return relaxed
  }

  #mapArray (array: unknown[], map: (value: unknown) => unknown): unknown[] {
    const mapped = array.map(map)
    return mapped.some((value, index) => value !== array[index]) ? mapped : array
  }
}

/** Values of an envelope without the hidden paths of the records under `key`. */
function envelopeValues (keyword: string, value: unknown, key: string, hidden: PathTrie): unknown {
  const strip = (envelope: unknown): unknown => isRecord(envelope) && Object.hasOwn(envelope, key)
    ? { ...envelope, [key]: stripHidden(envelope[key], hidden) }
    : envelope
  return keywordOf(keyword)?.holds === 'instances' && Array.isArray(value) ? value.map(strip) : strip(value)
}

/** The examples @fastify/swagger puts beside a response's schema, without the hidden paths: on the media type (OpenAPI 3) or the response (Swagger 2.0). */
function withoutHiddenExamples (holder: Json, version: Version, shape: RecordsShape, hidden: PathTrie): void {
  const strip = (value: unknown): unknown => shape.kind === 'envelope' ? envelopeValues('example', value, String(shape.key), hidden) : stripHidden(value, hidden)
  if (version === '2.0') {
    if (isRecord(holder.examples)) holder.examples = Object.fromEntries(Object.entries(holder.examples).map(([mime, value]) => [mime, strip(value)]))
    return
  }
  if (Object.hasOwn(holder, 'example')) holder.example = strip(holder.example)
  if (isRecord(holder.examples)) {
    holder.examples = Object.fromEntries(Object.entries(holder.examples).map(([name, example]) =>
      [name, isRecord(example) && Object.hasOwn(example, 'value') ? { ...example, value: strip(example.value) } : example]))
  }
}

/** Relaxes the restricted 2xx responses of an operation and notes what the parameters do to them. */
export function relaxSuccess (relaxation: Relaxation, version: Version, operation: Json, route: RestrictedRoute, hidden: PathTrie | null): void {
  if (!isRecord(operation.responses)) return
  const relax = (schema: unknown, shape: RecordsShape): unknown => shape.kind === 'envelope'
    ? relaxation.relaxEnvelope(schema, String(shape.key), route.maxDepth, hidden)
    : relaxation.relaxRecords(schema, route.maxDepth, hidden)
  for (const { key, shape } of restrictedStatuses(operation, route, version)) {
    const response = operation.responses[key]
    if (!isRecord(response)) continue
    if (version === '2.0') {
      if (response.schema !== undefined) response.schema = relax(response.schema, shape)
      if (hidden !== null) withoutHiddenExamples(response, version, shape, hidden)
    } else {
      if (hidden !== null) withoutHiddenLinks(response, shape, hidden)
      for (const media of Object.values(isRecord(response.content) ? response.content : {})) {
        if (!isRecord(media)) continue
        if (media.schema !== undefined) media.schema = relax(media.schema, shape)
        if (hidden !== null) withoutHiddenExamples(media, version, shape, hidden)
      }
    }
    response.description = withNote(response.description, shapeNote(route, shape))
  }
}
