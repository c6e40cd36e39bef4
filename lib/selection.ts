/**
 * Reads the `only` and `defer` query parameters into a selection: the
 * requested paths, checked against the declared fields, and the projection
 * they make. Client text is scanned once, left to right; every path is checked
 * against the declared tree as it is read, so nothing the client sends drives
 * recursion deeper than the route's own schema.
 */
import { AdmissionCache } from './cache.js'
import { addToTrie, childOf } from './hidden-paths.js'
import type { PathTrie } from './hidden-paths.js'
import type { FieldNode, FieldTree } from './schema/tree.js'
import { projectTree } from './projection.js'
import type { Projection } from './projection.js'
import { InvalidParameterError, PathTooDeepError, TooManyFieldsError } from './errors.js'
import { NO_FIELD_SETS } from './field-sets.js'
import type { FieldPath, FieldSets } from './field-sets.js'
import { UnknownFieldError, UnknownFieldSetError, quote } from './errors.js'

/** The outcome of a request's restriction parameters. */
export interface Selection {
  readonly projection: Projection
  /** Canonical text of the projection: equal selections get equal keys, whatever their spelling. */
  readonly key: string
  /** The declared names each parameter named (trimmed; unknown names left out), or null when absent. */
  readonly only: readonly string[] | null
  readonly defer: readonly string[] | null
  /** The paths `only` keeps (every field when its root is whole) and `defer` drops: each status projects its own fields through them. */
  readonly tries: { readonly only: PathTrie, readonly defer: PathTrie }
  /**
   * One field set alone (the default, a preset, `*`): one of the few the
   * server named, compiled on first use without admission (within the
   * compilation budget). A combination of sets is not: k sets make 2^k of them.
   */
  readonly named: boolean
}

/** Reads a request's parsed and raw query into a selection (null: no parameters); throws a coded 400 error for a bad one. */
export type SelectionReader = (query: Record<string, unknown> | null | undefined, rawQuery: string) => Selection | null

/** Completes the parsing rules of a route once, so that parsing a request computes nothing twice. */
export function selectionRules (
  options: Omit<SelectionRules, 'onlyListParam' | 'deferListParam' | 'parameters' | 'recordsKey' | keyof FieldSets>,
  sets: FieldSets = NO_FIELD_SETS,
  recordsKey: string | null = null
): SelectionRules {
  return {
    fieldSets: sets.fieldSets,
    recordsKey,
    defaultFields: sets.defaultFields,
    onlyParam: options.onlyParam,
    deferParam: options.deferParam,
    onlyListParam: options.onlyParam + '[]',
    deferListParam: options.deferParam + '[]',
    unknownFields: options.unknownFields,
    maxFields: options.maxFields,
    maxDepth: options.maxDepth,
    parameters: [options.onlyParam, options.onlyParam + '[]', options.deferParam, options.deferParam + '[]']
  }
}

export interface SelectionRules extends FieldSets {
  readonly onlyParam: string
  readonly deferParam: string
  /** `only[]` and `defer[]`: how qs and axios spell arrays by default; Fastify's parser keeps the brackets. */
  readonly onlyListParam: string
  readonly deferListParam: string
  readonly unknownFields: 'reject' | 'ignore'
  readonly maxFields: number
  readonly maxDepth: number
  /** The four names above, in that order: what a request's query may carry of a selection. */
  readonly parameters: readonly string[]
  /** The key an envelope-like route, read as one record, likely holds its records under; null for other routes. */
  readonly recordsKey: string | null
}

type Query = Record<string, unknown> | null | undefined

/** Whether a query carries any restriction parameter; the common answer, no, allocates nothing. */
export function hasRestriction (
  query: Record<string, unknown> | null | undefined, rules: SelectionRules
): query is Record<string, unknown> {
  if (query === null || query === undefined) return false
  return query[rules.onlyParam] !== undefined || query[rules.onlyListParam] !== undefined ||
    query[rules.deferParam] !== undefined || query[rules.deferListParam] !== undefined
}

/** Whether a raw query string may hold a bracketed key: the check that costs a request without one almost nothing. */
export function mayHoldBrackets (rawQuery: string): boolean {
  return rawQuery.includes('[') || (rawQuery.includes('%5') && /%5b/i.test(rawQuery))
}

/**
 * Refuses the parameters' indexed and keyed forms (`only[0]=id`, `only[a]=id`,
 * qs's default for arrays), which Fastify's parser keeps as keys of their own:
 * read as nothing, they would send every field with a 200, and the client
 * could not tell that nothing was restricted.
 */
function refuseKeyedForms (query: Record<string, unknown>, rules: SelectionRules): void {
  for (const key of Object.keys(query)) {
    if (!key.endsWith(']') || key === rules.onlyListParam || key === rules.deferListParam) continue
    for (const param of [rules.onlyParam, rules.deferParam]) {
      if (key.startsWith(param + '[')) {
        throw new InvalidParameterError(key, `an indexed or keyed form; send ${param}=a&${param}=b, ${param}=a,b or ${param}[]=a&${param}[]=b`)
      }
    }
  }
}

function collectValues (value: unknown, param: string, into: string[]): void {
  if (value === undefined) return
  if (typeof value === 'string') {
    into.push(value)
  } else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    into.push(...value)
  } else {
    throw new InvalidParameterError(param, Array.isArray(value) ? 'a list with a non-string item' : typeof value)
  }
}

/**
 * A dotted path's first `limit` segments, as `split('.', limit)` gives them:
 * the limit keeps a 10,000-segment path from being split further than
 * needed, and the loop costs a third of split with a limit.
 */
function splitPath (path: string, limit: number): string[] {
  const segments: string[] = []
  let start = 0
  while (segments.length < limit) {
    const end = path.indexOf('.', start)
    if (end === -1) {
      segments.push(path.slice(start))
      break
    }
    segments.push(path.slice(start, end))
    start = end + 1
  }
  return segments
}

function describeLevel (tree: FieldTree, parent: string): string {
  const names = tree.nodes.map((node) => node.name).join(', ')
  return parent === '' ? `allowed fields: ${names}` : `allowed fields of '${parent}': ${names}`
}

class SelectionParser {
  readonly rules: SelectionRules
  readonly tree: FieldTree
  /** Distinct names read so far: a repeated declared path finds its trie node already named, and counts once. */
  count = 0
  /** Distinct ignored unknown names, per parameter; made only when `unknownFields` is 'ignore' and one is met. */
  ignored: Set<string> | null = null
  /** Distinct field sets named (`@name`, `*`): each counts once. */
  sets: Set<string> | null = null
  /** Whether a plain name was read: the selection is then not one of the route's field sets. */
  spelled = false

  constructor (rules: SelectionRules, tree: FieldTree) {
    this.rules = rules
    this.tree = tree
  }

  /**
   * Splits one raw value on commas and adds each path to the trie, and each
   * declared one to `accepted`, once. With `sets` (in `only`), `@name` and `*`
   * name field sets.
   */
  addValue (raw: string, param: string, trie: PathTrie, accepted: string[], sets = false): void {
    let start = 0
    while (start <= raw.length) {
      let end = raw.indexOf(',', start)
      if (end === -1) end = raw.length
      const name = raw.slice(start, end).trim()
      start = end + 1
      if (name === '') continue
      if (sets && (name === '*' || name.charCodeAt(0) === 64 /* @ */)) {
        this.addSet(name, param, trie, accepted)
        continue
      }
      this.spelled = true
      // A top-level name, the common case: one lookup, and no list of segments.
      const dotted = name.indexOf('.') !== -1
      const segments = dotted ? this.declaredSegments(name, param) : null
      if (dotted ? segments === null : !this.tree.byName.has(name)) {
        if (!dotted) this.unknown(name, param, [name], 0, this.tree)
        // An ignored unknown name still counts, once.
        this.ignored ??= new Set()
        const size = this.ignored.size
        this.ignored.add(param + '\0' + name)
        if (this.ignored.size > size) this.counted()
        continue
      }
      // Only declared paths reach the trie: an ignored one leaves no trace.
      const node = segments === null ? childOf(trie, name) : addToTrie(trie, segments)
      if (node.whole) continue
      node.whole = true
      this.counted()
      accepted.push(segments === null ? name : segments.join('.'))
    }
  }

  /** Adds the paths of a field set; those the request may not see are left out. */
  addSet (name: string, param: string, trie: PathTrie, accepted: string[]): void {
    this.sets ??= new Set()
    const size = this.sets.size
    this.sets.add(name)
    if (this.sets.size > size) this.counted()
    if (name === '*' || (name === '@default' && this.rules.defaultFields === null)) {
      trie.whole = true
      return
    }
    const paths = name === '@default' ? this.rules.defaultFields : this.rules.fieldSets.get(name.slice(1))
    if (paths === undefined || paths === null) {
      const known = ['@default', ...[...this.rules.fieldSets.keys()].map((set) => '@' + set), '*'].join(', ')
      throw new UnknownFieldSetError(`Unknown field set '${quote(name)}' in query parameter '${param}'; field sets: ${known}`)
    }
    addPaths(this.tree, paths, trie, accepted)
  }

  counted (): void {
    if (++this.count > this.rules.maxFields) {
      throw new TooManyFieldsError(this.rules.onlyParam, this.rules.deferParam, this.rules.maxFields)
    }
  }

  /** The trimmed segments of a declared dotted path; null for an unknown path that is ignored; throws for others. */
  declaredSegments (path: string, param: string): string[] | null {
    const segments = splitPath(path, this.rules.maxDepth + 1)
    if (segments.length > this.rules.maxDepth) {
      throw new PathTooDeepError(quote(path), param, this.rules.maxDepth)
    }
    let level: FieldTree | null = this.tree
    for (let i = 0; i < segments.length; i++) {
      segments[i] = segments[i].trim()
      const field: FieldNode | undefined = level?.byName.get(segments[i])
      if (field === undefined) {
        this.unknown(path, param, segments, i, level)
        return null
      }
      level = field.children
    }
    return segments
  }

  unknown (path: string, param: string, segments: string[], at: number, level: FieldTree | null): void {
    if (this.rules.unknownFields === 'ignore') return
    const parent = segments.slice(0, at).join('.')
    const detail = level === null
      ? `'${quote(parent)}' has no nested fields`
      : describeLevel(level, parent) + (at === 0 ? this.recordsNote(segments[0]) : '')
    // A set in `defer` is the likely slip: say why it is not one there.
    const setsNote = param === this.rules.deferParam && (path === '*' || path.startsWith('@'))
      ? `; '${param}' takes field names only, not field sets`
      : ''
    throw new UnknownFieldError(`Unknown field '${quote(path)}' in query parameter '${param}'; ${detail}${setsNote}`)
  }

  /**
   * Where the records are, for a top-level name that a field of the records
   * an envelope-like route holds has: read from the tree the request sees, so
   * that it never tells of a field hidden from it.
   */
  recordsNote (name: string): string {
    const key = this.rules.recordsKey
    if (key === null || this.tree.byName.get(key)?.children?.byName.has(name) !== true) return ''
    return ` (the records are under '${key}': declare restrictFields: { resultsKey: '${key}' } to restrict their fields)`
  }
}

/** Whether a tree has a path: false for one a visibility rule removed. */
function reachable (tree: FieldTree, segments: FieldPath): boolean {
  let level: FieldTree | null = tree
  for (const segment of segments) {
    const node: FieldNode | undefined = level?.byName.get(segment)
    if (node === undefined) return false
    level = node.children
  }
  return true
}

/** Adds declared paths to a trie, and to `accepted` once each, leaving out those `tree` does not have (hidden from the request). */
function addPaths (tree: FieldTree, paths: readonly FieldPath[], trie: PathTrie, accepted: string[]): void {
  for (const segments of paths) {
    if (!reachable(tree, segments)) continue
    const node = addToTrie(trie, segments)
    if (node.whole) continue
    node.whole = true
    accepted.push(segments.join('.'))
  }
}

/** Longest raw query string whose parse is remembered; longer queries are parsed every time. */
const MEMO_KEY_LIMIT = 512

/**
 * Returns a function that reads the selection of a request like
 * `parseSelection`, remembering the selections of up to `memoSize` raw
 * query strings so that a repeated query is not parsed again. The raw query
 * string determines the parsed query, so it is a complete key. A query string
 * is remembered once it is seen again, and in place of another only when it
 * is seen more often (the admission rule of the serializer cache): a stream
 * of query strings never seen before is parsed and forgotten, and never
 * churns the memory. Errors are never remembered.
 */
export function selectionReader (tree: FieldTree, rules: SelectionRules, memoSize: number): SelectionReader {
  // Without recency: a hit, the common case, is then one lookup and one count. Made on the route's first
  // restricted request: most routes of a large app are never asked one.
  let memo: AdmissionCache<Selection> | null = null
  return function readSelection (query, rawQuery) {
    if (!hasRestriction(query, rules)) {
      if (query != null && mayHoldBrackets(rawQuery)) refuseKeyedForms(query, rules)
      return null
    }
    const remembered = rawQuery.length <= MEMO_KEY_LIMIT ? (memo ??= new AdmissionCache<Selection>(memoSize, { recency: false })) : null
    if (remembered !== null) {
      const known = remembered.get(rawQuery)
      if (known !== undefined) return known
    }
    if (mayHoldBrackets(rawQuery)) refuseKeyedForms(query, rules)
    const selection = parseSelection(query, tree, rules) as Selection
    if (remembered !== null && remembered.admit(rawQuery)) remembered.set(rawQuery, selection)
    return selection
  }
}

/**
 * Reads the restriction parameters of a parsed query string. Returns null when
 * neither parameter is present; throws a coded 400 error for a bad request.
 */
export function parseSelection (query: Query, tree: FieldTree, rules: SelectionRules): Selection | null {
  if (!hasRestriction(query, rules)) return null
  const only = query[rules.onlyParam]
  const onlyList = query[rules.onlyListParam]
  const defer = query[rules.deferParam]
  const deferList = query[rules.deferListParam]

  const onlyValues: string[] | null = only !== undefined || onlyList !== undefined ? [] : null
  const deferValues: string[] | null = defer !== undefined || deferList !== undefined ? [] : null
  if (onlyValues !== null) {
    collectValues(only, rules.onlyParam, onlyValues)
    collectValues(onlyList, rules.onlyParam, onlyValues)
  }
  if (deferValues !== null) {
    collectValues(defer, rules.deferParam, deferValues)
    collectValues(deferList, rules.deferParam, deferValues)
  }
  return buildSelection(onlyValues, deferValues, tree, rules)
}

/**
 * The selection of a request that sends no parameter: the route's default
 * fields that `tree` has, or every field of `tree` when the route has no default.
 */
export function unrequestedSelection (tree: FieldTree, rules: SelectionRules): Selection {
  return buildSelection(null, null, tree, rules)
}

/** The selection of the raw values of `only` and `defer` (null: absent). */
function buildSelection (
  onlyValues: readonly string[] | null, deferValues: readonly string[] | null, tree: FieldTree, rules: SelectionRules
): Selection {
  const parser = new SelectionParser(rules, tree)
  // Without `only`, the route's default fields, or every field.
  const onlyTrie: PathTrie = { whole: onlyValues === null && rules.defaultFields === null, children: new Map() }
  const deferTrie: PathTrie = { whole: false, children: new Map() }
  const onlyNames: string[] = []
  const deferNames: string[] = []
  if (onlyValues === null) {
    if (rules.defaultFields !== null) addPaths(tree, rules.defaultFields, onlyTrie, [])
  } else {
    for (const value of onlyValues) parser.addValue(value, rules.onlyParam, onlyTrie, onlyNames, true)
  }
  if (deferValues !== null) for (const value of deferValues) parser.addValue(value, rules.deferParam, deferTrie, deferNames)
  const { projection, key } = projectTree(tree, onlyTrie, deferTrie)
  return {
    projection,
    key,
    // `*` names every top-level field: what a querystring schema then sees in `only`.
    only: onlyValues === null ? null : onlyTrie.whole ? tree.nodes.map((node) => node.name) : onlyNames,
    defer: deferValues === null ? null : deferNames,
    tries: { only: onlyTrie, defer: deferTrie },
    named: !parser.spelled && deferValues === null && (parser.sets === null || parser.sets.size === 1)
  }
}
