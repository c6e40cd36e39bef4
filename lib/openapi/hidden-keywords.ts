/**
 * Leaves a caller's hidden fields out of the keywords of one schema level
 * that name fields or hold instances, each read as the vocabulary says
 * (lib/schema/vocabulary.ts): the names (`required`, `dependentRequired`,
 * `dependencies`, `dependentSchemas`, `discriminator`), the schemas over
 * names (`propertyNames`) and over the values of names (`patternProperties`,
 * `additionalProperties`, `unevaluatedProperties`), the subschemas that
 * describe the same level or its items (`then`, `else`, tuple items; a
 * condition, `if`, or a negation, `not`, that names a hidden path goes
 * whole), and the instances (`example`, `examples`, `default`, `const`,
 * `enum`). `properties`, `items`, the members of `allOf`/`anyOf`/`oneOf`
 * and `$ref`s are the relaxer's.
 */
import { isRecord } from '../json.js'
import type { PathTrie } from '../schema/tree.js'
import { keywordOf } from '../schema/vocabulary.js'
import type { Holds, Keyword } from '../schema/vocabulary.js'
import { stripHidden } from '../visibility.js'
import { belowNames, hiddenName, namesHiddenName, patternNames, undeclaredBelow } from './hidden-names.js'
import type { Resolve } from './hidden-names.js'
import type { Json } from './types.js'

/** What `hiddenKeyword` returns for a keyword that must go. */
export const LEAVE_OUT = Symbol('leave out')

/** How the relaxer maps what a keyword holds. */
export interface LevelMaps {
  /** A subschema of the same level, with the same hidden paths. */
  readonly sameLevel: (schema: unknown) => unknown
  /** A schema one level down, under names that `hidden` maps to `below`. */
  readonly below: (schema: unknown, below: PathTrie) => unknown
  /** A reference to a variant, as the level's `$ref`s are rewritten. */
  readonly reference: (ref: string) => string
  /** Whether a subschema of the same level names a hidden path. */
  readonly names: (schema: unknown) => boolean
  /** What a `$ref` of the document names, or undefined. */
  readonly resolve: Resolve
}

/**
 * Whether a keyword holds schemas of the same level or of its items (a
 * tuple's), that a record must match: without a hidden path, each allows at
 * least what it allowed, so the description stays true. The conditions and
 * negations (`if`, `not`) and the relaxer's own keywords are not mapped so.
 */
function holdsSameLevel (keyword: string): boolean {
  const known = keywordOf(keyword)
  return (known?.describes === 'same' || known?.describes === 'items') && SCHEMA_FORMS.includes(known.holds) && !OWN_RULES.includes(keyword)
}

const SCHEMA_FORMS = ['schema', 'schemas', 'schemaOrSchemas']
// A condition and a negation have their own rule; the members of a composition are the relaxer's.
const OWN_RULES = ['if', 'not', 'allOf', 'anyOf', 'oneOf']

/**
 * Whether a keyword is one a caller is not shown at a level from which a
 * path is hidden: a vendor extension (`x-order: ['city', 'phone']`) or a
 * `$comment`. Neither constrains an instance, and what either holds (names,
 * instances, words) is for tools no vocabulary describes, so it cannot be
 * read for hidden names; it goes, unless it is a flag or a number
 * (`x-nullable: true`), which names nothing.
 */
function isExtension (keyword: string): boolean {
  return keyword.startsWith('x-') || keyword === '$comment'
}

function namesNothing (value: unknown): boolean {
  return value === null || typeof value === 'boolean' || typeof value === 'number'
}

/**
 * A schema's `example` without the hidden paths, read both as an instance
 * and as the map of named examples that @fastify/swagger makes of a nested
 * schema's `x-examples` (`{ staff: { value: { phone } } }`, or Stoplight's
 * `{ staff: { phone } }`): which one it is cannot be told, and taking the
 * hidden paths out of an example only leaves it shorter.
 */
export function withoutHiddenExample (value: unknown, hidden: PathTrie): unknown {
  const instance = stripHidden(value, hidden)
  if (!isRecord(instance)) return instance
  const named: Json = {}
  for (const [name, example] of Object.entries(instance)) {
    const stripped = stripHidden(example, hidden)
    const kept = isRecord(stripped) && Object.hasOwn(stripped, 'value') ? { ...stripped, value: stripHidden(stripped.value, hidden) } : stripped
    Object.defineProperty(named, name, { value: kept, enumerable: true, writable: true, configurable: true })
  }
  return named
}

/** Whether some field of this level is hidden whole. */
function hidesWhole (hidden: PathTrie): boolean {
  for (const below of hidden.children.values()) if (below.whole) return true
  return false
}

/**
 * A schema of the values of names without what could be a hidden field's
 * contents, at any depth: its instances (`default`, `example`, `examples`,
 * `const`, `enum`), its names of properties (`propertyNames`,
 * `dependentRequired`, `dependencies`) and its extensions. At a level from
 * which a field is hidden whole, the schema of undeclared names describes
 * that field in the caller's document, and @fastify/swagger puts there the
 * schema of a pattern (`'^secret$'`) that may have described it alone.
 * Leaving these out only allows more, so the description stays true.
 */
export function withoutContents (schema: unknown): unknown {
  if (!isRecord(schema)) return schema
  const kept: Json = {}
  for (const [keyword, value] of Object.entries(schema)) {
    const known = keywordOf(keyword)
    if (isExtension(keyword) || (known !== null && namesContents(known))) continue
    kept[keyword] = known?.describes === undefined || known.describes === 'none' ? value : withoutContentsIn(known.holds, value)
  }
  return kept
}

// What a value schema holds of its field's contents: the instances it describes and the names of their properties.
const CONTENTS: readonly Holds[] = ['instance', 'instances', 'names', 'namesMap', 'namesOrSchemaMap']

/** Whether a keyword holds instances, or names properties of the instances (a list, a map keyed by them, a schema of them). */
function namesContents (known: Keyword): boolean {
  return CONTENTS.includes(known.holds) || known.describes === 'names' || (known.holds === 'schemaMap' && known.describes === 'same')
}

function withoutContentsIn (holds: Holds, value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutContents)
  if (holds === 'schemaMap' && isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, schema]) => [key, withoutContents(schema)]))
  return withoutContents(value)
}

/** A map of names to a list of names or a schema (`dependencies`, `dependentRequired`, `dependentSchemas`) without the hidden ones. */
function withoutHiddenDependencies (value: Json, hidden: PathTrie, maps: LevelMaps): Json {
  const kept: Json = {}
  for (const [name, dependency] of Object.entries(value)) {
    if (hiddenName(hidden, name)) continue
    kept[name] = Array.isArray(dependency) ? dependency.filter((other) => !hiddenName(hidden, other)) : maps.sameLevel(dependency)
  }
  return kept
}

/**
 * A discriminator whose property is hidden goes: the variants it told apart
 * are then a plain union, told apart by what the caller sees of them. One
 * that stays maps each value to the variant the caller is described.
 */
function withoutHiddenDiscriminator (discriminator: Json, hidden: PathTrie, maps: LevelMaps): Json | typeof LEAVE_OUT {
  if (hiddenName(hidden, discriminator.propertyName)) return LEAVE_OUT
  if (!isRecord(discriminator.mapping)) return discriminator
  const mapping = Object.fromEntries(Object.entries(discriminator.mapping).map(([value, ref]) => [value, typeof ref === 'string' ? maps.reference(ref) : ref]))
  return { ...discriminator, mapping }
}

/** The value of one keyword of `level`, a level from which `hidden` is hidden, or LEAVE_OUT. */
export function hiddenKeyword (keyword: string, value: unknown, level: Json, hidden: PathTrie, maps: LevelMaps): unknown {
  if (holdsSameLevel(keyword)) {
    // A condition that names a hidden path goes with its branches: without the path it would choose another branch.
    if ((keyword === 'then' || keyword === 'else') && maps.names(level.if)) return LEAVE_OUT
    return Array.isArray(value) ? value.map(maps.sameLevel) : maps.sameLevel(value)
  }
  if (isExtension(keyword)) return namesNothing(value) ? value : LEAVE_OUT
  const holds = keywordOf(keyword)?.holds
  if (holds === 'instance') return keyword === 'example' ? withoutHiddenExample(value, hidden) : stripHidden(value, hidden)
  // JSON Schema's `examples` and `enum` are lists of instances; OpenAPI's media type `examples` is not a schema's.
  if (holds === 'instances') return Array.isArray(value) ? value.map((instance) => stripHidden(instance, hidden)) : value
  switch (keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      // They describe the names the level does not declare, @fastify/swagger's rewrite of patternProperties included.
      const below = undeclaredBelow(level, hidden)
      const relaxed = below === null ? value : maps.below(value, below)
      return hidesWhole(hidden) ? withoutContents(relaxed) : relaxed
    }
    case 'if':
    case 'not':
      // Taking a name out of a condition or a negation changes what it says; leaving it out only allows more.
      return maps.names(value) ? LEAVE_OUT : value
    case 'required': {
      if (!Array.isArray(value)) return value
      const kept = value.filter((name) => !hiddenName(hidden, name))
      // OpenAPI 3.0 and Swagger 2.0 schemas do not allow an empty list, and it says nothing.
      return kept.length === 0 && value.length > 0 ? LEAVE_OUT : kept.length === value.length ? value : kept
    }
    case 'dependencies':
    case 'dependentRequired':
    case 'dependentSchemas':
      return isRecord(value) ? withoutHiddenDependencies(value, hidden, maps) : value
    case 'discriminator':
      // Swagger 2.0's discriminator is the property's name alone.
      if (!isRecord(value)) return hiddenName(hidden, value) ? LEAVE_OUT : value
      return withoutHiddenDiscriminator(value, hidden, maps)
    case 'propertyNames':
      // It only narrows the names a record may have: without it, the description stays true.
      return namesHiddenName(value, hidden, maps.resolve) ? LEAVE_OUT : value
    default:
      return value
  }
}

/**
 * A level's `patternProperties` without the patterns that name a hidden
 * field, each kept pattern's schema without the hidden paths below the names
 * it matches. A dropped pattern's schema joins `additionalProperties`, so
 * that the keys it described are still allowed. Returns the level itself
 * when nothing changes.
 */
export function withoutHiddenPatterns (level: Json, hidden: PathTrie, maps: LevelMaps): Json {
  if (!isRecord(level.patternProperties)) return level
  const kept: Json = {}
  const dropped: unknown[] = []
  let changed = false
  for (const [pattern, schema] of Object.entries(level.patternProperties)) {
    const matched = [...hidden.children].filter(([name]) => patternNames(pattern, name))
    if (matched.some(([, below]) => below.whole)) {
      // What it allowed is still allowed, without what is hidden below the names it matches.
      const below = belowNames(hidden, (name) => patternNames(pattern, name))
      dropped.push(withoutContents(below === null ? schema : maps.below(schema, below)))
      changed = true
      continue
    }
    kept[pattern] = matched.reduce((relaxed, [, below]) => maps.below(relaxed, below), schema)
    changed ||= kept[pattern] !== schema
  }
  if (!changed) return level
  const relaxed: Json = { ...level, patternProperties: kept }
  const additional = level.additionalProperties
  if (dropped.length > 0 && additional !== undefined && additional !== true) {
    const allowed = additional === false ? dropped : [additional, ...dropped]
    relaxed.additionalProperties = allowed.length === 1 ? allowed[0] : { anyOf: allowed }
  }
  return relaxed
}
