/**
 * The last check of a caller's document, in two halves that share no blind
 * spot: the structural walk of leaks.ts, and a reading that knows no JSON
 * Schema keyword. A name that
 * a caller's rule hides and that the caller sees nowhere (no visible field
 * of a restricted route has it, nothing outside the restricted responses
 * shows it) has no reason to appear in what those responses reach: as a key,
 * as a string, as a segment of a reference or of an expression
 * (`$response.body#/secret`), or matched by a pattern. So the restricted
 * responses are read as plain JSON, following every local reference, and
 * the document is refused at the first such place. Whatever shape a
 * schema takes, and whatever a walker of JSON Schema overlooks, is caught
 * here alike. A name that is both hidden and visible is the structural
 * check's (leaks.ts).
 */
import { decodePointerToken, isRecord, pointerTo as at, valueAtPointer as resolvePointer } from '../json.js'
import type { PathTrie } from '../schema/tree.js'
import { hiddenNameFinder, patternNames } from './leaks.js'
import { restrictedStatuses } from './operations.js'
import type { Found } from './operations.js'
import { isHidden } from './parameters.js'
import { OPERATION_KEY } from './types.js'
import type { Json, Version } from './types.js'

// The author's own words (a title, a summary, a description) are not read.
const PROSE = new Set(['title', 'summary', 'description'])

// The keys every document uses for its own structure: a field hidden under one of these names is left to the
// structural check, since the word appears as a key whether the field is named or not.
const RESERVED = new Set(`
  $schema $id $ref $anchor $dynamicRef $dynamicAnchor $recursiveRef $recursiveAnchor $defs $comment $vocabulary definitions
  type enum const default examples example title description format pattern multipleOf maximum exclusiveMaximum minimum
  exclusiveMinimum maxLength minLength maxItems minItems uniqueItems maxContains minContains maxProperties minProperties
  required dependentRequired dependencies properties patternProperties additionalProperties propertyNames
  unevaluatedProperties items prefixItems additionalItems contains unevaluatedItems allOf anyOf oneOf not if then else
  dependentSchemas contentEncoding contentMediaType contentSchema readOnly writeOnly deprecated nullable discriminator
  propertyName mapping xml externalDocs collectionFormat allowEmptyValue headers links content schema encoding explode
  style in name value summary externalValue operationId operationRef parameters requestBody server url variables
  statuses record records key only defer sets defaultFields maxDepth
`.trim().split(/\s+/))

// Keys whose string values are words of a fixed vocabulary (`type: 'string'`, `format: 'email'`, `in: 'query'`), not names of fields.
const VOCABULARY_VALUES = new Set(['type', 'format', 'in', 'style', 'collectionFormat', 'name', '$schema', 'contentEncoding', 'contentMediaType', 'records'])

/** Where the scan found a hidden name (null: a reference it cannot follow), and the route whose part led there. */
export interface ScanFinding { pointer: string, name: string | null, place: Found }

/** A segment of a reference or an expression as a name: pointer-decoded (`~1`), then percent-decoded where it can be. */
function decodedSegment (segment: string): string {
  const name = decodePointerToken(segment)
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/**
 * The names hidden from the caller that no visible path of a restricted
 * route ends with, an envelope key, a reserved word, or a component's name.
 */
export function unseenHiddenNames (document: Json, version: Version, found: readonly Found[], hidden: ReadonlyMap<string, PathTrie>): Set<string> {
  const hiddenNames = new Set<string>()
  const visible = new Set<string>(Object.keys((version === '2.0' ? document.definitions : document.components?.schemas) ?? {}))
  for (const { id, route, operation } of found) {
    const trie = hidden.get(id)
    for (const path of route.paths) {
      const name = path.slice(path.lastIndexOf('.') + 1)
      if (trie !== undefined && isHidden(path, trie)) hiddenNames.add(name)
      else visible.add(name)
    }
    if (route.shape.key !== undefined) {
      visible.add(route.shape.key)
      for (const { key } of restrictedStatuses(operation, route, version)) {
        for (const name of envelopeNames(document, version, operation.responses?.[key])) visible.add(name)
      }
    }
  }
  return new Set([...hiddenNames].filter((name) => !visible.has(name) && !RESERVED.has(name)))
}

/** The names of an envelope's own fields, beside its records: they are the route's, and no rule hides them. */
function envelopeNames (document: Json, version: Version, response: unknown): string[] {
  const names: string[] = []
  const seen = new Set<unknown>()
  const visit = (schema: unknown): void => {
    if (!isRecord(schema) || seen.has(schema)) return
    seen.add(schema)
    if (typeof schema.$ref === 'string') visit(resolvePointer(document, schema.$ref.slice(1)))
    if (isRecord(schema.properties)) names.push(...Object.keys(schema.properties))
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      if (Array.isArray(schema[keyword])) for (const member of schema[keyword]) visit(member)
    }
  }
  const held = isRecord(response) && typeof response.$ref === 'string' ? resolvePointer(document, response.$ref.slice(1)) : response
  if (!isRecord(held)) return names
  if (version === '2.0') visit(held.schema)
  else for (const media of Object.values(isRecord(held.content) ? held.content : {})) visit(isRecord(media) ? media.schema : undefined)
  return names
}

/** One part of what a restricted route gives its callers, and the route. */
interface Part { value: unknown, pointer: string, place: Found }

/** What the restricted routes give their callers: their restricted responses, their `x-restricted-fields` key, their `only` and `defer` parameters. */
function restrictedParts (found: readonly Found[], version: Version): Part[] {
  const parts: Part[] = []
  for (const place of found) {
    const { route, operation, pathItem, method, path } = place
    const pointer = at(at('/paths', path), method)
    const responses = isRecord(operation.responses) ? operation.responses : {}
    for (const { key } of restrictedStatuses(operation, route, version)) {
      if (Object.hasOwn(responses, key)) parts.push({ value: responses[key], pointer: at(at(pointer, 'responses'), key), place })
    }
    parts.push({ value: operation[OPERATION_KEY], pointer: at(pointer, OPERATION_KEY), place })
    const names = [route.onlyParam, route.deferParam]
    for (const [holder, here] of [[operation, pointer], [pathItem, at('/paths', path)]] as const) {
      if (!Array.isArray(holder.parameters)) continue
      holder.parameters.forEach((parameter: unknown, index: number) => {
        if (isRecord(parameter) && names.includes(parameter.name)) parts.push({ value: parameter, pointer: at(at(here, 'parameters'), index), place })
      })
    }
  }
  return parts
}

/** One plain reading of JSON: keys and strings, every local reference followed, each object read once. */
class Scan {
  readonly #document: Json
  readonly #names: ReadonlySet<string>
  readonly #components: Json
  readonly #seen = new Set<unknown>()
  /** The first place each name was found, and the route whose part led there. */
  readonly found = new Map<string, { pointer: string, place: Found | null }>()
  /** The first reference that could not be followed, and the route whose part led there. */
  unfollowed: { pointer: string, place: Found | null } | null = null
  /** The route whose part is being read. */
  place: Found | null = null

  constructor (document: Json, version: Version, names: ReadonlySet<string>, skip: Iterable<unknown> = []) {
    this.#document = document
    this.#names = names
    this.#components = (version === '2.0' ? document.definitions : document.components?.schemas) ?? {}
    for (const value of skip) this.#seen.add(value)
  }

  #note (name: string | undefined, pointer: string): void {
    if (name !== undefined && !this.found.has(name)) this.found.set(name, { pointer, place: this.place })
  }

  /** The objects around the value being read, against which a local reference the document does not resolve is tried. */
  #outer: unknown[] = []

  /** Reads a value found at `pointer`. */
  read (value: unknown, pointer: string): void {
    if (typeof value === 'string') {
      this.#note(this.#named(value), pointer)
      this.#follow(value, pointer, false)
      return
    }
    if (value === null || typeof value !== 'object' || this.#seen.has(value)) return
    this.#seen.add(value)
    this.#outer.push(value)
    for (const [key, member] of Object.entries(value)) {
      const here = at(pointer, key)
      if (!Array.isArray(value)) this.#note(this.#names.has(key) ? key : undefined, here)
      if ((PROSE.has(key) || VOCABULARY_VALUES.has(key)) && typeof member === 'string') continue
      if (/pattern$/i.test(key) && typeof member === 'string') this.#note(this.#matched(member), here)
      if (/patternProperties$/i.test(key) && isRecord(member)) {
        for (const pattern of Object.keys(member)) this.#note(this.#matched(pattern), at(here, pattern))
      }
      if (/^\$(?:dynamic|recursive)?ref$/i.test(key) && typeof member === 'string') {
        this.#note(this.#named(member), here)
        this.#follow(member, here, true)
        continue
      }
      this.read(member, here)
    }
    this.#outer.pop()
  }

  /** Reads what a reference names, as a value of its own: the objects around the reference are not around it. */
  #readTarget (value: unknown, pointer: string): void {
    const outer = this.#outer
    this.#outer = []
    this.read(value, pointer)
    this.#outer = outer
  }

  /** The hidden name a string is, or holds as a segment of a path, a reference or an expression; the segments that name a component are skipped. */
  #named (text: string): string | undefined {
    if (this.#names.has(text)) return text
    if (!/[.#/{}[\]]/.test(text)) return undefined
    const segments = text.split(/[.#/{}[\]]/)
    // `#/components/schemas/user/…` splits into '', '', 'components', 'schemas', 'user', …: the component's name is not a field's.
    const start = /^#\/components\//.test(text) ? 5 : /^#\/[^/]+\//.test(text) ? 4 : 0
    return segments.slice(start).map(decodedSegment).find((segment) => this.#names.has(segment))
  }

  /** The hidden name a pattern matches or spells. */
  #matched (pattern: string): string | undefined {
    return [...this.#names].find((name) => patternNames(pattern, name))
  }

  /** Follows a string that refers to a place of the document, or to a component by its name (a discriminator's mapping). */
  #follow (text: string, pointer: string, reference: boolean): void {
    const outer = this.#outer
    if (text.startsWith('#/')) {
      const target = resolvePointer(this.#document, text.slice(1))
      if (target !== undefined) return this.#readTarget(target, text.slice(1))
      // A local `$defs` of the schema that holds the reference: read already, as part of it.
      if (outer.some((around) => resolvePointer(around, text.slice(1)) !== undefined)) return
    } else if (!text.startsWith('#') && Object.hasOwn(this.#components, text)) {
      return this.#readTarget(this.#components[text], at(schemasPointer(this.#document), text))
    } else if (text === '#' || text === '' || (text.startsWith('#') && outer.some((around) => holdsAnchor(around, text.slice(1))))) {
      return
    }
    if (reference && this.unfollowed === null) this.unfollowed = { pointer, place: this.place }
  }
}

/** Where a document keeps its schemas, as a pointer. */
function schemasPointer (document: Json): string {
  return document.swagger === '2.0' ? '/definitions' : '/components/schemas'
}

/** Whether `value` holds an object that a plain-name fragment names (`$anchor`, `$dynamicAnchor`, an `$id` of `#name`). */
function holdsAnchor (value: unknown, name: string, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return false
  seen.add(value)
  if (isRecord(value) && (value.$anchor === name || value.$dynamicAnchor === name || value.$id === `#${name}`)) return true
  return Object.values(value).some((member) => holdsAnchor(member, name, seen))
}

/**
 * The first place of what the restricted routes give a caller where a name
 * hidden from it, and seen nowhere else, appears; or the first reference
 * there that the document does not hold (another document's, a place that
 * is not there), which cannot be checked. Null when there is none.
 */
export function scanHiddenNames (document: Json, version: Version, found: readonly Found[], hidden: ReadonlyMap<string, PathTrie>): ScanFinding | null {
  if (found.length === 0) return null
  const names = unseenHiddenNames(document, version, found, hidden)
  const parts = restrictedParts(found, version)
  const restricted = new Scan(document, version, names)
  for (const { value, pointer, place } of parts) {
    restricted.place = place
    restricted.read(value, pointer)
  }
  if (restricted.unfollowed !== null) return { ...restricted.unfollowed, name: null } as ScanFinding
  if (restricted.found.size === 0) return null
  // A name found there may still be seen elsewhere (another route's field, a request body): only then is it no secret.
  const elsewhere = new Scan(document, version, new Set(restricted.found.keys()), parts.map(({ value }) => value))
  for (const [key, value] of Object.entries(document)) {
    // The components are read where something refers to them.
    if (!(version === '2.0' ? ['definitions', 'responses', 'parameters'] : ['components']).includes(key)) elsewhere.read(value, at('', key))
  }
  for (const [name, where] of restricted.found) {
    if (!elsewhere.found.has(name)) return { ...where, name } as ScanFinding
  }
  return null
}

/** Why the last check refuses a caller's document: where, about which route, and what was found. */
export interface Refusal { place: Found, pointer: string, reason: 'hidden name' | 'unchecked reference' }

/**
 * The last check of a caller's document, after it was relaxed: the first
 * place where what it gives a restricted route still names a path the
 * route's rule hides from the caller (`hidden`, by route id), read by each
 * schema's structure and, for the names the caller sees nowhere, as plain
 * JSON; or a reference there that cannot be followed. Null when none.
 */
export function lastCheck (document: Json, version: Version, found: readonly Found[], hidden: ReadonlyMap<string, PathTrie>): Refusal | null {
  const findHiddenName = hiddenNameFinder(document, version)
  for (const place of found) {
    const hiddenHere = hidden.get(place.id)
    const pointer = hiddenHere === undefined ? null : findHiddenName(place, hiddenHere)
    if (pointer !== null) return { place, pointer, reason: 'hidden name' }
  }
  const scanned = scanHiddenNames(document, version, found, hidden)
  return scanned === null ? null : { place: scanned.place, pointer: scanned.pointer, reason: scanned.name === null ? 'unchecked reference' : 'hidden name' }
}
