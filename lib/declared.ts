/**
 * Reads the declared fields of a route out of its response schema (or out of a
 * plain list of dotted paths) into a FieldTree, once, when the route is declared.
 */

import type { PathTrie } from './projection.js'

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
   * Set on a leaf that a request's visibility rule hides paths inside: the
   * paths removed from its value before it is written. Such a leaf is never
   * written by a compiled serializer, which would write its value whole.
   */
  readonly strip?: PathTrie
}

export type SimpleType = 'string' | 'integer' | 'number' | 'boolean'

/** The declared fields of one object level, in declared order. */
export interface FieldTree {
  readonly nodes: readonly FieldNode[]
  readonly byName: ReadonlyMap<string, FieldNode>
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
  /** The resolved envelope schema, kept to rebuild it around a pruned results array. */
  envelope: JsonSchema | null
  /** `definitions`/`$defs` of the route's own schema, which leaf `$ref`s may point into. */
  localDefinitions: JsonSchema
}

/** Resolves `$ref` values against the route's schema and the shared schemas of its instance. */
export interface RefContext {
  root: JsonSchema
  shared: Record<string, JsonSchema>
  /** Called with the `$ref` text when it cannot be resolved; must throw. */
  unresolved: (ref: string) => never
}

interface Located { schema: JsonSchema, base: string | null }

const MAX_REF_HOPS = 32

function resolvePointer (document: JsonSchema, pointer: string): JsonSchema | undefined {
  if (pointer === '' || pointer === '/') return document
  let current: any = document
  for (const raw of pointer.slice(1).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined
    current = current[key]
  }
  return current !== null && typeof current === 'object' ? current : undefined
}

function resolveRef (ref: string, base: string | null, context: RefContext): Located {
  const hash = ref.indexOf('#')
  const id = hash === -1 ? ref : ref.slice(0, hash)
  const pointer = hash === -1 ? '' : ref.slice(hash + 1)
  const documentId = id === '' ? base : id
  const document = documentId === null
    ? context.root
    : (Object.hasOwn(context.shared, documentId) ? context.shared[documentId] : undefined)
  const target = document === undefined ? undefined : resolvePointer(document, pointer)
  if (target === undefined) return context.unresolved(ref)
  return { schema: target, base: documentId }
}

function typeIncludes (schema: JsonSchema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type
}

function isNullSchema (schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && (schema as JsonSchema).type === 'null'
}

/**
 * Follows `$ref`s and unwraps `anyOf`/`oneOf` of one schema with `{ type: 'null' }`,
 * the two ways a nullable object is usually written.
 */
function unwrap (located: Located, context: RefContext): Located & { nullable: boolean } {
  let { schema, base } = located
  let nullable = false
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (typeof schema.$ref === 'string') {
      ({ schema, base } = resolveRef(schema.$ref, base, context))
      continue
    }
    const union = schema.anyOf ?? schema.oneOf
    if (Array.isArray(union) && union.length === 2 && union.some(isNullSchema)) {
      nullable = true
      schema = union.find((member: unknown) => !isNullSchema(member))
      continue
    }
    break
  }
  nullable ||= schema.nullable === true || typeIncludes(schema, 'null')
  return { schema, base, nullable }
}

function hasProperties (schema: JsonSchema): boolean {
  return schema.properties !== null && typeof schema.properties === 'object'
}

function absoluteLeaf (schema: JsonSchema, base: string | null): JsonSchema {
  // A relative $ref inside a shared schema would otherwise be read against the pruned root.
  if (base !== null && typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) {
    return { ...schema, $ref: base + schema.$ref }
  }
  return schema
}

// Keywords that change how fast-json-stringify writes a value, or that point elsewhere.
const NOT_SIMPLE = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'const', 'properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties']
const SIMPLE_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean']

function simpleTypeOf (schema: JsonSchema): SimpleType | null {
  if (NOT_SIMPLE.some((keyword) => Object.hasOwn(schema, keyword)) || schema.format === 'unsafe') return null
  const types: unknown[] = Array.isArray(schema.type) ? schema.type.filter((type: unknown) => type !== 'null') : [schema.type]
  return types.length === 1 && SIMPLE_TYPES.includes(types[0] as string) ? types[0] as SimpleType : null
}

function withoutDefault (schema: JsonSchema): JsonSchema {
  const { default: _default, ...rest } = schema
  return rest
}

/** A tree of the given nodes, in the given order. */
export function makeTree (nodes: FieldNode[]): FieldTree {
  return { nodes, byName: new Map(nodes.map((node) => [node.name, node])) }
}

function objectTree (located: Located, context: RefContext, depthLeft: number): FieldTree {
  const nodes: FieldNode[] = []
  for (const [name, property] of Object.entries(located.schema.properties as JsonSchema)) {
    if (property === null || typeof property !== 'object') continue
    nodes.push(fieldNode(name, { schema: property, base: located.base }, context, depthLeft))
  }
  return makeTree(nodes)
}

function fieldNode (name: string, located: Located, context: RefContext, depthLeft: number): FieldNode {
  const resolved = unwrap(located, context)
  const own = located.schema
  const hasDefault = Object.hasOwn(own, 'default') || Object.hasOwn(resolved.schema, 'default')
  const defaultValue = Object.hasOwn(own, 'default') ? own.default : resolved.schema.default
  const schema = absoluteLeaf(own, located.base)
  let schemaWithoutDefault = schema
  if (Object.hasOwn(own, 'default')) schemaWithoutDefault = withoutDefault(schema)
  else if (hasDefault) schemaWithoutDefault = withoutDefault(absoluteLeaf(resolved.schema, resolved.base))
  const leaf = {
    name,
    jsonKey: JSON.stringify(name) + ':',
    wholeKey: JSON.stringify(name),
    schema,
    schemaWithoutDefault,
    children: null,
    isArray: false,
    nullable: resolved.nullable,
    hasDefault,
    defaultValue,
    simpleType: simpleTypeOf(own)
  }
  // Deeper levels stay leaves: a recursive schema would otherwise never end.
  if (depthLeft <= 1) return leaf
  if (hasProperties(resolved.schema)) {
    return { ...leaf, children: objectTree(resolved, context, depthLeft - 1) }
  }
  if (typeIncludes(resolved.schema, 'array') && resolved.schema.items !== null &&
      typeof resolved.schema.items === 'object' && !Array.isArray(resolved.schema.items)) {
    const items = unwrap({ schema: resolved.schema.items, base: resolved.base }, context)
    if (hasProperties(items.schema)) {
      return { ...leaf, isArray: true, children: objectTree(items, context, depthLeft - 1) }
    }
  }
  return leaf
}

/**
 * Reads the declared fields of a response schema, and where its records are:
 * the object itself, the items of an array, or the array under `resultsKey`
 * of an envelope. Returns null when the schema declares no object fields.
 */
export function declaredResponse (
  schema: JsonSchema, resultsKey: string, maxDepth: number, context: RefContext
): DeclaredResponse | null {
  const top = unwrap({ schema, base: null }, context)
  const localDefinitions: JsonSchema = {}
  for (const key of ['definitions', '$defs']) {
    if (schema[key] !== undefined) localDefinitions[key] = schema[key]
  }
  if (hasProperties(top.schema)) {
    const results = top.schema.properties[resultsKey]
    if (results !== null && typeof results === 'object') {
      const node = fieldNode(resultsKey, { schema: results, base: top.base }, context, maxDepth + 1)
      if (node.isArray && node.children !== null) {
        return { tree: node.children, shape: { kind: 'envelope', key: resultsKey }, envelope: top.schema, localDefinitions }
      }
    }
    return { tree: objectTree(top, context, maxDepth), shape: { kind: 'object' }, envelope: null, localDefinitions }
  }
  const node = fieldNode('', top, context, maxDepth + 1)
  if (node.isArray && node.children !== null) {
    return { tree: node.children, shape: { kind: 'array' }, envelope: null, localDefinitions }
  }
  return null
}

/**
 * Builds the declared fields from a list of dotted paths (`['id', 'profile.city']`),
 * for routes without a response schema. A path names its parents implicitly.
 */
export function declaredFromList (paths: readonly string[]): FieldTree {
  interface Draft { names: string[], children: Map<string, Draft> }
  const root: Draft = { names: [], children: new Map() }
  for (const path of paths) {
    let level = root
    for (const segment of path.split('.')) {
      let next = level.children.get(segment)
      if (next === undefined) {
        next = { names: [], children: new Map() }
        level.children.set(segment, next)
        level.names.push(segment)
      }
      level = next
    }
  }
  const build = (draft: Draft): FieldTree => makeTree(draft.names.map((name) => {
    const child = draft.children.get(name) as Draft
    return {
      name,
      jsonKey: JSON.stringify(name) + ':',
      wholeKey: JSON.stringify(name),
      schema: {},
      schemaWithoutDefault: {},
      children: child.names.length > 0 ? build(child) : null,
      isArray: false,
      nullable: true,
      hasDefault: false,
      defaultValue: undefined,
      simpleType: null
    }
  }))
  return build(root)
}

/** Lists the dotted paths of a tree, depth first, in declared order. */
export function declaredPaths (tree: FieldTree, prefix = ''): string[] {
  const paths: string[] = []
  for (const node of tree.nodes) {
    const path = prefix + node.name
    paths.push(path)
    if (node.children !== null) paths.push(...declaredPaths(node.children, path + '.'))
  }
  return paths
}

/**
 * The fields of several trees in one, in first-seen order: a field declared
 * with nested fields in one tree and as a leaf in another keeps the nested ones.
 */
export function mergeTrees (trees: readonly FieldTree[]): FieldTree {
  const merged = new Map<string, FieldNode>()
  for (const tree of trees) {
    for (const node of tree.nodes) {
      const seen = merged.get(node.name)
      if (seen === undefined || seen.children === null) merged.set(node.name, seen === undefined || node.children !== null ? node : seen)
      else if (node.children !== null) merged.set(node.name, { ...seen, children: mergeTrees([seen.children, node.children]) })
    }
  }
  return makeTree([...merged.values()])
}
