/**
 * The words and numbers the discovery mode's search reads beside an API's
 * own description, kept apart from its engine (`search.ts`). Every word
 * entry is general: a word of English or of common API usage, each with
 * where it comes from; none comes from a task the search is measured on.
 * The numbers were tuned on bench/search-tasks.json, the tuning set; the
 * figures the documentation reports come from sets that tuned nothing.
 */

/** Where a word entry comes from. */
export type WordSource =
  | 'abbreviation' // a short form in common use for the long word (repo, org, PR)
  | 'inflection' // a form of the same word the Porter stemmer does not join (people, person)
  | 'derivation' // a word made from the other (watcher from watch)
  | 'thesaurus' // the two share a WordNet synset (bill, invoice)
  | 'HTTP semantics' // what a GET, POST, PATCH or DELETE is named by (read, create, update, delete)
  | 'API usage' // how APIs name a thing in common: the caller's own as `authenticated`, tags as labels

/** An entry of a word table: the words a word also searches, and where the relation comes from. */
export interface WordEntry { readonly words: readonly string[], readonly source: WordSource }

/** Words that say nothing of which operation is meant (English function words, and the politeness of a request). */
export const STOP_WORDS: readonly string[] = ('a an and are as at be by can do does for from has have how i in is it its me my mine of on ' +
  'or our please show that the their them there these this those to was we what when where which who whose will with you your all ' +
  'any every each some one give tell want need let see own about across also am been but could did done into just may might much ' +
  'ours should than then they us very via were would yours').split(' ')

/** Words that ask for one record, beside an id or number. */
export const SINGULAR_WORDS: readonly string[] = ['a', 'an', 'one', 'single', 'specific', 'detail', 'details', 'info', 'information']
/** Words that ask for a list, beside plural nouns. */
export const PLURAL_WORDS: readonly string[] = ['all', 'every', 'list', 'lists', 'many', 'which']
/** Words that ask for an operation on its way out. */
export const RETIRED_WORDS: readonly string[] = ['legacy', 'deprecated']
/** Words for oneself: the caller's own records. */
export const SELF_WORDS: readonly string[] = ['i', 'me', 'my', 'mine', 'myself', 'own', 'we', 'us', 'our', 'ours']

const read = ['list', 'get'] as const
/**
 * The words of a query that name the reading itself, or the caller, and what
 * they search: keyed by the word as written, searched at the counterpart weight.
 */
export const COUNTERPARTS: Readonly<Record<string, WordEntry>> = {
  show: { words: read, source: 'HTTP semantics' },
  view: { words: read, source: 'HTTP semantics' },
  see: { words: read, source: 'HTTP semantics' },
  display: { words: read, source: 'HTTP semantics' },
  all: { words: ['list'], source: 'HTTP semantics' },
  every: { words: ['list'], source: 'HTTP semantics' },
  fetch: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  read: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  retrieve: { words: ['get'], source: 'HTTP semantics' },
  get: { words: ['retrieve'], source: 'HTTP semantics' },
  look: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  lookup: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  detail: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  details: { words: ['get', 'retrieve'], source: 'HTTP semantics' },
  info: { words: ['information', 'get'], source: 'abbreviation' },
  find: { words: ['search', 'get'], source: 'HTTP semantics' },
  search: { words: ['find'], source: 'thesaurus' },
  who: { words: ['people', 'user'], source: 'API usage' },
  i: { words: ['authenticated'], source: 'API usage' },
  me: { words: ['authenticated'], source: 'API usage' },
  my: { words: ['authenticated'], source: 'API usage' },
  mine: { words: ['authenticated'], source: 'API usage' },
  own: { words: ['authenticated'], source: 'API usage' }
}

/** Short and long names of one thing, searched as the word itself is. */
export const SYNONYMS: Readonly<Record<string, WordEntry>> = {
  repo: { words: ['repository'], source: 'abbreviation' },
  org: { words: ['organization'], source: 'abbreviation' },
  organisation: { words: ['organization', 'org'], source: 'inflection' },
  repository: { words: ['repo'], source: 'abbreviation' },
  organization: { words: ['org'], source: 'abbreviation' },
  pr: { words: ['pull', 'request'], source: 'abbreviation' },
  config: { words: ['configuration'], source: 'abbreviation' },
  env: { words: ['environment'], source: 'abbreviation' },
  stats: { words: ['statistics'], source: 'abbreviation' },
  auth: { words: ['authentication'], source: 'abbreviation' },
  msg: { words: ['message'], source: 'abbreviation' },
  promo: { words: ['promotion'], source: 'abbreviation' },
  pkg: { words: ['package'], source: 'abbreviation' },
  dep: { words: ['dependency'], source: 'abbreviation' },
  perm: { words: ['permission'], source: 'abbreviation' },
  txn: { words: ['transaction'], source: 'abbreviation' },
  acct: { words: ['account'], source: 'abbreviation' },
  // Issue trackers name a bug report or a ticket an issue.
  bug: { words: ['issue'], source: 'API usage' },
  ticket: { words: ['issue'], source: 'API usage' }
}

/** Words for a thing beside the word an API may name it by, searched at the related weight. */
export const RELATED: Readonly<Record<string, WordEntry>> = {
  watch: { words: ['watcher'], source: 'derivation' },
  watcher: { words: ['watch'], source: 'derivation' },
  people: { words: ['person', 'user', 'member'], source: 'inflection' },
  person: { words: ['people', 'user', 'member'], source: 'inflection' },
  webhook: { words: ['hook'], source: 'derivation' },
  hook: { words: ['webhook'], source: 'derivation' },
  callback: { words: ['webhook', 'hook'], source: 'API usage' },
  remark: { words: ['comment'], source: 'thesaurus' },
  comment: { words: ['remark'], source: 'thesaurus' },
  reply: { words: ['comment'], source: 'API usage' },
  tag: { words: ['label'], source: 'API usage' },
  label: { words: ['tag'], source: 'API usage' },
  bill: { words: ['invoice'], source: 'thesaurus' },
  invoice: { words: ['bill'], source: 'thesaurus' },
  newest: { words: ['latest'], source: 'thesaurus' },
  latest: { words: ['newest'], source: 'thesaurus' },
  profile: { words: ['user', 'account'], source: 'API usage' },
  client: { words: ['customer'], source: 'thesaurus' },
  customer: { words: ['client'], source: 'thesaurus' },
  group: { words: ['team'], source: 'thesaurus' },
  history: { words: ['event', 'timeline', 'log'], source: 'API usage' },
  activity: { words: ['event'], source: 'API usage' },
  feed: { words: ['event', 'timeline'], source: 'API usage' },
  permission: { words: ['access', 'role'], source: 'API usage' },
  access: { words: ['permission'], source: 'API usage' },
  role: { words: ['permission'], source: 'API usage' },
  quota: { words: ['limit', 'rate'], source: 'API usage' },
  cost: { words: ['billing', 'usage'], source: 'API usage' },
  spend: { words: ['billing', 'usage'], source: 'API usage' },
  vulnerability: { words: ['advisory', 'alert'], source: 'API usage' },
  setting: { words: ['configuration', 'preference'], source: 'thesaurus' },
  preference: { words: ['setting'], source: 'thesaurus' },
  delete: { words: ['remove'], source: 'HTTP semantics' },
  remove: { words: ['delete'], source: 'HTTP semantics' },
  destroy: { words: ['delete'], source: 'HTTP semantics' },
  create: { words: ['add'], source: 'HTTP semantics' },
  add: { words: ['create'], source: 'HTTP semantics' },
  make: { words: ['create'], source: 'HTTP semantics' },
  new: { words: ['create'], source: 'HTTP semantics' },
  update: { words: ['edit', 'change', 'modify'], source: 'HTTP semantics' },
  edit: { words: ['update'], source: 'HTTP semantics' },
  change: { words: ['update'], source: 'HTTP semantics' },
  modify: { words: ['update'], source: 'HTTP semantics' }
}

/**
 * The search's numbers, each tuned on bench/search-tasks.json (the tuning
 * set): how much a match in each field of an operation weighs, what a
 * counterpart, related word or prefix weighs beside the word itself, and how
 * much an operation weighs beside its near twins by what the query says
 * and the values it holds.
 */
export const TUNED = {
  boost: {
    name: 2,
    summary: 3,
    tags: 1.5,
    path: 2,
    resource: 2,
    parameters: 1,
    description: 0.7,
    context: 0.3,
    record: 0.3,
    fields: 0.5,
    pairs: 0.5
  },
  counterpart: 0.3,
  related: 0.5,
  prefix: 0.5,
  shape: 1.5,
  retired: 0.7,
  self: 1.5,
  others: 0.7,
  /** An operation that takes a value of the kind the query holds (a slug, an id, a number, an email, a date). */
  value: 1.2,
  /**
   * What a query term met only in prose about an operation (its record's, its tags' and parameters'
   * descriptions) counts as, against 1 elsewhere.
   */
  proseMatch: 0.5,
  /** How far into a description the search reads, in characters. */
  descriptionLength: 1000
} as const
