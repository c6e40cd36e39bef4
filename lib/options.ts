/**
 * Checks and completes the plugin's options once, at registration, and the
 * per-route value once, when the route is declared; nothing is checked per request.
 */
import type { FastifyContextConfig, FastifyRequest, HTTPMethods } from 'fastify'
import { InvalidFieldSetError, InvalidOptionError } from './errors.js'
import { isRecord } from './json.js'

/**
 * The route a rule is asked about, as it was declared: on a request, the
 * request's own route; for a caller's OpenAPI document, each documented route
 * in turn (the request is then the document's).
 */
export interface HiddenFieldsRoute {
  readonly method: HTTPMethods | readonly HTTPMethods[]
  readonly url: string
  /** The route's `config` option; `{}` when it has none. */
  readonly config: FastifyContextConfig & Readonly<Record<string, any>>
}

/**
 * Says which declared fields (names or dotted paths) a request may not see,
 * from the request itself (its user, its headers) and the route it is asked
 * about. It runs after the route's authentication hooks and before the
 * handler; it may return a promise.
 */
export type HiddenFieldsRule = (request: FastifyRequest, route: HiddenFieldsRoute) => readonly string[] | Promise<readonly string[]>

/** Options of `app.register(fastifyRestrictedFields, options)`; each can be overridden per route. */
export interface RestrictedFieldsOptions {
  /** Query parameter that keeps only the named fields. Default `'only'`. */
  onlyParam?: string
  /** Query parameter that removes the named fields. Default `'defer'`. */
  deferParam?: string
  /** What an undeclared name does: `'reject'` answers 400, `'ignore'` drops the name. Default `'reject'`. */
  unknownFields?: 'reject' | 'ignore'
  /** Key of the records array in an envelope payload such as `{ count, results }`. Default `'results'`. */
  resultsKey?: string
  /** Compiled serializers, and parsed query spellings, kept per route; 0 keeps none and always copies. Default `100`. */
  cacheSize?: number
  /**
   * Estimated bytes of compiled serializers kept per route and restricted
   * status; a selection that would not fit alone is written. Default `2097152` (2 MiB).
   */
  cacheBytes?: number
  /** Most field names one request may send, over both parameters. Default `100`. */
  maxFields?: number
  /** Most segments of a dotted path, and how deep the response schema is read. Default `8`. */
  maxDepth?: number
  /**
   * Most names a list of `only` and `defer` choices names, in callers'
   * OpenAPI documents and the MCP tools: past it, the paths down to the
   * deepest depth that fits (the top level at least), deeper paths taken by
   * a pattern. Default `100`.
   */
  maxListedFields?: number
  /** The fields each request may not see, per request; they are then treated as undeclared. Default: none. */
  hiddenFields?: HiddenFieldsRule
  /**
   * Named field sets (presets) that clients ask for with `only=@name`, each a
   * list of field names or dotted paths. Plugin-level sets are shared by every
   * opted-in route; a route's own sets add to them, or replace one of the same
   * name. Default: none.
   */
  fieldSets?: Record<string, readonly string[]>
  /**
   * Estimated heap bytes of callers' OpenAPI documents kept, one per view
   * (what the rules hide from a caller); the least recently used go first.
   * Plugin-wide only. Default `67108864` (64 MiB).
   */
  documentCacheBytes?: number
  /**
   * Opts in every route declared after the plugin whose 2xx response schema
   * holds records (an object, an array of objects, an envelope), whatever its
   * method, as if it said `restrictFields: true`; `restrictFields: false`
   * leaves a route out. Plugin-wide only. Default `false`: only routes that
   * say `restrictFields` are opted in.
   */
  global?: boolean
}

/**
 * The object form of the `restrictFields` route option. `P` is the route's
 * declared paths where a type provider gives its reply type: a misspelt
 * default field or set member then does not compile.
 */
export interface RestrictFieldsRouteOptions<P extends string = string> extends Omit<RestrictedFieldsOptions, 'fieldSets' | 'documentCacheBytes' | 'global'> {
  /** Declared fields as dotted paths, for a route without a response schema. */
  fields?: readonly string[]
  /**
   * The fields sent when a request has no `only` (`@default` in `only`), as
   * names or dotted paths. Default: every field.
   */
  defaultFields?: ReadonlyArray<NoInfer<P>>
  /** The route's own field sets, added to the plugin's (a set of the same name is replaced). */
  fieldSets?: Record<string, ReadonlyArray<NoInfer<P>>>
  /**
   * The loaders (ORM adapters, or `loadPlanner`s) the handler loads the
   * route's records with: every declared path is checked against their
   * sources when the route is declared, so a field no column can fill fails
   * there, not on the first request that selects it.
   */
  loads?: LoadCheck | readonly LoadCheck[]
}

/** What `loads` takes: anything with the `check` of a loader (an adapter's function, a `loadPlanner`). */
export interface LoadCheck {
  readonly check: (paths: readonly string[]) => void
}

export type ResolvedOptions = Required<Omit<RestrictedFieldsOptions, 'hiddenFields'>> & { hiddenFields: HiddenFieldsRule | null }

export interface ResolvedRouteOptions extends ResolvedOptions {
  /** Whether the route names its own `resultsKey`: its response schema must then hold its records there. */
  ownResultsKey: boolean
  fields: string[] | null
  defaultFields: string[] | null
  loads: readonly LoadCheck[]
}

const DEFAULTS: ResolvedOptions = {
  onlyParam: 'only',
  deferParam: 'defer',
  unknownFields: 'reject',
  resultsKey: 'results',
  cacheSize: 100,
  cacheBytes: 2_097_152,
  maxFields: 100,
  maxDepth: 8,
  maxListedFields: 100,
  hiddenFields: null,
  fieldSets: {},
  documentCacheBytes: 67_108_864,
  global: false
}

/** Options of the whole plugin, which a route does not take. */
const PLUGIN_ONLY = new Set(['documentCacheBytes', 'global'])

const UNKNOWN_FIELDS_CHOICES = ['reject', 'ignore']
const MAX_DEPTH_LIMIT = 32

function show (value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (Array.isArray(value)) return 'an array'
  return value !== null && typeof value === 'object' ? 'an object' : String(value)
}

function invalid (where: string, name: string, expected: string, value: unknown): never {
  throw new InvalidOptionError(`${where}\`${name}\` option should be ${expected}, instead got ${show(value)}`)
}

function checkName (where: string, name: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '' || value !== value.trim()) {
    invalid(where, name, 'a non-empty string without surrounding spaces', value)
  }
}

function checkInteger (where: string, name: string, value: unknown, min: number, max: number): void {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    invalid(where, name, `an integer from ${min} to ${max}`, value)
  }
}

function isPathList (value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((path) =>
    typeof path === 'string' && path.split('.').every((segment) => segment !== '' && segment === segment.trim()))
}

function checkFields (where: string, name: string, value: unknown): void {
  if (!isPathList(value)) invalid(where, name, 'a non-empty array of field names or dotted paths', value)
}

/** What a field set may be named: a plain word, so that `@name` reads the same in every query syntax. */
const FIELD_SET_NAME = /^[A-Za-z0-9_-]+$/

function checkFieldSets (where: string, value: unknown): void {
  if (!isRecord(value)) invalid(where, 'fieldSets', 'an object of field lists', value)
  for (const [name, fields] of Object.entries(value)) {
    if (!FIELD_SET_NAME.test(name)) {
      throw new InvalidFieldSetError(`${where}field set ${JSON.stringify(name)} should be named with a plain word (letters, digits, '_' and '-')`)
    }
    if (name === 'default') {
      throw new InvalidFieldSetError(`${where}field set 'default' would shadow @default, the fields sent without \`only\`; declare them with \`defaultFields\``)
    }
    if (!isPathList(fields)) invalid(where, `fieldSets.${name}`, 'a non-empty array of field names or dotted paths', fields)
  }
}

function checkOptions (where: string, options: Record<string, unknown>, allowed: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) {
      throw new InvalidOptionError(`${where}unknown option '${name}'; known options: ${allowed.join(', ')}`)
    }
  }
  if ('onlyParam' in options) checkName(where, 'onlyParam', options.onlyParam)
  if ('deferParam' in options) checkName(where, 'deferParam', options.deferParam)
  if ('resultsKey' in options) checkName(where, 'resultsKey', options.resultsKey)
  if ('unknownFields' in options && !UNKNOWN_FIELDS_CHOICES.includes(options.unknownFields as string)) {
    invalid(where, 'unknownFields', `one of ${UNKNOWN_FIELDS_CHOICES.map(show).join(', ')}`, options.unknownFields)
  }
  if ('cacheSize' in options) checkInteger(where, 'cacheSize', options.cacheSize, 0, 100_000)
  if ('cacheBytes' in options) checkInteger(where, 'cacheBytes', options.cacheBytes, 0, 1_073_741_824)
  if ('documentCacheBytes' in options) checkInteger(where, 'documentCacheBytes', options.documentCacheBytes, 0, 17_179_869_184)
  if ('maxFields' in options) checkInteger(where, 'maxFields', options.maxFields, 1, 10_000)
  if ('maxDepth' in options) checkInteger(where, 'maxDepth', options.maxDepth, 1, MAX_DEPTH_LIMIT)
  if ('maxListedFields' in options) checkInteger(where, 'maxListedFields', options.maxListedFields, 1, 1_000_000)
  if ('fields' in options) checkFields(where, 'fields', options.fields)
  if ('defaultFields' in options) checkFields(where, 'defaultFields', options.defaultFields)
  if ('fieldSets' in options) checkFieldSets(where, options.fieldSets)
  if ('hiddenFields' in options && typeof options.hiddenFields !== 'function') {
    invalid(where, 'hiddenFields', 'a function of the request', options.hiddenFields)
  }
  if ('loads' in options) checkLoads(where, options.loads)
  if ('global' in options && typeof options.global !== 'boolean') invalid(where, 'global', 'a boolean', options.global)
}

function isLoader (value: unknown): value is LoadCheck {
  return (typeof value === 'function' || isRecord(value)) && typeof (value as Partial<LoadCheck>).check === 'function'
}

function checkLoads (where: string, value: unknown): void {
  if (!(Array.isArray(value) ? value.every(isLoader) : isLoader(value))) {
    invalid(where, 'loads', 'a loader (an ORM adapter\'s function or a loadPlanner) or an array of them', value)
  }
}

function checkDistinctParams (where: string, options: ResolvedOptions): void {
  if (options.onlyParam === options.deferParam) {
    throw new InvalidOptionError(`${where}\`onlyParam\` and \`deferParam\` must differ, both are '${options.onlyParam}'`)
  }
}

/** Checks the plugin's options and fills in the defaults. Throws FST_RESTRICTED_FIELDS_INVALID_OPTION. */
export function normalizeOptions (options: unknown): ResolvedOptions {
  const where = 'fastify-restricted-fields: '
  if (!isRecord(options)) {
    throw new InvalidOptionError(`${where}options should be an object, instead got ${show(options)}`)
  }
  checkOptions(where, options, Object.keys(DEFAULTS))
  const resolved = { ...DEFAULTS, ...options } as ResolvedOptions
  checkDistinctParams(where, resolved)
  return resolved
}

/**
 * Resolves a route's `restrictFields` value over the plugin's options: null
 * when the route is not opted in (`undefined` or `false`). Throws for any
 * value other than a boolean or an options object.
 */
export function resolveRouteOptions (value: unknown, global: ResolvedOptions, route: string): ResolvedRouteOptions | null {
  const where = `fastify-restricted-fields, route ${route}: `
  if (value === undefined || value === false) return null
  if (value === true) return { ...global, ownResultsKey: false, fields: null, defaultFields: null, loads: [] }
  if (!isRecord(value)) {
    throw new InvalidOptionError(`${where}\`restrictFields\` option should be true, false or an options object, instead got ${show(value)}`)
  }
  checkOptions(where, value, [...Object.keys(DEFAULTS).filter((name) => !PLUGIN_ONLY.has(name)), 'fields', 'defaultFields', 'loads'])
  const resolved = { ...global, ownResultsKey: 'resultsKey' in value, fields: null, defaultFields: null, ...value } as ResolvedRouteOptions
  resolved.loads = value.loads === undefined ? [] : ([] as LoadCheck[]).concat(value.loads as LoadCheck | LoadCheck[])
  // A route's sets add to the plugin's, and replace the one they share a name with.
  if (value.fieldSets !== undefined) resolved.fieldSets = { ...global.fieldSets, ...value.fieldSets as Record<string, string[]> }
  checkDistinctParams(where, resolved)
  return resolved
}
