/**
 * Makes an OpenAPI 3.x or Swagger 2.0 document true for the routes that let
 * clients restrict their fields. A pure function of the finished document,
 * so it applies after every transform that produced it.
 *
 * On each opted-in operation it:
 * - relaxes the restricted response: no field a client can leave out is
 *   `required`, down to `maxDepth` levels; an envelope around the records is
 *   kept as declared. A named schema (`$ref`) gets a relaxed twin instead of
 *   being changed, so routes that are not restricted keep the original;
 * - documents the plugin's 400 (`RestrictedFieldsError`), merged with the
 *   route's own 400 where it has one;
 * - documents `only` and `defer` as repeated query parameters, adding them
 *   where the route's querystring schema did not declare them.
 */
import { InvalidParameterError, PathTooDeepError, TooManyFieldsError, UnknownFieldError, UnknownFieldSetError } from './errors.js'
import { MAX_REF_HOPS, decodePointerToken, encodePointerToken, isRecord } from './json.js'
import type { PathTrie } from './projection.js'
import { deferDescription, onlyDescription, setChoices } from './querystring.js'
import type { DocumentedSets } from './querystring.js'

export type Json = Record<string, any>

/** Where the records sit in a response; `key` names an envelope's records array. */
export interface RecordsShape { readonly kind: 'object' | 'array' | 'envelope' | 'auto', readonly key?: string }

/** What the document needs to know about one opted-in route. */
export interface RestrictedRoute extends DocumentedSets {
  /** The route's method, or methods. */
  readonly method: string | readonly string[]
  /** The route's URL as Fastify has it, prefix included (`/api/users/:id`). */
  readonly url: string
  /** The response status whose records are restricted (`'200'`, `'2xx'`); undefined for a `fields` route. */
  readonly statusKey: string | undefined
  /** Where the records sit in that response; `key` names an envelope's records array. */
  readonly shape: RecordsShape
  /** The other restricted 2xx statuses, with where their records sit. */
  readonly otherStatuses?: ReadonlyArray<{ readonly statusKey: string, readonly shape: RecordsShape }>
  /** How many levels of fields can be restricted. */
  readonly maxDepth: number
  readonly onlyParam: string
  readonly deferParam: string
  /** The declared dotted paths: the choices of both parameters. */
  readonly paths: readonly string[]
  /** Whether a `hiddenFields` rule hides some fields from some requests. */
  readonly hidesFields?: boolean
  /** The route's `hiddenFields` rule, which a caller's document asks what it hides. */
  readonly hiddenFields?: ((request: any) => unknown) | null
}

/** One text per trie of hidden paths. */
function hiddenText (hidden: PathTrie): string {
  return JSON.stringify([...hidden.children].map(([name, below]) => [name, below.whole ? 1 : hiddenText(below)]))
}

/** Whether a dotted path, or one of its parents, is hidden. */
function isHidden (path: string, hidden: PathTrie): boolean {
  let level = hidden
  for (const segment of path.split('.')) {
    const below = level.children.get(segment)
    if (below === undefined) return false
    if (below.whole) return true
    level = below
  }
  return false
}

/**
 * The vendor key that carries a route's id from its schema to its operation:
 * @fastify/swagger copies every `x-` key of a route schema to the operation.
 */
export const OPERATION_KEY = 'x-restricted-fields'

/** The name of the component that documents the plugin's 400 body (a free variant if taken by another schema). */
export const ERROR_COMPONENT = 'RestrictedFieldsError'

/** Appended to a relaxed twin's name (`user` → `userRestricted`). */
export const TWIN_SUFFIX = 'Restricted'

/** The codes of the 400 errors the plugin sends. */
export const CLIENT_ERROR_CODES: readonly string[] = [
  new UnknownFieldError(''), new InvalidParameterError('', ''), new TooManyFieldsError('', '', 0), new PathTooDeepError('', '', 0),
  new UnknownFieldSetError('')
].map((error) => error.code)

const ERROR_SCHEMA = {
  type: 'object',
  description: 'A restriction parameter names an undeclared field, is malformed, names too many fields, has too deep a path or names an unknown field set.',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', enum: [400] },
    code: { type: 'string', enum: CLIENT_ERROR_CODES },
    error: { type: 'string' },
    message: { type: 'string' }
  }
}

const ERROR_DESCRIPTION = 'Bad Request: a restriction parameter is invalid (`code` says how).'

// Keywords that can make a shorter object invalid. At a level that can be
// restricted they go: a loosened schema stays true to every response the full
// one allowed. `discriminator` names a property a restriction may leave out.
const REQUIRING = ['required', 'minProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'if', 'then', 'else', 'not', 'discriminator']

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']

type Version = '2.0' | '3'

/** Copies the arrays and plain objects of a document; other values (a Date in an example, say) are shared. */
function cloneJson<T> (value: T): T {
  if (Array.isArray(value)) return value.map(cloneJson) as T
  if (!isRecord(value) || ![Object.prototype, null].includes(Object.getPrototypeOf(value))) return value
  const copy: Json = {}
  for (const [key, member] of Object.entries(value)) copy[key] = cloneJson(member)
  return copy as T
}

/**
 * A Fastify URL as @fastify/swagger writes it into a document (a port of its
 * `formatParamUrl`): `:id` and `:id(^\\d+)` → `{id}`, an unnamed regular
 * expression → `{regexp1}`, `*` → `{*}`, `::` → `:`.
 */
export function documentPath (url: string): string {
  let state: 'text' | 'name' | 'regexp' = 'text'
  let path = ''
  let name = ''
  let level = 0
  let unnamed = 0
  for (let i = 0; i < url.length; i++) {
    const char = url[i]
    if (state === 'name') {
      if (/\w/.test(char)) {
        name += char
      } else if (char === '(') {
        state = 'regexp'
        level++
      } else {
        // The character that ends a name is kept as it is, whatever it is.
        state = 'text'
        path += `{${name}}${char}`
        name = ''
      }
    } else if (state === 'regexp') {
      if (char === '(') level++
      else if (char === ')') level--
      if (level === 0) {
        state = 'text'
        path += `{${name === '' ? `regexp${++unnamed}` : name}}`
        name = ''
      }
    } else if (char === ':' && url[i + 1] === ':') {
      path += ':'
      i++
    } else if (char === ':') {
      state = 'name'
    } else if (char === '(') {
      state = 'regexp'
      level++
    } else {
      path += char === '*' ? '{*}' : char
    }
  }
  if (state === 'name' && name !== '') path += `{${name}}`
  return path
}

function documentVersion (document: Json): Version | null {
  if (document.swagger === '2.0') return '2.0'
  return typeof document.openapi === 'string' && document.openapi.startsWith('3.') ? '3' : null
}

/** The paths a route may have in the document: with a base path stripped (as @fastify/swagger does by default), then as is. */
function candidatePaths (document: Json, version: Version, url: string): string[] {
  const bases: string[] = []
  if (version === '2.0') {
    if (typeof document.basePath === 'string') bases.push(document.basePath)
  } else if (Array.isArray(document.servers)) {
    for (const server of document.servers) {
      if (typeof server?.url !== 'string') continue
      const resolved = server.url.replace(/\{([^{}]+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole))
      try {
        bases.push(new URL(resolved, 'http://localhost').pathname)
      } catch {}
    }
  }
  const stripped = bases
    .filter((base) => base.length > 1 && url.startsWith(base))
    .map((base) => {
      const rest = url.slice(base.length)
      return documentPath(rest.startsWith('/') ? rest : `/${rest}`)
    })
  return [...stripped, documentPath(url)]
}

interface Found { id: string, route: RestrictedRoute, operation: Json, pathItem: Json }

/**
 * Finds the operations of the routes: by the vendor key their schema carried,
 * else (a transform that dropped the key) by method and path.
 */
function findOperations (document: Json, version: Version, routes: ReadonlyMap<string, RestrictedRoute>): Found[] {
  const found: Found[] = []
  const matched = new Set<string>()
  const unmarked = new Map<string, Json>()
  for (const [path, pathItem] of Object.entries(document.paths as Json)) {
    if (!isRecord(pathItem)) continue
    for (const method of METHODS) {
      const operation = pathItem[method]
      if (!isRecord(operation)) continue
      const id = operation[OPERATION_KEY]
      if (id === undefined) {
        unmarked.set(`${method} ${path}`, operation)
      } else if (routes.has(id)) {
        delete operation[OPERATION_KEY]
        matched.add(id)
        found.push({ id, route: routes.get(id) as RestrictedRoute, operation, pathItem })
      }
    }
  }
  for (const [id, route] of routes) {
    if (matched.has(id)) continue
    const methods = typeof route.method === 'string' ? [route.method] : route.method
    for (const method of methods) {
      for (const path of candidatePaths(document, version, route.url)) {
        const key = `${method.toLowerCase()} ${path}`
        const operation = unmarked.get(key)
        if (operation === undefined) continue
        unmarked.delete(key)
        found.push({ id, route, operation, pathItem: document.paths[path] })
        break
      }
    }
  }
  return found
}

/** The relaxation of one document: twins are made once and shared by every operation. */
class Relaxation {
  readonly #schemas: Json
  readonly #prefix: string
  readonly #version: Version
  /** Twin names by kind and original name. */
  readonly #twins = new Map<string, string>()
  /** Components whose relaxed form differs from them. */
  readonly #changing: ReadonlySet<string>
  #errorRef: string | null = null

  constructor (document: Json, version: Version) {
    this.#version = version
    if (version === '2.0') {
      document.definitions = isRecord(document.definitions) ? document.definitions : {}
      this.#schemas = document.definitions
      this.#prefix = '#/definitions/'
    } else {
      document.components = isRecord(document.components) ? document.components : {}
      document.components.schemas = isRecord(document.components.schemas) ? document.components.schemas : {}
      this.#schemas = document.components.schemas
      this.#prefix = '#/components/schemas/'
    }
    this.#changing = this.#changingComponents()
  }

  /** The component a `$ref` names, or null for a pointer inside one or into another document. */
  #componentName (ref: unknown): string | null {
    if (typeof ref !== 'string' || !ref.startsWith(this.#prefix)) return null
    const name = ref.slice(this.#prefix.length)
    if (name.includes('/')) return null
    const decoded = decodePointerToken(name)
    return Object.hasOwn(this.#schemas, decoded) && isRecord(this.#schemas[decoded]) ? decoded : null
  }

  #ref (name: string): string {
    return this.#prefix + encodePointerToken(name)
  }

  /**
   * The components that a full relaxation changes: those with a requiring
   * keyword where fields sit, and those that reach one through a `$ref`.
   */
  #changingComponents (): Set<string> {
    const changing = new Set<string>()
    const refersTo = new Map<string, Set<string>>()
    const visit = (schema: unknown, owner: string): void => {
      if (!isRecord(schema)) return
      const target = this.#componentName(schema.$ref)
      if (target !== null) refersTo.set(target, (refersTo.get(target) ?? new Set()).add(owner))
      if (REQUIRING.some((keyword) => Object.hasOwn(schema, keyword))) changing.add(owner)
      if (isRecord(schema.properties)) for (const property of Object.values(schema.properties)) visit(property, owner)
      visit(schema.items, owner)
      for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
        if (Array.isArray(schema[keyword])) for (const member of schema[keyword]) visit(member, owner)
      }
    }
    for (const [name, schema] of Object.entries(this.#schemas)) visit(schema, name)
    const queue = [...changing]
    while (queue.length > 0) {
      for (const owner of refersTo.get(queue.pop() as string) ?? []) {
        if (!changing.has(owner)) {
          changing.add(owner)
          queue.push(owner)
        }
      }
    }
    return changing
  }

  #freeName (base: string): string {
    let name = base
    for (let n = 2; Object.hasOwn(this.#schemas, name); n++) name = `${base}${n}`
    return name
  }

  /**
   * The relaxed twin of component `name`, made on first use. `relax` makes
   * its content; the name is reserved first, so a recursive schema's twin
   * refers to itself.
   */
  #twin (name: string, kind: string, relax: (schema: Json) => Json, note: string): string {
    const key = `${kind} ${name}`
    let twin = this.#twins.get(key)
    if (twin === undefined) {
      twin = this.#freeName(name + TWIN_SUFFIX)
      this.#twins.set(key, twin)
      this.#schemas[twin] = {}
      const original = this.#schemas[name]
      const relaxed = relax(original)
      this.#schemas[twin] = {
        ...relaxed,
        ...(typeof original.title === 'string' ? { title: original.title + TWIN_SUFFIX } : {}),
        description: typeof original.description === 'string' ? `${original.description} ${note}` : note
      }
    }
    return this.#ref(twin)
  }

  /**
   * Relaxes a schema whose object level holds fields that can be restricted,
   * `depth` levels of them from here, and leaves out the `hidden` paths at
   * any depth. Returns the schema itself when nothing changes.
   */
  relaxRecords (schema: unknown, depth: number, hidden: PathTrie | null = null): unknown {
    const relaxing = depth >= 1
    if (!isRecord(schema) || (!relaxing && hidden === null)) return schema
    let changed = false
    const relaxed: Json = {}
    for (const [keyword, value] of Object.entries(schema)) {
      if (relaxing && REQUIRING.includes(keyword)) {
        changed = true
        continue
      }
      let next = value
      if (keyword === '$ref') {
        next = this.#recordsRef(value, relaxing, hidden)
      } else if (keyword === 'required' && Array.isArray(value) && hidden !== null) {
        const kept = value.filter((name) => hidden.children.get(name)?.whole !== true)
        if (kept.length < value.length) next = kept
      } else if (keyword === 'properties' && isRecord(value)) {
        next = this.#relaxProperties(value, depth, hidden)
      } else if (keyword === 'items') {
        next = this.relaxRecords(value, depth, hidden)
      } else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') && Array.isArray(value)) {
        next = this.#mapArray(value, (member) => this.relaxRecords(member, depth, hidden))
      }
      changed ||= next !== value
      relaxed[keyword] = next
    }
    if (!changed) return schema
    if (relaxing && relaxed.oneOf !== undefined && relaxed.oneOf !== schema.oneOf) {
      // Loosened alternatives may overlap, and oneOf forbids that.
      const alternatives = relaxed.oneOf
      delete relaxed.oneOf
      if (relaxed.anyOf === undefined) relaxed.anyOf = alternatives
      else relaxed.allOf = [...(relaxed.allOf ?? []), { anyOf: alternatives }]
    }
    return relaxed
  }

  #relaxProperties (properties: Json, depth: number, hidden: PathTrie | null): Json {
    let changed = false
    const relaxed: Json = {}
    for (const [name, property] of Object.entries(properties)) {
      const below = hidden?.children.get(name)
      if (below?.whole === true) {
        changed = true
        continue
      }
      relaxed[name] = this.relaxRecords(property, depth - 1, below ?? null)
      changed ||= relaxed[name] !== property
    }
    return changed ? relaxed : properties
  }

  /** A `$ref` to records: to the twin of the component relaxed (when that changes it) and without the hidden paths. */
  #recordsRef (ref: unknown, relaxing: boolean, hidden: PathTrie | null): unknown {
    const target = this.#componentName(ref)
    if (target === null) return ref
    if (hidden === null) {
      if (!relaxing || !this.#changing.has(target)) return ref
      // One twin serves every depth: it is relaxed all the way down.
      return this.#twin(target, 'records', (original) => this.relaxRecords(original, Infinity) as Json,
        'As restricted responses send it: any field may be left out.')
    }
    return relaxing
      ? this.#twin(target, `records ${hiddenText(hidden)}`, (original) => this.relaxRecords(original, Infinity, hidden) as Json,
        'As restricted responses send it to this caller: any field may be left out.')
      : this.#twin(target, `hidden ${hiddenText(hidden)}`, (original) => this.relaxRecords(original, 0, hidden) as Json,
        'As this caller is sent it.')
  }

  /** Relaxes the records array under `key` of an envelope, keeping the envelope as declared. */
  relaxEnvelope (schema: unknown, key: string, depth: number, hidden: PathTrie | null = null, hops = 0): unknown {
    // A chain of `$ref`s that loops never reaches an envelope.
    if (!isRecord(schema) || hops > MAX_REF_HOPS) return schema
    const target = this.#componentName(schema.$ref)
    if (target !== null) {
      const relaxed = this.relaxEnvelope(this.#schemas[target], key, depth, hidden, hops + 1)
      if (relaxed === this.#schemas[target]) return schema
      const ref = this.#twin(target, `envelope ${key} ${depth} ${hidden === null ? '' : hiddenText(hidden)}`, () => relaxed as Json,
        `As restricted responses send it: any field of the records in \`${key}\` may be left out.`)
      return { ...schema, $ref: ref }
    }
    let relaxed: Json = schema
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      if (!Array.isArray(schema[keyword])) continue
      const members = this.#mapArray(schema[keyword], (member) => this.relaxEnvelope(member, key, depth, hidden, hops + 1))
      if (members !== schema[keyword]) relaxed = { ...relaxed, [keyword]: members }
    }
    if (isRecord(schema.properties) && Object.hasOwn(schema.properties, key)) {
      const records = this.relaxRecords(schema.properties[key], depth, hidden)
      if (records !== schema.properties[key]) relaxed = { ...relaxed, properties: { ...schema.properties, [key]: records } }
    }
    return relaxed
  }

  #mapArray (array: unknown[], map: (value: unknown) => unknown): unknown[] {
    const mapped = array.map(map)
    return mapped.some((value, index) => value !== array[index]) ? mapped : array
  }

  /** A `$ref` to the component of the plugin's 400 body, added on first use. */
  errorSchema (): Json {
    if (this.#errorRef === null) {
      let name = ERROR_COMPONENT
      for (let n = 2; Object.hasOwn(this.#schemas, name) && JSON.stringify(this.#schemas[name]) !== JSON.stringify(ERROR_SCHEMA); n++) {
        name = `${ERROR_COMPONENT}${n}`
      }
      this.#schemas[name] = cloneJson(ERROR_SCHEMA)
      this.#errorRef = this.#ref(name)
    }
    return { $ref: this.#errorRef }
  }

  /**
   * Removes the components that nothing outside the components refers to,
   * directly or through other components: in a caller's document, the
   * originals of the twins that left out hidden fields.
   */
  dropUnreferenced (document: Json): void {
    const reached = new Set<string>()
    const queue: string[] = []
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) {
        for (const item of value) visit(item)
      } else if (isRecord(value)) {
        const target = this.#componentName(value.$ref)
        if (target !== null && !reached.has(target)) {
          reached.add(target)
          queue.push(target)
        }
        for (const member of Object.values(value)) if (member !== this.#schemas) visit(member)
      }
    }
    visit(document)
    while (queue.length > 0) visit(this.#schemas[queue.pop() as string])
    for (const name of Object.keys(this.#schemas)) if (!reached.has(name)) delete this.#schemas[name]
  }

  get version (): Version {
    return this.#version
  }
}

/** The key of a status in the document: `2XX` in OpenAPI 3, `200` for `2xx` in Swagger 2.0. */
function responseKey (statusKey: string, version: Version): string {
  const upper = statusKey.toUpperCase()
  return version === '2.0' ? upper.replace('XX', '00') : upper
}

function shapeNote (route: RestrictedRoute, shape: RecordsShape): string {
  const params = `\`${route.onlyParam}\` and \`${route.deferParam}\``
  const what = shape.kind === 'envelope'
    ? `the fields of each record in \`${String(shape.key)}\``
    : shape.kind === 'array' ? 'the fields of each item' : 'its fields'
  const note = `The ${params} query parameters choose ${what}; a field they leave out is absent.`
  // Hidden fields stay declared: the requests allowed to see them must match the document too.
  return route.hidesFields === true ? `${note} Some fields are hidden from some requests, which are answered as if those fields were not declared.` : note
}

function withNote (description: unknown, note: string): string {
  const text = typeof description === 'string' ? description.trim() : ''
  if (text.endsWith(note)) return text
  if (text === '') return note
  return `${text}${/[.!?]$/.test(text) ? '' : '.'} ${note}`
}

function relaxSuccess (relaxation: Relaxation, operation: Json, route: RestrictedRoute, hidden: PathTrie | null): void {
  if (!isRecord(operation.responses)) return
  const relax = (schema: unknown, shape: RecordsShape): unknown => shape.kind === 'envelope'
    ? relaxation.relaxEnvelope(schema, String(shape.key), route.maxDepth, hidden)
    : relaxation.relaxRecords(schema, route.maxDepth, hidden)
  // A `fields` route has no success schema to relax, and restricts every 2xx.
  const statuses = route.statusKey === undefined
    ? Object.keys(operation.responses).filter((key) => key.startsWith('2')).map((key) => ({ key, shape: route.shape }))
    : [{ statusKey: route.statusKey, shape: route.shape }, ...route.otherStatuses ?? []]
        .map(({ statusKey, shape }) => ({ key: responseKey(statusKey, relaxation.version), shape }))
  for (const { key, shape } of statuses) {
    const response = operation.responses[key]
    if (!isRecord(response)) continue
    if (relaxation.version === '2.0') {
      if (response.schema !== undefined) response.schema = relax(response.schema, shape)
    } else if (isRecord(response.content)) {
      for (const media of Object.values(response.content)) {
        if (isRecord(media) && media.schema !== undefined) media.schema = relax(media.schema, shape)
      }
    }
    response.description = withNote(response.description, shapeNote(route, shape))
  }
}

function documentError (relaxation: Relaxation, operation: Json): void {
  const responses: Json = isRecord(operation.responses) ? operation.responses : (operation.responses = {})
  const ours = relaxation.errorSchema()
  // A route's own 400 (or the 4XX or default response its 400s fell under) is kept: its body is one more possibility.
  const own = [responses['400'], responses['4XX'], responses['4xx'], responses.default].find(isRecord)
  if (own === undefined) {
    responses['400'] = relaxation.version === '2.0'
      ? { description: ERROR_DESCRIPTION, schema: ours }
      : { description: ERROR_DESCRIPTION, content: { 'application/json': { schema: ours } } }
    return
  }
  const response: Json = { ...own, description: withNote(own.description, 'Also sent when a restriction parameter is invalid.') }
  if (relaxation.version === '2.0') {
    // Swagger 2.0 has no anyOf: a route's own 400 body stays the documented one.
    if (response.schema === undefined) response.schema = ours
  } else {
    const content: Json = {}
    for (const [type, media] of Object.entries(isRecord(own.content) ? own.content : {})) {
      content[type] = isRecord(media) && media.schema !== undefined && type.includes('json')
        ? { ...media, schema: { anyOf: [media.schema, ours] } }
        : media
    }
    content['application/json'] ??= { schema: ours }
    response.content = content
  }
  responses['400'] = response
}

/** Removes hidden paths from the `enum` of a parameter schema and of its items. */
function withoutHiddenNames (schema: Json, hidden: PathTrie): void {
  for (const level of [schema, schema.items]) {
    if (isRecord(level) && Array.isArray(level.enum)) level.enum = level.enum.filter((path: unknown) => !isHidden(String(path), hidden))
  }
}

function documentParameters (relaxation: Relaxation, operation: Json, pathItem: Json, route: RestrictedRoute, hidden: PathTrie | null): void {
  const parameters: Json[] = Array.isArray(operation.parameters) ? operation.parameters : []
  const inherited: Json[] = Array.isArray(pathItem.parameters) ? pathItem.parameters : []
  const ours: Json[] = []
  const visible = (path: string): boolean => hidden === null || !isHidden(path, hidden)
  for (const [name, description, choices] of [
    [route.onlyParam, onlyDescription(route.onlyParam, route, visible), setChoices(route)],
    [route.deferParam, deferDescription(route.onlyParam, route.deferParam), []]
  ] as const) {
    const own = [...parameters, ...inherited].find((parameter) => isRecord(parameter) && parameter.in === 'query' && parameter.name === name)
    const items = { type: 'string', enum: [...route.paths.filter(visible), ...choices] }
    // The route's own parameter lists the names its querystring schema was given: the hidden ones go too.
    if (own !== undefined && hidden !== null) {
      withoutHiddenNames(relaxation.version === '2.0' ? own : own.schema, hidden)
      // The description the plugin gave it lists the fields of each set: the hidden ones go there too.
      if (name === route.onlyParam && own.description === onlyDescription(route.onlyParam, route)) own.description = description
    }
    if (relaxation.version === '2.0') {
      if (own === undefined) ours.push({ name, in: 'query', required: false, description, type: 'array', items, collectionFormat: 'multi' })
      else if (own.type === 'array') own.collectionFormat ??= 'multi'
    } else if (own === undefined) {
      ours.push({ name, in: 'query', required: false, description, style: 'form', explode: true, schema: { type: 'array', items } })
    } else if (own.schema?.type === 'array') {
      own.style ??= 'form'
      own.explode ??= true
    }
  }
  if (ours.length > 0) operation.parameters = [...ours, ...parameters]
}

/**
 * Returns the document made true for the given routes (by id, the value of
 * their `x-restricted-fields` key), or the document itself when it is
 * neither OpenAPI 3 nor Swagger 2.0. The input is not modified.
 *
 * With `hidden` (by route id, the paths its rule hides from one caller), it
 * is that caller's document: the hidden fields appear neither in the
 * parameters nor in the response schemas, and the components that only
 * served to name them are left out.
 */
export function restrictedDocument (document: unknown, routes: ReadonlyMap<string, RestrictedRoute>, hidden?: ReadonlyMap<string, PathTrie>): unknown {
  if (!isRecord(document)) return document
  const version = documentVersion(document)
  if (version === null || !isRecord(document.paths)) return document
  const copy = cloneJson(document)
  const found = findOperations(copy, version, routes)
  if (found.length === 0) return copy
  const relaxation = new Relaxation(copy, version)
  for (const { id, route, operation, pathItem } of found) {
    const hiddenHere = hidden?.get(id) ?? null
    relaxSuccess(relaxation, operation, route, hiddenHere)
    documentError(relaxation, operation)
    documentParameters(relaxation, operation, pathItem, route, hiddenHere)
  }
  if (hidden !== undefined && hidden.size > 0) relaxation.dropUnreferenced(copy)
  return copy
}
