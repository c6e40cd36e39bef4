/**
 * The keywords of one schema level as a caller is shown them, without the
 * caller's hidden fields, each read as the vocabulary says
 * (lib/schema/vocabulary.ts): the names (`required`, `dependentRequired`,
 * `dependencies`, `dependentSchemas`, `discriminator`), the schemas over
 * names (`propertyNames`) and over the values of names (`patternProperties`,
 * `additionalProperties`, `unevaluatedProperties`), the subschemas that
 * describe the same level or its items (`then`, `else`, tuple items; a
 * condition, `if`, or a negation, `not`, that names a hidden path goes
 * whole), the instances (`example`, `examples`, `default`, `const`,
 * `enum`) and the extensions (instances.ts). `properties`, `items`, the members of `allOf`/`anyOf`/`oneOf`
 * and `$ref`s are the relaxer's.
 */
import { hiddenWhole, wholeNames } from '../../hidden-paths.js'
import { isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { COMPOSITIONS, TESTS, keywordOf } from '../../schema/vocabulary.js'
import { stripHidden } from '../../visibility.js'
import type { Json } from '../types.js'
import { isExtension, namesNothing, strippedExample, withoutContents } from './instances.js'
import { belowEveryName, belowNames, patternNames, spellsWholeName } from './names.js'
import type { Resolve } from './names.js'

/** What `relaxedKeyword` returns for a keyword that must go. */
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
  /**
   * A `$ref` to a component, as a schema that may describe a field hidden whole refers to it: to its
   * twin without contents (withoutContents).
   */
  readonly contentsRef: (ref: string) => string
}

/** A map of names to a list of names or a schema (`dependencies`, `dependentRequired`, `dependentSchemas`) without the hidden ones. */
function keptDependencies (value: Json, hidden: PathTrie, maps: LevelMaps): Json {
  const kept: Json = {}
  for (const [name, dependency] of Object.entries(value)) {
    if (hiddenWhole(hidden, name)) continue
    kept[name] = Array.isArray(dependency) ? dependency.filter((other) => !hiddenWhole(hidden, other)) : maps.sameLevel(dependency)
  }
  return kept
}

/**
 * A discriminator whose property is hidden goes: the variants it told apart
 * are then a plain union, told apart by what the caller sees of them. One
 * that stays maps each value to the variant the caller is described.
 */
function keptDiscriminator (discriminator: Json, hidden: PathTrie, maps: LevelMaps): Json | typeof LEAVE_OUT {
  if (hiddenWhole(hidden, discriminator.propertyName)) return LEAVE_OUT
  if (!isRecord(discriminator.mapping)) return discriminator
  const mapping = Object.fromEntries(Object.entries(discriminator.mapping)
    .map(([value, ref]) => [value, typeof ref === 'string' ? maps.reference(ref) : ref]))
  return { ...discriminator, mapping }
}

/** The value of one keyword of `level`, a level from which `hidden` is hidden, as the caller is shown it; or LEAVE_OUT. */
export function relaxedKeyword (keyword: string, value: unknown, level: Json, hidden: PathTrie, maps: LevelMaps): unknown {
  if (isExtension(keyword)) return namesNothing(value) ? value : LEAVE_OUT
  const known = keywordOf(keyword)
  // The members of a composition are the relaxer's; a keyword of no dialect here says nothing a validator reads.
  if (known === null || COMPOSITIONS.has(keyword)) return value
  // Taking a name out of a condition or a negation changes what it says; leaving it out only allows more.
  if (TESTS.has(keyword)) return maps.names(value) ? LEAVE_OUT : value
  switch (known.holds) {
    case 'instance':
      return keyword === 'example' ? strippedExample(value, hidden) : stripHidden(value, hidden)
    case 'instances':
      // JSON Schema's `examples` and `enum` are lists of instances; OpenAPI's media type `examples` is not a schema's.
      return Array.isArray(value) ? value.map((instance) => stripHidden(instance, hidden)) : value
    case 'names': {
      if (!Array.isArray(value)) return value
      const kept = value.filter((name) => !hiddenWhole(hidden, name))
      // OpenAPI 3.0 and Swagger 2.0 schemas do not allow an empty `required`, and it says nothing.
      return kept.length === 0 && value.length > 0 ? LEAVE_OUT : kept.length === value.length ? value : kept
    }
    case 'namesMap':
    case 'namesOrSchemaMap':
      return isRecord(value) ? keptDependencies(value, hidden, maps) : value
    case 'discriminator':
      // Swagger 2.0's discriminator is the property's name alone.
      if (!isRecord(value)) return hiddenWhole(hidden, value) ? LEAVE_OUT : value
      return keptDiscriminator(value, hidden, maps)
  }
  switch (known.describes) {
    case 'same':
    case 'items':
      // Schemas a record must match: without a hidden path, each allows at least what it allowed. A
      // map of them is keyed by names (`dependentSchemas`).
      if (known.holds === 'schemaMap') return isRecord(value) ? keptDependencies(value, hidden, maps) : value
      // A condition that names a hidden path goes with its branches: without the path it would choose another branch.
      if (known.describes === 'same' && known.holds === 'schema' && maps.names(level.if)) return LEAVE_OUT
      return Array.isArray(value) ? value.map(maps.sameLevel) : maps.sameLevel(value)
    case 'properties': {
      // The schema of the names the level does not declare (additionalProperties, unevaluatedProperties; patterns are relaxedPatterns'),
      // where @fastify/swagger puts a pattern's, which may describe any name; at a level that hides a field whole, that field too.
      if (known.holds !== 'schema') return value
      const below = belowEveryName(hidden)
      const relaxed = below === null ? value : maps.below(value, below)
      return wholeNames(hidden).length > 0 ? withoutContents(relaxed, maps.contentsRef) : relaxed
    }
    case 'names':
      // It only narrows the names a record may have: without it, the description stays true.
      return spellsWholeName(value, hidden, maps.resolve) ? LEAVE_OUT : value
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
export function relaxedPatterns (level: Json, hidden: PathTrie, maps: LevelMaps): Json {
  if (!isRecord(level.patternProperties)) return level
  const kept: Json = {}
  const dropped: unknown[] = []
  let changed = false
  for (const [pattern, schema] of Object.entries(level.patternProperties)) {
    const matched = [...hidden.children].filter(([name]) => patternNames(pattern, name))
    if (matched.some(([, below]) => below.whole)) {
      // What it allowed is still allowed, without what is hidden below the names it matches.
      const below = belowNames(hidden, (name) => patternNames(pattern, name))
      dropped.push(withoutContents(below === null ? schema : maps.below(schema, below), maps.contentsRef))
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
