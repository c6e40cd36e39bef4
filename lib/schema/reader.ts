/**
 * Reads the declared fields of a route out of its response schema into a
 * FieldTree, once, when the route is declared, and finds where its records
 * sit: the payload itself, the items of an array, or an envelope's array.
 *
 * A level of fields is read from every schema that describes it, its
 * composition read by lib/schema/composition.ts. Where the schema offers a
 * choice, the level declares every name of every variant, and keeps, in
 * `variants`, how the route's serializer chooses one and which names each
 * variant has.
 */
import { encodePointerToken, isRecord } from '../json.js'
import { emptyExpanded, expand, expandAll, isObjectLike, mergeInto, unionInto } from './composition.js'
import type { Expanded } from './composition.js'
import { References } from './references.js'
import type { Located, RefContext } from './references.js'
import { makeTree } from './tree.js'
import type { DeclaredResponse, FieldNode, FieldTree, JsonSchema, SimpleType } from './tree.js'
import { CHOICES, DEFINITIONS } from './vocabulary.js'

const EMBEDDED_KEY = 'fastify-restricted-fields:route'

// fast-json-stringify's rules, not JSON Schema's: the keywords that make it write a value otherwise than by its
// scalar type alone (it reads them, or follows them elsewhere). Not the vocabulary's to say.
const FAST_JSON_STRINGIFY_WRITES_OTHERWISE = [
  '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'const', 'properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties'
]
const SIMPLE_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean']

/** The scalar type fast-json-stringify writes a value of by its type alone, or null. */
function simpleTypeOf (schema: JsonSchema): SimpleType | null {
  if (FAST_JSON_STRINGIFY_WRITES_OTHERWISE.some((keyword) => Object.hasOwn(schema, keyword)) || schema.format === 'unsafe') return null
  const types: unknown[] = Array.isArray(schema.type) ? schema.type.filter((type: unknown) => type !== 'null') : [schema.type]
  return types.length === 1 && SIMPLE_TYPES.includes(types[0] as string) ? types[0] as SimpleType : null
}

const CONTAINER_TYPES: readonly unknown[] = ['object', 'array']

/** Whether one schema, by its `type`, `const` or `enum`, allows only values that hold no keys. */
function onlyScalars (schema: JsonSchema): boolean {
  if (schema.type !== undefined) {
    const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (types.length > 0 && !types.some((type) => CONTAINER_TYPES.includes(type))) return true
  }
  if (Object.hasOwn(schema, 'const')) return schema.const === null || typeof schema.const !== 'object'
  if (Array.isArray(schema.enum)) return schema.enum.every((value: unknown) => value === null || typeof value !== 'object')
  for (const keyword of CHOICES) {
    const members = schema[keyword]
    if (Array.isArray(members) && members.length > 0 && members.every((member) => isRecord(member) && onlyScalars(member))) return true
  }
  return false
}

function withoutDefault (schema: JsonSchema): JsonSchema {
  const { default: _default, ...rest } = schema
  return rest
}

class Reader {
  readonly refs: References
  constructor (refs: References) {
    this.refs = refs
  }

  /**
   * The properties of the given parts, by name, in the order fast-json-stringify
   * writes them: those `required` anywhere in the merge first, then the others,
   * each group in first-seen order.
   */
  #properties (parts: Located[], requiredNames: string[]): Map<string, Located[]> {
    const byName = new Map<string, Located[]>()
    const required = new Set(requiredNames)
    for (const part of parts) {
      for (const [name, property] of Object.entries(part.schema.properties as JsonSchema)) {
        if (!isRecord(property)) continue
        const located = { schema: property, base: part.base, pointer: `${part.pointer}/properties/${encodePointerToken(name)}` }
        const list = byName.get(name)
        if (list === undefined) byName.set(name, [located])
        else list.push(located)
      }
    }
    const names = [...byName.keys()]
    const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))]
    return new Map(ordered.map((name) => [name, byName.get(name) as Located[]]))
  }

  /** Whether a value read from an expansion may hold keys: every schema met on the way must allow more than scalars. */
  #mayHoldFields (expanded: Expanded): boolean {
    if (isObjectLike(expanded)) return true
    if (expanded.items !== null) return this.#mayHoldFields(expandAll(expanded.items, this.refs))
    return !expanded.seen.some((located) => onlyScalars(located.schema))
  }

  /** The tree of an object level read from an expansion. */
  level (expanded: Expanded, nullable: boolean, depthLeft: number): FieldTree {
    if (expanded.variants === null) {
      const nodes = [...this.#properties(expanded.parts, expanded.required)]
        .map(([name, locations]) => this.field(name, locations, depthLeft))
      return makeTree(nodes, { variants: null, nullable })
    }
    const variants = expanded.variants.map((variant) =>
      this.#properties([...expanded.parts, ...variant.parts], [...expanded.required, ...variant.required]))
    // Every name of every variant, in first-seen order; each variant keeps its own leaf of the names it has.
    const all = new Map<string, Located[][]>()
    for (const properties of variants) {
      for (const [name, locations] of properties) {
        const list = all.get(name)
        if (list === undefined) all.set(name, [locations])
        else list.push(locations)
      }
    }
    const nodes = [...all].map(([name, lists]) => this.field(name, lists[0], depthLeft, lists.length > 1 ? lists : null))
    const own = variants.map((properties) =>
      makeTree([...properties].map(([name, locations]) => this.field(name, locations, depthLeft)), { variants: null, nullable }))
    return makeTree(nodes, { variants: { tests: expanded.variants.map((variant) => variant.test), own }, nullable })
  }

  /**
   * A field read from every schema that declares it: several with `allOf`
   * (merged), several lists when variants declare it (`alternatives`: the
   * leaf is any of theirs, the children those of all).
   */
  field (name: string, locations: Located[], depthLeft: number, alternatives: Located[][] | null = null): FieldNode {
    // Several declarations are one schema, as fast-json-stringify merges them: the nested fields of each.
    const expansions = (alternatives ?? [locations]).map((list) => expandAll(list, this.refs))
    const leafOf = (list: Located[]): JsonSchema => list.length === 1
      ? this.refs.rebase(list[0].schema, list[0].base)
      : { allOf: list.map((located) => this.refs.rebase(located.schema, located.base)) }
    let schema: JsonSchema
    if (alternatives === null) {
      schema = leafOf(locations)
    } else {
      const distinct = new Map(alternatives.map((list) => { const leaf = leafOf(list); return [JSON.stringify(leaf), leaf] }))
      schema = distinct.size === 1 ? [...distinct.values()][0] : { anyOf: [...distinct.values()] }
    }
    const seen = expansions.flatMap((expanded) => expanded.seen)
    // fast-json-stringify writes no default that is undefined (a schema built in code may hold one).
    const withDefault = seen.find((located) => located.schema.default !== undefined)
    const hasDefault = withDefault !== undefined
    const own = locations.length === 1 && alternatives === null ? locations[0].schema : null
    let schemaWithoutDefault = schema
    if (own !== null && Object.hasOwn(own, 'default')) schemaWithoutDefault = withoutDefault(schema)
    else if (withDefault !== undefined) schemaWithoutDefault = withoutDefault(this.refs.rebase(withDefault.schema, withDefault.base))
    const nullable = expansions.some((expanded) => expanded.nullable)
    const leaf: FieldNode = {
      name,
      jsonKey: JSON.stringify(name) + ':',
      wholeKey: JSON.stringify(name),
      schema,
      schemaWithoutDefault,
      children: null,
      isArray: false,
      nullable,
      hasDefault,
      defaultValue: withDefault?.schema.default,
      simpleType: own === null ? null : simpleTypeOf(own),
      holdsFields: expansions.some((expanded) => this.#mayHoldFields(expanded))
    }
    // Deeper levels stay leaves: a recursive schema would otherwise never end.
    if (depthLeft <= 1) return leaf
    // The nested fields: those of the object, or of the array's items. Where
    // variants disagree (an object in one, an array of objects in another), a
    // nested name of either is declared; each variant writes its own.
    const nested = emptyExpanded()
    // Alternatives are combined side by side, not crossed as allOf members are: the value is of one of them.
    const combine = alternatives === null ? mergeInto : unionInto
    let objects = 0
    let arrays = 0
    let itemsNullable = false
    for (const expanded of expansions) {
      if (isObjectLike(expanded) && expanded.items === null) {
        combine(nested, expanded, this.refs, locations[0])
        objects++
      } else if (expanded.items !== null && !isObjectLike(expanded)) {
        const items = expandAll(expanded.items, this.refs)
        if (isObjectLike(items) && items.items === null) {
          combine(nested, items, this.refs, locations[0])
          itemsNullable ||= items.nullable
          arrays++
        }
      }
    }
    if (objects + arrays === 0) return leaf
    const childrenNullable = objects === 0 ? itemsNullable : nullable || itemsNullable
    return { ...leaf, isArray: objects === 0, children: this.level(nested, childrenNullable, depthLeft - 1) }
  }
}

/**
 * Reads the declared fields of a response schema, and where its records are:
 * the object itself, the items of an array, or the array under `resultsKey`
 * of an envelope. Returns null when the schema declares no object fields.
 */
export function declaredResponse (
  schema: JsonSchema, resultsKey: string, maxDepth: number, context: RefContext
): DeclaredResponse | null {
  const refs = new References(context)
  const reader = new Reader(refs)
  const rootLocated: Located = { schema, base: refs.rootId, pointer: '' }
  const top = expand(rootLocated, refs)
  let declared: Omit<DeclaredResponse, 'localDefinitions'> | null = null
  if (isObjectLike(top) && top.items === null) {
    const envelope = top.variants === null ? envelopeOf(reader, top, resultsKey, maxDepth) : null
    declared = envelope ?? { tree: reader.level(top, top.nullable, maxDepth), shape: { kind: 'object' }, envelope: null }
  } else if (top.items !== null && !isObjectLike(top)) {
    const items = expandAll(top.items, refs)
    if (isObjectLike(items) && items.items === null) {
      declared = { tree: reader.level(items, items.nullable, maxDepth), shape: { kind: 'array' }, envelope: null }
    }
  }
  if (declared === null) return null
  const localDefinitions: JsonSchema = {}
  for (const key of DEFINITIONS) {
    if (isRecord(schema[key])) localDefinitions[key] = refs.rebaseEach(schema[key], refs.rootId)
  }
  if (refs.usesRoot && !Object.hasOwn(context.shared, refs.rootId)) {
    // The route schema, whole, for leaves that refer into it (`$ref: '#'` below maxDepth, a local `$id`).
    localDefinitions.definitions = { ...localDefinitions.definitions, [EMBEDDED_KEY]: { ...schema, $id: refs.rootId } }
  }
  return { ...declared, localDefinitions }
}

/** An envelope: an object (its composition merged) whose `resultsKey` holds an array of records. */
function envelopeOf (
  reader: Reader, top: Expanded, resultsKey: string, maxDepth: number
): Omit<DeclaredResponse, 'localDefinitions'> | null {
  const holders = top.parts.filter((part) => isRecord(part.schema.properties[resultsKey]))
  if (holders.length === 0) return null
  const located = holders.map((part) => ({
    schema: part.schema.properties[resultsKey], base: part.base, pointer: `${part.pointer}/properties/${resultsKey}`
  }))
  const node = reader.field(resultsKey, located, maxDepth + 1)
  if (!node.isArray || node.children === null) return null
  // The envelope as fast-json-stringify writes it: the properties of every part, merged, required ones first.
  const properties: JsonSchema = {}
  const required: string[] = []
  let additional: unknown
  let patterns: unknown
  for (const part of top.parts) {
    for (const [name, property] of Object.entries(part.schema.properties as JsonSchema)) {
      const rebased = reader.refs.rebase(property, part.base)
      properties[name] = Object.hasOwn(properties, name) ? { allOf: [properties[name], rebased] } : rebased
    }
    additional ??= part.schema.additionalProperties
    patterns ??= part.schema.patternProperties
  }
  // Every name required in the merge, beside or inside `allOf`.
  for (const name of top.required) if (!required.includes(name)) required.push(name)
  const envelope: JsonSchema = { type: 'object', properties }
  if (required.length > 0) envelope.required = required
  if (additional !== undefined) envelope.additionalProperties = reader.refs.rebase(additional, top.parts[0].base)
  if (patterns !== undefined) envelope.patternProperties = reader.refs.rebaseEach(patterns, top.parts[0].base)
  if (top.nullable) envelope.nullable = true
  return { tree: node.children, shape: { kind: 'envelope', key: resultsKey }, envelope }
}
