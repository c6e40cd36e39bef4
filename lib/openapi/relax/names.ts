/**
 * Where a schema names a caller's hidden paths, as the relaxer reads it:
 * every keyword is read as the vocabulary says (lib/schema/vocabulary.ts),
 * so that a name in a `propertyNames` schema of any shape, a pattern that
 * compiles only without the `u` flag, or a field described under
 * `additionalProperties` is found. The last check of a document keeps its
 * own reading, a second opinion.
 */
import { hiddenWhole, mergedTries as merged, wholeNames } from '../../hidden-paths.js'
import { isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { heldSchemas, keywordOf, patternMatches } from '../../schema/vocabulary.js'
import { holdsHidden } from '../../visibility.js'
import { isExtension, namesNothing } from './instances.js'

/** What a `$ref` of the document names, or undefined. */
export type Resolve = (ref: string) => unknown

/**
 * Whether a pattern (`patternProperties`, `propertyNames`) may name `name`.
 * One that compiles in no form may match anything as far as can be known:
 * the relaxer leaves it out wherever something is hidden, which only allows
 * more names (the last check, which must refuse only what it can name,
 * reads such a pattern as naming what it spells).
 */
export const patternNames = patternMatches

/** Whether an extension or a `$comment` may name anything: what it holds is for tools no vocabulary describes. */
function mayName (keyword: string, value: unknown): boolean {
  return isExtension(keyword) && !namesNothing(value)
}

/**
 * The hidden paths below the `names` that a schema of several names (a
 * pattern's, `additionalProperties`) describes, as one trie: what that
 * schema must leave out. Null when there are none.
 */
export function belowNames (hidden: PathTrie, names: (name: string) => boolean): PathTrie | null {
  let below: PathTrie | null = null
  for (const [name, paths] of hidden.children) {
    if (paths.whole || !names(name)) continue
    below = below === null ? paths : merged(below, paths)
  }
  return below
}

/**
 * The hidden paths below every name of a level: what `additionalProperties`
 * and `unevaluatedProperties` must leave out. Not only below the names the
 * level does not declare: in OpenAPI 3 @fastify/swagger writes there the
 * schema of a pattern, which may match a declared name (`^account$` beside
 * `properties.account`) and so describe what is hidden below it.
 */
export function belowEveryName (hidden: PathTrie): PathTrie | null {
  return belowNames(hidden, () => true)
}

/**
 * Whether a schema over property names (`propertyNames`) names a field
 * hidden at this level: as a constant, a choice, a default, an example or a
 * pattern, in any of its subschemas (`not`, `anyOf`, `if`…) and in what its
 * `$ref`s name. Such a schema cannot be kept: it spells the name.
 */
export function spellsWholeName (names: unknown, hidden: PathTrie, resolve: Resolve): boolean {
  const hiddenNames = wholeNames(hidden)
  const seen = new Set<unknown>()
  // By hand, not the vocabulary's walk: it stops at the first name found, and reads what keywords of no dialect hold.
  const visit = (schema: unknown): boolean => {
    if (!isRecord(schema) || seen.has(schema)) return false
    seen.add(schema)
    for (const [keyword, value] of Object.entries(schema)) {
      if (mayName(keyword, value)) return true
      const known = keywordOf(keyword)
      // What a keyword of no dialect holds is not known: it names a hidden name if it spells one.
      if (known === null) {
        const text = JSON.stringify(value)
        if (hiddenNames.some((name) => text.includes(name))) return true
        continue
      }
      switch (known.holds) {
        case 'reference':
          if (typeof value === 'string' && visit(resolve(value))) return true
          continue
        case 'instance':
        case 'instances':
          if ((Array.isArray(value) ? value : [value]).some((name) => hiddenNames.includes(name))) return true
          continue
        case 'pattern':
          if (typeof value === 'string' && hiddenNames.some((name) => patternNames(value, name))) return true
          continue
      }
      if (heldSchemas(keyword, value).some((held) => held.describes === 'same' && visit(held.schema))) return true
    }
    return false
  }
  return hiddenNames.length > 0 && visit(names)
}

/**
 * Whether a schema names a path of `hidden` (hidden at the schema's own
 * level), `resolve` giving what its `$ref`s name. The relaxer asks it of
 * the schemas it cannot take a hidden name out of without changing their
 * meaning: a condition (`if`), a negation (`not`).
 */
export function namesPathOf (schema: unknown, hidden: PathTrie, resolve: Resolve): boolean {
  // The schemas reached through references, each with the hidden paths it was read with.
  const seen = new Map<unknown, Set<PathTrie>>()
  // By hand, not the vocabulary's walk, which visits a schema once: here one is read with the hidden paths of each place it is met at.
  const visit = (schema: unknown, hidden: PathTrie): boolean => {
    if (!isRecord(schema) || hidden.children.size === 0) return false
    const namedInHeld = (keyword: string, value: unknown): boolean => heldSchemas(keyword, value).some((held) => {
      switch (held.describes) {
        case 'same':
        case 'items':
          return visit(held.schema, hidden)
        case 'properties': {
          if (keyword === 'properties') {
            const below = hidden.children.get(held.key as string)
            return below !== undefined && (below.whole || visit(held.schema, below))
          }
          // A pattern's schema describes the names it matches; additionalProperties' and unevaluatedProperties', the names not declared.
          const pattern = keyword === 'patternProperties' ? held.key as string : null
          if (pattern !== null && wholeNames(hidden).some((name) => patternNames(pattern, name))) return true
          const below = pattern === null ? belowEveryName(hidden) : belowNames(hidden, (name) => patternNames(pattern, name))
          return below !== null && visit(held.schema, below)
        }
        case 'names':
          return spellsWholeName(held.schema, hidden, resolve)
        default:
          return false
      }
    })
    return Object.entries(schema).some(([keyword, value]) => namesInKeyword(keyword, value, schema, hidden) || namedInHeld(keyword, value))
  }

  /** Whether a keyword's own value (not the schemas it holds) names a hidden path. */
  const namesInKeyword = (keyword: string, value: unknown, schema: Record<string, unknown>, hidden: PathTrie): boolean => {
    if (mayName(keyword, value)) return true
    switch (keywordOf(keyword)?.holds) {
      case 'reference': {
        if (typeof value !== 'string') return false
        const target = resolve(value)
        // A schema reached again with the same hidden paths, through a loop of references, names nothing new.
        const read = seen.get(target) ?? new Set()
        if (!isRecord(target) || read.has(hidden)) return false
        seen.set(target, read.add(hidden))
        return visit(target, hidden)
      }
      case 'instance':
        return holdsHidden(value, hidden)
      case 'instances':
        return Array.isArray(value) && value.some((instance) => holdsHidden(instance, hidden))
      case 'names':
        return Array.isArray(value) && value.some((name) => hiddenWhole(hidden, name))
      case 'namesMap':
      case 'namesOrSchemaMap':
        return isRecord(value) && Object.entries(value).some(([name, names]) =>
          hiddenWhole(hidden, name) || (Array.isArray(names) && names.some((other) => hiddenWhole(hidden, other))))
      case 'schemaMap':
        return keywordOf(keyword)?.describes === 'same' && isRecord(value) && Object.keys(value).some((name) => hiddenWhole(hidden, name))
      case 'discriminator':
        if (!isRecord(value)) return hiddenWhole(hidden, value)
        return hiddenWhole(hidden, value.propertyName) ||
          (isRecord(value.mapping) &&
            Object.values(value.mapping).some((ref) => typeof ref === 'string' && namesInKeyword('$ref', ref, schema, hidden)))
      default:
        return false
    }
  }
  return visit(schema, hidden)
}
