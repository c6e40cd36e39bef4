/**
 * The discovery mode's search: the operations of one caller's document, found
 * by the words an agent uses. Each view gets its own index, made from that
 * caller's document only (its summaries, descriptions, tags, paths, parameter
 * names and the field names its `only` lists), so a field hidden from the
 * caller is never a word of it. Ranking is MiniSearch's BM25+ (rare words
 * weigh more, long texts less), over stemmed words, with the verbs and short
 * names agents use mapped to those descriptions use.
 */
import MiniSearch from 'minisearch'
import { stemmer } from 'stemmer'
import { QueryTooLongError } from '../errors.js'
import { isRecord } from '../json.js'
import type { DocumentOperation } from './tools.js'

type Json = Record<string, any>

/** The longest query, in characters, and the most words it may have: a search costs what its words cost, whatever the API. */
export const MAX_QUERY_LENGTH = 500
export const MAX_QUERY_WORDS = 32

/** How long an index build runs before it lets the event loop turn, and how much of a description it reads. */
const SLICE_MS = 10
const MAX_DESCRIPTION = 1000

/** Where an operation's words come from, and how much a match in each weighs. */
const BOOST = { name: 2, summary: 3, tags: 1.5, path: 2, resource: 2, parameters: 1, description: 0.7, fields: 0.5 } as const
type Field = keyof typeof BOOST | 'shape'
const FIELDS: Field[] = [...Object.keys(BOOST) as Field[], 'shape']

/**
 * What an operation answers, by the shape of its path: a path that ends in a
 * parameter answers one record, any other a list. A query that names things
 * in the plural leans to lists, even beside an id (`comments of issue 7`: the
 * id is the parent's); one that names an id or a single thing, and nothing in
 * the plural, leans to records.
 */
const MANY = 'qqmany'
const ONE = 'qqone'
const SINGULAR_WORDS = new Set(['a', 'an', 'one', 'single', 'specific', 'detail', 'details', 'info', 'information'])
const PLURAL_WORDS = new Set(['all', 'every', 'list', 'lists', 'many', 'which'])

function queryShape (words: readonly string[]): string[] {
  const plural = (word: string): boolean => PLURAL_WORDS.has(word) ||
    (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word) && !STOP_WORDS.has(word) && !SINGULAR_WORDS.has(word))
  if (words.some(plural)) return [MANY]
  return words.some((word) => /[0-9]/.test(word) || SINGULAR_WORDS.has(word)) ? [ONE] : []
}

// Words that say nothing of which operation is meant.
const STOP_WORDS = new Set(('a an and are as at be by can do does for from has have how i in is it its me my mine of on or our ' +
  'please show that the their them there these this those to was we what when where which who whose will with you your all any ' +
  'every each some one give tell want need let see').split(' '))

/**
 * Words agents use for words descriptions use. The verbs of reading and the
 * words for oneself also search their counterparts, weighed less than
 * themselves; a short name of a common API noun means what its long name does.
 */
const COUNTERPARTS: Readonly<Record<string, readonly string[]>> = {
  show: ['list', 'get'],
  view: ['list', 'get'],
  see: ['list', 'get'],
  display: ['list', 'get'],
  all: ['list'],
  every: ['list'],
  fetch: ['get', 'retrieve'],
  read: ['get', 'retrieve'],
  retrieve: ['get'],
  get: ['retrieve'],
  look: ['get', 'retrieve'],
  lookup: ['get', 'retrieve'],
  detail: ['get', 'retrieve'],
  details: ['get', 'retrieve'],
  info: ['information', 'get'],
  find: ['search', 'get'],
  search: ['find'],
  i: ['authenticated'],
  me: ['authenticated'],
  my: ['authenticated'],
  mine: ['authenticated'],
  own: ['authenticated']
}
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  repo: ['repository'],
  repos: ['repository'],
  org: ['organization'],
  orgs: ['organization'],
  organisation: ['organization'],
  pr: ['pull', 'request'],
  prs: ['pull', 'request'],
  config: ['configuration'],
  env: ['environment'],
  stats: ['statistics'],
  auth: ['authentication'],
  msg: ['message'],
  bug: ['issue'],
  bugs: ['issue'],
  ticket: ['issue'],
  tickets: ['issue']
}
const COUNTERPART_WEIGHT = 0.3
/** Words nearly every operation has: a match on them alone is no match. */
const GENERIC_TERMS = new Set(['list', 'get', 'retriev', MANY, ONE])

/** The words of a text: camelCase, snake_case, kebab-case and paths split, lower case. */
export function textWords (text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2').toLowerCase()
    .split(/[^a-z0-9]+/).filter((word) => word !== '')
}

/** A word as the index keeps it: stemmed, or nothing for a stop word. */
function indexTerm (word: string): string | null {
  if (word === MANY || word === ONE) return word
  return STOP_WORDS.has(word) ? null : stemmer(word)
}

/** Why a query is refused, or undefined: limits on its length and words keep a search's cost that of a short query. */
export function queryRefusal (query: string): InstanceType<typeof QueryTooLongError> | undefined {
  if (query.length > MAX_QUERY_LENGTH) return new QueryTooLongError(`Argument 'query' is too long: at most ${MAX_QUERY_LENGTH} characters are allowed`)
  if (textWords(query).length > MAX_QUERY_WORDS) return new QueryTooLongError(`Argument 'query' has too many words: at most ${MAX_QUERY_WORDS} are allowed`)
  return undefined
}

function textOf (value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The names a caller may choose in an operation's `only`, as its document lists them: only the caller's own fields. */
function fieldWords (operation: Json, resolve: (parameter: unknown) => Json | null): string {
  const fields = operation['x-restricted-fields']
  if (!isRecord(fields) || !Array.isArray(operation.parameters)) return ''
  for (const parameter of operation.parameters.map(resolve)) {
    if (parameter === null || parameter.in !== 'query' || parameter.name !== fields.only) continue
    const names = parameter.schema?.items?.enum
    if (!Array.isArray(names)) return ''
    const words = new Set<string>()
    for (const name of names) {
      if (typeof name === 'string' && !name.startsWith('@')) for (const word of textWords(name)) words.add(word)
    }
    return [...words].join(' ')
  }
  return ''
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
export type SearchEntry = Record<Field, string> & { id: number }

/** The texts of an operation that a search reads, from the caller's document: its name, summary, description, tags, path, parameter names and field names. */
export function searchEntry (id: number, { name, path, pathItem, operation }: Omit<DocumentOperation, 'route'>, resolve: (parameter: unknown) => Json | null): SearchEntry {
  const restricted = isRecord(operation['x-restricted-fields']) ? operation['x-restricted-fields'] : {}
  const parameters = [...Array.isArray(operation.parameters) ? operation.parameters : [], ...Array.isArray(pathItem.parameters) ? pathItem.parameters : []]
    .map(resolve)
    .filter((parameter): parameter is Json => parameter !== null && (parameter.in === 'path' || parameter.in === 'query') &&
      parameter.name !== restricted.only && parameter.name !== restricted.defer)
    .map((parameter) => parameter.name)
  return {
    id,
    name,
    summary: textOf(operation.summary),
    // Markup is not words; a long description is read as far as its first thousand characters.
    description: textOf(operation.description).slice(0, MAX_DESCRIPTION).replace(/<[^>]*>/g, ' '),
    tags: Array.isArray(operation.tags) ? operation.tags.filter((tag: unknown) => typeof tag === 'string').join(' ') : '',
    path: path.replace(/[{}]/g, ' '),
    resource: resourceOf(path),
    parameters: parameters.join(' '),
    fields: fieldWords(operation, resolve),
    shape: path.endsWith('}') ? ONE : MANY
  }
}

/** The index of one view's operations, built once, in slices that let the event loop turn. */
export class OperationSearch {
  private constructor (private readonly index: MiniSearch<SearchEntry>) {}

  static async build (operations: readonly DocumentOperation[], resolve: (parameter: unknown) => Json | null): Promise<OperationSearch> {
    const index = new MiniSearch<SearchEntry>({
      fields: FIELDS,
      tokenize: textWords,
      processTerm: indexTerm
    })
    let sliceStart = performance.now()
    for (const [id, operation] of operations.entries()) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        sliceStart = performance.now()
      }
      index.add(searchEntry(id, operation, resolve))
    }
    return new OperationSearch(index)
  }

  /** The positions of the operations that match `query`, best first; every operation for a query without words. */
  find (query: string): number[] | 'all' {
    const words = textWords(query)
    if (words.length === 0) return 'all'
    const own = new Set<string>()
    const terms: string[] = []
    for (const word of words) {
      const term = indexTerm(word)
      if (term !== null) {
        own.add(term)
        terms.push(term)
      }
      for (const counterpart of COUNTERPARTS[word] ?? []) terms.push(stemmer(counterpart))
      for (const synonym of SYNONYMS[word] ?? []) {
        own.add(stemmer(synonym))
        terms.push(stemmer(synonym))
      }
    }
    const options = {
      boost: BOOST,
      // Terms are processed above: the search takes them as they are.
      processTerm: (term: string) => term,
      tokenize: (text: string) => text.split(' '),
      boostTerm: (term: string) => own.has(term) ? 1 : COUNTERPART_WEIGHT,
      // A word's stem also finds the longer words it begins (`contribut` finds `contributor`), at half weight.
      prefix: (term: string) => term.length >= 4,
      weights: { fuzzy: 0, prefix: 0.5 }
    }
    const shapes = queryShape(words)
    const results = this.index.search({
      combineWith: 'OR',
      queries: [
        { queries: [[...new Set(terms)].join(' ')], ...options, fields: FIELDS.filter((field) => field !== 'shape') },
        ...shapes.length === 0 ? [] : [{ queries: shapes, fields: ['shape'], processTerm: (term: string) => term }]
      ]
    }).filter((result) => result.terms.some((term) => !GENERIC_TERMS.has(term)))
    return results.map((result) => result.id as number)
  }
}
