/**
 * How a restricted reply is serialized, chosen per reply from what each
 * status prepared: the compiled serializer of the selection's pruned schema
 * when the cache has (or admits) one; else the writer, and the copy where the
 * writer gives up. A Standard Schema route's payload is validated through its
 * own schema first. A status without fields only loses the hidden paths.
 */
import type { FastifyReply } from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import { copyProjection } from './copy.js'
import type { FieldTree, JsonSchema, PayloadShape } from './declared.js'
import { wholeProjection } from './projection.js'
import type { PathTrie, Projection } from './projection.js'
import { pruneSchema } from './prune.js'
import type { StatusSpec } from './route.js'
import type { Selection } from './selection.js'
import { stripHidden } from './visibility.js'
import type { Visible } from './visibility.js'
import { ProjectionWriter, WRITER_GAVE_UP, writerRoute } from './write.js'
import type { Serializer, WriterRoute } from './write.js'

function compileOrNull (reply: FastifyReply, status: StatusSpec, schema: JsonSchema): Serializer | null {
  try {
    // A Standard Schema route's compiler takes its own kind of schema, not JSON Schema.
    return status.standard === null
      ? reply.compileSerializationSchema(schema, status.key) as Serializer
      : fastJsonStringify(schema)
  } catch (error) {
    // A custom serializer compiler may refuse a pruned schema; the plugin then writes or copies instead.
    reply.log.error({ err: error }, 'fastify-restricted-fields: could not compile a pruned response schema')
    return null
  }
}

/** The serializers of one restricted status, and what they keep between requests. */
export class StatusSerializers {
  readonly #status: StatusSpec
  /** The schema of every declared field without defaults, for copies; compiled on first use (null: refused). */
  #copy: Serializer | null | undefined = undefined
  /** The writer of JSON a Standard Schema route's own serializer wrote, for the rare payload only it accepts. */
  readonly #encoded: WriterRoute
  /** Whether the field sets the server named are compiled on first use, without waiting for admission. */
  readonly #compilesNamed: boolean

  /** `compilesNamed` is false when the route keeps no compiled serializer (`cacheSize: 0`). */
  constructor (status: StatusSpec, compilesNamed: boolean) {
    this.#status = status
    this.#compilesNamed = compilesNamed
    this.#encoded = writerRoute(status.shape, null)
  }

  /**
   * The serializer of a reply restricted to `projection` (canonical `key`).
   * `selection` is the request's own selection when the projection is its
   * own, so that its compiled serializer is kept with it; `visible` is what
   * the request sees of the status when a rule hides some fields.
   */
  restricted (reply: FastifyReply, projection: Projection, key: string, selection: Selection | null, visible: Visible | null): Serializer {
    // A leaf with hidden paths inside its value is never compiled: the compiled serializer would write it whole.
    const restricted = (visible?.strips === true ? undefined : this.#compiled(reply, key, projection, selection)) ??
      this.#writing(reply, projection, visible?.tree ?? this.#status.tree)
    return this.#status.standard === null ? restricted : this.#validating(reply, restricted, projection)
  }

  /** The compiled serializer of a projection, compiling it when the cache admits it; null or undefined when there is none. */
  #compiled (reply: FastifyReply, key: string, projection: Projection, selection: Selection | null): Serializer | null | undefined {
    const status = this.#status
    let serializer = selection?.serializer ?? status.cache.get(key)
    // A field set is one of finitely many the server named: it is compiled on first use.
    if (serializer === undefined && status.declared !== null && ((selection?.named === true && this.#compilesNamed) || status.cache.admit(key))) {
      // A refusal is cached too (as null), so it is not tried again.
      serializer = compileOrNull(reply, status, pruneSchema(status.declared, projection, { defaults: true, variants: 'choose' }))
      status.cache.set(key, serializer)
    }
    // Kept with the selection, so that a remembered selection needs no other lookup.
    if (serializer !== undefined && selection !== null) selection.serializer = serializer
    return serializer
  }

  /** The restricted serializer of a reply whose selection has no compiled serializer: write, or copy where the writer gives up. */
  #writing (reply: FastifyReply, projection: Projection, tree: FieldTree): Serializer {
    const status = this.#status
    return (payload) => {
      const compile = (schema: JsonSchema): Serializer | null => compileOrNull(reply, status, schema)
      const writer = new ProjectionWriter(status.writer, compile)
      try {
        return writer.write(payload, projection, tree)
      } catch (error) {
        if (error !== WRITER_GAVE_UP) throw error
      }
      if (this.#copy === undefined) this.#copy = compileOrNull(reply, status, pruneSchema(status.declared!, wholeProjection(status.tree), { defaults: false, variants: 'copy' }))
      const copy = copyProjection(payload, tree, projection, status.shape, (variants, record) => writer.choose(variants, record))
      return (this.#copy ?? JSON.stringify)(copy)
    }
  }

  /**
   * Wraps a restricted serializer of a Standard Schema route: the payload goes
   * through the schema's own validation first, and what it outputs is
   * restricted. A payload it rejects goes to the route's own serializer, which
   * rejects it as it would without restriction.
   */
  #validating (reply: FastifyReply, restricted: Serializer, projection: Projection): Serializer {
    const status = this.#status
    const standard = status.standard!
    const encoded = this.#encoded
    return function validateThenRestrict (payload) {
      const result = standard['~standard'].validate(payload)
      if (!(result instanceof Promise) && result.issues === undefined) return restricted(result.value)
      if (result instanceof Promise) result.catch(() => {})
      const own = reply.compileSerializationSchema(standard as unknown as Record<string, unknown>, status.key) as Serializer
      // Reached only when the route's serializer accepts what validation did not (a codec, say):
      // its JSON is restricted as it stands, with nothing converted again.
      return new ProjectionWriter(encoded, () => null).write(JSON.parse(own(payload)), projection)
    }
  }
}

/**
 * The serializer of a reply whose status declares no fields: the payload as
 * JSON without the hidden paths, in the object, its items, and an envelope's records.
 */
export function strippingSerializer (hidden: PathTrie, shape: PayloadShape): Serializer {
  return function stripHiddenPaths (payload) {
    const stripped = stripHidden(payload, hidden)
    if ((shape.kind === 'envelope' || shape.kind === 'auto') && stripped !== null && typeof stripped === 'object' && !Array.isArray(stripped)) {
      const records = (stripped as Record<string, unknown>)[shape.key]
      if (Array.isArray(records)) return JSON.stringify({ ...stripped, [shape.key]: stripHidden(records, hidden) })
    }
    return JSON.stringify(stripped)
  }
}
