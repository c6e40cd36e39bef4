/**
 * Resolves `$ref`s as fast-json-stringify does (ids of shared schemas,
 * schema-local `$id`s and anchors, JSON pointers), and rebases the schemas
 * it reaches so that a pruned schema can refer to them from anywhere.
 */
import { RefResolver } from 'json-schema-ref-resolver'
import { decodePointerToken, isRecord } from '../json.js'
import type { JsonSchema } from './tree.js'
import { mapSchema } from './walk.js'

/** Resolves `$ref` values against the route's schema and the shared schemas of its instance. */
export interface RefContext {
  root: JsonSchema
  shared: Record<string, JsonSchema>
  /** Called with the `$ref` text when it cannot be resolved; must throw. */
  unresolved: (ref: string) => never
  /** Called when a schema cannot be read: the JSON pointer of the part, the keyword and why; must throw. */
  unreadable: (pointer: string, keyword: string, reason: string) => never
}

/** A schema and where it sits: the id of its document (`base`) and its JSON pointer there. */
export interface Located { schema: JsonSchema, base: string, pointer: string }

/** The id a pruned schema gives the route's schema when its leaves refer into it. */
const ROOT_ID = 'urn:fastify-restricted-fields:route'

function decodePointer (pointer: string): string[] {
  return pointer.split('/').slice(1).map((raw) => decodePointerToken(decodeURIComponent(raw)))
}

function resolvePointer (document: JsonSchema, pointer: string): JsonSchema | undefined {
  if (pointer === '' || pointer === '/') return document
  let current: any = document
  for (const key of decodePointer(pointer)) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined
    current = current[key]
  }
  return isRecord(current) ? current : undefined
}

/** Reads `$ref`s as fast-json-stringify does: ids of shared schemas, schema-local `$id`s and anchors (`#node`), and pointers. */
export class References {
  readonly #resolver = new RefResolver()
  readonly #context: RefContext
  readonly rootId: string
  /** Set when an emitted leaf refers into the route schema other than through its definitions. */
  usesRoot = false

  constructor (context: RefContext) {
    this.#context = context
    const ownId = context.root.$id
    this.rootId = typeof ownId === 'string' && ownId !== '' && !ownId.startsWith('#') ? ownId : ROOT_ID
    this.#add(context.root, this.rootId, '')
  }

  #add (schema: JsonSchema, id: string, where: string): void {
    try {
      this.#resolver.addSchema(schema, id)
    } catch (error) {
      // Two different schemas under one `$id`: fast-json-stringify refuses them too.
      this.#context.unreadable(where + '#', '$id', (error as Error).message)
    }
  }

  resolve (ref: string, base: string): Located {
    const hash = ref.indexOf('#')
    const id = hash === -1 ? ref : ref.slice(0, hash)
    const fragment = hash === -1 ? '' : ref.slice(hash + 1)
    const documentId = id === '' ? base : id
    if (!this.#resolver.hasSchema(documentId) && Object.hasOwn(this.#context.shared, documentId)) {
      this.#add(this.#context.shared[documentId], documentId, documentId)
    }
    let target: JsonSchema | undefined
    if (this.#resolver.hasSchema(documentId)) {
      const document = this.#resolver.getSchema(documentId)
      // An anchor (`#node`) names a schema by its `$id`; anything else is a JSON pointer.
      target = fragment === '' || fragment.startsWith('/')
        ? resolvePointer(document, fragment)
        : this.#resolver.getSchema(documentId, '#' + fragment) ?? undefined
    }
    if (!isRecord(target)) return this.#context.unresolved(ref)
    return { schema: target, base: documentId, pointer: fragment.startsWith('/') ? fragment : '' }
  }

  unreadable (located: Located, keyword: string, reason: string): never {
    return this.#context.unreadable((located.base === this.rootId ? '' : located.base) + '#' + located.pointer, keyword, reason)
  }

  /**
   * A schema whose `$ref`s resolve from anywhere: relative to its document
   * when it sits in a shared schema, and to the route schema itself when they
   * point at it (its definitions excepted, which pruned schemas carry). Local
   * `$id`s are dropped: the embedded route schema holds them once. Each
   * schema with neither is itself, not a copy: a declared tree keeps each
   * field's schema, and copies would hold every inline level once for each
   * level around it.
   */
  rebase (schema: unknown, base: string): any {
    // Where schemas sit is the vocabulary's: a property named `default` is a schema, an `example` is not.
    return mapSchema(schema, (own, place) => {
      if (typeof own.$id !== 'string' && typeof own.$ref !== 'string') return own
      const copy: JsonSchema = {}
      for (const [key, value] of Object.entries(own)) {
        if (key === '$id' && typeof value === 'string') continue
        copy[key] = key === '$ref' && typeof value === 'string' ? this.#absoluteRef(value, place.base) : value
      }
      return copy
    }, { base, unknownKeywords: 'schemas', keepUnchanged: true })
  }

  /** A map of schemas (definitions, `patternProperties`), each rebased. */
  rebaseEach (schemas: unknown, base: string): unknown {
    if (!isRecord(schemas)) return schemas
    return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, this.rebase(schema, base)]))
  }

  #absoluteRef (ref: string, base: string): string {
    let absolute = ref
    if (ref.startsWith('#')) {
      // Pruned schemas carry the route schema's definitions: refs into them stay as they are.
      if (base === this.rootId && (ref.startsWith('#/definitions/') || ref.startsWith('#/$defs/'))) return ref
      absolute = base + ref
    }
    const id = absolute.split('#')[0]
    if (id === this.rootId || (!Object.hasOwn(this.#context.shared, id) && this.#resolver.hasSchema(id))) this.usesRoot = true
    return absolute
  }
}
