/**
 * What the value of each keyword of JSON Schema (2020-12, 2019-09, draft-07), OpenAPI 3.0/3.1 and Swagger 2.0 is:
 * a schema, a list or map of schemas, names of properties, a pattern, an instance, a reference, or something that
 * says nothing of a property's name. Every walk of a schema reads this one table, so that a property *named* like a
 * keyword is never taken for it, and no walk misses a keyword that another reads.
 *
 * Why not ajv's json-schema-traverse: its 1.0 tables know neither `prefixItems`, `dependentSchemas`,
 * `dependentRequired` nor the `unevaluated*` keywords, nor which keywords name properties or hold instances.
 */
import { isRecord } from '../json.js'

/** What a keyword's value is. */
export type Holds =
  /** A schema. */
  | 'schema'
  /** A list of schemas. */
  | 'schemas'
  /** A schema or a list of schemas (draft-07 `items`). */
  | 'schemaOrSchemas'
  /** A map of names (of properties, of definitions) or patterns to schemas. */
  | 'schemaMap'
  /** A list of property names (`required`). */
  | 'names'
  /** A map of property names to lists of property names (`dependentRequired`). */
  | 'namesMap'
  /** A map of property names to a list of property names or a schema (draft-07 `dependencies`). */
  | 'namesOrSchemaMap'
  /** OpenAPI's `{ propertyName, mapping }`, or Swagger 2.0's property name alone. */
  | 'discriminator'
  /** A regular expression over strings (`pattern`): over names, inside `propertyNames`. */
  | 'pattern'
  /** An instance. */
  | 'instance'
  /** A list of instances. */
  | 'instances'
  /** A reference to a schema. */
  | 'reference'
  /** A constraint on a value that names nothing (`type`, `minimum`, `nullable`). */
  | 'assertion'
  /** Words about the schema, or an identifier, that constrain nothing (`title`, `$id`, `xml`). */
  | 'annotation'

/**
 * What a held schema describes, against the value the holding schema
 * describes: the value itself, its items, the values of some of its
 * properties, its property names, a string's decoded content, or nothing (a
 * definition, reached only through a reference).
 */
export type Describes = 'same' | 'items' | 'properties' | 'names' | 'content' | 'none'

/** The dialects whose schemas have a keyword. */
export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'openapi-3.1' | 'openapi-3.0' | 'swagger-2.0'

/**
 * How a keyword bears on the value its own schema describes, by logic:
 * each schema it holds must hold (`allOf`), one or more of them (`anyOf`,
 * `oneOf`), none (`not`), or only on a condition (`if` and its branches; the
 * dependent keywords, when a property is present).
 */
export type Logic = 'all' | 'choice' | 'not' | 'conditional'

/** What the table says of one keyword. */
export interface Keyword {
  readonly holds: Holds
  /** For a keyword that holds schemas: what they describe. */
  readonly describes?: Describes
  /** For a keyword that bears on the same value by logic: how. */
  readonly logic?: Logic
  /** The only type of instance the keyword constrains, when it constrains one type alone. */
  readonly appliesTo?: 'object' | 'array' | 'string' | 'number'
  /**
   * Whether what fast-json-stringify writes under a schema satisfies this keyword of it, whatever value it is given:
   * words and structure do; a check of a value does not, since it writes a null as `0`, `""`, `false` or `{}` and copies
   * a value out of range, off its pattern, its format or its enum as it is. A schema of what it wrote keeps only these.
   */
  readonly written?: true
  readonly dialects: readonly Dialect[]
}

const JSON_SCHEMA: readonly Dialect[] = ['2020-12', '2019-09', 'draft-07', 'openapi-3.1']
const SINCE_2019: readonly Dialect[] = ['2020-12', '2019-09', 'openapi-3.1']
const EVERY: readonly Dialect[] = [...JSON_SCHEMA, 'openapi-3.0', 'swagger-2.0']
// Keywords that OpenAPI 3.0's and Swagger 2.0's subsets of draft-04/05 keep.
const WITH_OPENAPI_30: readonly Dialect[] = [...JSON_SCHEMA, 'openapi-3.0']
const OPENAPI: readonly Dialect[] = ['openapi-3.1', 'openapi-3.0', 'swagger-2.0']

// Words constrain nothing, so whatever is written satisfies them.
const keyword = (holds: Holds, dialects: readonly Dialect[], more: Partial<Keyword> = {}): Keyword =>
  ({ holds, dialects, ...holds === 'annotation' ? { written: true } : {}, ...more })
const WRITTEN = { written: true } as const
const applicator = (holds: Holds, describes: Describes, dialects: readonly Dialect[], appliesTo?: Keyword['appliesTo']): Keyword =>
  keyword(holds, dialects, appliesTo === undefined ? { describes } : { describes, appliesTo })
const logic = (holds: Holds, how: Logic, dialects: readonly Dialect[], appliesTo?: Keyword['appliesTo']): Keyword =>
  holds === 'namesMap' ? keyword(holds, dialects, { logic: how, appliesTo }) : { ...applicator(holds, 'same', dialects, appliesTo), logic: how }

/** The keywords, by name. */
export const VOCABULARY: Readonly<Record<string, Keyword>> = {
  // Core.
  $schema: keyword('annotation', JSON_SCHEMA),
  $id: keyword('annotation', JSON_SCHEMA),
  $anchor: keyword('annotation', SINCE_2019),
  $dynamicAnchor: keyword('annotation', ['2020-12', 'openapi-3.1']),
  $recursiveAnchor: keyword('annotation', ['2019-09']),
  $vocabulary: keyword('annotation', SINCE_2019),
  $comment: keyword('annotation', JSON_SCHEMA),
  $ref: keyword('reference', EVERY, WRITTEN),
  $dynamicRef: keyword('reference', ['2020-12', 'openapi-3.1']),
  $recursiveRef: keyword('reference', ['2019-09']),
  $defs: { ...applicator('schemaMap', 'none', SINCE_2019), ...WRITTEN },
  definitions: { ...applicator('schemaMap', 'none', ['draft-07', '2019-09', '2020-12', 'openapi-3.1']), ...WRITTEN },
  // Applicators of the same value.
  allOf: { ...logic('schemas', 'all', EVERY), ...WRITTEN },
  anyOf: { ...logic('schemas', 'choice', WITH_OPENAPI_30), ...WRITTEN },
  oneOf: logic('schemas', 'choice', WITH_OPENAPI_30),
  not: logic('schema', 'not', WITH_OPENAPI_30),
  if: logic('schema', 'conditional', JSON_SCHEMA),
  then: logic('schema', 'conditional', JSON_SCHEMA),
  else: logic('schema', 'conditional', JSON_SCHEMA),
  dependentSchemas: logic('schemaMap', 'conditional', SINCE_2019, 'object'),
  dependencies: logic('namesOrSchemaMap', 'conditional', ['draft-07'], 'object'),
  // Applicators of items.
  // Written only as one schema of every item: fast-json-stringify writes the items of `false` or of a list as they are.
  items: { ...applicator('schemaOrSchemas', 'items', EVERY, 'array'), ...WRITTEN },
  prefixItems: applicator('schemas', 'items', ['2020-12', 'openapi-3.1'], 'array'),
  additionalItems: applicator('schema', 'items', ['2019-09', 'draft-07'], 'array'),
  contains: applicator('schema', 'items', JSON_SCHEMA, 'array'),
  unevaluatedItems: applicator('schema', 'items', SINCE_2019, 'array'),
  // Applicators of property values, and of names.
  properties: { ...applicator('schemaMap', 'properties', EVERY, 'object'), ...WRITTEN },
  patternProperties: { ...applicator('schemaMap', 'properties', JSON_SCHEMA, 'object'), ...WRITTEN },
  additionalProperties: { ...applicator('schema', 'properties', EVERY, 'object'), ...WRITTEN },
  unevaluatedProperties: applicator('schema', 'properties', SINCE_2019, 'object'),
  propertyNames: applicator('schema', 'names', JSON_SCHEMA, 'object'),
  contentSchema: applicator('schema', 'content', SINCE_2019, 'string'),
  // Names of properties.
  required: keyword('names', EVERY, { appliesTo: 'object' }),
  dependentRequired: logic('namesMap', 'conditional', SINCE_2019, 'object'),
  discriminator: keyword('discriminator', OPENAPI),
  // Instances.
  const: keyword('instance', JSON_SCHEMA),
  enum: keyword('instances', EVERY),
  default: keyword('instance', EVERY, WRITTEN),
  examples: keyword('instances', JSON_SCHEMA, WRITTEN),
  example: keyword('instance', OPENAPI),
  // Assertions.
  // But for `number`: fast-json-stringify writes an infinite number as null.
  type: keyword('assertion', EVERY, WRITTEN),
  nullable: keyword('assertion', ['openapi-3.0']),
  pattern: keyword('pattern', EVERY, { appliesTo: 'string' }),
  format: keyword('assertion', EVERY),
  multipleOf: keyword('assertion', EVERY, { appliesTo: 'number' }),
  maximum: keyword('assertion', EVERY, { appliesTo: 'number' }),
  exclusiveMaximum: keyword('assertion', EVERY, { appliesTo: 'number' }),
  minimum: keyword('assertion', EVERY, { appliesTo: 'number' }),
  exclusiveMinimum: keyword('assertion', EVERY, { appliesTo: 'number' }),
  maxLength: keyword('assertion', EVERY, { appliesTo: 'string' }),
  minLength: keyword('assertion', EVERY, { appliesTo: 'string' }),
  maxItems: keyword('assertion', EVERY, { appliesTo: 'array' }),
  minItems: keyword('assertion', EVERY, { appliesTo: 'array' }),
  uniqueItems: keyword('assertion', EVERY, { appliesTo: 'array' }),
  maxContains: keyword('assertion', SINCE_2019, { appliesTo: 'array' }),
  minContains: keyword('assertion', SINCE_2019, { appliesTo: 'array' }),
  maxProperties: keyword('assertion', EVERY, { appliesTo: 'object' }),
  minProperties: keyword('assertion', EVERY, { appliesTo: 'object' }),
  contentEncoding: keyword('assertion', JSON_SCHEMA, { appliesTo: 'string' }),
  contentMediaType: keyword('assertion', JSON_SCHEMA, { appliesTo: 'string' }),
  // Annotations.
  title: keyword('annotation', EVERY),
  description: keyword('annotation', EVERY),
  deprecated: keyword('annotation', [...SINCE_2019, 'openapi-3.0']),
  readOnly: keyword('annotation', EVERY),
  writeOnly: keyword('annotation', [...JSON_SCHEMA, 'openapi-3.0']),
  xml: keyword('annotation', OPENAPI),
  externalDocs: keyword('annotation', OPENAPI)
}

// Vendor extensions of OpenAPI and Swagger 2.0: words for tools, never a schema that an instance must match.
const EXTENSION = keyword('annotation', OPENAPI)

/** What `name` holds where it is a keyword of a schema; null for a keyword of no dialect here. */
export function keywordOf (name: string): Keyword | null {
  if (Object.hasOwn(VOCABULARY, name)) return VOCABULARY[name]
  return name.startsWith('x-') ? EXTENSION : null
}

/** One schema held by a keyword, and what it describes. */
export interface HeldSchema {
  readonly schema: unknown
  /** The name or pattern it is held under, in a map of schemas or of dependencies. */
  readonly key: string | null
  readonly describes: Describes
}

/** How keywords of no dialect are read: as holding nothing, or a schema or a list of them (as fast-json-stringify may). */
export type UnknownKeywords = 'skip' | 'schemas'

// The one reading of where schemas sit in a keyword's value, handing each to `each` with its name or index.
export function eachHeld (
  name: string,
  value: unknown,
  unknownKeywords: UnknownKeywords,
  each: (schema: unknown, key: string | number | null, describes: Describes) => void
): void {
  const known = keywordOf(name)
  const holds = known === null ? (unknownKeywords === 'skip' ? null : 'schemaOrSchemas') : known.describes === undefined ? null : known.holds
  const describes = known?.describes ?? 'same'
  if (holds === 'schemaOrSchemas' || holds === 'schemas') {
    if (Array.isArray(value)) value.forEach((schema, key) => each(schema, key, describes))
    else if (holds === 'schemaOrSchemas') each(value, null, describes)
  } else if (holds === 'schemaMap' || holds === 'namesOrSchemaMap') {
    if (isRecord(value)) {
      for (const key in value) if (Object.hasOwn(value, key) && !Array.isArray(value[key])) each(value[key], key, describes)
    }
  } else if (holds !== null) {
    each(value, null, describes)
  }
}

/** The schemas that keyword `name` holds, with what each describes: none where it holds none, or its value is not of its form. */
export function heldSchemas (name: string, value: unknown): HeldSchema[] {
  const held: HeldSchema[] = []
  eachHeld(name, value, 'skip', (schema, key, describes) => held.push({ schema, key: typeof key === 'string' ? key : null, describes }))
  return held
}

/** The keywords of the table that `test` picks. */
export function keywordsWhere (test: (keyword: Keyword, name: string) => boolean): ReadonlySet<string> {
  return new Set(Object.keys(VOCABULARY).filter((name) => test(VOCABULARY[name], name)))
}

/** The keywords that `dialect`'s schemas have (vendor extensions aside). */
export function keywordsOf (dialect: Dialect): ReadonlySet<string> {
  return keywordsWhere((keyword) => keyword.dialects.includes(dialect))
}

/** The keywords that hold a choice of schemas for the same value: `anyOf`, `oneOf`. */
export const CHOICES = keywordsWhere((keyword) => keyword.logic === 'choice')

/** The keywords that bear on the same value only on a condition: `if`, `then`, `else`, and the dependent keywords. */
export const CONDITIONALS = keywordsWhere((keyword) => keyword.logic === 'conditional')

/**
 * The keywords that only OpenAPI's dialects have (`nullable`, `discriminator`, `example`, `xml`,
 * `externalDocs`): JSON Schema does not know them.
 */
export const OPENAPI_ONLY = keywordsWhere((keyword) => keyword.dialects.every((dialect) => OPENAPI.includes(dialect)))

/** The keywords whose every value fast-json-stringify's output satisfies (see `Keyword.written`). */
export const WRITTEN_KEYWORDS = keywordsWhere((keyword) => keyword.written === true)

/** Whether a keyword's value is an instance, or a list of them, whose keys and strings are data. */
export function holdsInstances (name: string): boolean {
  const holds = keywordOf(name)?.holds
  return holds === 'instance' || holds === 'instances'
}

/**
 * Whether a schema's pattern (`pattern`, a key of `patternProperties`) may
 * match `name`. JSON Schema reads a pattern as ECMA-262 with the `u` flag;
 * one that compiles only without it (`^s\-?sn$`) is read as it then
 * matches, since a tool that compiles it so will match that; one that
 * compiles in neither form may match anything, as far as can be known.
 */
export function patternMatches (pattern: string, name: string): boolean {
  if (pattern.includes(name)) return true
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(name)
    } catch {}
  }
  return true
}

/** The lists of schemas that all, any or one of describe the same value: `allOf`, `anyOf`, `oneOf`. */
export const COMPOSITIONS = keywordsWhere((known) => known.holds === 'schemas' && known.describes === 'same')

/** The maps of local definitions, reached only through a reference: `$defs`, `definitions`. */
export const DEFINITIONS = keywordsWhere((known) => known.describes === 'none')

/** The schemas that test a value rather than describe it (`if`, `not`): taking a name out of one changes what it says. */
export const TESTS: ReadonlySet<string> = new Set(['if', 'not'])

/**
 * The keywords a record with fewer properties may fail where the whole record passes: those naming properties,
 * the schemas that apply when a property is present, conditions and negations with their branches, `minProperties`.
 */
export const REQUIRING = keywordsWhere((known, name) =>
  ['names', 'namesMap', 'namesOrSchemaMap', 'discriminator'].includes(known.holds) ||
  (known.holds === 'schemaMap' && known.describes === 'same') ||
  (known.holds === 'schema' && known.describes === 'same') ||
  name === 'minProperties')
