/**
 * What the value of each keyword of JSON Schema (2020-12, 2019-09, draft-07),
 * OpenAPI 3.0/3.1 and Swagger 2.0 is: a schema, a list or map of schemas,
 * names of properties, a pattern, an instance, a reference, or something
 * that says nothing of a property's name (an annotation or an assertion).
 * Every walk of a schema reads this one table, so that a property *named*
 * like a keyword is never taken for it, and no walk misses a keyword that
 * another reads.
 *
 * Why not ajv's json-schema-traverse: its 1.0 tables know neither
 * `prefixItems`, `dependentSchemas`, `dependentRequired` nor the
 * `unevaluated*` keywords, and say nothing of what matters here beyond
 * where schemas sit: which keywords name properties, hold patterns over
 * names or instances, and what a held schema describes.
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

/** What the table says of one keyword. */
export interface Keyword {
  readonly holds: Holds
  /** For a keyword that holds schemas: what they describe. */
  readonly describes?: Describes
  /** The only type of instance the keyword constrains, when it constrains one type alone. */
  readonly appliesTo?: 'object' | 'array' | 'string' | 'number'
  readonly dialects: readonly Dialect[]
}

const JSON_SCHEMA: readonly Dialect[] = ['2020-12', '2019-09', 'draft-07', 'openapi-3.1']
const SINCE_2019: readonly Dialect[] = ['2020-12', '2019-09', 'openapi-3.1']
const EVERY: readonly Dialect[] = [...JSON_SCHEMA, 'openapi-3.0', 'swagger-2.0']
// Keywords that OpenAPI 3.0's and Swagger 2.0's subsets of draft-04/05 keep.
const WITH_OPENAPI_30: readonly Dialect[] = [...JSON_SCHEMA, 'openapi-3.0']
const OPENAPI: readonly Dialect[] = ['openapi-3.1', 'openapi-3.0', 'swagger-2.0']

const keyword = (holds: Holds, dialects: readonly Dialect[], more: Partial<Keyword> = {}): Keyword => ({ holds, dialects, ...more })
const applicator = (holds: Holds, describes: Describes, dialects: readonly Dialect[], appliesTo?: Keyword['appliesTo']): Keyword =>
  keyword(holds, dialects, appliesTo === undefined ? { describes } : { describes, appliesTo })

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
  $ref: keyword('reference', EVERY),
  $dynamicRef: keyword('reference', ['2020-12', 'openapi-3.1']),
  $recursiveRef: keyword('reference', ['2019-09']),
  $defs: applicator('schemaMap', 'none', SINCE_2019),
  definitions: applicator('schemaMap', 'none', ['draft-07', '2019-09', '2020-12', 'openapi-3.1']),
  // Applicators of the same value.
  allOf: applicator('schemas', 'same', EVERY),
  anyOf: applicator('schemas', 'same', WITH_OPENAPI_30),
  oneOf: applicator('schemas', 'same', WITH_OPENAPI_30),
  not: applicator('schema', 'same', WITH_OPENAPI_30),
  if: applicator('schema', 'same', JSON_SCHEMA),
  then: applicator('schema', 'same', JSON_SCHEMA),
  else: applicator('schema', 'same', JSON_SCHEMA),
  dependentSchemas: applicator('schemaMap', 'same', SINCE_2019, 'object'),
  dependencies: applicator('namesOrSchemaMap', 'same', ['draft-07'], 'object'),
  // Applicators of items.
  items: applicator('schemaOrSchemas', 'items', EVERY, 'array'),
  prefixItems: applicator('schemas', 'items', ['2020-12', 'openapi-3.1'], 'array'),
  additionalItems: applicator('schema', 'items', ['2019-09', 'draft-07'], 'array'),
  contains: applicator('schema', 'items', JSON_SCHEMA, 'array'),
  unevaluatedItems: applicator('schema', 'items', SINCE_2019, 'array'),
  // Applicators of property values, and of names.
  properties: applicator('schemaMap', 'properties', EVERY, 'object'),
  patternProperties: applicator('schemaMap', 'properties', JSON_SCHEMA, 'object'),
  additionalProperties: applicator('schema', 'properties', EVERY, 'object'),
  unevaluatedProperties: applicator('schema', 'properties', SINCE_2019, 'object'),
  propertyNames: applicator('schema', 'names', JSON_SCHEMA, 'object'),
  contentSchema: applicator('schema', 'content', SINCE_2019, 'string'),
  // Names of properties.
  required: keyword('names', EVERY, { appliesTo: 'object' }),
  dependentRequired: keyword('namesMap', SINCE_2019, { appliesTo: 'object' }),
  discriminator: keyword('discriminator', OPENAPI),
  // Instances.
  const: keyword('instance', JSON_SCHEMA),
  enum: keyword('instances', EVERY),
  default: keyword('instance', EVERY),
  examples: keyword('instances', JSON_SCHEMA),
  example: keyword('instance', OPENAPI),
  // Assertions.
  type: keyword('assertion', EVERY),
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

/**
 * The schemas that keyword `name` of a schema holds, with what each
 * describes: none for a keyword that holds no schema, or whose value is not
 * of the form the keyword takes.
 */
export function heldSchemas (name: string, value: unknown): HeldSchema[] {
  const known = keywordOf(name)
  if (known?.describes === undefined) return []
  const describes = known.describes
  switch (known.holds) {
    case 'schemaOrSchemas':
    case 'schemas':
      if (Array.isArray(value)) return value.map((schema) => ({ schema, key: null, describes }))
      return known.holds === 'schemas' ? [] : [{ schema: value, key: null, describes }]
    case 'schemaMap':
    case 'namesOrSchemaMap':
      if (!isRecord(value)) return []
      return Object.entries(value).filter(([, schema]) => !Array.isArray(schema)).map(([key, schema]) => ({ schema, key, describes }))
    default:
      return [{ schema: value, key: null, describes }]
  }
}

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

/** The keywords the table says `test` of, in the table's order. */
function keywordsWhere (test: (keyword: Keyword, name: string) => boolean): ReadonlySet<string> {
  return new Set(Object.keys(VOCABULARY).filter((name) => test(VOCABULARY[name], name)))
}

/** The lists of schemas that all, any or one of describe the same value: `allOf`, `anyOf`, `oneOf`. */
export const COMPOSITIONS = keywordsWhere((known) => known.holds === 'schemas' && known.describes === 'same')

/** The maps of local definitions, reached only through a reference: `$defs`, `definitions`. */
export const DEFINITIONS = keywordsWhere((known) => known.describes === 'none')

/**
 * The schemas of the same value that test it rather than describe it: a
 * condition (`if`), which an instance need not match, and a negation
 * (`not`), which it must fail. Taking a name out of one changes what it
 * says, where taking it out of a description only allows more.
 */
export const TESTS: ReadonlySet<string> = new Set(['if', 'not'])

/**
 * The keywords that a record with fewer properties may fail where the whole
 * record passes: those that name properties (`required`, `dependentRequired`,
 * `dependencies`, `discriminator`), the schemas that apply when a property is
 * present (`dependentSchemas`), the conditions and negations with their
 * branches (`if`, `then`, `else`, `not`), and a least count of properties.
 */
export const REQUIRING = keywordsWhere((known, name) =>
  ['names', 'namesMap', 'namesOrSchemaMap', 'discriminator'].includes(known.holds) ||
  (known.holds === 'schemaMap' && known.describes === 'same') ||
  (known.holds === 'schema' && known.describes === 'same') ||
  name === 'minProperties')
