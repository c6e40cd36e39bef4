/**
 * The last check of a caller's document, route by route: it walks what the
 * document gives one route (its restricted responses, the components they
 * reach through `$ref`, its `x-restricted-fields` key, its `only` and
 * `defer` choices) with the paths the route's rule hides from the caller,
 * and finds the first place that still describes or refers to one. It reads
 * each schema's structure, so a field that merely shares a hidden field's
 * name at another place (another level, another route) is not taken for it.
 * Whatever shape the relaxer does not know is caught here, and the document
 * is refused rather than served.
 */
import { decodePointerToken, encodePointerToken, isRecord, pointerTo as at, valueAtPointer as resolveRef } from '../json.js'
import type { PathTrie } from '../schema/tree.js'
import { holdsHidden, mergedTries as merged } from '../visibility.js'
import { restrictedStatuses } from './operations.js'
import type { Found } from './operations.js'
import { isHidden } from './parameters.js'
import { OPERATION_KEY } from './types.js'
import type { Json, RecordsShape, Version } from './types.js'

// Keywords whose value is a schema of the same level as the one that holds them, or a list of them.
const SAME_LEVEL = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems'])
// Keywords whose value is an instance, or a list of instances.
const VALUES = new Set(['example', 'default', 'const'])
const VALUE_LISTS = new Set(['examples', 'enum'])

/** One text per trie of hidden paths. */
export function hiddenText (hidden: PathTrie): string {
  let text = texts.get(hidden)
  if (text === undefined) {
    text = JSON.stringify([...hidden.children].map(([name, below]) => [name, below.whole ? 1 : hiddenText(below)]))
    texts.set(hidden, text)
  }
  return text
}

// A trie is not changed once made (a rule's answer is remembered): its text is worked out once.
const texts = new WeakMap<PathTrie, string>()

/** Whether `name` is hidden at this level. */
export function hiddenName (hidden: PathTrie, name: unknown): boolean {
  return typeof name === 'string' && hidden.children.get(name)?.whole === true
}

/**
 * Whether a pattern (`patternProperties`, `propertyNames`) names `name`: its
 * text spells it, or it matches it with or without the `u` flag (`^s\-?sn$`
 * is invalid with it, and a validator without it matches `ssn`).
 */
export function patternNames (pattern: string, name: string): boolean {
  return pattern.includes(name) || matches(pattern, 'u', name) || matches(pattern, '', name)
}

function matches (pattern: string, flags: string, name: string): boolean {
  try {
    return new RegExp(pattern, flags).test(name)
  } catch {
    // A pattern that is not a JavaScript regular expression names only what it spells.
    return false
  }
}

/** Whether a `propertyNames` schema names a hidden field: in its `const`, its `enum` or its `pattern`. */
export function namesHiddenName (names: Json, hidden: PathTrie): boolean {
  if (hiddenName(hidden, names.const)) return true
  if (Array.isArray(names.enum) && names.enum.some((name) => hiddenName(hidden, name))) return true
  return typeof names.pattern === 'string' && [...hidden.children].some(([name, below]) => below.whole && patternNames(names.pattern, name))
}

/** The first index of a list whose item `named` says names something hidden, as a pointer; null when none. */
function firstIn (list: unknown, pointer: string, named: (item: unknown) => boolean): string | null {
  if (!Array.isArray(list)) return null
  const index = list.findIndex(named)
  return index === -1 ? null : at(pointer, index)
}

/** The hidden paths as they apply to a response whose records sit as `shape` says: an envelope's records sit under its key. */
function responseTrie (hidden: PathTrie, shape: RecordsShape): PathTrie {
  if (shape.kind === 'object' || shape.kind === 'array') return hidden
  const envelope: PathTrie = { whole: false, children: new Map([[String(shape.key), hidden]]) }
  // A `fields` route finds at run time whether its records are the payload, an array, or an envelope's.
  return shape.kind === 'envelope' ? envelope : merged(hidden, envelope)
}

/** A schema the walk reached, and where it sits in the document. */
interface Reached { value: unknown, pointer: string }

// The author's own words: not read.
const PROSE = new Set(['title', 'summary', 'description'])

/** The first object inside `value` that a plain-name fragment (`#node`) names: by `$anchor`, `$dynamicAnchor` or an `$id` of `#node`; with its pointer. */
function findAnchor (value: unknown, pointer: string, name: string, seen = new Set<unknown>()): Reached | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined
  seen.add(value)
  if (isRecord(value) && (value.$anchor === name || value.$dynamicAnchor === name || value.$id === `#${name}`)) return { value, pointer }
  for (const [key, member] of Object.entries(value)) {
    const found = findAnchor(member, at(pointer, key), name, seen)
    if (found !== undefined) return found
  }
  return undefined
}

/** The pointer tokens of a fragment, each decoded (`~1`, `%25`). */
function fragmentTokens (fragment: string): string[] {
  return fragment.split('/').slice(1).map((token) => {
    try {
      return decodePointerToken(decodeURIComponent(token))
    } catch {
      return decodePointerToken(token)
    }
  })
}

/** Whether a JSON pointer into a response body (a link's `$response.body#/owner/ssn`) reaches a hidden path; array indexes pass through. */
function pointsAtHidden (fragment: string, hidden: PathTrie): boolean {
  let level = hidden
  for (const token of fragmentTokens(fragment)) {
    const below = level.children.get(token)
    if (below === undefined) {
      if (/^(?:\d+|-)$/.test(token)) continue
      return false
    }
    if (below.whole) return true
    level = below
  }
  return false
}

// A runtime expression that reads the response body at a pointer, alone or inside a string (`{$response.body#/id}`).
const BODY_EXPRESSION = /\$response\.body#([^{}\s]*)/g

/** One walk of a document: each schema reached through a `$ref` is checked once per set of hidden paths. */
class Walk {
  /** What a local `$ref` (`#/…`) names in the document, or undefined. */
  readonly #resolve: (ref: string) => unknown
  /** The `$ref` of the components (`#/components/schemas/`), which a discriminator's mapping may name by their names alone. */
  readonly #components: string
  readonly #seen = new Set<string>()
  /**
   * The outermost schema being walked (a response's, a component): a local
   * `$ref` that the document does not resolve (`#/$defs/inner`, written by
   * Zod and TypeBox) is resolved against it, as a validator of that schema does.
   */
  #root: Reached | null = null

  constructor (resolve: (ref: string) => unknown, components: string) {
    const resolved = new Map<string, unknown>()
    this.#resolve = (ref) => {
      if (!resolved.has(ref)) resolved.set(ref, resolve(ref))
      return resolved.get(ref)
    }
    this.#components = components
  }

  /** A schema walked as the outermost one: its local `$ref`s resolve against it when the document does not resolve them. */
  root (schema: unknown, pointer: string, hidden: PathTrie): string | null {
    return this.#within({ value: schema, pointer }, () => this.schema(schema, pointer, hidden))
  }

  #within (root: Reached, walk: () => string | null): string | null {
    const outer = this.#root
    this.#root = root
    try {
      return walk()
    } finally {
      this.#root = outer
    }
  }

  /** What a `$ref` names, with where it sits; undefined for what the document does not hold (another document, a place that is not there). */
  #target (ref: string): Reached | undefined {
    if (ref.startsWith('#/')) {
      const value = this.#resolve(ref)
      if (value !== undefined) return { value, pointer: ref.slice(1) }
      const root = this.#root
      const inRoot = root === null ? undefined : resolveRef(root.value, ref)
      return inRoot === undefined ? undefined : { value: inRoot, pointer: `${(root as Reached).pointer}${ref.slice(1)}` }
    }
    return ref.startsWith('#') && this.#root !== null ? findAnchor(this.#root.value, this.#root.pointer, ref.slice(1)) : undefined
  }

  /**
   * What a `$ref` names, checked with the paths hidden where it is used. A
   * reference the document does not hold cannot be checked: its own place is
   * returned, so that the document is refused rather than served unchecked.
   */
  reference (ref: unknown, hidden: PathTrie, pointer: string): string | null {
    // A `$ref` of `#` refers to the schema that holds it, which is being walked.
    if (typeof ref !== 'string' || ref === '#' || hidden.children.size === 0) return null
    const target = this.#target(ref)
    if (target === undefined) return pointer
    const key = `${target.pointer} ${hiddenText(hidden)}`
    if (this.#seen.has(key)) return null
    this.#seen.add(key)
    // A place inside the schema being walked keeps it as the outermost; a component is the outermost schema of what it holds.
    const tokens = target.pointer.split('/')
    if (tokens[1] === 'paths' || (this.#root !== null && target.pointer.startsWith(this.#root.pointer + '/'))) return this.schema(target.value, target.pointer, hidden)
    const component = tokens.slice(0, tokens[1] === 'components' ? 4 : 3).join('/')
    return this.#within({ value: this.#resolve(`#${component}`), pointer: component }, () => this.schema(target.value, target.pointer, hidden))
  }

  /** The first place in a schema, found at `pointer`, that names a path of `hidden`; null when none. */
  schema (schema: unknown, pointer: string, hidden: PathTrie): string | null {
    if (!isRecord(schema) || hidden.children.size === 0) return null
    for (const [keyword, value] of Object.entries(schema)) {
      const found = this.#keyword(schema, keyword, value, at(pointer, keyword), hidden)
      if (found !== null) return found
    }
    return null
  }

  #keyword (schema: Json, keyword: string, value: unknown, pointer: string, hidden: PathTrie): string | null {
    if (SAME_LEVEL.has(keyword)) return Array.isArray(value) ? this.#first(value, (item, index) => this.schema(item, at(pointer, index), hidden)) : this.schema(value, pointer, hidden)
    if (VALUES.has(keyword)) return holdsHidden(value, hidden) ? pointer : null
    if (VALUE_LISTS.has(keyword)) return firstIn(value, pointer, (instance) => holdsHidden(instance, hidden))
    if (!isRecord(value)) {
      if (keyword === 'required') return firstIn(value, pointer, (name) => hiddenName(hidden, name))
      // Swagger 2.0's discriminator is the property's name alone.
      if (keyword === 'discriminator') return hiddenName(hidden, value) ? pointer : null
      return keyword === '$ref' ? this.reference(value, hidden, pointer) : null
    }
    switch (keyword) {
      case 'properties':
        // Only the properties that something is hidden in are read: a rule hides few of many.
        return this.#first([...hidden.children], ([name, below]) => !Object.hasOwn(value, name)
          ? null
          : below.whole ? at(pointer, name) : this.schema(value[name], at(pointer, name), below))
      case 'additionalProperties':
      case 'unevaluatedProperties':
        // The schema of every undeclared name (where @fastify/swagger and Swagger 2.0 put a pattern's): what is hidden below one may sit in it.
        return this.#first([...hidden.children], ([name, below]) => below.whole || (isRecord(schema.properties) && Object.hasOwn(schema.properties, name))
          ? null
          : this.schema(value, pointer, below))
      case 'dependencies':
      case 'dependentRequired':
      case 'dependentSchemas':
        return this.#first(Object.entries(value), ([name, dependency]) => hiddenName(hidden, name)
          ? at(pointer, name)
          : Array.isArray(dependency) ? firstIn(dependency, at(pointer, name), (other) => hiddenName(hidden, other)) : this.schema(dependency, at(pointer, name), hidden))
      case 'discriminator':
        if (hiddenName(hidden, value.propertyName)) return at(pointer, 'propertyName')
        // Each value of the mapping refers to a variant: a `$ref`, or a component's name.
        return this.#first(Object.entries(isRecord(value.mapping) ? value.mapping : {}), ([tag, ref]) =>
          this.reference(typeof ref === 'string' && !ref.startsWith('#') ? this.#components + encodePointerToken(ref) : ref, hidden, at(at(pointer, 'mapping'), tag)))
      case 'patternProperties':
        return this.#first(Object.entries(value), ([pattern, property]) => this.#first([...hidden.children], ([name, below]) => {
          if (!patternNames(pattern, name)) return null
          return below.whole ? at(pointer, pattern) : this.schema(property, at(pointer, pattern), below)
        }))
      case 'propertyNames':
        return this.#namesIn(value, hidden, new Set()) ? pointer : null
      default:
        return null
    }
  }

  /**
   * Whether a schema of names (`propertyNames`) names a hidden field, in any
   * shape: any string it holds (`const`, `enum`, `not`, `anyOf` members),
   * any `pattern` that matches one, and what its `$ref`s name (one the
   * document does not hold counts as naming).
   */
  #namesIn (value: unknown, hidden: PathTrie, seen: Set<unknown>): boolean {
    if (typeof value === 'string') return hiddenName(hidden, value)
    if (value === null || typeof value !== 'object' || seen.has(value)) return false
    seen.add(value)
    return Object.entries(value).some(([key, member]) => {
      if (PROSE.has(key) && typeof member === 'string') return false
      if (key === 'pattern' && typeof member === 'string') return [...hidden.children].some(([name, below]) => below.whole && patternNames(member, name))
      if (key !== '$ref' || typeof member !== 'string' || member === '#') return this.#namesIn(member, hidden, seen)
      const target = this.#target(member)
      return target === undefined || this.#namesIn(target.value, hidden, seen)
    })
  }

  /** The first link of a response whose expressions read a hidden path of the body; a link the document does not hold counts as one. */
  #links (links: unknown, pointer: string, hidden: PathTrie): string | null {
    return this.#first(Object.entries(isRecord(links) ? links : {}), ([name, link]) => {
      const held = isRecord(link) && typeof link.$ref === 'string' ? this.#target(link.$ref)?.value : link
      if (held === undefined) return at(pointer, name)
      return readsHidden(held, hidden) ? at(pointer, name) : null
    })
  }

  #first<T> (items: T[], find: (item: T, index: number) => string | null): string | null {
    for (let index = 0; index < items.length; index++) {
      const found = find(items[index], index)
      if (found !== null) return found
    }
    return null
  }

  /** A response (or a `$ref` to one), its schemas, the examples beside them and its links. */
  response (response: unknown, pointer: string, hidden: PathTrie, version: Version): string | null {
    if (!isRecord(response)) return null
    if (typeof response.$ref === 'string') {
      // A response shared among the components, checked once per set of hidden paths; one the document does not hold is refused.
      const target = response.$ref.startsWith('#/') ? this.#resolve(response.$ref) : undefined
      if (target === undefined) return at(pointer, '$ref')
      const key = `${response.$ref} ${hiddenText(hidden)}`
      if (this.#seen.has(key)) return null
      this.#seen.add(key)
      return this.response(target, response.$ref.slice(1), hidden, version)
    }
    if (version === '2.0') {
      return this.root(response.schema, at(pointer, 'schema'), hidden) ??
        this.#first(Object.entries(isRecord(response.examples) ? response.examples : {}), ([mime, example]) => holdsHidden(example, hidden) ? at(at(pointer, 'examples'), mime) : null)
    }
    return this.#first(Object.entries(isRecord(response.content) ? response.content : {}), ([mime, media]) => {
      if (!isRecord(media)) return null
      const here = at(at(pointer, 'content'), mime)
      if (Object.hasOwn(media, 'example') && holdsHidden(media.example, hidden)) return at(here, 'example')
      return this.root(media.schema, at(here, 'schema'), hidden) ??
        this.#first(Object.entries(isRecord(media.examples) ? media.examples : {}), ([name, example]) => {
          // A named example, or a `$ref` to one among the components.
          const held = isRecord(example) && typeof example.$ref === 'string' && example.$ref.startsWith('#/') ? this.#resolve(example.$ref) : example
          return isRecord(held) && holdsHidden(held.value, hidden) ? at(at(at(here, 'examples'), name), 'value') : null
        })
    }) ?? this.#links(response.links, at(pointer, 'links'), hidden)
  }

  /** The `only` and `defer` choices of an operation's parameters and of its path's. */
  parameters (parameters: unknown, pointer: string, names: readonly string[], hidden: PathTrie): string | null {
    if (!Array.isArray(parameters)) return null
    return this.#first(parameters, (parameter, index) => {
      if (!isRecord(parameter) || parameter.in !== 'query' || !names.includes(parameter.name)) return null
      const here = at(pointer, index)
      const [items, itemsPointer] = isRecord(parameter.schema) ? [parameter.schema.items, at(at(here, 'schema'), 'items')] : [parameter.items, at(here, 'items')]
      return isRecord(items) ? firstIn(items.enum, at(itemsPointer, 'enum'), (path) => isHidden(String(path), hidden)) : null
    })
  }

  /** The operation's `x-restricted-fields` key: the complete record of each restricted status, its field sets and default fields. */
  routeFields (described: unknown, pointer: string, hidden: PathTrie): string | null {
    if (!isRecord(described)) return null
    const visible = (paths: unknown, here: string): string | null => firstIn(paths, here, (path) => isHidden(String(path), hidden))
    return this.#first(Object.entries(isRecord(described.statuses) ? described.statuses : {}), ([status, description]) =>
      isRecord(description) && isRecord(description.record) ? this.reference(description.record.$ref, hidden, at(at(at(at(pointer, 'statuses'), status), 'record'), '$ref')) : null) ??
      this.#first(Object.entries(isRecord(described.sets) ? described.sets : {}), ([name, paths]) => visible(paths, at(at(pointer, 'sets'), name))) ??
      visible(described.defaultFields, at(pointer, 'defaultFields'))
  }
}

/** Whether a link (its parameters, its request body, anything it holds) reads a hidden path of the response body. */
function readsHidden (value: unknown, hidden: PathTrie): boolean {
  if (typeof value === 'string') return [...value.matchAll(BODY_EXPRESSION)].some(([, fragment]) => pointsAtHidden(fragment, hidden))
  if (value === null || typeof value !== 'object') return false
  return Object.values(value).some((member) => readsHidden(member, hidden))
}

const componentsRef = (version: Version): string => version === '2.0' ? '#/definitions/' : '#/components/schemas/'

/**
 * The first place, as a JSON pointer into `document`, where what the
 * document gives the route of `found` names a path its rule hides from the
 * caller (`hidden`); null when it names none.
 */
export function findHiddenName (document: Json, version: Version, found: Found, hidden: PathTrie): string | null {
  return hiddenNameFinder(document, version)(found, hidden)
}

/**
 * findHiddenName for every route of one document: a component reached by
 * several routes with the same hidden paths is checked once.
 */
export function hiddenNameFinder (document: Json, version: Version): (found: Found, hidden: PathTrie) => string | null {
  const walk = new Walk((ref) => resolveRef(document, ref), componentsRef(version))
  return (found, hidden) => routeHiddenName(walk, version, found, hidden)
}

function routeHiddenName (walk: Walk, version: Version, found: Found, hidden: PathTrie): string | null {
  const { operation, pathItem, route } = found
  const pointer = at(at('/paths', found.path), found.method)
  const responses = isRecord(operation.responses) ? operation.responses : {}
  const names = [route.onlyParam, route.deferParam]
  for (const { key, shape } of restrictedStatuses(operation, route, version)) {
    const leak = walk.response(responses[key], at(at(pointer, 'responses'), key), responseTrie(hidden, shape), version)
    if (leak !== null) return leak
  }
  return walk.routeFields(operation[OPERATION_KEY], at(pointer, OPERATION_KEY), hidden) ??
    walk.parameters(operation.parameters, at(pointer, 'parameters'), names, hidden) ??
    walk.parameters(pathItem.parameters, at(at('/paths', found.path), 'parameters'), names, hidden)
}
