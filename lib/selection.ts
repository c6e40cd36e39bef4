/**
 * Reads the `only` and `defer` query parameters into a selection: the
 * requested paths, checked against the declared fields, and the projection
 * they make. Client text is scanned once, left to right; every path is checked
 * against the declared tree as it is read, so nothing the client sends drives
 * recursion deeper than the route's own schema.
 */
import { AdmissionCache } from './cache.js'
import type { FieldNode, FieldTree } from './declared.js'
import { addToTrie, projectTree } from './projection.js'
import type { PathTrie, Projection } from './projection.js'
import type { Serializer } from './write.js'
import type { FieldSelection } from './view.js'
import {
  InvalidParameterError, PathTooDeepError, TooManyFieldsError, UnknownFieldError, quote
} from './errors.js'

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
   * The compiled serializer of this selection, once the caller knows it (null:
   * the compiler refused it); a remembered selection then needs no other lookup.
   */
  serializer?: Serializer | null
  /** The handlers' view of this selection, once the caller has built it. */
  view?: FieldSelection
}

/** Completes the parsing rules of a route once, so that parsing a request computes nothing twice. */
export function selectionRules (options: Omit<SelectionRules, 'onlyListParam' | 'deferListParam' | 'parameters'>): SelectionRules {
  return {
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

export interface SelectionRules {
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
}

type Query = Record<string, unknown> | null | undefined

/** Whether a query carries any restriction parameter; the common answer, no, allocates nothing. */
export function hasRestriction (query: Record<string, unknown> | null | undefined, rules: SelectionRules): query is Record<string, unknown> {
  if (query === null || query === undefined) return false
  return query[rules.onlyParam] !== undefined || query[rules.onlyListParam] !== undefined ||
    query[rules.deferParam] !== undefined || query[rules.deferListParam] !== undefined
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

  constructor (rules: SelectionRules, tree: FieldTree) {
    this.rules = rules
    this.tree = tree
  }

  /** Splits one raw value on commas and adds each path to the trie, and each declared one to `accepted`, once. */
  addValue (raw: string, param: string, trie: PathTrie, accepted: string[]): void {
    let start = 0
    while (start <= raw.length) {
      let end = raw.indexOf(',', start)
      if (end === -1) end = raw.length
      const name = raw.slice(start, end).trim()
      start = end + 1
      if (name === '') continue
      const segments = this.declaredSegments(name, param)
      if (segments === null) {
        // An ignored unknown name still counts, once.
        this.ignored ??= new Set()
        const size = this.ignored.size
        this.ignored.add(param + '\0' + name)
        if (this.ignored.size > size) this.counted()
        continue
      }
      // Only declared paths reach the trie: an ignored one leaves no trace.
      const node = addToTrie(trie, segments)
      if (node.whole) continue
      node.whole = true
      this.counted()
      accepted.push(segments.join('.'))
    }
  }

  counted (): void {
    if (++this.count > this.rules.maxFields) {
      throw new TooManyFieldsError(this.rules.onlyParam, this.rules.deferParam, this.rules.maxFields)
    }
  }

  /** The trimmed segments of a declared path; null for an unknown path that is ignored; throws for others. */
  declaredSegments (path: string, param: string): string[] | null {
    // split's limit keeps a 10,000-segment path from being split further than needed.
    const segments = path.split('.', this.rules.maxDepth + 1)
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
      : describeLevel(level, parent)
    throw new UnknownFieldError(`Unknown field '${quote(path)}' in query parameter '${param}'; ${detail}`)
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
export function selectionReader (tree: FieldTree, rules: SelectionRules, memoSize: number): (query: Query, rawQuery: string) => Selection | null {
  // Without recency: a hit, the common case, is then one lookup and one count.
  const memo = new AdmissionCache<Selection>(memoSize, { recency: false })
  return function readSelection (query, rawQuery) {
    if (!hasRestriction(query, rules)) return null
    const remember = rawQuery.length <= MEMO_KEY_LIMIT
    if (remember) {
      const known = memo.get(rawQuery)
      if (known !== undefined) return known
    }
    const selection = parseSelection(query, tree, rules) as Selection
    if (remember && memo.admit(rawQuery)) memo.set(rawQuery, selection)
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
  const hasOnly = only !== undefined || onlyList !== undefined

  const onlyValues: string[] = []
  const deferValues: string[] = []
  collectValues(only, rules.onlyParam, onlyValues)
  collectValues(onlyList, rules.onlyParam, onlyValues)
  collectValues(defer, rules.deferParam, deferValues)
  collectValues(deferList, rules.deferParam, deferValues)

  const parser = new SelectionParser(rules, tree)
  const onlyTrie: PathTrie = { whole: !hasOnly, children: new Map() }
  const deferTrie: PathTrie = { whole: false, children: new Map() }
  const onlyNames: string[] = []
  const deferNames: string[] = []
  for (const value of onlyValues) parser.addValue(value, rules.onlyParam, onlyTrie, onlyNames)
  for (const value of deferValues) parser.addValue(value, rules.deferParam, deferTrie, deferNames)

  const { projection, key } = projectTree(tree, onlyTrie, deferTrie)
  const hasDefer = defer !== undefined || deferList !== undefined
  return { projection, key, only: hasOnly ? onlyNames : null, defer: hasDefer ? deferNames : null, tries: { only: onlyTrie, defer: deferTrie } }
}
