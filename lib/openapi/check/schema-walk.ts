/**
 * The last check's walk of the schemas a caller's document gives a
 * restricted route, with the paths the route's rule hides from the caller.
 * It knows JSON Schema's positions on its own (a second opinion: it shares
 * no table with the relaxer), and finds the first position that names a
 * hidden path: a property, an item of a list of names, a key of an instance,
 * a pattern or a schema over names, a discriminator, a segment of a
 * reference's pointer that says what a property is called, or content of no
 * known shape that holds the name. A name that is a value (a string of an
 * `enum` or a `const`, a value's `pattern`) is not read, and a level only
 * reads what is hidden at that level.
 */
import { encodePointerToken, fragmentReadings, isRecord, pointerNames, pointerTo as at, valueAtPointer } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import type { Json, Version } from '../types.js'
import {
  EVERY_NAME, examplesMapNames, instanceNames, levelBelow, namedAt, namesOf, nothingBelow, patternCouldName, schemaPointerNames,
  segmentsInSchema, unknownContentNames
} from './naming.js'

/** The kind of position where a hidden path was named, for the log. */
export type Position = 'property' | 'name list' | 'instance key' | 'property names' | 'pattern' | 'dependency' | 'discriminator' |
  'reference' | 'reference segment' | 'link expression' | 'restriction parameter' | 'field set' | 'media encoding' | 'unknown content'

/** Where the check found a hidden path named, and how; `unchecked` for a reference it could not follow. */
export interface Finding { pointer: string, position: Position, unchecked?: true }

// Keywords whose value is a schema of the same level as the one that holds them (its records or its items), or a list of them.
const SAME_LEVEL = new Set([
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems'
])
// Keywords whose value is an instance of the level.
const INSTANCE = new Set(['example', 'default', 'const'])
// Keywords that refer to a schema.
const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef'])
// Keywords whose values say nothing of the level's names: words, numbers, prose, places of definitions reached by reference.
const SAYS_NO_NAME = new Set(`
  type format pattern title description summary $schema $id $anchor $dynamicAnchor $recursiveAnchor $vocabulary $defs definitions
  multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength maxItems minItems uniqueItems maxContains
  minContains maxProperties minProperties contentEncoding contentMediaType nullable readOnly writeOnly deprecated xml externalDocs
  collectionFormat allowEmptyValue
`.trim().split(/\s+/))

/** A schema the walk reached, and where it sits in the document. */
interface Reached { value: unknown, pointer: string }

/** A reference inside a schema: where it sits, and its pointer as written after `#`. */
interface Pointing { place: string, fragment: string }

/**
 * Every local reference inside `value`, at any depth, wherever it sits: a
 * `$ref` (or `$dynamicRef`, `$recursiveRef`) and a discriminator's mapping
 * to a pointer. Read without knowing which keys are keywords, so that a
 * property named like one (`default`, `enum`) hides none.
 */
function pointingIn (value: unknown, pointer: string, into: Pointing[]): Pointing[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => pointingIn(item, at(pointer, index), into))
  } else if (isRecord(value)) {
    for (const [key, member] of Object.entries(value)) {
      if (REFERENCES.has(key) && typeof member === 'string' && member.startsWith('#/')) {
        into.push({ place: at(pointer, key), fragment: member.slice(1) })
      }
      if (key === 'discriminator' && isRecord(member) && isRecord(member.mapping)) {
        for (const [tag, ref] of Object.entries(member.mapping)) {
          if (typeof ref === 'string' && ref.startsWith('#/')) into.push({ place: at(at(at(pointer, key), 'mapping'), tag), fragment: ref.slice(1) })
        }
      }
      pointingIn(member, at(pointer, key), into)
    }
  }
  return into
}

/** The first index of a list whose item names something hidden, as a finding; null when none. */
function firstIn (list: unknown, pointer: string, position: Position, names: (item: unknown) => boolean): Finding | null {
  if (!Array.isArray(list)) return null
  const index = list.findIndex(names)
  return index === -1 ? null : { pointer: at(pointer, index), position }
}

function first<T> (items: Iterable<T>, find: (item: T, index: number) => Finding | null): Finding | null {
  let index = 0
  for (const item of items) {
    const found = find(item, index++)
    if (found !== null) return found
  }
  return null
}

/**
 * The first object inside `value` that a plain-name fragment (`#node`) names: by `$anchor`,
 * `$dynamicAnchor` or an `$id` of `#node`; with its pointer.
 */
function findAnchor (value: unknown, pointer: string, name: string, seen = new Set<unknown>()): Reached | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined
  seen.add(value)
  if (isRecord(value) && (value.$anchor === name || value.$dynamicAnchor === name || value.$id === `#${name}`)) return { value, pointer }
  for (const [key, member] of Object.entries(value)) {
    const found = findAnchor(member, at(pointer, key), name, seen)
    if (found !== undefined) return found
  }
  return undefined
}

/** One walk of a document's schemas: each place reached through a reference is walked once per level of hidden paths. */
export class SchemaWalk {
  readonly #document: Json
  /** The `$ref` of the components (`#/components/schemas/`), which a discriminator's mapping may name by their names alone. */
  readonly #components: string
  /** The places walked, by pointer, with the levels of hidden paths they were walked with. */
  readonly #seen = new Map<string, Set<PathTrie>>()
  /** The local references inside each schema walked, by its pointer. */
  readonly #pointing = new Map<string, Pointing[]>()
  /**
   * The outermost schema being walked (a response's, a component): a local
   * `$ref` that the document does not resolve (`#/$defs/inner`, written by
   * Zod and TypeBox) is resolved against it, as a validator of that schema does.
   */
  #root: Reached | null = null

  constructor (document: Json, version: Version) {
    this.#document = document
    this.#components = version === '2.0' ? '#/definitions/' : '#/components/schemas/'
  }

  /** What a local pointer (`#/…`) names in the document, or undefined. */
  resolve (ref: string): unknown {
    return valueAtPointer(this.#document, ref.slice(1))
  }

  /** Whether a place was walked already with these hidden paths; marks it walked. */
  once (pointer: string, level: PathTrie): boolean {
    let levels = this.#seen.get(pointer)
    if (levels === undefined) this.#seen.set(pointer, levels = new Set())
    if (levels.has(level)) return true
    levels.add(level)
    return false
  }

  /** A schema walked as the outermost one: its local `$ref`s resolve against it when the document does not resolve them. */
  root (schema: unknown, pointer: string, level: PathTrie): Finding | null {
    return this.#within({ value: schema, pointer }, () =>
      this.schema(schema, pointer, level) ?? this.#segments(schema, pointer, level, true))
  }

  /**
   * The first reference inside a schema walked at `level`, at any depth,
   * whose pointer names a path hidden there (schemaPointerNames): a
   * pointer into the schema is read from it, at its level. A pointer into
   * another schema (a twin's into the component it was made from) is read
   * from that schema's top, at this level, when this one is walked whole (a
   * response's, a component): nothing tells at which level, if any, the
   * caller reaches the other, and a pointer written here says what this
   * level's properties are called. Each way a fragment may be read counts.
   */
  #segments (value: unknown, pointer: string, level: PathTrie, whole: boolean): Finding | null {
    if (nothingBelow(level)) return null
    let pointing = this.#pointing.get(pointer)
    if (pointing === undefined) this.#pointing.set(pointer, pointing = pointingIn(value, pointer, []))
    const here = pointerNames(pointer)
    const names = (fragment: string): boolean => fragmentReadings(fragment).some((segments) => {
      const inside = segments.length > here.length && here.every((name, index) => segments[index] === name)
      if (inside) return schemaPointerNames(segments.slice(here.length), level)
      return whole && schemaPointerNames(segmentsInSchema(segments), level)
    })
    return first(pointing, ({ place, fragment }) => names(fragment) ? { pointer: place, position: 'reference segment' } : null)
  }

  #within (root: Reached, walk: () => Finding | null): Finding | null {
    const outer = this.#root
    this.#root = root
    try {
      return walk()
    } finally {
      this.#root = outer
    }
  }

  /**
   * What a reference names, with where it sits; undefined for what the document does not hold (another
   * document, a place that is not there).
   */
  #target (ref: string): Reached | undefined {
    if (ref.startsWith('#/')) {
      const value = this.resolve(ref)
      if (value !== undefined) return { value, pointer: ref.slice(1) }
      const root = this.#root
      const inRoot = root === null ? undefined : valueAtPointer(root.value, ref.slice(1))
      return inRoot === undefined ? undefined : { value: inRoot, pointer: `${(root as Reached).pointer}${ref.slice(1)}` }
    }
    return ref.startsWith('#') && this.#root !== null ? findAnchor(this.#root.value, this.#root.pointer, ref.slice(1)) : undefined
  }

  /**
   * What a reference names, walked with the paths hidden where it is used. A
   * reference the document does not hold cannot be checked: its own place is
   * returned, so that the document is refused rather than served unchecked.
   */
  reference (ref: unknown, level: PathTrie, pointer: string): Finding | null {
    // A reference to `#` refers to the schema that holds it, which is being walked.
    if (typeof ref !== 'string' || ref === '#' || nothingBelow(level)) return null
    const target = this.#target(ref)
    if (target === undefined) return { pointer, position: 'reference', unchecked: true }
    if (this.once(target.pointer, level)) return null
    // A place inside the schema being walked keeps it as the outermost; a component is the outermost schema of what it holds.
    const tokens = target.pointer.split('/')
    const walked = (whole: boolean) => (): Finding | null =>
      this.schema(target.value, target.pointer, level) ?? this.#segments(target.value, target.pointer, level, whole)
    if (tokens[1] === 'paths' || (this.#root !== null && target.pointer.startsWith(this.#root.pointer + '/'))) return walked(false)()
    const component = tokens.slice(0, tokens[1] === 'components' ? 4 : 3).join('/')
    return this.#within({ value: this.resolve(`#${component}`), pointer: component }, walked(component === target.pointer))
  }

  /** The first position in a schema, found at `pointer`, that names a path hidden at `level`; null when none. */
  schema (schema: unknown, pointer: string, level: PathTrie): Finding | null {
    if (!isRecord(schema) || nothingBelow(level)) return null
    return first(Object.entries(schema), ([keyword, value]) => this.#keyword(schema, keyword, value, at(pointer, keyword), level))
  }

  #keyword (schema: Json, keyword: string, value: unknown, pointer: string, level: PathTrie): Finding | null {
    if (SAME_LEVEL.has(keyword)) {
      if (Array.isArray(value)) return first(value, (item, index) => this.schema(item, at(pointer, index), level))
      return this.schema(value, pointer, level)
    }
    if (REFERENCES.has(keyword)) return this.reference(value, level, pointer)
    if (INSTANCE.has(keyword)) {
      return instanceNames(value, level) || (keyword === 'example' && examplesMapNames(value, level)) ? { pointer, position: 'instance key' } : null
    }
    if (SAYS_NO_NAME.has(keyword)) return null
    switch (keyword) {
      case 'enum':
        return firstIn(value, pointer, 'instance key', (instance) => instanceNames(instance, level))
      case 'examples':
        // JSON Schema's list of instances; anything else is read as one instance, or a map of named examples.
        return Array.isArray(value)
          ? firstIn(value, pointer, 'instance key', (instance) => instanceNames(instance, level))
          : instanceNames(value, level) || examplesMapNames(value, level) ? { pointer, position: 'instance key' } : null
      case 'required':
        return firstIn(value, pointer, 'name list', (name) => namedAt(level, name))
      case 'properties':
        return isRecord(value) ? this.#properties(value, pointer, level) : null
      case 'additionalProperties':
      case 'unevaluatedProperties':
        return this.#undeclared(schema, value, pointer, level)
      case 'dependencies':
      case 'dependentRequired':
      case 'dependentSchemas':
        return isRecord(value) ? this.#dependencies(value, pointer, level) : null
      case 'discriminator':
        return this.#discriminator(value, pointer, level)
      case 'patternProperties':
        return isRecord(value) ? this.#patterns(value, pointer, level) : null
      case 'propertyNames':
        return this.#namesIn(value, level, new Set()) ? { pointer, position: 'property names' } : null
      default:
        // An `x-` extension, `$comment`, or a keyword the check does not know: read for the names of this level wherever they sit.
        return unknownContentNames(value, level) ? { pointer, position: 'unknown content' } : null
    }
  }

  /** Only the properties that something is hidden in are read: a rule hides few of many. */
  #properties (properties: Json, pointer: string, level: PathTrie): Finding | null {
    return first(namesOf(level, Object.keys(properties)), (name) => {
      const below = levelBelow(level, name)
      if (below === undefined || !Object.hasOwn(properties, name)) return null
      return below.whole ? { pointer: at(pointer, name), position: 'property' } : this.schema(properties[name], at(pointer, name), below)
    })
  }

  /**
   * The schema of every undeclared name, where @fastify/swagger puts a
   * pattern's in OpenAPI 3: the pattern may have matched a declared name
   * (`^account$`), so it describes what is hidden below any name, declared
   * or not; and below a field hidden whole, whose name the caller's level no
   * longer declares, it may describe the field itself.
   */
  #undeclared (schema: Json, value: unknown, pointer: string, level: PathTrie): Finding | null {
    if (level === EVERY_NAME) return this.schema(value, pointer, level)
    const declared = isRecord(schema.properties) ? schema.properties : {}
    return first(level.children, ([name, below]) => {
      // A declared field hidden whole is named by `properties`, where the walk finds it.
      if (below.whole && Object.hasOwn(declared, name)) return null
      return this.schema(value, pointer, below.whole ? EVERY_NAME : below)
    })
  }

  #dependencies (value: Json, pointer: string, level: PathTrie): Finding | null {
    return first(Object.entries(value), ([name, dependency]) => {
      if (namedAt(level, name)) return { pointer: at(pointer, name), position: 'dependency' }
      return Array.isArray(dependency)
        ? firstIn(dependency, at(pointer, name), 'name list', (other) => namedAt(level, other))
        : this.schema(dependency, at(pointer, name), level)
    })
  }

  #discriminator (value: unknown, pointer: string, level: PathTrie): Finding | null {
    // Swagger 2.0's discriminator is the property's name alone.
    if (!isRecord(value)) return namedAt(level, value) ? { pointer, position: 'discriminator' } : null
    if (namedAt(level, value.propertyName)) return { pointer: at(pointer, 'propertyName'), position: 'discriminator' }
    // Each value of the mapping refers to a variant: a `$ref`, or a component's name.
    return first(Object.entries(isRecord(value.mapping) ? value.mapping : {}), ([tag, ref]) =>
      this.reference(
        typeof ref === 'string' && !ref.startsWith('#') ? this.#components + encodePointerToken(ref) : ref, level, at(at(pointer, 'mapping'), tag)))
  }

  #patterns (value: Json, pointer: string, level: PathTrie): Finding | null {
    return first(Object.entries(value), ([pattern, property]) => {
      if (level === EVERY_NAME) return { pointer: at(pointer, pattern), position: 'pattern' }
      return first(level.children, ([name, below]) => {
        if (!patternCouldName(pattern, name)) return null
        return below.whole ? { pointer: at(pointer, pattern), position: 'pattern' } : this.schema(property, at(pointer, pattern), below)
      })
    })
  }

  /**
   * Whether a schema of names (`propertyNames`) names a hidden field, in any
   * shape: any string it holds (`const`, `enum`, `not`, `anyOf` members),
   * any `pattern` that names one, and what its references name (one the
   * document does not hold counts as naming).
   */
  #namesIn (value: unknown, level: PathTrie, seen: Set<unknown>): boolean {
    if (typeof value === 'string') return namedAt(level, value)
    if (value === null || typeof value !== 'object' || seen.has(value)) return false
    seen.add(value)
    return Object.entries(value).some(([key, member]) => {
      if ((key === 'description' || key === 'title') && typeof member === 'string') return false
      if (key === 'pattern' && typeof member === 'string') {
        return level === EVERY_NAME || [...level.children].some(([name, below]) => below.whole && patternCouldName(member, name))
      }
      if (!REFERENCES.has(key) || typeof member !== 'string' || member === '#') return this.#namesIn(member, level, seen)
      const target = this.#target(member)
      return target === undefined || this.#namesIn(target.value, level, seen)
    })
  }
}
