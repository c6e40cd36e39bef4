/**
 * The declared field tree: what a route's response schema (or its list of
 * dotted paths) declares, level by level, in the order the route's serializer
 * writes it. The schema modules build it; the selection, projection,
 * visibility and serializer modules read it.
 */
import type { PathTrie } from '../hidden-paths.js'

export type JsonSchema = Record<string, any>

/** One declared field. `children` is set when the field holds an object or an array of objects. */
export interface FieldNode {
  readonly name: string
  /** The name as a JSON object key, with its colon: `"name":`. */
  readonly jsonKey: string
  /**
   * The field kept whole in a projection's canonical key: its name, or, when
   * some of its nested fields are hidden from a request, the name and the
   * fields it still has, so that the key always says what is sent.
   */
  readonly wholeKey: string
  /** The field's own schema, to emit unchanged when the field is a leaf (refs made absolute). */
  readonly schema: JsonSchema
  /** `schema` without its default, inlined when the default sits behind a `$ref`. */
  readonly schemaWithoutDefault: JsonSchema
  readonly children: FieldTree | null
  readonly isArray: boolean
  readonly nullable: boolean
  readonly hasDefault: boolean
  readonly defaultValue: unknown
  /**
   * Set on a leaf whose own schema is one plain JSON type (nullable or not)
   * that fast-json-stringify writes as JSON.stringify does for values of that
   * type, so a writer may skip the compiled serializer for such values.
   */
  readonly simpleType: SimpleType | null
  /**
   * Whether the field's value may hold keys of its own: false for a leaf
   * declared as a string, number, boolean or null, or an array of those, so
   * that a path below it names nothing; true for objects, free-form values,
   * maps, and any value whose schema does not say.
   */
  readonly holdsFields: boolean
  /**
   * Set on a leaf that a request's visibility rule hides paths inside: the
   * paths removed from its value before it is written. Such a leaf is never
   * written by a compiled serializer, which would write its value whole.
   */
  readonly strip?: PathTrie
}

export type SimpleType = 'string' | 'integer' | 'number' | 'boolean'

/**
 * The variants of one object level (`anyOf`/`oneOf` of objects, or the
 * branches of `if`/`then`/`else`), in the order the route's serializer tries them.
 */
export interface Variants {
  /**
   * The schema a record must match for each variant to be chosen, as
   * fast-json-stringify tests it; null for the variant taken when no earlier one matched (`else`).
   */
  readonly tests: ReadonlyArray<JsonSchema | null>
  /** Each variant's own fields, in its own order, each read from that variant's schemas only. */
  readonly own: readonly FieldTree[]
}

/** The declared fields of one object level, in the order the route's serializer writes them. */
export interface FieldTree {
  readonly nodes: readonly FieldNode[]
  readonly byName: ReadonlyMap<string, FieldNode>
  /** Set when the level is a choice of variants: a record has only the names of its own variant. */
  readonly variants: Variants | null
  /** Whether a record of this level (the field itself, or an item of the array) may be `null`. */
  readonly nullable: boolean
}

/** Where the records sit in a payload: the payload itself, an array, or an envelope's array. */
export type PayloadShape =
  | { kind: 'object' }
  | { kind: 'array' }
  | { kind: 'envelope', key: string }
  | { kind: 'auto', key: string }

export interface DeclaredResponse {
  tree: FieldTree
  shape: PayloadShape
  /** The envelope, its composition merged and its refs made absolute, kept to rebuild it around a pruned results array. */
  envelope: JsonSchema | null
  /**
   * What a pruned schema carries for its leaves' `$ref`s: the route schema's
   * `definitions`/`$defs`, and, when a leaf refers to another part of the
   * route schema (`$ref: '#'`, a schema-local `$id`), the route schema itself.
   */
  localDefinitions: JsonSchema
}

/** A tree of the given nodes, in the given order; `like` gives the level's variants and nullability. */
export function makeTree (nodes: FieldNode[], like?: Pick<FieldTree, 'variants' | 'nullable'>): FieldTree {
  return {
    nodes,
    byName: new Map(nodes.map((node) => [node.name, node])),
    variants: like?.variants ?? null,
    nullable: like?.nullable ?? false
  }
}
