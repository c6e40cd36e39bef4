import { test } from 'tap'
import { findHiddenName } from '../../lib/openapi/leaks.js'
import { OPERATION_KEY } from '../../lib/openapi/types.js'
import type { Json, RestrictedRoute, Version } from '../../lib/openapi/types.js'
import { hiddenTrie } from '../../lib/visibility.js'

const route: RestrictedRoute = {
  method: 'GET',
  url: '/parties',
  statusKey: '200',
  shape: { kind: 'object' },
  maxDepth: 8,
  onlyParam: 'only',
  deferParam: 'defer',
  paths: ['id', 'ssn', 'owner', 'owner.ssn', 'owner.city']
}

interface Row {
  title: string
  /** The response schema of the route's 200, or the whole response with `response`. */
  schema?: unknown
  response?: Json
  components?: Json
  operation?: Json
  pathItem?: Json
  route?: Partial<RestrictedRoute>
  version?: Version
  hidden?: string[]
  /** The pointer found, null for none. */
  expected: string | null
}

const SCHEMA = '/paths/~1parties/get/responses/200/content/application~1json/schema'
const OPERATION = '/paths/~1parties/get'
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
const person = { type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string' } } }

/** The pointer that findHiddenName finds for a row's document, in which another route's schema names every hidden field. */
function check (row: Row): string | null {
  const version = row.version ?? '3'
  const response = row.response ?? (version === '2.0' ? { description: 'ok', schema: row.schema } : { content: { 'application/json': { schema: row.schema } } })
  const operation = { responses: { 200: response }, ...row.operation }
  const pathItem = { get: operation, ...row.pathItem }
  const other = { get: { responses: { 200: { content: { 'application/json': { schema: person } } } } } }
  const document: Json = version === '2.0'
    ? { swagger: '2.0', definitions: row.components ?? {}, paths: { '/parties': pathItem, '/other': other } }
    : { openapi: '3.1.0', components: { schemas: row.components ?? {}, examples: { party: { value: { id: 1, ssn: 's' } }, plain: { value: { id: 1 } } } }, paths: { '/parties': pathItem, '/other': other } }
  const found = { id: '1', route: { ...route, ...row.route }, operation, pathItem, method: 'get', path: '/parties' }
  return findHiddenName(document, version, found, hiddenTrie(row.hidden ?? ['ssn']))
}

const table: Row[] = [
  { title: 'a hidden property', schema: person, expected: `${SCHEMA}/properties/ssn` },
  { title: 'nothing hidden is named', schema: { type: 'object', properties: { id: { type: 'integer' } } }, expected: null },
  { title: 'a visible field that shares a hidden field\'s name at another level', schema: { type: 'object', properties: { ssn: { type: 'string' }, owner: { type: 'object', properties: { city: { type: 'string' } } } } }, hidden: ['owner.ssn'], expected: null },
  { title: 'a hidden path below a field', schema: { type: 'object', properties: { ssn: { type: 'string' }, owner: person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/properties/ssn` },
  { title: 'required', schema: { type: 'object', required: ['id', 'ssn'], properties: { id: {} } }, expected: `${SCHEMA}/required/1` },
  { title: 'required of the visible names', schema: { type: 'object', required: ['id'], properties: { id: {} } }, expected: null },
  { title: 'a dependentRequired key', schema: { dependentRequired: { ssn: ['id'] } }, expected: `${SCHEMA}/dependentRequired/ssn` },
  { title: 'a dependentRequired name', schema: { dependentRequired: { id: ['owner', 'ssn'] } }, expected: `${SCHEMA}/dependentRequired/id/1` },
  { title: 'a dependentSchemas key', schema: { dependentSchemas: { ssn: {} } }, expected: `${SCHEMA}/dependentSchemas/ssn` },
  { title: 'a dependentSchemas schema', schema: { dependentSchemas: { id: { properties: { ssn: {} } } } }, expected: `${SCHEMA}/dependentSchemas/id/properties/ssn` },
  { title: 'dependencies of both kinds', schema: { dependencies: { id: { required: ['ssn'] }, owner: ['id'] } }, expected: `${SCHEMA}/dependencies/id/required/0` },
  { title: 'a discriminator\'s property', schema: { oneOf: [ref('person')], discriminator: { propertyName: 'ssn' } }, components: { person: { type: 'object' } }, expected: `${SCHEMA}/discriminator/propertyName` },
  { title: 'a discriminator\'s mapping refers to a component that holds a hidden field', schema: { discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/person' } } }, components: { person }, expected: '/components/schemas/person/properties/ssn' },
  { title: 'a mapping by a component\'s name', schema: { discriminator: { propertyName: 'kind', mapping: { a: 'person', b: 7 } } }, components: { person }, expected: '/components/schemas/person/properties/ssn' },
  { title: 'a discriminator without a mapping', schema: { discriminator: { propertyName: 'kind' } }, expected: null },
  { title: 'if, then, else and not', schema: { if: { properties: { id: { const: 1 } } }, then: {}, else: { not: { required: ['ssn'] } } }, expected: `${SCHEMA}/else/not/required/0` },
  { title: 'a pattern that matches a hidden name', schema: { patternProperties: { '^s.n$': {} } }, expected: `${SCHEMA}/patternProperties/^s.n$` },
  { title: 'a pattern that spells a hidden name', schema: { patternProperties: { 'ssn[': {} } }, expected: `${SCHEMA}/patternProperties/ssn[` },
  { title: 'a pattern over a field with hidden paths below', schema: { patternProperties: { '^own': person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/patternProperties/^own/properties/ssn` },
  { title: 'a pattern that names no hidden field', schema: { patternProperties: { '^x': person, '(': {} } }, expected: null },
  { title: 'propertyNames with an enum', schema: { propertyNames: { enum: ['id', 'ssn'] } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames with a const', schema: { propertyNames: { const: 'ssn' } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames with a pattern', schema: { propertyNames: { pattern: '^[a-z]+$' } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames that name no hidden field', schema: { propertyNames: { enum: ['id'], pattern: '^i' } }, expected: null },
  { title: 'an example', schema: { example: { id: 1, ssn: 's' } }, expected: `${SCHEMA}/example` },
  { title: 'a default inside a field', schema: { properties: { owner: { default: { ssn: 's' } } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/default` },
  { title: 'a const', schema: { const: [{ ssn: 's' }] }, expected: `${SCHEMA}/const` },
  { title: 'an enum value', schema: { enum: [{ id: 1 }, { id: 2, ssn: 's' }] }, expected: `${SCHEMA}/enum/1` },
  { title: 'examples', schema: { examples: [{ id: 1, ssn: 's' }] }, expected: `${SCHEMA}/examples/0` },
  { title: 'values without hidden paths', schema: { example: { id: 1, owner: { ssn: 's' } }, enum: ['ssn'], examples: 'ssn' }, expected: null },
  { title: 'a $ref to a component that holds a hidden field', schema: { type: 'array', items: ref('person') }, components: { person }, expected: '/components/schemas/person/properties/ssn' },
  { title: 'a $ref into a component', schema: { properties: { owner: { $ref: '#/components/schemas/page/properties/owner' } } }, components: { page: { properties: { owner: person } } }, hidden: ['owner.ssn'], expected: '/components/schemas/page/properties/owner/properties/ssn' },
  { title: 'a component that refers to itself', schema: ref('loop'), components: { loop: { properties: { id: {}, next: ref('loop') }, allOf: [ref('loop')] } }, hidden: ['ssn', 'next.ssn'], expected: null },
  { title: 'a $ref that is not a string, or that refers to the schema that holds it', schema: { allOf: [{ $ref: 7 }, { $ref: '#' }] }, expected: null },
  { title: 'a $ref to nothing cannot be checked: it is refused', schema: { allOf: [{ $ref: 7 }, ref('gone')] }, components: { person }, expected: `${SCHEMA}/allOf/1/$ref` },
  { title: 'a $ref into nothing inside a component', schema: { allOf: [{ $ref: '#/components/schemas/person/type/x' }] }, components: { person }, expected: `${SCHEMA}/allOf/0/$ref` },
  { title: 'a $ref to another document cannot be checked: it is refused', schema: { properties: { owner: { $ref: 'other.json#/person' } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/$ref` },
  { title: 'a $ref to another document where nothing is hidden is not read', schema: { properties: { id: { $ref: 'other.json#/id' }, owner: { $ref: 'other.json#/person' } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/$ref` },
  { title: 'an operation without responses', operation: { responses: 'odd' }, route: { statusKey: undefined, shape: { kind: 'auto', key: 'results' } }, expected: null },
  { title: 'a tuple', schema: { type: 'array', prefixItems: [{ type: 'integer' }, person] }, expected: `${SCHEMA}/prefixItems/1/properties/ssn` },
  { title: 'a variant', schema: { anyOf: [{ type: 'null' }, person] }, expected: `${SCHEMA}/anyOf/1/properties/ssn` },
  { title: 'boolean and malformed schemas', schema: { properties: { owner: true, id: false }, required: 'ssn', allOf: {}, items: [true] }, hidden: ['ssn', 'owner.ssn'], expected: null },
  { title: 'an envelope\'s records', schema: { properties: { ssn: { type: 'string' }, results: { type: 'array', items: person } } }, route: { shape: { kind: 'envelope', key: 'results' } }, expected: `${SCHEMA}/properties/results/items/properties/ssn` },
  { title: 'an envelope\'s own field that shares a hidden field\'s name', schema: { properties: { ssn: { type: 'string' }, results: { type: 'array', items: { properties: { id: {} } } } } }, route: { shape: { kind: 'envelope', key: 'results' } }, expected: null },
  { title: 'an envelope\'s example', schema: { example: { ssn: 'mine', results: [{ id: 1, ssn: 's' }] } }, route: { shape: { kind: 'envelope', key: 'results' } }, expected: `${SCHEMA}/example` },
  {
    title: 'a route that lists its fields: records in an envelope or the payload, on every 2xx',
    response: { content: { 'application/json': { schema: { properties: { results: { items: { properties: { owner: person } } } } } } } },
    route: { statusKey: undefined, shape: { kind: 'auto', key: 'results' } },
    hidden: ['ssn', 'results.owner.ssn', 'owner.ssn'],
    expected: `${SCHEMA}/properties/results/items/properties/owner/properties/ssn`
  },
  { title: 'another restricted status', operation: { responses: { 200: { content: { 'application/json': { schema: {} } } }, 201: { content: { 'application/json': { schema: person } } } } }, route: { otherStatuses: [{ statusKey: '201', shape: { kind: 'object' } }] }, expected: '/paths/~1parties/get/responses/201/content/application~1json/schema/properties/ssn' },
  { title: 'an unrestricted status and a missing one', operation: { responses: { 200: { description: 'none' }, 404: { content: { 'application/json': { schema: person } } } } }, route: { otherStatuses: [{ statusKey: '201', shape: { kind: 'object' } }] }, expected: null },
  { title: 'the media type\'s example', response: { content: { 'application/json': { schema: {}, example: { ssn: 's' } } } }, expected: '/paths/~1parties/get/responses/200/content/application~1json/example' },
  { title: 'the media type\'s examples', response: { content: { 'text/plain': 'odd', 'application/json': { examples: { one: { value: { id: 1 } }, two: { value: { ssn: 's' } } } } } }, expected: '/paths/~1parties/get/responses/200/content/application~1json/examples/two/value' },
  { title: 'a shared example the media type refers to', response: { content: { 'application/json': { examples: { mine: { $ref: '#/components/examples/plain' }, shared: { $ref: '#/components/examples/party' }, odd: 'x' } } } }, expected: '/paths/~1parties/get/responses/200/content/application~1json/examples/shared/value' },
  { title: 'a response without content', response: { description: 'none', content: 'odd' }, expected: null },
  { title: 'a shared response that is not there cannot be checked: it is refused', response: { $ref: '#/components/responses/gone' }, expected: '/paths/~1parties/get/responses/200/$ref' },
  { title: 'a shared response in another document cannot be checked: it is refused', response: { $ref: 'other.json#/parties' }, expected: '/paths/~1parties/get/responses/200/$ref' },
  {
    title: 'a shared response that names a hidden field, and one that refers to itself',
    operation: { responses: { 200: { $ref: '#/components/responses/loop' }, 201: { $ref: '#/components/responses/parties' } } },
    route: { otherStatuses: [{ statusKey: '201', shape: { kind: 'object' } }] },
    expected: '/components/responses/parties/content/application~1json/schema/properties/ssn'
  },
  { title: 'Swagger 2.0: a response\'s schema', version: '2.0', schema: { $ref: '#/definitions/person' }, components: { person }, expected: '/definitions/person/properties/ssn' },
  { title: 'Swagger 2.0: a response\'s examples', version: '2.0', response: { description: 'ok', schema: {}, examples: { 'application/json': { ssn: 's' } } }, expected: '/paths/~1parties/get/responses/200/examples/application~1json' },
  { title: 'Swagger 2.0: a discriminator, which is the property\'s name', version: '2.0', schema: { allOf: [{ discriminator: 'kind' }, { discriminator: 'ssn' }] }, expected: '/paths/~1parties/get/responses/200/schema/allOf/1/discriminator' },
  { title: 'Swagger 2.0: a mapping by name', version: '2.0', schema: { discriminator: { propertyName: 'kind', mapping: { a: 'person' } } }, components: { person }, expected: '/definitions/person/properties/ssn' },
  { title: 'Swagger 2.0: a response without examples, or with examples that hide nothing', version: '2.0', response: { description: 'ok', schema: {}, examples: { 'application/json': { id: 1 } } }, expected: null },
  { title: 'Swagger 2.0: a response without examples', version: '2.0', response: { description: 'ok', schema: {} }, expected: null },
  { title: 'the complete record of the x-restricted-fields key', schema: {}, operation: { [OPERATION_KEY]: { statuses: { 200: { record: 'odd' }, 201: { record: ref('person') } }, sets: {} } }, components: { person }, expected: '/components/schemas/person/properties/ssn' },
  { title: 'a field set of the x-restricted-fields key', schema: {}, components: { plain: { properties: { id: {} } } }, operation: { [OPERATION_KEY]: { statuses: { 200: 'odd', 201: { record: ref('plain') } }, sets: { summary: ['id', 'owner.ssn'] } } }, hidden: ['owner'], expected: `${OPERATION}/x-restricted-fields/sets/summary/1` },
  { title: 'the default fields of the x-restricted-fields key', schema: {}, operation: { [OPERATION_KEY]: { statuses: 'odd', sets: 'odd', defaultFields: ['ssn'] } }, expected: `${OPERATION}/x-restricted-fields/defaultFields/0` },
  { title: 'an x-restricted-fields key that hides nothing', schema: {}, operation: { [OPERATION_KEY]: 'odd' }, expected: null },
  {
    title: 'only\'s choices',
    schema: {},
    operation: { parameters: [{ name: 'id', in: 'path' }, { name: 'only', in: 'query', schema: { type: 'string' } }, { name: 'only', in: 'query', schema: { type: 'array', items: { enum: ['id', '*', '@summary', 'owner.ssn'] } } }] },
    hidden: ['owner.ssn'],
    expected: `${OPERATION}/parameters/2/schema/items/enum/3`
  },
  { title: 'defer\'s choices on the path', schema: {}, pathItem: { parameters: ['odd', { name: 'defer', in: 'query', schema: { items: { enum: ['ssn'] } } }] }, expected: '/paths/~1parties/parameters/1/schema/items/enum/0' },
  { title: 'Swagger 2.0: only\'s choices', version: '2.0', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', type: 'array', items: { enum: ['ssn'] } }] }, expected: `${OPERATION}/parameters/0/items/enum/0` },
  { title: 'parameters of another name, or not a list', schema: {}, operation: { parameters: [{ name: 'fields', in: 'query', schema: { items: { enum: ['ssn'] } } }] }, pathItem: { parameters: 'odd' }, expected: null }
]

test('the last check finds the first place where what a caller\'s document gives a route names a hidden path, and only there', async (t) => {
  for (const row of table) {
    const components = row.components ?? {}
    const responses = { parties: { content: { 'application/json': { schema: person } } }, loop: { $ref: '#/components/responses/loop' } }
    // Shared responses sit beside the schemas, as OpenAPI keeps them.
    const found = row.response?.$ref !== undefined || row.operation?.responses?.[200]?.$ref !== undefined
      ? checkWithResponses(row, components, responses)
      : check(row)
    t.equal(found, row.expected, row.title)
  }
})

/** As check, with `components.responses` in the document. */
function checkWithResponses (row: Row, schemas: Json, responses: Json): string | null {
  const response = row.response ?? { description: 'unused' }
  const operation = { responses: { 200: response }, ...row.operation }
  const document: Json = { openapi: '3.1.0', components: { schemas, responses }, paths: { '/parties': { get: operation } } }
  return findHiddenName(document, '3', { id: '1', route: { ...route, ...row.route }, operation, pathItem: {}, method: 'get', path: '/parties' }, hiddenTrie(row.hidden ?? ['ssn']))
}
