import { test } from 'tap'
import { COMPOSITIONS, DEFINITIONS, REQUIRING, TESTS, VOCABULARY, heldSchemas, holdsInstances, keywordOf, patternMatches } from '../../lib/schema/vocabulary.js'
import type { Dialect, Holds } from '../../lib/schema/vocabulary.js'

// Every keyword of each dialect's schema object, as its specification lists them (JSON Schema's meta-schemas, OpenAPI's Schema Object).
const DIALECTS: Record<Dialect, string[]> = {
  '2020-12': [
    '$schema', '$id', '$anchor', '$dynamicAnchor', '$vocabulary', '$comment', '$ref', '$dynamicRef', '$defs',
    'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
    'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties',
    'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
    'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired',
    'title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema',
    'definitions'
  ],
  '2019-09': ['$recursiveRef', '$recursiveAnchor', 'additionalItems', '$defs', 'dependentSchemas', 'dependentRequired', 'unevaluatedItems', 'unevaluatedProperties', 'maxContains', 'minContains', 'contentSchema'],
  'draft-07': [
    '$schema', '$id', '$ref', '$comment', 'definitions', 'dependencies', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'items', 'additionalItems', 'contains',
    'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'type', 'const', 'enum', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum',
    'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required',
    'title', 'description', 'default', 'readOnly', 'writeOnly', 'examples', 'format', 'contentEncoding', 'contentMediaType'
  ],
  'openapi-3.1': ['discriminator', 'xml', 'externalDocs', 'example', '$defs', 'prefixItems', 'const', 'examples', 'x-vendor'],
  'openapi-3.0': [
    'title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems',
    'maxProperties', 'minProperties', 'required', 'enum', 'type', 'allOf', 'oneOf', 'anyOf', 'not', 'items', 'properties', 'additionalProperties',
    'description', 'format', 'default', '$ref', 'nullable', 'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated', 'x-vendor'
  ],
  'swagger-2.0': [
    '$ref', 'format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
    'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'items', 'allOf', 'properties',
    'additionalProperties', 'discriminator', 'readOnly', 'xml', 'externalDocs', 'example', 'x-vendor'
  ]
}

// What each keyword's value is, and what a schema it holds describes.
const CLASSES: Record<Holds, Array<[string, string?]>> = {
  schema: [['not', 'same'], ['if', 'same'], ['then', 'same'], ['else', 'same'], ['additionalItems', 'items'], ['contains', 'items'], ['unevaluatedItems', 'items'],
    ['additionalProperties', 'properties'], ['unevaluatedProperties', 'properties'], ['propertyNames', 'names'], ['contentSchema', 'content']],
  schemas: [['allOf', 'same'], ['anyOf', 'same'], ['oneOf', 'same'], ['prefixItems', 'items']],
  schemaOrSchemas: [['items', 'items']],
  schemaMap: [['properties', 'properties'], ['patternProperties', 'properties'], ['dependentSchemas', 'same'], ['$defs', 'none'], ['definitions', 'none']],
  names: [['required']],
  namesMap: [['dependentRequired']],
  namesOrSchemaMap: [['dependencies', 'same']],
  discriminator: [['discriminator']],
  pattern: [['pattern']],
  instance: [['const'], ['default'], ['example']],
  instances: [['enum'], ['examples']],
  reference: [['$ref'], ['$dynamicRef'], ['$recursiveRef']],
  assertion: [['type'], ['nullable'], ['format'], ['multipleOf'], ['maximum'], ['exclusiveMaximum'], ['minimum'], ['exclusiveMinimum'], ['maxLength'], ['minLength'],
    ['maxItems'], ['minItems'], ['uniqueItems'], ['maxContains'], ['minContains'], ['maxProperties'], ['minProperties'], ['contentEncoding'], ['contentMediaType']],
  annotation: [['$schema'], ['$id'], ['$anchor'], ['$dynamicAnchor'], ['$recursiveAnchor'], ['$vocabulary'], ['$comment'], ['title'], ['description'], ['deprecated'],
    ['readOnly'], ['writeOnly'], ['xml'], ['externalDocs'], ['x-vendor'], ['x-restricted-fields']]
}

test('every keyword of each dialect is in the vocabulary, and says it belongs to that dialect', async (t) => {
  for (const [dialect, keywords] of Object.entries(DIALECTS)) {
    for (const name of keywords) t.ok(keywordOf(name)?.dialects.includes(dialect as Dialect), `${dialect}: ${name}`)
  }
  t.equal(keywordOf('properties2'), null, 'a keyword of no dialect')
  t.equal(keywordOf('toString'), null, 'a name of Object.prototype is no keyword')
})

test('each keyword holds what its specification says: schemas, names, a pattern, instances, a reference, or nothing to walk', async (t) => {
  const classified = new Set<string>()
  for (const [holds, rows] of Object.entries(CLASSES)) {
    for (const [name, describes] of rows) {
      classified.add(name)
      t.strictSame([keywordOf(name)?.holds, keywordOf(name)?.describes], [holds, describes], name)
    }
  }
  t.strictSame(Object.keys(VOCABULARY).filter((name) => !classified.has(name)), [], 'the table classifies every keyword of the vocabulary')
})

test('a keyword that applies to one type of instance says which', async (t) => {
  const object = Object.keys(VOCABULARY).filter((name) => VOCABULARY[name].appliesTo === 'object').sort()
  t.strictSame(object, ['additionalProperties', 'dependencies', 'dependentRequired', 'dependentSchemas', 'maxProperties', 'minProperties', 'patternProperties',
    'properties', 'propertyNames', 'required', 'unevaluatedProperties'])
  t.equal(keywordOf('pattern')?.appliesTo, 'string')
  t.equal(keywordOf('type')?.appliesTo, undefined)
})

test('heldSchemas: the schemas a keyword holds, each with what it describes and the key it is held under', async (t) => {
  const rows: Array<[string, unknown, unknown[]]> = [
    ['not', { type: 'string' }, [{ schema: { type: 'string' }, key: null, describes: 'same' }]],
    ['anyOf', [{ a: 1 }, true], [{ schema: { a: 1 }, key: null, describes: 'same' }, { schema: true, key: null, describes: 'same' }]],
    ['anyOf', { a: 1 }, []],
    ['items', { a: 1 }, [{ schema: { a: 1 }, key: null, describes: 'items' }]],
    ['items', [{ a: 1 }], [{ schema: { a: 1 }, key: null, describes: 'items' }]],
    ['properties', { default: { a: 1 } }, [{ schema: { a: 1 }, key: 'default', describes: 'properties' }]],
    ['properties', [], []],
    ['dependencies', { a: ['b'], c: { d: 1 } }, [{ schema: { d: 1 }, key: 'c', describes: 'same' }]],
    ['propertyNames', { const: 'a' }, [{ schema: { const: 'a' }, key: null, describes: 'names' }]],
    ['required', ['a'], []],
    ['const', { type: 'string' }, []],
    ['x-schema', { type: 'string' }, []],
    ['unknown', { type: 'string' }, []]
  ]
  for (const [name, value, expected] of rows) t.strictSame(heldSchemas(name, value), expected, `${name}: ${JSON.stringify(value)}`)
  t.strictSame(['const', 'enum', 'default', 'examples', 'example', 'required', 'properties'].map(holdsInstances), [true, true, true, true, true, false, false])
})

test('patternMatches reads a pattern under the u flag, without it where only that compiles, and as matching anything where neither does', async (t) => {
  const rows: Array<[string, string, boolean]> = [
    ['^s', 'ssn', true],
    ['^x', 'ssn', false],
    ['ss', 'xssy', true],
    ['ssn', 'ssn', true],
    ['^\\p{L}+$', 'ssn', true],
    ['^s\\-?sn$', 'ssn', true],
    ['^s\\-?sn$', 'ssnx', false],
    ['[', 'ssn', true],
    ['(?<', 'id', true]
  ]
  for (const [pattern, name, expected] of rows) t.equal(patternMatches(pattern, name), expected, `${pattern} ~ ${name}`)
})

test('the sets read from the table name the compositions, the definitions, the tests and the keywords a shorter record may fail', async (t) => {
  t.strictSame([...COMPOSITIONS], ['allOf', 'anyOf', 'oneOf'])
  t.strictSame([...DEFINITIONS], ['$defs', 'definitions'])
  t.strictSame([...TESTS], ['if', 'not'])
  t.strictSame([...REQUIRING].sort(), ['dependencies', 'dependentRequired', 'dependentSchemas', 'discriminator', 'else', 'if', 'minProperties', 'not', 'required', 'then'])
})
