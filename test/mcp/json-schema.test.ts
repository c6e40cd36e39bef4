import { test } from 'tap'
import { SchemaBudget, throwUnlessPastBudget, toJsonSchema } from '../../lib/mcp/json-schema.js'
import { ToolSchemasTooLargeError } from '../../lib/errors.js'

const components = {
  user: { type: 'object', properties: { id: { type: 'integer' }, friend: { $ref: '#/components/schemas/user' } } },
  city: { type: 'string', description: 'A city.' },
  tag: { type: 'string', enum: ['a', 'b'] },
  'a/b': { type: 'integer' },
  node: { type: 'object', properties: { child: { $ref: '#/components/schemas/node', description: 'The next node.' } } }
}

const cases: Array<[string, unknown, boolean, unknown]> = [
  ['a nullable type gets null among its types', { type: 'string', nullable: true }, true, { type: ['string', 'null'] }],
  ['a nullable enum gets null among its choices', { type: 'string', enum: ['a'], nullable: true }, true, { type: ['string', 'null'], enum: ['a', null] }],
  ['a nullable enum that has null keeps it once', { type: 'string', enum: ['a', null], nullable: true }, true, { type: ['string', 'null'], enum: ['a', null] }],
  ['a nullable list of types gets null once', { type: ['string', 'integer'], nullable: true }, true, { type: ['string', 'integer', 'null'] }],
  ['a nullable list of types that has null is kept', { type: ['string', 'null'], nullable: true }, true, { type: ['string', 'null'] }],
  ['a nullable schema without a type becomes a choice with null', { allOf: [{ type: 'string' }], nullable: true }, true, { anyOf: [{ allOf: [{ type: 'string' }] }, { type: 'null' }] }],
  ['nullable means nothing in OpenAPI 3.1 and is left out', { type: 'string', nullable: true }, false, { type: 'string' }],
  ['OpenAPI-only keywords are left out, a property of the same name is not',
    { type: 'object', example: {}, xml: {}, discriminator: { propertyName: 'kind' }, externalDocs: {}, properties: { example: { type: 'string', example: 'x' } } }, true,
    { type: 'object', properties: { example: { type: 'string' } } }],
  ['every keyword that the vocabulary says holds schemas has its references written in place: dependencies, contentSchema',
    { dependencies: { a: ['b'], c: { $ref: '#/components/schemas/tag' } }, contentSchema: { $ref: '#/components/schemas/a~1b' } }, true,
    { dependencies: { a: ['b'], c: { type: 'string', enum: ['a', 'b'] } }, contentSchema: { type: 'integer' } }],
  ['a reference to a component is written in place', { type: 'array', items: { $ref: '#/components/schemas/tag' } }, true, { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }],
  ['a reference with an escaped name finds its component', { $ref: '#/components/schemas/a~1b' }, true, { type: 'integer' }],
  ['keywords beside a reference join the component when it has none of their names', { $ref: '#/components/schemas/tag', description: 'A tag.' }, true, { type: 'string', enum: ['a', 'b'], description: 'A tag.' }],
  ['keywords beside a reference that the component has too stay beside it', { $ref: '#/components/schemas/city', description: 'Where.' }, true, { description: 'Where.', allOf: [{ type: 'string', description: 'A city.' }] }],
  ['a nullable reference is made nullable', { $ref: '#/components/schemas/tag', nullable: true }, true, { type: ['string', 'null'], enum: ['a', 'b', null] }],
  ['a component that refers to itself is defined once and referred to', { $ref: '#/components/schemas/user' }, true, {
    type: 'object',
    properties: { id: { type: 'integer' }, friend: { $ref: '#/$defs/user' } },
    $defs: { user: { type: 'object', properties: { id: { type: 'integer' }, friend: { $ref: '#/$defs/user' } } } }
  }],
  ['keywords beside a reference to a definition stay beside it', { $ref: '#/components/schemas/node' }, true, {
    type: 'object',
    properties: { child: { description: 'The next node.', allOf: [{ $ref: '#/$defs/node' }] } },
    $defs: { node: { type: 'object', properties: { child: { description: 'The next node.', allOf: [{ $ref: '#/$defs/node' }] } } } }
  }],
  ['a reference to a missing component accepts anything', { $ref: '#/components/schemas/nothing' }, true, {}],
  ['a component reached twice is defined once, and the top schema is written in place', { type: 'object', properties: { a: { $ref: '#/components/schemas/tag' }, b: { $ref: '#/components/schemas/tag' }, c: { $ref: '#/components/schemas/nothing' }, d: { $ref: '#/components/schemas/nothing' } } }, true, {
    type: 'object',
    properties: { a: { $ref: '#/$defs/tag' }, b: { $ref: '#/$defs/tag' }, c: { $ref: '#/$defs/nothing' }, d: { $ref: '#/$defs/nothing' } },
    $defs: { tag: { type: 'string', enum: ['a', 'b'] }, nothing: {} }
  }],
  ['a reference outside the components is kept as it is', { $ref: 'other.json#/x' }, true, { $ref: 'other.json#/x' }],
  ['every place a schema may be is converted',
    { allOf: [{ type: 'string', nullable: true }], additionalProperties: { type: 'integer', nullable: true }, not: { type: 'null' }, required: ['a'], enum: ['x'] }, true,
    { allOf: [{ type: ['string', 'null'] }], additionalProperties: { type: ['integer', 'null'] }, not: { type: 'null' }, required: ['a'], enum: ['x'] }],
  ['a value that is not a schema is kept', true, true, true]
]

test('an OpenAPI schema becomes a self-contained JSON Schema', async (t) => {
  for (const [title, schema, openapi30, expected] of cases) t.strictSame(toJsonSchema(schema, components, openapi30), expected, title)
})

test('shared components stay shared however often they are reached, within the budget', async (t) => {
  // Stripe's shape: each schema has two expandable fields (an id, or the next schemas); unfolded, 1.6^300 objects.
  const chain: Record<string, unknown> = {}
  const expandable = (index: number): unknown => ({ anyOf: [{ type: 'string' }, { $ref: `#/components/schemas/s${Math.min(index, 299)}` }] })
  for (let index = 0; index < 300; index++) chain[`s${index}`] = { type: 'object', properties: { id: { type: 'string' }, parent: expandable(index + 1), owner: expandable(index + 2) } }
  const schema = toJsonSchema({ $ref: '#/components/schemas/s0' }, chain, true)
  t.equal(Object.keys(schema.$defs).length, 298, 'every schema but the first two, each reached twice')
  t.ok(JSON.stringify(schema).length < 200_000, `${JSON.stringify(schema).length} characters`)
  const budget = new SchemaBudget(5000)
  t.throws(() => toJsonSchema({ $ref: '#/components/schemas/s0' }, chain, true, budget), { code: 'FST_RESTRICTED_FIELDS_TOOL_SCHEMAS_TOO_LARGE' })
})

test('a record closed beside its members takes the names they declare, as fast-json-stringify merges them', async (t) => {
  const members = {
    named: { type: 'object', properties: { id: { type: 'integer' } }, patternProperties: { '^x-': { type: 'string' } } },
    nested: { allOf: [{ $ref: '#/components/schemas/named' }, { properties: { deep: { type: 'string' } } }] }
  }
  const cases: Array<[string, unknown, unknown]> = [
    ['allOf members, one through a reference, and their own members',
      { type: 'object', properties: { own: { type: 'string' } }, allOf: [{ $ref: '#/components/schemas/nested' }, { properties: { own: { type: 'integer' }, more: { type: 'boolean' } } }], additionalProperties: false },
      { type: 'object', properties: { own: { type: 'string' }, id: {}, deep: {}, more: {} }, allOf: [{ allOf: [{ type: 'object', properties: { id: { type: 'integer' } }, patternProperties: { '^x-': { type: 'string' } } }, { properties: { deep: { type: 'string' } } }] }, { properties: { own: { type: 'integer' }, more: { type: 'boolean' } } }], additionalProperties: false, patternProperties: { '^x-': {} } }],
    ['variants and branches, but not what `not` and `if` declare',
      { type: 'object', anyOf: [{ properties: { a: {} } }], oneOf: [{ properties: { b: {} } }], if: { properties: { c: {} } }, then: { properties: { d: {} } }, else: { properties: { e: {} } }, not: { properties: { f: {} } }, additionalProperties: { type: 'string' } },
      { type: 'object', anyOf: [{ properties: { a: {} } }], oneOf: [{ properties: { b: {} } }], if: { properties: { c: {} } }, then: { properties: { d: {} } }, else: { properties: { e: {} } }, not: { properties: { f: {} } }, additionalProperties: { type: 'string' }, properties: { a: {}, b: {}, d: {}, e: {} } }],
    ['a reference with a closing keyword beside it',
      { $ref: '#/components/schemas/named', additionalProperties: false },
      { type: 'object', properties: { id: { type: 'integer' } }, patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false }],
    ['an open record is left as it is', { allOf: [{ properties: { a: {} } }], additionalProperties: true }, { allOf: [{ properties: { a: {} } }], additionalProperties: true }],
    ['a closed record without members is left as it is', { properties: { a: {} }, additionalProperties: false }, { properties: { a: {} }, additionalProperties: false }],
    ['a member met twice is read once', { allOf: [{ $ref: '#/components/schemas/named' }, { $ref: '#/components/schemas/named' }], additionalProperties: false },
      { allOf: [{ $ref: '#/$defs/named' }, { $ref: '#/$defs/named' }], additionalProperties: false, properties: { id: {} }, patternProperties: { '^x-': {} }, $defs: { named: { type: 'object', properties: { id: { type: 'integer' } }, patternProperties: { '^x-': { type: 'string' } } } } }]
  ]
  for (const [title, schema, expected] of cases) t.strictSame(toJsonSchema(schema, members, false), expected, title)
})

test('an output schema keeps only what fast-json-stringify\'s writing guarantees: types, structure and words', async (t) => {
  const cases: Array<[string, unknown, unknown]> = [
    ['checks of a value are left out, words are kept',
      { type: 'integer', minimum: 1, maximum: 9, exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 1, enum: [1, 2], const: 1, description: 'An id.', default: 1 },
      { type: 'integer', description: 'An id.', default: 1 }],
    ['so are those of a string', { type: 'string', pattern: '^a', format: 'email', minLength: 1, maxLength: 9, contentMediaType: 'text/plain', title: 'A' }, { type: 'string', title: 'A' }],
    ['a number may be null: an infinite one is written so', { type: 'number' }, { type: ['number', 'null'] }],
    ['a number that may be null already is kept', { type: ['number', 'null'] }, { type: ['number', 'null'] }],
    ['a nullable number of OpenAPI 3.0 gets null once', { type: 'number', nullable: true }, { type: ['number', 'null'] }],
    ['an object keeps its properties, not its required ones nor its counts, nor what its names are',
      { type: 'object', properties: { a: { type: 'string', minLength: 2 } }, patternProperties: { '^x': { type: 'integer', minimum: 0 } }, additionalProperties: false, required: ['a'], minProperties: 1, maxProperties: 2, propertyNames: { pattern: '^[a-z]' }, dependentRequired: { a: ['b'] }, unevaluatedProperties: false },
      { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': { type: 'integer' } }, additionalProperties: false }],
    ['an array keeps one schema of its items, not their counts nor a tuple',
      { type: 'array', items: { type: 'integer', maximum: 3 }, minItems: 1, maxItems: 2, uniqueItems: true, contains: { const: 1 } },
      { type: 'array', items: { type: 'integer' } }],
    ['items that are false or a list are left out, and so are prefix items', { type: 'array', prefixItems: [{ type: 'string' }], items: false }, { type: 'array' }],
    ['a tuple of draft-07 is left out', { type: 'array', items: [{ type: 'string' }], additionalItems: false }, { type: 'array' }],
    ['a negation is left out', { type: 'integer', not: { const: 0 } }, { type: 'integer' }],
    ['one of several choices is any of them: without their checks, they may overlap',
      { oneOf: [{ type: 'integer', maximum: 2 }, { type: 'integer', minimum: 5 }] }, { anyOf: [{ type: 'integer' }, { type: 'integer' }] }],
    ['a condition is left out, its two branches kept as a choice', { if: { type: 'null' }, then: { type: 'integer' }, else: { type: 'string', minLength: 1 } }, { anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    ['a condition with one branch is left out with it', { type: 'string', if: { minLength: 1 }, then: { maxLength: 2 } }, { type: 'string' }],
    ['a choice beside choices of its own is one of all of them', { anyOf: [{ type: 'string' }, { type: 'integer' }], oneOf: [{ type: 'string' }, { type: 'boolean' }] },
      { anyOf: [{ type: 'string' }, { type: 'integer' }], allOf: [{ anyOf: [{ type: 'string' }, { type: 'boolean' }] }] }],
    ['and beside all of them, another of them', { allOf: [{ type: 'string' }], anyOf: [{ type: 'string' }], if: {}, then: { minLength: 1 }, else: { maxLength: 1 } },
      { allOf: [{ type: 'string' }, { anyOf: [{}, {}] }], anyOf: [{ type: 'string' }] }],
    ['a shared component is written without its checks too', { type: 'object', properties: { a: { $ref: '#/components/schemas/tag' }, b: { $ref: '#/components/schemas/tag' } } },
      { type: 'object', properties: { a: { $ref: '#/$defs/tag' }, b: { $ref: '#/$defs/tag' } }, $defs: { tag: { type: 'string' } } }]
  ]
  const output = (schema: unknown): unknown => toJsonSchema(schema, components, true, new SchemaBudget(Infinity), true)
  for (const [title, schema, expected] of cases) t.strictSame(output(schema), expected, title)
  t.strictSame(toJsonSchema({ type: 'integer', minimum: 1 }, components, true), { type: 'integer', minimum: 1 }, 'an input schema keeps its checks: they say what a call may send')
})

test('a build past the schema budget goes on without output schemas; any other failure goes on up as it was thrown', async (t) => {
  t.doesNotThrow(() => throwUnlessPastBudget(new ToolSchemasTooLargeError()))
  const failure = new TypeError('a schema the builder cannot read')
  t.throws(() => throwUnlessPastBudget(failure), failure)
  t.throws(() => throwUnlessPastBudget('not an error'), 'not an error')
})
