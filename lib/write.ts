/**
 * Writes the kept fields of a payload as JSON text straight from the
 * handler's objects, with no copy: for selections that are not compiled
 * (yet) and for routes without a response schema. For routes with one it
 * writes what fast-json-stringify writes for the pruned schema: simple leaves
 * itself, other leaves through their own compiled serializer. Anything it
 * does not mirror exactly (a record that is not a plain object, a toJSON
 * method, a record of no variant) makes it give up on the whole payload,
 * which is then copied (lib/copy.ts). The handler's payload is not changed.
 */
import type { DeclaredResponse, FieldNode, FieldTree, JsonSchema, PayloadShape, Variants } from './schema/tree.js'
import { variantTag } from './schema/variant-tests.js'
import { variantChooserSchema } from './prune.js'
import { variantProjection, wholeProjection } from './projection.js'
import type { Projection } from './projection.js'
import { stripHidden, stripHiddenText } from './visibility.js'
import { hasToJSON, isRecord } from './json.js'
import type { Serializer } from './json.js'
import type { VariantIndex } from './variant-chooser.js'
import { projectedDefaultJson } from './defaults.js'

/** Thrown by the writer for a payload it leaves to copyProjection; `reason` says why. */
export class WriterGaveUp {
  readonly reason: string
  constructor (reason: string) {
    this.reason = reason
  }
}

/** Every reason the writer gives up on a payload, made once: giving up allocates nothing. */
export const GAVE_UP = {
  shape: new WriterGaveUp('the payload is not of the declared shape (an array, an object or an envelope)'),
  record: new WriterGaveUp('a record or nested object is not a plain object'),
  toJSON: new WriterGaveUp('an object has a toJSON method'),
  list: new WriterGaveUp('a declared array, or the envelope\'s records, is not an array'),
  variant: new WriterGaveUp('a record is of no variant'),
  envelope: new WriterGaveUp('the serializer compiler refused the envelope')
} as const

/**
 * The reason the writer would give up on a payload before writing anything,
 * found without starting it: records (or the record) with a toJSON(), which
 * are copied; null when the writer may write it.
 */
export function givesUpAtOnce (payload: unknown, shape: PayloadShape): WriterGaveUp | null {
  let records = payload
  if (shape.kind !== 'array') {
    if (!isRecord(payload)) return null
    if (hasToJSON(payload)) return GAVE_UP.toJSON
    if (shape.kind === 'object') return null
    records = payload[shape.key]
  }
  return Array.isArray(records) && records.length > 0 && hasToJSON(records[0]) ? GAVE_UP.toJSON : null
}

/** What a route's writer keeps between requests. */
export interface WriterRoute {
  readonly shape: PayloadShape
  /** The declared response, or null for a route declared by a `fields` list (values written as JSON.stringify does). */
  readonly declared: DeclaredResponse | null
  /** Compiled serializers of leaves that are not simple, by their schema (shared by a node and its visible variants). */
  readonly leaves: Map<JsonSchema, Serializer>
  /** The envelope around its records, compiled once; null when the compiler refused it. */
  envelope?: EnvelopeWriter | null
  /** Variant choosers, by the tests of a level (shared by the level and its visible variants); null when the compiler refused one. */
  readonly choosers: Map<Variants['tests'], VariantIndex | null>
}

/**
 * An envelope's own fields, in two compiled halves around its records:
 * fast-json-stringify writes the required properties first, then the others,
 * each group in declared order, then the undeclared keys that
 * `additionalProperties` or `patternProperties` let through.
 */
interface EnvelopeWriter {
  /** The records' key, as JSON, with its colon. */
  readonly key: string
  /** Writes the properties before the records (and checks required names that are not declared); null when there are none. */
  readonly before: Serializer | null
  /** Writes the properties after the records, and the undeclared keys; null when there are none. */
  readonly after: Serializer | null
  /** The declared names that `after` must not see as undeclared keys; null when it writes no undeclared key. */
  readonly declared: ReadonlySet<string> | null
}

/** Creates the state a route's writers share; a null `declared` writes values as JSON.stringify does. */
export function writerRoute (shape: PayloadShape, declared: DeclaredResponse | null): WriterRoute {
  return { shape, declared, leaves: new Map(), choosers: new Map() }
}

/** The keys of an envelope that its `after` half may write as undeclared ones: every key but those written before. */
function undeclaredKeys (payload: Record<string, unknown>, written: ReadonlySet<string>): Record<string, unknown> {
  // Without a prototype, a key such as `__proto__` stays a key.
  const rest: Record<string, unknown> = Object.create(null)
  for (const name of Object.keys(payload)) if (!written.has(name)) rest[name] = payload[name]
  return rest
}

/** JSON.stringify of a string; a short one with nothing to escape is quoted in place, without the call. */
function jsonString (text: string): string {
  if (text.length > 40) return JSON.stringify(text)
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // Control characters, quote, backslash and lone surrogates are escaped.
    if (code < 32 || code === 34 || code === 92 || (code >= 0xD800 && code <= 0xDFFF)) return JSON.stringify(text)
  }
  return '"' + text + '"'
}

function simpleLeaf (node: FieldNode, value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return node.simpleType === 'string' ? jsonString(value) : undefined
    case 'number':
      if (node.simpleType === 'integer') return Number.isInteger(value) ? '' + value : undefined
      return node.simpleType === 'number' && Number.isFinite(value) ? '' + value : undefined
    case 'boolean':
      return node.simpleType === 'boolean' ? (value ? 'true' : 'false') : undefined
    default:
      return value === null && node.simpleType !== null && node.nullable ? 'null' : undefined
  }
}

export class ProjectionWriter {
  readonly #route: WriterRoute
  readonly #compile: (schema: JsonSchema) => Serializer | null
  readonly #tests: ((variants: Variants, instead: () => VariantIndex | null) => VariantIndex | null) | undefined

  /**
   * `compile` compiles a JSON Schema with the route's serializer compiler; null when it refuses.
   * `tests` runs a level's variant tests as that compiler would, without compiling a chooser
   * (lib/variant-chooser.ts), `instead` where a test cannot run so; null where it cannot at all, and the chooser is compiled.
   */
  constructor (
    route: WriterRoute,
    compile: (schema: JsonSchema) => Serializer | null,
    tests?: (variants: Variants, instead: () => VariantIndex | null) => VariantIndex | null
  ) {
    this.#route = route
    this.#compile = compile
    this.#tests = tests
  }

  /**
   * JSON text of the projected payload, read against `visible` (the route's
   * tree by default); throws a WriterGaveUp for a payload it leaves to copyProjection.
   */
  write (payload: unknown, projection: Projection, visible?: FieldTree): string {
    const { shape } = this.#route
    if (this.#route.declared === null) return this.#writeListed(payload, projection, shape)
    // The tree the request sees, when a rule hides some fields: its variants' own fields lose them too.
    const tree = visible ?? this.#route.declared.tree
    if (shape.kind === 'array') {
      if (!Array.isArray(payload)) throw GAVE_UP.shape
      return this.#writeArray(payload, tree, projection)
    }
    if (payload === null && (shape.kind === 'object' ? tree.nullable : this.#route.declared.envelope?.nullable === true)) return 'null'
    if (!isRecord(payload)) throw GAVE_UP.shape
    if (hasToJSON(payload)) throw GAVE_UP.toJSON
    if (shape.kind === 'object') return this.#writeRecord(payload, tree, projection)
    return this.#writeEnvelope(payload, tree, projection, (shape as { key: string }).key)
  }

  #writeRecord (record: Record<string, unknown>, tree: FieldTree, projection: Projection): string {
    // A record of a level of variants is written with the kept fields of its own variant, in that variant's order.
    if (tree.variants !== null) {
      const own = this.#variant(tree.variants, record)
      return this.#writeRecord(record, own, variantProjection(projection, own))
    }
    let json = '{'
    for (let i = 0; i < projection.length; i++) {
      const { node, sub } = projection[i]
      const value = record[node.name]
      let text: string
      if (value === undefined) {
        // As fast-json-stringify does: a missing field with a default gets it (as the selection leaves it), others are left out.
        if (!node.hasDefault) continue
        text = projectedDefaultJson(node, sub)
      } else if (node.children === null) {
        const leaf = node.strip === undefined ? value : stripHidden(value, node.strip)
        text = simpleLeaf(node, leaf) ?? this.#leaf(node)(leaf)
        // What the leaf's schema writes itself (a default or a const inside it) loses the hidden paths too.
        if (node.strip !== undefined) text = stripHiddenText(text, node.strip)
      } else if (value === null && node.nullable) {
        text = 'null'
      } else if (node.isArray) {
        if (!Array.isArray(value)) throw GAVE_UP.list
        text = this.#writeArray(value, node.children, sub ?? wholeProjection(node.children))
      } else {
        if (!isRecord(value)) throw GAVE_UP.record
        if (hasToJSON(value)) throw GAVE_UP.toJSON
        text = this.#writeRecord(value, node.children, sub ?? wholeProjection(node.children))
      }
      json += json.length === 1 ? node.jsonKey + text : ',' + node.jsonKey + text
    }
    return json + '}'
  }

  #writeArray (items: unknown[], tree: FieldTree, projection: Projection): string {
    let json = '['
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      if (i > 0) json += ','
      if (item === null && tree.nullable) {
        json += 'null'
        continue
      }
      if (!isRecord(item)) throw GAVE_UP.record
      if (hasToJSON(item)) throw GAVE_UP.toJSON
      json += this.#writeRecord(item, tree, projection)
    }
    return json + ']'
  }

  /** The own fields of the variant a record is; gives up on a record that matches no variant. */
  #variant (variants: Variants, record: Record<string, unknown>): FieldTree {
    const own = variants.own[this.choose(variants, record)]
    if (own === undefined) throw GAVE_UP.variant
    return own
  }

  /** The index of the variant the route's serializer chooses for a record; -1 for none, or when the chooser cannot be compiled. */
  choose (variants: Variants, record: Record<string, unknown>): number {
    const choosers = this.#route.choosers
    let chooser = choosers.get(variants.tests)
    if (chooser === undefined) {
      chooser = this.#chooser(variants)
      choosers.set(variants.tests, chooser)
    }
    return chooser === null ? -1 : chooser(record)
  }

  /**
   * Tagged variants are told apart by comparing the tag, which for a record
   * chooses what their tests choose; other variants by a small serializer
   * compiled from their tests, which writes the index of the one chosen.
   */
  #chooser (variants: Variants): VariantIndex | null {
    const tag = variantTag(variants)
    if (tag !== null) return (record) => tag.values.indexOf(record[tag.name])
    const compiledChooser = (): VariantIndex | null => {
      const compiled = this.#compile(variantChooserSchema(this.#route.declared!, variants))
      return compiled === null ? null : (record) => Number(compiled(record))
    }
    return this.#tests?.(variants, compiledChooser) ?? compiledChooser()
  }

  #writeEnvelope (payload: Record<string, unknown>, tree: FieldTree, projection: Projection, key: string): string {
    const records = payload[key]
    if (!Array.isArray(records)) throw GAVE_UP.list
    const envelope = this.#envelope(key)
    if (envelope === null) throw GAVE_UP.envelope
    // The envelope's own fields, written by its compiled halves; the records go where fast-json-stringify writes them.
    let json = '{'
    if (envelope.before !== null) {
      const before = envelope.before(payload)
      if (before.length > 2) json += before.slice(1, -1) + ','
    }
    json += envelope.key + this.#writeArray(records, tree, projection)
    if (envelope.after !== null) {
      const after = envelope.after(envelope.declared === null ? payload : undeclaredKeys(payload, envelope.declared))
      if (after.length > 2) json += ',' + after.slice(1, -1)
    }
    return json + '}'
  }

  #envelope (key: string): EnvelopeWriter | null {
    const route = this.#route
    if (route.envelope === undefined) {
      const { localDefinitions, envelope } = route.declared as DeclaredResponse
      const { properties, required = [], additionalProperties, patternProperties } = envelope as JsonSchema
      const names = Object.keys(properties)
      // fast-json-stringify's order: required properties first, then the others, each group in declared order.
      const order = [...names.filter((name) => required.includes(name)), ...names.filter((name) => !required.includes(name))]
      const at = order.indexOf(key)
      const extras = patternProperties !== undefined || (additionalProperties !== undefined && additionalProperties !== false)
      // Required names the envelope does not declare are checked before anything is written, as fast-json-stringify does.
      const undeclared = required.filter((name: string) => !names.includes(name))
      const beforeNames = order.slice(0, at)
      const afterNames = order.slice(at + 1)
      const half = (kept: string[], open: boolean): JsonSchema => {
        const keptProperties = Object.fromEntries(kept.map((name) => [name, properties[name]]))
        const schema: JsonSchema = { ...localDefinitions, type: 'object', properties: keptProperties }
        const keptRequired = kept.filter((name) => required.includes(name))
        const checked = open ? keptRequired : [...keptRequired, ...undeclared]
        if (checked.length > 0) schema.required = checked
        if (open && additionalProperties !== undefined) schema.additionalProperties = additionalProperties
        if (open && patternProperties !== undefined) schema.patternProperties = patternProperties
        return schema
      }
      const before = beforeNames.length > 0 || undeclared.length > 0 ? this.#compile(half(beforeNames, false)) : undefined
      const after = afterNames.length > 0 || extras ? this.#compile(half(afterNames, true)) : undefined
      const declared = extras ? new Set(order.slice(0, at + 1)) : null
      route.envelope = before === null || after === null
        ? null
        : { key: JSON.stringify(key) + ':', before: before ?? null, after: after ?? null, declared }
    }
    return route.envelope
  }

  #leaf (node: FieldNode): Serializer {
    let serializer = this.#route.leaves.get(node.schema)
    if (serializer === undefined) {
      const definitions = this.#route.declared!.localDefinitions
      // A leaf its compiler refuses is written as JSON.stringify writes it, as a refused copy schema is.
      serializer = this.#compile(Object.keys(definitions).length === 0 ? node.schema : { ...definitions, ...node.schema }) ?? JSON.stringify
      this.#route.leaves.set(node.schema, serializer)
    }
    return serializer
  }

  /** A route declared by a `fields` list, or JSON already encoded: exactly what JSON.stringify writes of copyProjection's result. */
  #writeListed (payload: unknown, projection: Projection, shape: PayloadShape): string {
    if ((shape.kind === 'auto' || shape.kind === 'envelope') && isRecord(payload) && Array.isArray(payload[shape.key])) {
      let json = '{'
      for (const name of Object.keys(payload)) {
        const text = name === shape.key
          ? listedValue(payload[name], projection)
          : JSON.stringify(payload[name])
        if (text === undefined) continue
        json += (json.length === 1 ? '' : ',') + JSON.stringify(name) + ':' + text
      }
      return json + '}'
    }
    return listedValue(payload, projection) as string
  }
}

function listedValue (value: unknown, projection: Projection): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (hasToJSON(value)) return listedValue(value.toJSON(), projection)
  if (Array.isArray(value)) {
    let json = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) json += ','
      json += listedValue(value[i], projection) ?? 'null'
    }
    return json + ']'
  }
  let json = '{'
  const record = value as Record<string, unknown>
  for (const { node, sub } of projection) {
    const field = record[node.name]
    const text = node.children === null
      ? JSON.stringify(node.strip === undefined ? field : stripHidden(field, node.strip))
      : listedValue(field, sub ?? wholeProjection(node.children))
    if (text === undefined) continue
    json += (json.length === 1 ? '' : ',') + node.jsonKey + text
  }
  return json + '}'
}
