/**
 * fast-check generators for the property tests: response schemas (nested,
 * with required, default, nullable and additionalProperties), records that fit
 * them, and selections of their declared paths.
 */
import fc from 'fast-check'

export type Schema = Record<string, any>

/**
 * How many cases a property test draws: `share` of a base count. The base is
 * PROPERTY_RUNS when it is set, else 1000 under `npm run test:deep` (FST_DEEP
 * set, as CI runs it) and 250 in `npm test`, where a contributor waits for it.
 */
export function propertyRuns (share: number): number {
  const base = Number(process.env.PROPERTY_RUNS ?? (process.env.FST_DEEP === undefined ? 250 : 1000))
  return Math.max(1, Math.ceil(base * share))
}

const NAMES = ['a', 'b', 'c', 'd', 'e', 'f']

const leafSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: 'integer' }),
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constant({ type: 'string', default: 'dflt' }),
  fc.constant({ type: 'integer', default: 7 })
)

function objectSchema (depth: number, names: readonly string[] = NAMES): fc.Arbitrary<Schema> {
  const property: fc.Arbitrary<Schema> = depth === 0
    ? leafSchema
    : fc.oneof(
      { weight: 3, arbitrary: leafSchema },
      { weight: 1, arbitrary: objectSchema(depth - 1, names) },
      { weight: 1, arbitrary: objectSchema(depth - 1, names).map((schema) => ({ ...schema, nullable: true })) },
      { weight: 1, arbitrary: objectSchema(depth - 1, names).map((schema) => ({ anyOf: [{ type: 'null' }, schema] })) },
      { weight: 1, arbitrary: objectSchema(depth - 1, names).map((items) => ({ type: 'array', items })) },
      { weight: 1, arbitrary: objectSchema(depth - 1, names).chain(withDefault) },
      { weight: 1, arbitrary: objectSchema(depth - 1, names).map((items) => ({ type: 'array', items })).chain(withDefault) }
    )
  return fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 4 }).chain((names) => fc.record({
    properties: fc.tuple(...names.map(() => property)).map((schemas) => Object.fromEntries(names.map((name, i) => [name, schemas[i]]))),
    required: fc.subarray(names),
    additionalProperties: fc.constantFrom(undefined, false, true)
  })).map(({ properties, required, additionalProperties }) => {
    const schema: Schema = { type: 'object', properties, required }
    if (additionalProperties !== undefined) schema.additionalProperties = additionalProperties
    return schema
  })
}

/**
 * The schema with a `default` that fits it: declared keys only, in the order
 * the route writes a record's, since a default is written as it stands.
 */
function withDefault (schema: Schema): fc.Arbitrary<Schema> {
  return valueOf(schema).map((value) => ({ ...schema, default: declaredOnly(value, schema) }))
}

/** A record schema up to three levels deep. */
export const recordSchema = objectSchema(2)

/** A record schema up to three levels deep whose property names are taken from `names`. */
export function recordSchemaWith (names: readonly string[]): fc.Arbitrary<Schema> {
  return objectSchema(2, names)
}

/** Drops `additionalProperties: true` at every level, so that every key a route writes is declared. */
function closedKeys (schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(closedKeys) as unknown as Schema
  if (schema === null || typeof schema !== 'object') return schema
  const copy: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === true) continue
    copy[key] = key === 'default' ? value : closedKeys(value)
  }
  return copy
}

/**
 * A composed record schema and records that fit it: members of an allOf, properties beside an allOf,
 * variants with a discriminator, or if/then/else.
 */
export interface ComposedCase {
  schema: Schema
  records: unknown[]
  paths: string[]
  only: string[] | null
  defer: string[] | null
}

function split (schema: Schema, at: number): [Schema, Schema] {
  const names = Object.keys(schema.properties)
  const part = (chosen: string[]): Schema => ({
    type: 'object',
    properties: Object.fromEntries(chosen.map((name) => [name, schema.properties[name]])),
    required: schema.required.filter((name: string) => chosen.includes(name))
  })
  return [part(names.slice(0, at)), part(names.slice(at))]
}

function withKind (schema: Schema, kind: string): Schema {
  return { ...schema, properties: { kind: { const: kind }, ...schema.properties }, required: ['kind', ...schema.required] }
}

function composedOf (
  kind: string,
  first: Schema,
  second: Schema,
  at: number
): fc.Arbitrary<{ schema: Schema, records: fc.Arbitrary<unknown>, paths: string[] }> {
  if (kind === 'allOf' || kind === 'properties+allOf') {
    const [left, right] = split(first, at)
    const schema = kind === 'allOf' ? { allOf: [left, right] } : { ...left, allOf: [right] }
    return fc.constant({ schema, records: valueOf(first), paths: pathsOf(first) })
  }
  const a = withKind(first, 'a')
  const b = withKind(second, 'b')
  const records = fc.oneof(valueOf(a), valueOf(b))
  const paths = [...new Set([...pathsOf(a), ...pathsOf(b)])]
  if (kind === 'oneOf') return fc.constant({ schema: { oneOf: [a, b], discriminator: { propertyName: 'kind' } }, records, paths })
  const { properties: thenProperties } = a
  const { properties: elseProperties } = b
  const schema = {
    type: 'object',
    properties: { kind: { type: 'string' } },
    required: ['kind'],
    if: { type: 'object', properties: { kind: { const: 'a' } } },
    then: { properties: thenProperties },
    else: { properties: elseProperties }
  }
  return fc.constant({ schema, records, paths })
}

/** A composed schema, records that fit it, and a selection of the names any of its parts declares. */
export const composedCase: fc.Arbitrary<ComposedCase> = fc.tuple(
  fc.constantFrom('allOf', 'properties+allOf', 'oneOf', 'if'),
  objectSchema(1).map(closedKeys),
  objectSchema(1).map(closedKeys),
  fc.integer({ min: 0, max: 4 })
).chain(([kind, first, second, at]) => composedOf(kind, first, second, at)).chain(({ schema, records, paths }) => fc.record({
  schema: fc.constant(schema),
  records: fc.array(records, { minLength: 1, maxLength: 3 }),
  paths: fc.constant(paths),
  only: fc.option(fc.subarray(paths), { nil: null }),
  defer: fc.option(fc.subarray(paths), { nil: null })
}))

function unwrap (schema: Schema): Schema {
  return schema.anyOf !== undefined ? schema.anyOf[1] : schema
}

/**
 * Values that fit a schema. Records whose schema does not forbid extra keys
 * may carry an undeclared `secret` key, which a restricted response must never send.
 */
export function valueOf (schema: Schema): fc.Arbitrary<unknown> {
  if (schema.anyOf !== undefined) return fc.oneof(fc.constant(null), valueOf(schema.anyOf[1]))
  if (schema.nullable === true) return fc.oneof(fc.constant(null), valueOf({ ...schema, nullable: false }))
  if (schema.type === 'array') return fc.array(valueOf(schema.items), { maxLength: 3 })
  if (schema.type === 'object') {
    const entries = Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => {
      const value = valueOf(property)
      // A field may be missing unless required; a missing field with a default gets it.
      return schema.required.includes(name) ? value.map((v) => [name, v]) : fc.option(value.map((v) => [name, v]), { nil: undefined })
    })
    return fc.tuple(fc.tuple(...entries), fc.boolean()).map(([pairs, secret]) => {
      const record = Object.fromEntries(pairs.filter((pair): pair is [string, unknown] => pair !== undefined))
      if (secret && schema.additionalProperties !== false) record.secret = 'leak'
      return record
    })
  }
  if (Object.hasOwn(schema, 'const')) return fc.constant(schema.const)
  if (schema.type === 'integer') return fc.integer({ min: -1000, max: 1000 })
  if (schema.type === 'boolean') return fc.boolean()
  if (Array.isArray(schema.type)) return fc.oneof(fc.constant(null), fc.string({ maxLength: 5 }))
  return fc.string({ maxLength: 5 })
}

/** Every declared dotted path of a record schema, parents before children. */
export function pathsOf (schema: Schema, prefix = ''): string[] {
  const paths: string[] = []
  for (const [name, raw] of Object.entries(schema.properties as Record<string, Schema>)) {
    const property = unwrap(raw)
    paths.push(prefix + name)
    const inner = property.type === 'array' ? property.items : property
    if (inner.type === 'object') paths.push(...pathsOf(inner, `${prefix}${name}.`))
  }
  return paths
}

export interface Case {
  schema: Schema
  records: unknown[]
  only: string[] | null
  defer: string[] | null
  /** An envelope around the records: its keys in declared order, and which are required. */
  envelope: { order: string[], required: string[] }
}

const ENVELOPE_KEYS = ['count', 'next', 'results']

/** The envelope schema of a case: fast-json-stringify writes required keys first, so both vary. */
export function envelopeSchema (c: Case): Schema {
  const properties: Record<string, Schema> = { count: { type: 'integer' }, next: { type: ['string', 'null'] }, results: { type: 'array', items: c.schema } }
  return { type: 'object', required: c.envelope.required, properties: Object.fromEntries(c.envelope.order.map((key) => [key, properties[key]])) }
}

/** A schema, a page of records that fit it, and a selection of its declared paths (either parameter may be absent). */
export const restrictionCase: fc.Arbitrary<Case> = recordSchema.chain((schema) => {
  const paths = pathsOf(schema)
  return fc.record({
    schema: fc.constant(schema),
    records: fc.array(valueOf(schema), { minLength: 1, maxLength: 3 }),
    only: fc.option(fc.subarray(paths), { nil: null }),
    defer: fc.option(fc.subarray(paths), { nil: null }),
    envelope: fc.record({ order: fc.shuffledSubarray(ENVELOPE_KEYS, { minLength: 3 }), required: fc.subarray(ENVELOPE_KEYS) })
  })
}).filter((c) => c.only !== null || c.defer !== null)

/** The four spellings of the same selection: repeated, comma, bracket, and a mix. */
export function spellings (only: string[] | null, defer: string[] | null): string[] {
  const forms = (param: string, names: string[] | null): string[] => {
    if (names === null) return ['', '', '', '']
    if (names.length === 0) return [`${param}=`, `${param}=`, `${param}[]=`, `${param}=`]
    const half = Math.ceil(names.length / 2)
    return [
      names.map((name) => `${param}=${name}`).join('&'),
      `${param}=${names.join(',')}`,
      names.map((name) => `${param}[]=${name}`).join('&'),
      [`${param}[]=${names.slice(0, half).join(',')}`, ...names.slice(half).map((name) => `${param}=${name}`)].join('&')
    ]
  }
  const onlyForms = forms('only', only)
  const deferForms = forms('defer', defer)
  return onlyForms.map((form, i) => [form, deferForms[i]].filter((part) => part !== '').join('&'))
}

interface Trie { whole: boolean, children: Map<string, Trie> }

function trieOf (paths: string[]): Trie {
  const root: Trie = { whole: false, children: new Map() }
  for (const path of paths) {
    let node = root
    for (const segment of path.split('.')) {
      let next = node.children.get(segment)
      if (next === undefined) {
        next = { whole: false, children: new Map() }
        node.children.set(segment, next)
      }
      node = next
    }
    node.whole = true
  }
  return root
}

const ALL: Trie = { whole: true, children: new Map() }
const NONE: Trie = { whole: false, children: new Map() }

/** Keeps only declared keys, at every depth: what a restricted response may hold of a field kept whole. */
function declaredOnly (value: unknown, schema: Schema): unknown {
  return filterValue(value, schema, ALL, NONE)
}

function filterValue (value: unknown, raw: Schema, only: Trie, defer: Trie): unknown {
  const schema = unwrap(raw)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => filterValue(item, schema.items, only, defer))
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  // fast-json-stringify writes required properties first, each group in declared order; so does the plugin.
  const required: string[] = schema.required ?? []
  const entries = Object.entries(schema.properties as Record<string, Schema>)
  const ordered = [...entries.filter(([name]) => required.includes(name)), ...entries.filter(([name]) => !required.includes(name))]
  for (const [name, property] of ordered) {
    if (!(name in record)) continue
    const kept = only.whole ? ALL : only.children.get(name)
    const dropped = defer.children.get(name)
    if (kept === undefined || dropped?.whole === true) continue
    out[name] = kept.whole && dropped === undefined
      ? declaredOnly(record[name], property)
      : filterValue(record[name], property, kept, dropped ?? NONE)
  }
  return out
}

/**
 * The reference semantics, written apart from the plugin: the unrestricted
 * body with only the selected paths kept and the deferred paths removed.
 */
export function expectedBody (unrestricted: unknown[], schema: Schema, only: string[] | null, defer: string[] | null): unknown[] {
  const onlyTrie = only === null ? ALL : trieOf(only)
  const deferTrie = defer === null ? NONE : trieOf(defer)
  return unrestricted.map((record) => filterValue(record, schema, onlyTrie, deferTrie))
}

/** Whether every key of a body, at every depth, is declared by the schema. */
export function onlyDeclaredKeys (value: unknown, raw: Schema): boolean {
  const schema = unwrap(raw)
  if (value === null || typeof value !== 'object') return true
  if (Array.isArray(value)) return value.every((item) => onlyDeclaredKeys(item, schema.type === 'array' ? schema.items : schema))
  return Object.entries(value).every(([key, inner]) =>
    Object.hasOwn(schema.properties, key) && onlyDeclaredKeys(inner, schema.properties[key]))
}
