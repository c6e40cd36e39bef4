/**
 * The ways to serialize a projection of a route's records:
 * - `pruneSchema` builds the schema a hand-written route returning exactly
 *   the kept fields would declare, for the route's serializer compiler;
 * - `ProjectionWriter` writes the kept fields straight from the handler's
 *   objects, for selections that are not compiled (yet) and for routes
 *   without a response schema;
 * - `copyProjection` copies the kept fields into new objects, the exact but
 *   slower answer for values the writer leaves to it.
 * None of them changes the handler's payload.
 */
import type { DeclaredResponse, FieldNode, JsonSchema, PayloadShape } from './declared.js'
import { wholeProjection } from './projection.js'
import type { Projection } from './projection.js'
import { stripHidden } from './visibility.js'

/** Serializes a response payload to JSON text. */
export type Serializer = (payload: unknown) => string

export interface PruneOptions {
  /** Keep declared defaults; the object-copy path fills them in itself and must not get them twice. */
  defaults: boolean
}

/*
 * pruneSchema: every object level lists only the kept properties, closes
 * itself with `additionalProperties: false` and drops `required` and
 * `patternProperties`, so that nothing removed comes back and nothing missing throws.
 */

function objectSchema (projection: Projection, options: PruneOptions): JsonSchema {
  return {
    type: 'object',
    // fromEntries defines keys, so a field named __proto__ stays a field.
    properties: Object.fromEntries(projection.map(({ node, sub }) => [node.name, fieldSchema(node, sub, options)])),
    additionalProperties: false
  }
}

function fieldSchema (node: FieldNode, sub: Projection | null, options: PruneOptions): JsonSchema {
  if (node.children === null) return options.defaults ? node.schema : node.schemaWithoutDefault
  let schema = objectSchema(sub ?? wholeProjection(node.children), options)
  if (node.isArray) schema = { type: 'array', items: schema }
  if (node.nullable) schema.nullable = true
  if (options.defaults && node.hasDefault) schema.default = node.defaultValue
  return schema
}

/** Returns the response schema that serializes exactly the projected fields of a declared response. */
export function pruneSchema (declared: DeclaredResponse, projection: Projection, options: PruneOptions): JsonSchema {
  const records = objectSchema(projection, options)
  const { shape } = declared
  let schema: JsonSchema
  if (shape.kind === 'envelope') {
    const envelope = declared.envelope as JsonSchema
    schema = {
      ...envelope,
      properties: { ...envelope.properties, [shape.key]: { type: 'array', items: records } }
    }
    delete schema.$id
  } else {
    schema = shape.kind === 'array' ? { type: 'array', items: records } : records
  }
  return { ...declared.localDefinitions, ...schema }
}

/*
 * copyProjection: new records that hold only the projected fields, in
 * declared order, serialized afterwards with a schema of every declared field.
 */

function copyValue (value: unknown, projection: Projection): unknown {
  if (value === null || typeof value !== 'object') return value
  // As fast-json-stringify does, an object's toJSON() stands for it.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return copyValue((value as { toJSON: () => unknown }).toJSON(), projection)
  if (Array.isArray(value)) return value.map((item) => copyValue(item, projection))
  return copyRecord(value as Record<string, unknown>, projection)
}

function copyRecord (record: Record<string, unknown>, projection: Projection): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const { node, sub } of projection) {
    const value = record[node.name]
    if (value === undefined) {
      // The compiled serializer writes a declared default for a missing field; so must the copy.
      if (node.hasDefault) copy[node.name] = node.defaultValue
      continue
    }
    // Fields kept whole are still copied level by level, so undeclared keys never pass.
    copy[node.name] = node.children === null
      ? (node.strip === undefined ? value : stripHidden(value, node.strip))
      : copyValue(value, sub ?? wholeProjection(node.children))
  }
  return copy
}

/**
 * Copies the projected fields of a payload of the given shape into a new
 * payload. Values that are not records (null, strings) are returned as they are.
 */
export function copyProjection (payload: unknown, projection: Projection, shape: PayloadShape): unknown {
  if (shape.kind === 'envelope' || shape.kind === 'auto') {
    if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
      const results = (payload as Record<string, unknown>)[shape.key]
      if (Array.isArray(results)) {
        return { ...payload, [shape.key]: copyValue(results, projection) }
      }
    }
  }
  return copyValue(payload, projection)
}

/*
 * ProjectionWriter: JSON text of the kept fields, read straight from the
 * handler's objects, with no copy. For routes with a response schema it
 * writes what fast-json-stringify writes for the pruned schema: simple leaves
 * itself, other leaves through their own compiled serializer. Anything it does
 * not mirror exactly (a record that is not a plain object, a toJSON method,
 * an envelope with extra properties) makes it give up on the whole payload,
 * and the caller copies instead.
 */

/** Thrown by the writer for a payload it leaves to copyProjection. */
export const WRITER_GAVE_UP = Symbol('fastify-restricted-fields.writer-gave-up')

/** What a route's writer keeps between requests. */
export interface WriterRoute {
  readonly shape: PayloadShape
  /** The declared response, or null for a route declared by a `fields` list (values written as JSON.stringify does). */
  readonly declared: DeclaredResponse | null
  /** Compiled serializers of leaves that are not simple, by their schema (shared by a node and its visible variants). */
  readonly leaves: Map<JsonSchema, Serializer>
  /** The envelope without its records, compiled once; null when the writer cannot write the envelope. */
  envelope?: Serializer | null
}

/** Creates the state a route's writers share; a null `declared` writes values as JSON.stringify does. */
export function writerRoute (shape: PayloadShape, declared: DeclaredResponse | null): WriterRoute {
  return { shape, declared, leaves: new Map() }
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
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

  /** `compile` compiles a JSON Schema with the route's serializer compiler; null when it refuses. */
  constructor (route: WriterRoute, compile: (schema: JsonSchema) => Serializer | null) {
    this.#route = route
    this.#compile = compile
  }

  /** JSON text of the projected payload; throws WRITER_GAVE_UP for a payload it leaves to copyProjection. */
  write (payload: unknown, projection: Projection): string {
    const { shape } = this.#route
    if (this.#route.declared === null) return this.#writeListed(payload, projection, shape)
    if (shape.kind === 'array') {
      if (!Array.isArray(payload)) throw WRITER_GAVE_UP
      return this.#writeArray(payload, projection)
    }
    if (!isRecord(payload) || typeof payload.toJSON === 'function') throw WRITER_GAVE_UP
    if (shape.kind === 'object') return this.#writeRecord(payload, projection)
    return this.#writeEnvelope(payload, projection, (shape as { key: string }).key)
  }

  #writeRecord (record: Record<string, unknown>, projection: Projection): string {
    let json = '{'
    for (let i = 0; i < projection.length; i++) {
      const { node, sub } = projection[i]
      const value = record[node.name]
      let text: string
      if (value === undefined) {
        // As fast-json-stringify does: a missing field with a default gets it, others are left out.
        if (!node.hasDefault) continue
        text = JSON.stringify(node.defaultValue)
      } else if (node.children === null) {
        const leaf = node.strip === undefined ? value : stripHidden(value, node.strip)
        text = simpleLeaf(node, leaf) ?? this.#leaf(node)(leaf)
      } else if (value === null && node.nullable) {
        text = 'null'
      } else if (node.isArray) {
        if (!Array.isArray(value)) throw WRITER_GAVE_UP
        text = this.#writeArray(value, sub ?? wholeProjection(node.children))
      } else {
        if (!isRecord(value) || typeof value.toJSON === 'function') throw WRITER_GAVE_UP
        text = this.#writeRecord(value, sub ?? wholeProjection(node.children))
      }
      json += json.length === 1 ? node.jsonKey + text : ',' + node.jsonKey + text
    }
    return json + '}'
  }

  #writeArray (items: unknown[], projection: Projection): string {
    let json = '['
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      if (!isRecord(item) || typeof item.toJSON === 'function') throw WRITER_GAVE_UP
      if (i > 0) json += ','
      json += this.#writeRecord(item, projection)
    }
    return json + ']'
  }

  #writeEnvelope (payload: Record<string, unknown>, projection: Projection, key: string): string {
    const records = payload[key]
    const envelope = this.#envelope()
    if (envelope === null || !Array.isArray(records)) throw WRITER_GAVE_UP
    // The envelope's other fields, written by its own compiled serializer; the records go where the schema declares them.
    const rest = envelope(payload)
    const head = rest.length === 2 ? '{' : rest.slice(0, -1) + ','
    return head + JSON.stringify(key) + ':' + this.#writeArray(records, projection) + '}'
  }

  #envelope (): Serializer | null {
    const route = this.#route
    if (route.envelope === undefined) {
      const schema = (route.declared as DeclaredResponse).envelope as JsonSchema
      const key = (route.shape as { key: string }).key
      const names = Object.keys(schema.properties)
      const required: unknown[] = Array.isArray(schema.required) ? schema.required : []
      // fast-json-stringify writes required properties first, each group in declared order.
      const order = [...names.filter((name) => required.includes(name)), ...names.filter((name) => !required.includes(name))]
      // Only an envelope whose records come last and that writes no undeclared keys is written around them.
      const writable = order[order.length - 1] === key && schema.patternProperties === undefined &&
        (schema.additionalProperties === undefined || schema.additionalProperties === false)
      if (writable) {
        const { [key]: _records, ...properties } = schema.properties
        const { $id: _id, required: _required, ...rest } = schema
        rest.properties = properties
        if (required.length > 0) rest.required = required.filter((name) => name !== key)
        route.envelope = this.#compile({ ...route.declared!.localDefinitions, ...rest })
      } else {
        route.envelope = null
      }
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
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return listedValue((value as { toJSON: () => unknown }).toJSON(), projection)
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
