/**
 * The discovery mode's search: the operations of one caller's document, found
 * by the words an agent uses. Each view gets its own index, made from that
 * caller's document only (its summaries, descriptions, tags, paths, parameter
 * names and the field names its `only` lists), so a field hidden from the
 * caller is never a word of it. Ranking is MiniSearch's BM25+ (rare words
 * weigh more, long texts less), over stemmed words and the pairs of words
 * side by side, with the verbs, short names and common API vocabulary agents
 * use mapped to those descriptions use, weighed below the agent's own words.
 */
import MiniSearch from 'minisearch'
import { stemmer } from 'stemmer'
import { QueryTooLongError } from '../errors.js'
import { isRecord } from '../json.js'
import { betweenSteps } from '../slices.js'
import type { DocumentOperation } from './tools.js'

type Json = Record<string, any>

/** The longest query, in characters, and the most words it may have: a search costs what its words cost, whatever the API. */
export const MAX_QUERY_LENGTH = 500
export const MAX_QUERY_WORDS = 32

const MAX_DESCRIPTION = 1000

/** Where an operation's words come from, and how much a match in each weighs. */
const BOOST = { name: 2, summary: 3, tags: 1.5, path: 2, resource: 2, parameters: 1, description: 0.7, fields: 0.5, pairs: 0.5 } as const
type Field = keyof typeof BOOST
const FIELDS = Object.keys(BOOST) as Field[]

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

function queryShape (words: readonly string[]): string | undefined {
  const plural = (word: string): boolean => PLURAL_WORDS.has(word) ||
    (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word) && !STOP_WORDS.has(word) && !SINGULAR_WORDS.has(word))
  if (words.some(plural)) return MANY
  return words.some((word) => /[0-9]/.test(word) || SINGULAR_WORDS.has(word)) ? ONE : undefined
}

// Words that say nothing of which operation is meant.
const STOP_WORDS = new Set(('a an and are as at be by can do does for from has have how i in is it its me my mine of on or our ' +
  'please show that the their them there these this those to was we what when where which who whose will with you your all any ' +
  'every each some one give tell want need let see own about across also am been but could did done into just may might much ' +
  'ours should than then they us very via were would yours').split(' '))

/**
 * Words agents use for words descriptions use. The verbs of reading, the
 * words for oneself and `who` also search their counterparts, weighed less
 * than themselves; a short name of a common API noun means what its long
 * name does, and the long name finds the short one paths use (`repository`,
 * `/repos`). Keyed by the word as an agent writes it.
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
  who: ['people', 'user'],
  i: ['authenticated'],
  me: ['authenticated'],
  my: ['authenticated'],
  mine: ['authenticated'],
  own: ['authenticated']
}
/** Short and long names of one thing, searched as the word itself is. Keyed by stem, as are the tables below. */
const SYNONYMS = stemTable({
  repo: ['repository'],
  org: ['organization'],
  organisation: ['organization', 'org'],
  repository: ['repo'],
  organization: ['org'],
  pr: ['pull', 'request'],
  config: ['configuration'],
  env: ['environment'],
  stats: ['statistics'],
  auth: ['authentication'],
  msg: ['message'],
  promo: ['promotion'],
  pkg: ['package'],
  dep: ['dependency'],
  perm: ['permission'],
  txn: ['transaction'],
  acct: ['account'],
  bug: ['issue'],
  ticket: ['issue']
})
/**
 * The common vocabulary of APIs: words people use for a thing beside the
 * word an API names it by. Each also searches its related words, weighed
 * less than the word itself, so an operation that has the word still comes
 * first.
 */
const RELATED = stemTable({
  star: ['stargazer'],
  stargazer: ['star'],
  watch: ['watcher', 'subscription'],
  watcher: ['watch', 'subscription'],
  people: ['member', 'user', 'person'],
  person: ['people', 'member', 'user'],
  credential: ['secret', 'token', 'key'],
  password: ['secret', 'credential'],
  chargeback: ['dispute'],
  dispute: ['chargeback'],
  webhook: ['hook'],
  hook: ['webhook'],
  callback: ['webhook', 'hook'],
  remark: ['comment'],
  reply: ['comment'],
  note: ['comment'],
  discussion: ['comment'],
  conversation: ['comment'],
  tag: ['label'],
  label: ['tag'],
  emoji: ['reaction'],
  reaction: ['emoji'],
  bill: ['invoice'],
  invoice: ['bill'],
  next: ['upcoming'],
  upcoming: ['next'],
  newest: ['latest'],
  money: ['balance', 'amount', 'fund'],
  fund: ['balance'],
  profile: ['user', 'account'],
  client: ['customer'],
  group: ['team'],
  history: ['event', 'timeline', 'log'],
  activity: ['event'],
  feed: ['event', 'timeline'],
  permission: ['access', 'role'],
  access: ['permission'],
  role: ['permission'],
  quota: ['limit', 'rate'],
  cost: ['billing', 'usage'],
  spend: ['billing', 'usage'],
  vulnerability: ['alert', 'advisory'],
  setting: ['configuration', 'preference'],
  preference: ['setting'],
  delete: ['remove'],
  remove: ['delete'],
  destroy: ['delete'],
  create: ['add'],
  add: ['create'],
  make: ['create'],
  new: ['create'],
  update: ['edit', 'change', 'modify'],
  edit: ['update'],
  change: ['update'],
  modify: ['update']
})
const COUNTERPART_WEIGHT = 0.3
const RELATED_WEIGHT = 0.5
/** Words nearly every operation has: a match on them alone is no match. */
const GENERIC_TERMS = new Set(['list', 'get', 'retriev'])
/**
 * How much an operation weighs beside its near twins, by what the query
 * says: of the shape the query leans to, more; one its document marks
 * deprecated, or whose name or summary says legacy, less unless the query
 * asks for it; one of the caller's own (a path under `/user` or `/me`, the
 * authenticated user), more for a query that says my or mine, less for any
 * other.
 */
const SHAPE_WEIGHT = 1.5
const RETIRED_WEIGHT = 0.7
const RETIRED_WORDS = new Set(['legacy', 'deprecated'])
const SELF_WORDS = new Set(['i', 'me', 'my', 'mine', 'myself', 'own', 'we', 'us', 'our', 'ours'])
const SELF_WEIGHT = 1.5
const OTHERS_WEIGHT = 0.7

/** What an operation is beside its near twins: its shape, whether it is on its way out, whether it answers about the caller itself. */
interface Leaning { shape: string, retired: boolean, callers: boolean }

function leaningOf ({ name, path, operation }: Omit<DocumentOperation, 'route'>, shape: string): Leaning {
  const words = textWords(`${name} ${textOf(operation.summary)}`)
  return {
    shape,
    retired: operation.deprecated === true || words.some((word) => RETIRED_WORDS.has(word)),
    callers: /^\/(user|me)(\/|$)/.test(path) || words.includes('authenticated')
  }
}

/** How much each operation weighs for a query of these words. */
function leaningWeight (words: readonly string[]): (leaning: Leaning) => number {
  const shape = queryShape(words)
  const retired = words.some((word) => RETIRED_WORDS.has(word)) ? 1 : RETIRED_WEIGHT
  const callers = words.some((word) => SELF_WORDS.has(word)) ? SELF_WEIGHT : OTHERS_WEIGHT
  return (leaning) => (leaning.shape === shape ? SHAPE_WEIGHT : 1) * (leaning.retired ? retired : 1) * (leaning.callers ? callers : 1)
}

/** A table of words to words, keyed and valued by their stems, so that every form of a word finds them (`starred`, `stars`). */
function stemTable (table: Readonly<Record<string, readonly string[]>>): ReadonlyMap<string, readonly string[]> {
  return new Map(Object.entries(table).map(([word, words]) => [stemmer(word), words.map((other) => stemmer(other))]))
}

/** Two words side by side, in either order (`repository issues`, `issues of a repository`), as one term of the `pairs` field. */
function pairOf (first: string, second: string): string {
  return first < second ? `${first}~${second}` : `${second}~${first}`
}

/** The terms of a text that can make a pair: no stop words, and none of the words nearly every operation has. */
function pairTerms (words: readonly string[]): string[] {
  return words.map(indexTerm).filter((term): term is string => term !== null && !GENERIC_TERMS.has(term))
}

/** The pairs of words side by side in an operation's name, summary and path: a query that has the same two words side by side matches them more. */
function textPairs (texts: readonly string[]): string {
  const pairs = new Set<string>()
  for (const text of texts) {
    const terms = pairTerms(textWords(text))
    for (let at = 1; at < terms.length; at++) pairs.add(pairOf(terms[at - 1], terms[at]))
  }
  return [...pairs].join(' ')
}

/**
 * The terms a query searches, each with its weight: its own words' stems
 * (and their synonyms) at 1, related words at half, counterparts less, and
 * the pairs of its words side by side at the lower weight of the two; a term
 * that is several of these gets the highest weight.
 */
export function queryTerms (words: readonly string[]): Map<string, number> {
  const terms = new Map<string, number>()
  const add = (term: string, weight: number): void => {
    if ((terms.get(term) ?? 0) < weight) terms.set(term, weight)
  }
  let previous: Map<string, number> | undefined
  for (const word of words) {
    for (const counterpart of COUNTERPARTS[word] ?? []) add(stemmer(counterpart), COUNTERPART_WEIGHT)
    const term = indexTerm(word)
    if (term === null) continue
    // The word's stem, and what it also means: a pair is made of any of these.
    const own = new Map<string, number>([[term, 1]])
    for (const synonym of SYNONYMS.get(term) ?? []) own.set(synonym, 1)
    for (const related of RELATED.get(term) ?? []) if (!own.has(related)) own.set(related, RELATED_WEIGHT)
    for (const [meaning, weight] of own) add(meaning, weight)
    if (GENERIC_TERMS.has(term)) continue
    for (const [meaning, weight] of own) {
      for (const [before, weightBefore] of previous ?? []) if (before !== meaning) add(pairOf(before, meaning), Math.min(weight, weightBefore))
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
export type SearchEntry = Record<Field | 'shape', string> & { id: number }

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
    path: path.replace(/\{[^}]*\}/g, ' '),
    resource: resourceOf(path),
    parameters: parameters.join(' '),
    fields: fieldWords(operation, resolve),
    pairs: textPairs([name, textOf(operation.summary), path.replace(/\{[^}]*\}/g, ' ')]),
    shape: path.endsWith('}') ? ONE : MANY
  }
}

/** The index of one view's operations, built once, in slices that let the event loop turn. */
export class OperationSearch {
  private constructor (private readonly index: MiniSearch<SearchEntry>, private readonly leanings: readonly Leaning[]) {}

  static async build (operations: readonly DocumentOperation[], resolve: (parameter: unknown) => Json | null): Promise<OperationSearch> {
    const index = new MiniSearch<SearchEntry>({
      fields: FIELDS,
      // A pair is a term as it is made; every other field is words.
      tokenize: (text: string, field?: string) => field === 'pairs' ? text.split(' ') : textWords(text),
      processTerm: (term: string, field?: string) => field === 'pairs' ? term : indexTerm(term)
    })
    const leanings: Leaning[] = []
    const turn = betweenSteps()
    for (const [id, operation] of operations.entries()) {
      await turn()
      const entry = searchEntry(id, operation, resolve)
      index.add(entry)
      leanings.push(leaningOf(operation, entry.shape))
    }
    return new OperationSearch(index, leanings)
  }

  /** The positions of the operations that match `query`, best first; every operation for a query without words. */
  find (query: string): number[] | 'all' {
    const words = textWords(query)
    if (words.length === 0) return 'all'
    const terms = Object.fromEntries(queryTerms(words))
    const weight = leaningWeight(words)
    return this.index.search(Object.keys(terms).join(' '), {
      boost: BOOST,
      // Terms are processed above: the search takes them as they are.
      processTerm: (term: string) => term,
      tokenize: (text: string) => text.split(' '),
      boostTerm: (term: string) => terms[term],
      boostDocument: (id: number) => weight(this.leanings[id]),
      // A word's stem also finds the longer words it begins (`contribut` finds `contributor`), at half weight; a pair finds only itself.
      prefix: (term: string) => term.length >= 4 && !term.includes('~'),
      weights: { fuzzy: 0, prefix: 0.5 }
    }).filter((result) => result.terms.some((term) => !GENERIC_TERMS.has(term))).map((result) => result.id as number)
  }
}
