import { test } from 'tap'
import { CHOICES, COMPOSITIONS, CONDITIONALS, DEFINITIONS, OPENAPI_ONLY, REQUIRING, TESTS, VOCABULARY, heldSchemas, holdsInstances, keywordOf, keywordsOf, keywordsWhere, patternMatches } from '../../lib/schema/vocabulary.js'
import { SKIP, mapSchema, walkSchema } from '../../lib/schema/walk.js'
import type { Dialect, Holds } from '../../lib/schema/vocabulary.js'
import type { Place, WalkOptions } from '../../lib/schema/walk.js'

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

test('the derived sets: keywords by logic, by dialect, and those only OpenAPI has', async (t) => {
  t.strictSame([...CHOICES], ['anyOf', 'oneOf'])
  t.strictSame([...CONDITIONALS], ['if', 'then', 'else', 'dependentSchemas', 'dependencies', 'dependentRequired'])
  t.strictSame([...OPENAPI_ONLY], ['discriminator', 'example', 'nullable', 'xml', 'externalDocs'])
  t.strictSame(Object.keys(VOCABULARY).filter((name) => VOCABULARY[name].logic !== undefined), ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies', 'dependentRequired'])
  for (const [dialect, keywords] of Object.entries(DIALECTS)) {
    const own = keywordsOf(dialect as Dialect)
    for (const name of keywords) if (!name.startsWith('x-')) t.ok(own.has(name), `${dialect} has ${name}`)
  }
  t.strictSame([...keywordsWhere((keyword, name) => CONDITIONALS.has(name) && !keyword.dialects.includes('openapi-3.0'))], [...CONDITIONALS], 'OpenAPI 3.0 has no conditional')
  t.notOk(keywordsOf('openapi-3.0').has('const'))
  t.notOk(keywordsOf('swagger-2.0').has('anyOf'))
})

// What the walk visits, in order: each place as `pointer keyword key describes base`.
const placeText = (place: Place): string => [place.pointer, place.keyword, place.key, place.describes, place.base].join(' ')
const shared = { type: 'string' }
const loop: Record<string, unknown> = { type: 'object', properties: { next: { $ref: '#/$defs/loop' } } }
const document = { $defs: { loop, shared } }
const resolveIn = (root: Record<string, any>): WalkOptions['resolve'] => (ref) => {
  const name = ref.split('/').pop() as string
  return Object.hasOwn(root.$defs, name) ? { schema: root.$defs[name], pointer: `/$defs/${name}`, base: 'doc' } : undefined
}

const walks: Array<[string, unknown, WalkOptions, string[]]> = [
  ['a property named like a keyword is a schema; an instance, a name list and an annotation are not walked',
    { properties: { default: { type: 'object', properties: { enum: {} } }, if: {} }, default: { properties: { x: {} } }, example: { a: {} }, required: ['default'], 'x-map': { properties: {} } }, {},
    ['   same ', '/properties/default properties default properties ', '/properties/default/properties/enum properties enum properties ', '/properties/if properties if properties ']],
  ['lists keep their indexes, booleans are not visited, a map of dependencies holds schemas beside name lists',
    { anyOf: [true, { type: 'string' }], items: [{}, {}], dependencies: { a: ['b'], c: {} }, propertyNames: { pattern: '^a' } }, {},
    ['   same ', '/anyOf/1 anyOf 1 same ', '/items/0 items 0 items ', '/items/1 items 1 items ', '/dependencies/c dependencies c same ', '/propertyNames propertyNames  names ']],
  ['a definition describes no value; names with ~ and / are escaped in the pointer',
    { $defs: { 'a/b~c': {} }, patternProperties: { '^x/': {} } }, {},
    ['   same ', '/$defs/a~1b~0c $defs a/b~c none ', '/patternProperties/^x~1 patternProperties ^x/ properties ']],
  ['an $id starts the base of its schema and of what it holds, as written; an anchor does not',
    { $id: 'root', properties: { a: { $id: 'inner', items: {} }, b: { $id: '#b' } } }, { base: 'outer' },
    ['   same root', '/properties/a properties a properties inner', '/properties/a/items items  items inner', '/properties/b properties b properties root']],
  ['keywords of no dialect hold nothing, unless read as schemas: one, or a list',
    { then2: { a: {} }, others: [{}, 1] }, { unknownKeywords: 'schemas' },
    ['   same ', '/then2 then2  same ', '/then2/a a  same ', '/others/0 others 0 same ']],
  ['a $ref is followed where resolve finds it, before the keywords beside it; each schema is visited once, so a loop ends',
    { properties: { a: { $ref: '#/$defs/loop', description: 'x' }, b: { $ref: '#/$defs/shared' }, c: { $ref: '#/$defs/shared' }, d: { $ref: '#/$defs/none' } } }, { resolve: resolveIn(document) },
    ['   same ', '/properties/a properties a properties ', '/$defs/loop $ref  same doc', '/$defs/loop/properties/next properties next properties doc',
      '/properties/b properties b properties ', '/$defs/shared $ref  same doc', '/properties/c properties c properties ', '/properties/d properties d properties ']],
  ['a target found without its place sits at the base of the schema that refers to it, at the pointer \'\'',
    { $id: 'r', $ref: 'other' }, { resolve: () => ({ schema: { type: 'string' } }) }, ['   same r', ' $ref  same r']]
]

test('walkSchema visits each schema once, where the vocabulary says schemas sit, and follows $refs only through resolve', async (t) => {
  for (const [title, schema, options, expected] of walks) {
    const visited: string[] = []
    walkSchema(schema, (place) => { visited.push(placeText(place)) }, options)
    t.strictSame(visited, expected, title)
  }
  const visited: string[] = []
  walkSchema(true, () => { visited.push('root') })
  t.strictSame(visited, [], 'a boolean root holds nothing to visit')
})

test('walkSchema: a visit that returns SKIP leaves what that schema holds, a shared schema met elsewhere is not visited twice, and parents chain to the root', async (t) => {
  const inner = { type: 'string' }
  const schema = { $defs: { inner: { properties: { hidden: inner } } }, properties: { a: inner, b: { items: inner } } }
  const visited: string[] = []
  const parents: string[] = []
  walkSchema(schema, (place) => {
    visited.push(place.pointer)
    if (place.schema === inner) for (let at: Place | null = place; at !== null; at = at.parent) parents.push(at.pointer)
    return place.describes === 'none' ? SKIP : undefined
  })
  t.strictSame(visited, ['', '/$defs/inner', '/properties/a', '/properties/b'], 'the items are the schema met at /properties/a')
  t.strictSame(parents, ['/properties/a', ''])
  const definition = { properties: { x: {} } }
  const met: string[] = []
  walkSchema({ $defs: { definition }, properties: { a: definition, b: definition } }, (place) => {
    met.push(place.pointer)
    return place.describes === 'none' ? SKIP : undefined
  })
  t.strictSame(met, ['', '/$defs/definition', '/properties/a', '/properties/a/properties/x'], 'a schema skipped at one place is walked where it is met next, and then once')
  let deep: Record<string, unknown> = {}
  const root = deep
  for (let i = 0; i < 20000; i++) deep = (deep.items = {}) as Record<string, unknown>
  let count = 0
  walkSchema(root, () => { count++ })
  t.equal(count, 20001, 'a deep schema is walked without recursion')
})

test('mapSchema copies a schema, editing each schema at every place it sits and keeping everything else as it is', async (t) => {
  const withoutIf = (own: Record<string, any>): Record<string, any> => Object.fromEntries(Object.entries(own).filter(([keyword]) => keyword !== 'if'))
  const shared = { if: {}, type: 'string' }
  const rows: Array<[string, unknown, unknown]> = [
    ['every level loses the keyword; a property, an instance and a list of names named so keep it',
      { if: {}, properties: { if: { if: {}, type: 'string' } }, default: { if: 1 }, required: ['if'], additionalProperties: { if: {} }, prefixItems: [{ if: {} }, true] },
      { properties: { if: { type: 'string' } }, default: { if: 1 }, required: ['if'], additionalProperties: {}, prefixItems: [{}, true] }],
    ['a schema shared by two places is edited at each', { anyOf: [shared, shared] }, { anyOf: [{ type: 'string' }, { type: 'string' }] }],
    ['a map of dependencies keeps its name lists', { dependencies: { a: ['if'], b: { if: {} } } }, { dependencies: { a: ['if'], b: {} } }],
    ['a value that is not an object is returned as it is', true, true]
  ]
  for (const [title, schema, expected] of rows) t.strictSame(mapSchema(schema, withoutIf), expected, title)
  const original = { properties: { a: { if: {} } } }
  mapSchema(original, withoutIf)
  t.strictSame(original, { properties: { a: { if: {} } } }, 'the original is left as it was')
  const cycle: Record<string, any> = { type: 'object', if: {} }
  cycle.properties = { self: cycle }
  t.strictSame(mapSchema(cycle, withoutIf), { type: 'object', properties: { self: cycle } }, 'a schema that holds itself is kept as it is there')
  const bases: string[] = []
  mapSchema({ $id: 'a', unknown: { $id: 'b' } }, (own, place) => { bases.push(place.base); return own }, { base: 'x', unknownKeywords: 'schemas' })
  t.strictSame(bases, ['a', 'b'], 'bases and unknown keywords as the walk reads them')
})

test('mapSchema with keepUnchanged keeps each schema its edit leaves as it is, holding only such schemas, and copies the others', async (t) => {
  const withoutIf = (own: Record<string, any>): Record<string, any> => own.if === undefined ? own : Object.fromEntries(Object.entries(own).filter(([keyword]) => keyword !== 'if'))
  const plain = { type: 'object', properties: { a: { type: 'string' } } }
  t.equal(mapSchema(plain, withoutIf, { keepUnchanged: true }), plain, 'nothing edited: the schema itself')
  const kept = { type: 'integer' }
  const schema = { anyOf: [kept, { if: {}, type: 'string' }], properties: { b: kept, c: { items: { if: {} } } } }
  const mapped = mapSchema(schema, withoutIf, { keepUnchanged: true }) as Record<string, any>
  t.strictSame(mapped, { anyOf: [kept, { type: 'string' }], properties: { b: kept, c: { items: {} } } })
  t.not(mapped, schema)
  t.equal(mapped.anyOf[0], kept, 'an unchanged member is kept in the copied list')
  t.equal(mapped.properties.b, kept, 'and an unchanged property in the copied map')
  t.strictSame(schema.anyOf[1], { if: {}, type: 'string' }, 'the original is left as it was')
  const cycle: Record<string, any> = { type: 'object' }
  cycle.properties = { self: cycle }
  t.equal(mapSchema(cycle, withoutIf, { keepUnchanged: true }), cycle, 'a schema that holds itself, unchanged')
})

test('the sets read from the table name the compositions, the definitions, the tests and the keywords a shorter record may fail', async (t) => {
  t.strictSame([...COMPOSITIONS], ['allOf', 'anyOf', 'oneOf'])
  t.strictSame([...DEFINITIONS], ['$defs', 'definitions'])
  t.strictSame([...TESTS], ['if', 'not'])
  t.strictSame([...REQUIRING].sort(), ['dependencies', 'dependentRequired', 'dependentSchemas', 'discriminator', 'else', 'if', 'minProperties', 'not', 'required', 'then'])
})
