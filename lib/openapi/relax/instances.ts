/**
 * What a schema holds beside its description of a level, as a caller is
 * shown it: an `example` that may be a map of named examples, the words for
 * tools (vendor extensions, `$comment`), and the contents of a field hidden
 * whole that a schema of undeclared names may hold.
 */
import { isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { keywordOf } from '../../schema/vocabulary.js'
import type { Holds, Keyword } from '../../schema/vocabulary.js'
import { stripHidden } from '../../visibility.js'
import type { Json } from '../types.js'

/**
 * Whether a keyword is one a caller is not shown at a level from which a
 * path is hidden: a vendor extension (`x-order: ['city', 'phone']`) or a
 * `$comment`. Neither constrains an instance, and what either holds (names,
 * instances, words) is for tools no vocabulary describes, so it cannot be
 * read for hidden names; it goes, unless it is a flag or a number
 * (`x-nullable: true`), which names nothing.
 */
export function isExtension (keyword: string): boolean {
  return keyword.startsWith('x-') || keyword === '$comment'
}

/** Whether a value is a flag, a number or null, which names nothing. */
export function namesNothing (value: unknown): boolean {
  return value === null || typeof value === 'boolean' || typeof value === 'number'
}

/**
 * A schema's `example` without the hidden paths, read both as an instance
 * and as the map of named examples that @fastify/swagger makes of a nested
 * schema's `x-examples` (`{ staff: { value: { phone } } }`, or Stoplight's
 * `{ staff: { phone } }`): which one it is cannot be told, and taking the
 * hidden paths out of an example only leaves it shorter.
 */
export function strippedExample (value: unknown, hidden: PathTrie): unknown {
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

/**
 * A schema of the values of names without what could be a hidden field's
 * contents, at any depth: its instances (`default`, `example`, `examples`,
 * `const`, `enum`), every name of a property (`properties`,
 * `patternProperties`, `required`, `propertyNames`, dependencies, a
 * discriminator) and its extensions; what is left says of what type the
 * values are. At a level from which a field is hidden whole, the schema of
 * undeclared names describes that field in the caller's document, and
 * @fastify/swagger puts there the schema of a pattern (`'^secret$'`) that
 * may have described it alone. Leaving these out only allows more, so the
 * description stays true. A `$ref` becomes what `reference` gives: a twin
 * of the component so relaxed.
 */
export function withoutContents (schema: unknown, reference: (ref: string) => string): unknown {
  if (!isRecord(schema)) return schema
  const kept: Json = {}
  for (const [keyword, value] of Object.entries(schema)) {
    const known = keywordOf(keyword)
    if (isExtension(keyword) || (known !== null && namesContents(known))) continue
    if (known?.holds === 'reference' && typeof value === 'string') kept[keyword] = reference(value)
    else if (known?.describes === undefined) kept[keyword] = value
    else kept[keyword] = Array.isArray(value) ? value.map((held) => withoutContents(held, reference)) : withoutContents(value, reference)
  }
  return kept
}

// What a value schema holds of its field's contents: the instances it describes and the names of their properties, listed or as keys.
const CONTENTS: readonly Holds[] = ['instance', 'instances', 'names', 'namesMap', 'namesOrSchemaMap', 'schemaMap', 'discriminator']

/** Whether a keyword holds instances, or names properties of the instances (a list, a map keyed by them, a schema of them). */
function namesContents (known: Keyword): boolean {
  return CONTENTS.includes(known.holds) || known.describes === 'names'
}
