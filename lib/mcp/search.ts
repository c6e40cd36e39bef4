/**
 * The discovery mode's search: the operations of one caller's document, found
 * by the words an agent uses. Each view gets its own index, made from that
 * caller's document only (its summaries, descriptions, tags and their
 * descriptions, paths, parameters, the record each operation answers and the
 * field names its `only` lists), so a field hidden from the caller is never a
 * word of it. Ranking is MiniSearch's BM25+ (rare words weigh more, long texts
 * less), over stemmed words, the parts of joined words and the pairs of words
 * side by side, with the words of general language and common API usage that
 * `search-words.ts` lists, weighed below the agent's own words; the values a
 * query holds (`octo/app`, `cus_123`, `42`) are read as arguments, not words.
 */
import MiniSearch from 'minisearch'
import { stemmer } from 'stemmer'
import { QueryTooLongError } from '../errors.js'
import { isRecord, valueAtPointer } from '../json.js'
import { listedNames } from '../openapi/field-lists.js'
import { betweenSteps } from '../slices.js'
import { COUNTERPARTS, PLURAL_WORDS, RELATED, RETIRED_WORDS, SELF_WORDS, SINGULAR_WORDS, STOP_WORDS, SYNONYMS, TUNED }
  from './search-words.js'
import type { WordEntry } from './search-words.js'
import { parameterOf, successSchema } from './tools.js'
import type { DocumentOperation } from './tools.js'

type Json = Record<string, any>

/** The longest query, in characters, and the most words it may have: a search costs what its words cost, whatever the API. */
export const MAX_QUERY_LENGTH = 500
export const MAX_QUERY_WORDS = 32

type Field = keyof typeof TUNED.boost
const FIELDS = Object.keys(TUNED.boost) as Field[]
const STOP = new Set(STOP_WORDS)
const SINGULAR = new Set(SINGULAR_WORDS)
const PLURAL = new Set(PLURAL_WORDS)
const RETIRED = new Set(RETIRED_WORDS)
const SELF = new Set(SELF_WORDS)

/**
 * What an operation answers, by the shape of its path: a path that ends in a
 * parameter answers one record, any other a list. A query that names things
 * in the plural leans to lists, even beside an id (`comments of issue 7`: the
 * id is the parent's); one that names an id or a single thing, and nothing in
 * the plural, leans to records.
 */
const MANY = 'qqmany'
const ONE = 'qqone'

export function queryShape (words: readonly string[], values: ReadonlySet<ValueKind> = new Set()): string | undefined {
  const plural = (word: string): boolean => PLURAL.has(word) ||
    (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word) && !STOP.has(word) && !SINGULAR.has(word))
  if (words.some(plural)) return MANY
  return values.has('id') || values.has('number') || words.some((word) => /[0-9]/.test(word) || SINGULAR.has(word)) ? ONE : undefined
}

/** The kinds of value a query may hold: read as an argument an operation takes, not as words. */
export type ValueKind = 'email' | 'date' | 'slug' | 'id' | 'number'
const VALUES: ReadonlyArray<readonly [ValueKind, RegExp]> = [
  ['email', /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g],
  ['date', /\b\d{4}-\d\d-\d\d(?:[T ][\d:.]+Z?)?\b/g],
  // `owner/repo`, not a path: a slash between two names, neither begun by another slash.
  ['slug', /(?<![\w./-])[\w.-]+\/[\w.-]+(?![\w/])/g],
  // A prefixed id (`cus_123`, `in_1MtHbE`): a word, an underscore, and letters and digits with a digit among them.
  ['id', /\b[a-z]{2,}_(?=[a-z0-9]*\d)[a-z0-9]+\b/gi],
  ['number', /(?<![\w.])#?\d+(?![\w.])/g]
]

/** A query's values, and its text without them. */
export function queryValues (query: string): { text: string, values: Set<ValueKind> } {
  const values = new Set<ValueKind>()
  let text = query
  for (const [kind, pattern] of VALUES) {
    text = text.replace(pattern, () => {
      values.add(kind)
      return ' '
    })
  }
  return { text, values }
}

/** The kinds of value an operation takes, read from its path and its parameters' names, types and formats. */
function valueKinds (path: string, parameters: readonly Json[]): Set<ValueKind> {
  const kinds = new Set<ValueKind>()
  if (/\}\/\{/.test(path)) kinds.add('slug')
  for (const { name, in: where, schema } of parameters) {
    const type = isRecord(schema) ? schema.type : undefined
    const format = isRecord(schema) ? schema.format : undefined
    if (where === 'path') kinds.add('id')
    if (where === 'path' && (type === 'integer' || /(^|_)(number|id)$/.test(name))) kinds.add('number')
    if (format === 'email' || /email/.test(name)) kinds.add('email')
    if (format === 'date' || format === 'date-time' || /^(since|until|before|after|date)$|_(date|at)$/.test(name)) kinds.add('date')
  }
  return kinds
}

/** What an operation is beside its near twins: its shape, whether it is retired or answers about the caller, what values it takes. */
interface Leaning { shape: string, retired: boolean, callers: boolean, values: Set<ValueKind> }

/** How much each operation weighs for a query of these words and values. */
function leaningWeight (words: readonly string[], values: ReadonlySet<ValueKind>): (leaning: Leaning) => number {
  const shape = queryShape(words, values)
  const retired = words.some((word) => RETIRED.has(word)) ? 1 : TUNED.retired
  const callers = words.some((word) => SELF.has(word)) ? TUNED.self : TUNED.others
  return (leaning) => {
    let weight = (leaning.shape === shape ? TUNED.shape : 1) * (leaning.retired ? retired : 1) * (leaning.callers ? callers : 1)
    for (const kind of values) if (leaning.values.has(kind)) weight *= TUNED.value
    return weight
  }
}

/** A word table keyed and valued by stems, so that every form of a word finds them (`starred`, `stars`). */
function stemTable (table: Readonly<Record<string, WordEntry>>): ReadonlyMap<string, readonly string[]> {
  return new Map(Object.entries(table).map(([word, { words }]) => [stemmer(word), words.map((other) => stemmer(other))]))
}
const SYNONYM_STEMS = stemTable(SYNONYMS)
const RELATED_STEMS = stemTable(RELATED)
/** Words nearly every operation has: a match on them alone is no match. */
const GENERIC_TERMS = new Set(['list', 'get', 'retriev'])

/** Two words side by side, in either order (`repository issues`, `issues of a repository`), as one term of the `pairs` field. */
function pairOf (first: string, second: string): string {
  return first < second ? `${first}~${second}` : `${second}~${first}`
}

/** The pairs of words side by side in an operation's name, summary and path: a query with the same two side by side matches them more. */
function textPairs (texts: readonly string[]): string {
  const pairs = new Set<string>()
  for (const text of texts) {
    const terms = textWords(text).map(indexTerm).filter((term): term is string => term !== null && !GENERIC_TERMS.has(term))
    for (let at = 1; at < terms.length; at++) pairs.add(pairOf(terms[at - 1], terms[at]))
  }
  return [...pairs].join(' ')
}

/**
 * The parts of a joined word (`gitignore`, `webhooks`), as stems, when both
 * are words of the API's own names (`known` holds words, not stems), the
 * second of four letters or more; none otherwise.
 */
export function wordParts (word: string, known: ReadonlySet<string>): string[] {
  for (let at = 3; at <= word.length - 4; at++) {
    const head = word.slice(0, at)
    const tail = word.slice(at)
    if (known.has(head) && known.has(tail)) return [stemmer(head), stemmer(tail)]
  }
  return []
}

/**
 * The terms a query searches, each with its weight: its own words' stems
 * (and their synonyms, and the parts of a joined word the index does not
 * hold) at 1, related words at half, counterparts less, and the pairs of its
 * words side by side at the lower weight of the two; a term that is several
 * of these gets the highest weight.
 */
export function queryTerms (words: readonly string[], known: ReadonlySet<string> = new Set()): Map<string, number> {
  const terms = new Map<string, number>()
  const add = (term: string, weight: number): void => {
    if ((terms.get(term) ?? 0) < weight) terms.set(term, weight)
  }
  let previous: Map<string, number> | undefined
  for (const word of words) {
    for (const counterpart of COUNTERPARTS[word]?.words ?? []) add(stemmer(counterpart), TUNED.counterpart)
    const term = indexTerm(word)
    if (term === null) continue
    // The word's stem, and what it also means: a pair is made of any of these.
    const own = new Map<string, number>([[term, 1]])
    for (const synonym of SYNONYM_STEMS.get(term) ?? []) own.set(synonym, 1)
    if (!known.has(word)) for (const part of wordParts(word, known)) own.set(part, 1)
    for (const related of RELATED_STEMS.get(term) ?? []) if (!own.has(related)) own.set(related, TUNED.related)
    for (const [meaning, weight] of own) add(meaning, weight)
    if (GENERIC_TERMS.has(term)) continue
    for (const [meaning, weight] of own) {
      for (const [before, weightBefore] of previous ?? []) {
        if (before !== meaning) add(pairOf(before, meaning), Math.min(weight, weightBefore))
      }
    }
    previous = own
  }
  return terms
}

/** The words of a text: camelCase, snake_case, kebab-case and paths split, lower case. */
export function textWords (text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2').toLowerCase()
    .split(/[^a-z0-9]+/).filter((word) => word !== '')
}

/** A word as the index keeps it: stemmed, or nothing for a stop word. */
function indexTerm (word: string): string | null {
  return STOP.has(word) ? null : stemmer(word)
}

/** Why a query is refused, or undefined: limits on its length and words keep a search's cost that of a short query. */
export function queryRefusal (query: string): InstanceType<typeof QueryTooLongError> | undefined {
  if (query.length > MAX_QUERY_LENGTH) {
    return new QueryTooLongError(`Argument 'query' is too long: at most ${MAX_QUERY_LENGTH} characters are allowed`)
  }
  if (textWords(query).length > MAX_QUERY_WORDS) {
    return new QueryTooLongError(`Argument 'query' has too many words: at most ${MAX_QUERY_WORDS} are allowed`)
  }
  return undefined
}

function textOf (value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** A description as words: without markup, as far as its first characters. */
function prose (text: unknown): string {
  return textOf(text).slice(0, TUNED.descriptionLength).replace(/<[^>]*>/g, ' ')
}

/** The names a caller may choose in an operation's `only`, as its document lists them: only the caller's own fields. */
function fieldWords (operation: Json, parameters: readonly Json[]): string {
  const fields = operation['x-restricted-fields']
  if (!isRecord(fields)) return ''
  const names = listedNames(parameters.find((parameter) => parameter.in === 'query' && parameter.name === fields.only)?.schema?.items)
  const words = new Set<string>()
  for (const name of names) {
    if (!name.startsWith('@')) for (const word of textWords(name)) words.add(word)
  }
  return [...words].join(' ')
}

/** The most schemas of a record the search reads: its description and its fields' are read a level deep, through lists and variants. */
const MAX_RECORD_SCHEMAS = 200

/**
 * What the record an operation answers says of itself, in the caller's
 * document: its description and title, and those of its fields (the
 * caller's own: a hidden field is not in the caller's document), through
 * references, lists and variants.
 */
function recordWords (document: Json, operation: Json): string {
  const texts: string[] = []
  const seen = new Set<unknown>()
  const read = (schema: unknown, depth: number): void => {
    while (isRecord(schema) && typeof schema.$ref === 'string' && !seen.has(schema.$ref)) {
      seen.add(schema.$ref)
      schema = valueAtPointer(document, schema.$ref)
    }
    if (!isRecord(schema) || seen.has(schema) || seen.size >= MAX_RECORD_SCHEMAS) return
    seen.add(schema)
    texts.push(prose(schema.title), prose(schema.description))
    for (const variants of [schema.anyOf, schema.oneOf, schema.allOf]) {
      if (Array.isArray(variants)) for (const variant of variants) read(variant, depth)
    }
    read(schema.items, depth)
    if (depth === 0 && isRecord(schema.properties)) for (const property of Object.values(schema.properties)) read(property, 1)
  }
  read(successSchema(operation, undefined), 0)
  return texts.filter((text) => text !== '').join(' ')
}

/** What an operation's tags and parameters say of themselves in the caller's document. */
function contextWords (document: Json, operation: Json, parameters: readonly Json[]): string {
  const tags = Array.isArray(document.tags) ? document.tags : []
  const own = Array.isArray(operation.tags) ? operation.tags : []
  const texts = tags.filter((tag) => isRecord(tag) && own.includes(tag.name)).map((tag: Json) => prose(tag.description))
  for (const parameter of parameters) texts.push(prose(parameter.description))
  return texts.filter((text) => text !== '').join(' ')
}

/**
 * What an operation answers, as its path names it: the last segment that is
 * not a parameter (`/repos/{owner}/{repo}/pulls/{number}` answers a pull).
 * A query's noun weighs more there than in a segment above it.
 */
function resourceOf (path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{'))
  return segments.at(-1) ?? ''
}

/** What the index reads of one operation. */
export type SearchEntry = Record<Field | 'shape', string> & { id: number }

/** The path and query parameters of an operation, from the caller's document. */
function parametersOf (document: Json, { pathItem, operation }: Omit<DocumentOperation, 'route' | 'name' | 'path'>): Json[] {
  const listed = (parameters: unknown): unknown[] => Array.isArray(parameters) ? parameters : []
  return [...listed(operation.parameters), ...listed(pathItem.parameters)]
    .map((parameter: unknown) => parameterOf(document, parameter))
    .filter((parameter): parameter is Json => parameter !== null && (parameter.in === 'path' || parameter.in === 'query'))
}

/** The texts of an operation that a search reads, from the caller's document. */
export function searchEntry (id: number, found: Omit<DocumentOperation, 'route'>, document: Json): SearchEntry {
  const { name, path, operation } = found
  const restricted = isRecord(operation['x-restricted-fields']) ? operation['x-restricted-fields'] : {}
  const parameters = parametersOf(document, found)
  const own = parameters.filter((parameter) => parameter.name !== restricted.only && parameter.name !== restricted.defer)
  return {
    id,
    name,
    summary: textOf(operation.summary),
    description: prose(operation.description),
    tags: Array.isArray(operation.tags) ? operation.tags.filter((tag: unknown) => typeof tag === 'string').join(' ') : '',
    path: path.replace(/\{[^}]*\}/g, ' '),
    resource: resourceOf(path),
    parameters: own.map((parameter) => parameter.name).join(' '),
    context: contextWords(document, operation, own),
    record: recordWords(document, operation),
    fields: fieldWords(operation, parameters),
    pairs: textPairs([name, textOf(operation.summary), path.replace(/\{[^}]*\}/g, ' ')]),
    shape: path.endsWith('}') ? ONE : MANY
  }
}

/** The fields of prose about an operation rather than its own names: a term met only there does not count as a term matched. */
const PROSE_FIELDS = new Set(['record', 'context'])

/** The fields whose words make the API's own names, that the parts of a joined word are looked for in. */
const NAME_FIELDS = ['name', 'summary', 'tags', 'path', 'parameters', 'fields'] as const

/** The index of one view's operations, built once, in slices that let the event loop turn. */
export class OperationSearch {
  private constructor (
    private readonly index: MiniSearch<SearchEntry>,
    private readonly leanings: readonly Leaning[],
    private readonly known: ReadonlySet<string>
  ) {}

  static async build (operations: readonly DocumentOperation[], document: Json): Promise<OperationSearch> {
    const known = new Set<string>()
    const entries: SearchEntry[] = []
    const leanings: Leaning[] = []
    const turn = betweenSteps()
    for (const [id, operation] of operations.entries()) {
      await turn()
      const entry = searchEntry(id, operation, document)
      entries.push(entry)
      for (const field of NAME_FIELDS) for (const word of textWords(entry[field])) if (!STOP.has(word)) known.add(word)
      const words = textWords(`${operation.name} ${entry.summary}`)
      leanings.push({
        shape: entry.shape,
        retired: operation.operation.deprecated === true || words.some((word) => RETIRED.has(word)),
        callers: /^\/(user|me)(\/|$)/.test(operation.path) || words.includes('authenticated'),
        values: valueKinds(operation.path, parametersOf(document, operation))
      })
    }
    const index = new MiniSearch<SearchEntry>({
      fields: FIELDS,
      // A pair is a term as it is made; every other field is words, and a joined word is also its parts.
      tokenize: (text: string, field?: string) => field === 'pairs' ? text.split(' ') : textWords(text),
      processTerm: (term: string, field?: string) => {
        if (field === 'pairs') return term
        const stem = indexTerm(term)
        return stem === null ? null : [stem, ...wordParts(term, known)]
      }
    })
    for (const entry of entries) {
      await turn()
      index.add(entry)
    }
    return new OperationSearch(index, leanings, known)
  }

  /** The positions of the operations that match `query`, best first; every operation for a query without words. */
  find (query: string): number[] | 'all' {
    const { text, values } = queryValues(query)
    const words = textWords(text)
    if (words.length === 0 && values.size === 0) return 'all'
    const terms = Object.fromEntries(queryTerms(words, this.known))
    const weight = leaningWeight(words, values)
    const named = (term: string, where: Record<string, string[]>): boolean => Object.entries(where)
      .some(([found, fields]) => found.startsWith(term) && fields.some((field) => !PROSE_FIELDS.has(field)))
    const quality = (matched: readonly string[], where: Record<string, string[]>): number =>
      matched.reduce((sum, term) => sum + (named(term, where) ? 1 : TUNED.proseMatch), 0)
    return this.index.search(Object.keys(terms).join(' '), {
      boost: TUNED.boost,
      // Terms are processed above: the search takes them as they are.
      processTerm: (term: string) => term,
      tokenize: (text: string) => text.split(' '),
      boostTerm: (term: string) => terms[term],
      boostDocument: (id: number) => weight(this.leanings[id]),
      // A word's stem also finds the longer words it begins (`contribut` finds `contributor`), at a lower weight; a pair finds only itself.
      prefix: (term: string) => term.length >= 4 && !term.includes('~'),
      weights: { fuzzy: 0, prefix: TUNED.prefix }
    }).filter((result) => result.terms.some((term) => !GENERIC_TERMS.has(term)))
      // MiniSearch multiplies a score by the number of query terms it matched: a counterpart counts here as much as it weighs.
      .map(({ id, score, queryTerms, match }) => ({ id: id as number, score: score / queryTerms.length * quality(queryTerms, match) }))
      .sort((a, b) => b.score - a.score || a.id - b.id).map((result) => result.id)
  }
}
