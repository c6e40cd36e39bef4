/**
 * What counts as naming a hidden path, for the last check of a caller's
 * document: a name is named where a position says what a property is
 * called (a key of an instance, an item of a list of names, a pattern over
 * names, a segment of a pointer into a response body), never where it is a
 * value (a string of an `enum`, a value's `pattern`, a sentence). Each
 * predicate reads one level of a trie of hidden paths: a name is hidden
 * only at the path the rule hides, so the same name elsewhere is no leak.
 */
import { hiddenWhole, hidesPath, mergedTries, pointerReachesHidden } from '../../hidden-paths.js'
import type { PathTrie } from '../../hidden-paths.js'
import { isRecord } from '../../json.js'

/**
 * The level below a field hidden whole, read from a schema that describes
 * every undeclared name (`additionalProperties`, where @fastify/swagger
 * writes a `patternProperties` schema): whatever it names may be the hidden
 * field's own contents, so every name there counts as hidden.
 */
export const EVERY_NAME: PathTrie = Object.freeze({ whole: true, children: new Map() })

/** Whether nothing is hidden at or below this level. */
export function nothingBelow (level: PathTrie): boolean {
  return level !== EVERY_NAME && level.children.size === 0
}

/** Whether `name` is a field hidden whole at this level. */
export function namedAt (level: PathTrie, name: unknown): boolean {
  return typeof name === 'string' && (level === EVERY_NAME || hiddenWhole(level, name))
}

/** The level below `name`, or undefined when nothing is hidden below it. */
export function levelBelow (level: PathTrie, name: string): PathTrie | undefined {
  return level === EVERY_NAME ? EVERY_NAME : level.children.get(name)
}

/** The names a level hides something at or below; every one of `declared` when every name is hidden. */
export function namesOf (level: PathTrie, declared: Iterable<string>): string[] {
  return level === EVERY_NAME ? [...declared] : [...level.children.keys()]
}

/**
 * Whether an instance (a `default`, an `example`, an item of `enum` or
 * `examples`) holds a hidden path as a key, at any item of an array. A string
 * is a value, whatever it spells. Read from the instance's keys, not from the
 * trie as the relaxer's strip reads it, so that the two readings differ.
 */
export function instanceNames (value: unknown, level: PathTrie): boolean {
  if (Array.isArray(value)) return value.some((item) => instanceNames(item, level))
  return isRecord(value) && Object.keys(value).some((key) => {
    if (namedAt(level, key)) return true
    const below = levelBelow(level, key)
    return below !== undefined && instanceNames(value[key], below)
  })
}

// The fields of an OpenAPI Example Object.
const EXAMPLE_FIELDS = new Set(['summary', 'description', 'value', 'externalValue'])

/**
 * Whether an `example` is a map of OpenAPI Example Objects (`{ sample: {
 * value } }`), as @fastify/swagger writes a nested schema's `x-examples`:
 * each `value` is then an instance of the level too.
 */
export function examplesMapNames (value: unknown, level: PathTrie): boolean {
  if (!isRecord(value)) return false
  const examples = Object.values(value)
  return examples.length > 0 &&
    examples.every((example) =>
      isRecord(example) && Object.hasOwn(example, 'value') && Object.keys(example).every((key) => EXAMPLE_FIELDS.has(key))) &&
    examples.some((example) => instanceNames(example.value, level))
}

/**
 * Whether content of no known shape (an `x-` extension, `$comment`, a
 * keyword the check does not know) names a hidden field of this level: as a
 * key, or as a string that is the name or the dotted path (`profile.phone`),
 * at any depth, since nothing says which level its parts describe. Below a
 * field hidden whole, any key.
 */
export function unknownContentNames (value: unknown, level: PathTrie): boolean {
  if (typeof value === 'string') return level !== EVERY_NAME && hidesPath(level, value)
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((item) => unknownContentNames(item, level))
  return Object.entries(value).some(([key, member]) => {
    if (namedAt(level, key) || unknownContentNames(member, level)) return true
    const below = levelBelow(level, key)
    return below !== undefined && unknownContentNames(member, below)
  })
}

/**
 * Whether a pattern over names (a key of `patternProperties`, a
 * `propertyNames` pattern) names `name`: its text spells it, or it matches it
 * as JSON Schema reads it (ECMA-262 with the `u` flag) or without the flag
 * (`^s\-?sn$` is an error with it, and matches `ssn` without). A pattern that
 * compiles in neither form cannot be shown to leave any name out: it names
 * every name, as the vocabulary's reading of patterns holds too.
 */
export function patternCouldName (pattern: string, name: string): boolean {
  if (pattern.includes(name)) return true
  let compiled = false
  for (const flags of ['u', '']) {
    try {
      if (new RegExp(pattern, flags).test(name)) return true
      compiled = true
    } catch {}
  }
  return !compiled
}

// A runtime expression that reads the response body at a pointer, alone or inside a string (`{$response.body#/id}`).
const BODY_EXPRESSION = /\$response\.body#([^{}\s]*)/g

/**
 * Whether a link (its parameters, its request body, anything it holds) reads
 * a hidden path of the response body: only the pointer after `#` names
 * fields; `$response.body`, `$request.query.id` and the like are the
 * expression's own words.
 */
export function linkReads (value: unknown, level: PathTrie): boolean {
  if (typeof value === 'string') {
    return [...value.matchAll(BODY_EXPRESSION)].some(([, fragment]) => pointerReachesHidden(fragment, level))
  }
  if (value === null || typeof value !== 'object') return false
  return Object.values(value).some((member) => linkReads(member, level))
}

// Keywords of a schema whose next segment, in a pointer, is a property's name (or a pattern over names).
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', 'dependentRequired'])
// Keywords whose next segment is a definition's name, which says nothing of a property.
const DEFINITION_MAPS = new Set(['$defs', 'definitions'])
// Keywords below which a pointer's names describe the values of undeclared names, which no hidden path can be tied to.
const UNDECLARED = new Set(['additionalProperties', 'unevaluatedProperties'])

/**
 * Whether the segments of a pointer into a schema, from that schema on
 * (`properties/owner/items/properties/ssn`), name a path hidden at this
 * level: a segment after `properties` (or `patternProperties`,
 * `dependentSchemas`, `dependencies`, `dependentRequired`) says what a
 * property is called, and a property that stays leads one level down. Every
 * other segment is a keyword of the same level (`items`, `allOf/0`), or a
 * definition's name after `$defs`; below `additionalProperties` nothing is
 * read.
 */
export function schemaPointerNames (names: readonly string[], level: PathTrie): boolean {
  let here = level
  for (let index = 0; index < names.length - 1; index++) {
    const keyword = names[index]
    if (UNDECLARED.has(keyword)) return false
    if (DEFINITION_MAPS.has(keyword)) index++
    if (!NAME_MAPS.has(keyword)) continue
    const name = names[++index]
    if (keyword === 'patternProperties') {
      if (here === EVERY_NAME) return true
      const matched = [...here.children].filter(([hidden]) => patternCouldName(name, hidden)).map(([, below]) => below)
      if (matched.length === 0) return false
      if (matched.some((below) => below.whole)) return true
      here = matched.reduce(mergedTries)
      continue
    }
    if (namedAt(here, name)) return true
    // A dependency's schema describes the same level as the one that holds it.
    if (keyword !== 'properties') continue
    const below = levelBelow(here, name)
    if (below === undefined) return false
    here = below
  }
  return false
}

/**
 * The segments of a pointer of the document that go inside a schema: after
 * a component's name (`components/schemas/User`), or after the `schema` of
 * a response, a media type or a parameter (`paths/…/schema`). A pointer
 * that starts elsewhere (`#/$defs/…`, Swagger 2.0's `#/definitions/…`) is
 * read against the schema that holds it, whole.
 */
export function segmentsInSchema (names: readonly string[]): readonly string[] {
  if (names[0] === 'components' && names[1] === 'schemas') return names.slice(3)
  if (names[0] !== 'components' && names[0] !== 'paths' && names[0] !== 'webhooks') return names
  const schema = names.indexOf('schema', 1)
  return schema === -1 ? [] : names.slice(schema + 1)
}
