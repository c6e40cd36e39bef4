/**
 * Reads the declared fields of a route out of its response schema (or out of a
 * plain list of dotted paths) into a FieldTree, once, when the route is declared.
 *
 * A level of fields is read from every schema that describes it: its own
 * `properties`, the members of an `allOf` (merged, as fast-json-stringify
 * merges them), and `$ref`s. Where the schema offers a choice (`anyOf`/`oneOf`
 * of objects, `if`/`then`/`else`), the level declares every name of every
 * variant, and keeps, in `variants`, how the route's serializer chooses one
 * and which names each variant has.
 */
import { RefResolver } from 'json-schema-ref-resolver'
import type { PathTrie } from './projection.js'
import { MAX_REF_HOPS, decodePointerToken, encodePointerToken, isRecord } from './json.js'

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
interface Located { schema: JsonSchema, base: string, pointer: string }

/** Variants multiply through nested `allOf`s; past this many, a level is refused rather than expanded. */
const MAX_VARIANTS = 64
/** The id a pruned schema gives the route's schema when its leaves refer into it. */
const ROOT_ID = 'urn:fastify-restricted-fields:route'
const EMBEDDED_KEY = 'fastify-restricted-fields:route'

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
class References {
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
   * A copy of a schema whose `$ref`s resolve from anywhere: relative to its
   * document when it sits in a shared schema, and to the route schema itself
   * when they point at it (its definitions excepted, which pruned schemas carry).
   * Local `$id`s are dropped: the embedded route schema holds them once.
   */
  rebase (schema: unknown, base: string): any {
    if (Array.isArray(schema)) return schema.map((item) => this.rebase(item, base))
    if (!isRecord(schema)) return schema
    const copy: JsonSchema = {}
    let inner = base
    if (typeof schema.$id === 'string' && !schema.$id.startsWith('#')) inner = schema.$id
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$id' && typeof value === 'string') continue
      if (key === '$ref' && typeof value === 'string') {
        copy.$ref = this.#absoluteRef(value, inner)
      } else if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') {
        copy[key] = value
      } else {
        copy[key] = this.rebase(value, inner)
      }
    }
    return copy
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

function typeIncludes (schema: JsonSchema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type
}

function isNullSchema (schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null'
}

/**
 * What one value's schema says, its composition read: the object parts to
 * merge (own `properties`, `allOf` members), the variants when it is a choice
 * of objects, whether it may be null, and its items' schema when it is an array.
 */
interface Expanded {
  parts: Located[]
  variants: Array<{ test: JsonSchema | null, parts: Located[] }> | null
  nullable: boolean
  items: Located | null
  /** Every schema met on the way, refs followed, to read a default from. */
  seen: Located[]
}

function emptyExpanded (): Expanded {
  return { parts: [], variants: null, nullable: false, items: null, seen: [] }
}

/** Merges `b` into `a` as `allOf` does: the parts of both; variants of both, crossed. */
function mergeInto (a: Expanded, b: Expanded, refs: References, at: Located): void {
  a.parts.push(...b.parts)
  a.seen.push(...b.seen)
  a.items ??= b.items
  if (b.variants !== null) {
    if (a.variants === null) {
      a.variants = b.variants
    } else {
      const crossed: NonNullable<Expanded['variants']> = []
      for (const left of a.variants) {
        for (const right of b.variants) {
          const tests = [left.test, right.test].filter((test) => test !== null)
          crossed.push({ test: tests.length === 0 ? null : tests.length === 1 ? tests[0] : { allOf: tests }, parts: [...left.parts, ...right.parts] })
        }
      }
      if (crossed.length > MAX_VARIANTS) refs.unreadable(at, 'allOf', `its members combine into more than ${MAX_VARIANTS} variants`)
      a.variants = crossed
    }
  }
}

/** The properties a schema's parts require to hold one constant (`const`, or an `enum` of one value), with that value. */
function requiredConstants (parts: Located[]): Map<string, unknown> {
  const required = new Set<string>()
  const constants = new Map<string, unknown>()
  for (const { schema } of parts) {
    if (Array.isArray(schema.required)) for (const name of schema.required) required.add(name)
    for (const [name, property] of Object.entries(schema.properties as JsonSchema)) {
      if (!isRecord(property)) continue
      if (Object.hasOwn(property, 'const')) constants.set(name, property.const)
      else if (Array.isArray(property.enum) && property.enum.length === 1) constants.set(name, property.enum[0])
    }
  }
  return new Map([...constants].filter(([name]) => required.has(name)))
}

/**
 * Tests that choose between tagged variants (each requires one property, the
 * same for all, to hold a constant of its own: a discriminator, TypeBox and
 * Zod literals) by that property alone. For any record that fits one of the
 * variants they choose what testing each whole variant chooses, as
 * fast-json-stringify does, at a fraction of the cost. Null when the variants
 * are not tagged so.
 */
function tagTests (members: Expanded[]): JsonSchema[] | null {
  if (members.some((member) => member.variants !== null)) return null
  const constants = members.map((member) => requiredConstants(member.parts))
  for (const name of constants[0].keys()) {
    if (!constants.every((each) => each.has(name))) continue
    const values = constants.map((each) => JSON.stringify(each.get(name)))
    if (new Set(values).size !== values.length) continue
    return constants.map((each) => ({ type: 'object', required: [name], properties: { [name]: { const: each.get(name) } } }))
  }
  return null
}

/** A level's variants told apart by one property alone: its name, and the constant it holds in each variant. */
export interface VariantTag {
  readonly name: string
  readonly values: readonly unknown[]
}

const isPrimitive = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value)

/**
 * The tag of a level whose every test is the test of one property's
 * constant, in exactly the form tagTests writes, so that a record is of the
 * variant whose constant `record[name] === value`, as the test finds it;
 * null for other tests, and for constants that are not primitive (compared by
 * structure).
 */
export function variantTag (variants: Variants): VariantTag | null {
  let name: string | null = null
  const values: unknown[] = []
  for (const test of variants.tests) {
    if (test === null || Object.keys(test).length !== 3 || test.type !== 'object' || !Array.isArray(test.required) ||
      test.required.length !== 1 || !isRecord(test.properties)) return null
    const [property] = test.required
    const constant = test.properties[property]
    if ((name !== null && property !== name) || Object.keys(test.properties).length !== 1 || !isRecord(constant) ||
      Object.keys(constant).length !== 1 || !isPrimitive(constant.const)) return null
    name = property
    values.push(constant.const)
  }
  return name === null ? null : { name, values }
}

const OBJECT_KEYWORDS = new Set(['properties', 'required', 'patternProperties', 'additionalProperties', 'propertyNames', 'minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'unevaluatedProperties'])
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'])

/**
 * A variant's test as the selection's serializers read it. ajv in strict mode
 * warns when object keywords come without `type: 'object'`, and it would warn
 * again for every selection compiled from the test, on top of the route's own
 * warning. When each keyword of a test applies to objects only, anything that
 * is not an object passes it, so this form tests the same values, quietly.
 */
function typedObjectTest (test: JsonSchema): JsonSchema {
  if ('type' in test) return test
  const keys = Object.keys(test)
  if (!keys.every((key) => OBJECT_KEYWORDS.has(key) || ANNOTATIONS.has(key)) || !keys.some((key) => OBJECT_KEYWORDS.has(key))) return test
  const typed: JsonSchema = { ...test, type: 'object' }
  if (isRecord(test.properties)) {
    typed.properties = Object.fromEntries(Object.entries(test.properties).map(([name, inner]) => [name, typedObjectTest(inner)]))
  }
  return { anyOf: [{ not: { type: 'object' } }, typed] }
}

function isObjectLike (expanded: Expanded): boolean {
  return expanded.parts.length > 0 || expanded.variants !== null
}

function expand (located: Located, refs: References, hops = 0): Expanded {
  const { schema, base, pointer } = located
  const result = emptyExpanded()
  result.seen.push(located)
  if (hops > MAX_REF_HOPS) refs.unreadable(located, '$ref', 'its references loop without reaching a schema')
  if (schema.nullable === true || typeIncludes(schema, 'null')) result.nullable = true
  const at = (keyword: string, index?: number): Located => ({
    schema: index === undefined ? schema[keyword] : schema[keyword][index],
    base,
    pointer: index === undefined ? `${pointer}/${keyword}` : `${pointer}/${keyword}/${index}`
  })
  if (isRecord(schema.properties)) result.parts.push(located)
  if (typeof schema.$ref === 'string') {
    const target = expand(refs.resolve(schema.$ref, base), refs, hops + 1)
    result.nullable ||= target.nullable
    mergeInto(result, target, refs, located)
  }
  if (Array.isArray(schema.allOf)) {
    for (let i = 0; i < schema.allOf.length; i++) {
      if (!isRecord(schema.allOf[i])) continue
      const member = expand(at('allOf', i), refs, hops + 1)
      mergeInto(result, member, refs, located)
    }
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    if (!Array.isArray(schema[keyword])) continue
    const members: Array<{ test: JsonSchema, expanded: Expanded }> = []
    let others = false
    for (let i = 0; i < schema[keyword].length; i++) {
      const member = schema[keyword][i]
      if (isNullSchema(member)) {
        result.nullable = true
        continue
      }
      if (!isRecord(member)) continue
      const expanded = expand(at(keyword, i), refs, hops + 1)
      if (isObjectLike(expanded) && expanded.items === null) {
        members.push({ test: typedObjectTest(refs.rebase(member, base)), expanded })
      } else {
        others = true
      }
    }
    // A choice between objects and other values (`anyOf: [User, string]`) is a leaf.
    if (others || members.length === 0) continue
    if (members.length === 1) {
      result.nullable ||= members[0].expanded.nullable
      mergeInto(result, members[0].expanded, refs, located)
      continue
    }
    const tags = tagTests(members.map((member) => member.expanded))
    if (tags !== null) members.forEach((member, index) => { member.test = tags[index] })
    const choice = emptyExpanded()
    choice.variants = []
    for (const { test, expanded } of members) {
      if (expanded.variants === null) {
        choice.variants.push({ test, parts: expanded.parts })
      } else {
        for (const inner of expanded.variants) {
          choice.variants.push({ test: inner.test === null ? test : { allOf: [test, inner.test] }, parts: [...expanded.parts, ...inner.parts] })
        }
      }
    }
    if (choice.variants.length > MAX_VARIANTS) refs.unreadable(located, keyword, `it has more than ${MAX_VARIANTS} variants`)
    mergeInto(result, choice, refs, located)
  }
  // fast-json-stringify reads `if` only with a `then` or an `else`.
  if (isRecord(schema.if) && (isRecord(schema.then) || isRecord(schema.else))) {
    const branch = (keyword: string): Located[] => isRecord(schema[keyword]) ? expand(at(keyword), refs, hops + 1).parts : []
    const choice = emptyExpanded()
    choice.variants = [
      { test: typedObjectTest(refs.rebase(schema.if, base)), parts: branch('then') },
      { test: null, parts: branch('else') }
    ]
    mergeInto(result, choice, refs, located)
  }
  if (typeIncludes(schema, 'array') && isRecord(schema.items)) result.items = at('items')
  return result
}

const NOT_SIMPLE = ['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'const', 'properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties']
const SIMPLE_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean']

// Keywords that change how fast-json-stringify writes a value, or that point elsewhere.
function simpleTypeOf (schema: JsonSchema): SimpleType | null {
  if (NOT_SIMPLE.some((keyword) => Object.hasOwn(schema, keyword)) || schema.format === 'unsafe') return null
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
  for (const keyword of ['anyOf', 'oneOf']) {
    const members = schema[keyword]
    if (Array.isArray(members) && members.length > 0 && members.every((member) => isRecord(member) && onlyScalars(member))) return true
  }
  return false
}

function withoutDefault (schema: JsonSchema): JsonSchema {
  const { default: _default, ...rest } = schema
  return rest
}

/** A tree of the given nodes, in the given order; `like` gives the level's variants and nullability. */
export function makeTree (nodes: FieldNode[], like?: Pick<FieldTree, 'variants' | 'nullable'>): FieldTree {
  return { nodes, byName: new Map(nodes.map((node) => [node.name, node])), variants: like?.variants ?? null, nullable: like?.nullable ?? false }
}

class Reader {
  readonly refs: References
  constructor (refs: References) {
    this.refs = refs
  }

  /** The properties of the given parts, by name, in the order fast-json-stringify writes them: required ones first. */
  #properties (parts: Located[]): Map<string, Located[]> {
    const byName = new Map<string, Located[]>()
    const required = new Set<string>()
    for (const part of parts) {
      if (Array.isArray(part.schema.required)) for (const name of part.schema.required) required.add(name)
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
    if (expanded.items !== null) return this.#mayHoldFields(expand(expanded.items, this.refs))
    return !expanded.seen.some((located) => onlyScalars(located.schema))
  }

  /** The tree of an object level read from an expansion. */
  level (expanded: Expanded, nullable: boolean, depthLeft: number): FieldTree {
    if (expanded.variants === null) {
      const nodes = [...this.#properties(expanded.parts)].map(([name, locations]) => this.field(name, locations, depthLeft))
      return makeTree(nodes, { variants: null, nullable })
    }
    const variants = expanded.variants.map((variant) => this.#properties([...expanded.parts, ...variant.parts]))
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
    const own = variants.map((properties) => makeTree([...properties].map(([name, locations]) => this.field(name, locations, depthLeft)), { variants: null, nullable }))
    return makeTree(nodes, { variants: { tests: expanded.variants.map((variant) => variant.test), own }, nullable })
  }

  /**
   * A field read from every schema that declares it: several with `allOf`
   * (merged), several lists when variants declare it (`alternatives`: the
   * leaf is any of theirs, the children those of all).
   */
  field (name: string, locations: Located[], depthLeft: number, alternatives: Located[][] | null = null): FieldNode {
    const expansions = (alternatives ?? [locations]).map((list) => {
      const merged = emptyExpanded()
      for (const located of list) {
        const expanded = expand(located, this.refs)
        merged.nullable ||= expanded.nullable
        mergeInto(merged, expanded, this.refs, located)
      }
      return merged
    })
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
    let objects = 0
    let arrays = 0
    let itemsNullable = false
    for (const expanded of expansions) {
      if (isObjectLike(expanded) && expanded.items === null) {
        mergeInto(nested, expanded, this.refs, locations[0])
        objects++
      } else if (expanded.items !== null && !isObjectLike(expanded)) {
        const items = expand(expanded.items, this.refs)
        if (isObjectLike(items) && items.items === null) {
          mergeInto(nested, items, this.refs, locations[0])
          itemsNullable ||= items.nullable
          arrays++
        }
      }
    }
    if (objects + arrays === 0) return leaf
    return { ...leaf, isArray: objects === 0, children: this.level(nested, objects === 0 ? itemsNullable : nullable || itemsNullable, depthLeft - 1) }
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
    const items = expand(top.items, refs)
    if (isObjectLike(items) && items.items === null) {
      declared = { tree: reader.level(items, items.nullable, maxDepth), shape: { kind: 'array' }, envelope: null }
    }
  }
  if (declared === null) return null
  const localDefinitions: JsonSchema = {}
  for (const key of ['definitions', '$defs']) {
    if (isRecord(schema[key])) localDefinitions[key] = refs.rebase(schema[key], refs.rootId)
  }
  if (refs.usesRoot && !Object.hasOwn(context.shared, refs.rootId)) {
    // The route schema, whole, for leaves that refer into it (`$ref: '#'` below maxDepth, a local `$id`).
    localDefinitions.definitions = { ...localDefinitions.definitions, [EMBEDDED_KEY]: { ...schema, $id: refs.rootId } }
  }
  return { ...declared, localDefinitions }
}

/** An envelope: an object (its composition merged) whose `resultsKey` holds an array of records. */
function envelopeOf (reader: Reader, top: Expanded, resultsKey: string, maxDepth: number): Omit<DeclaredResponse, 'localDefinitions'> | null {
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
    if (Array.isArray(part.schema.required)) required.push(...part.schema.required.filter((name: string) => !required.includes(name)))
    additional ??= part.schema.additionalProperties
    patterns ??= part.schema.patternProperties
  }
  const envelope: JsonSchema = { type: 'object', properties }
  if (required.length > 0) envelope.required = required
  if (additional !== undefined) envelope.additionalProperties = reader.refs.rebase(additional, top.parts[0].base)
  if (patterns !== undefined) envelope.patternProperties = reader.refs.rebase(patterns, top.parts[0].base)
  if (top.nullable) envelope.nullable = true
  return { tree: node.children, shape: { kind: 'envelope', key: resultsKey }, envelope }
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
      simpleType: null,
      // Nothing says what a listed field holds: a path inside its value may name a key.
      holdsFields: true
    }
  }))
  return build(root)
}

/** Lists the dotted paths of a tree, depth first, in the tree's order. */
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
