import { test } from 'tap'
import { lastCheck } from '../../../lib/openapi/check/last-check.js'
import type { Found } from '../../../lib/openapi/operations.js'
import type { PathTrie } from '../../../lib/hidden-paths.js'
import { OPERATION_KEY } from '../../../lib/openapi/types.js'
import type { Json, RestrictedRoute, Version } from '../../../lib/openapi/types.js'
import { hiddenTrie } from '../../../lib/hidden-paths.js'

const route: RestrictedRoute = {
  method: 'GET',
  url: '/parties',
  statusKey: '200',
  shape: { kind: 'object' },
  maxDepth: 8,
  maxListedFields: 100,
  onlyParam: 'only',
  deferParam: 'defer',
  paths: ['id', 'ssn', 'owner', 'owner.ssn', 'owner.city']
}

/** The pointer of the last check's refusal of a document with one restricted route, or null. */
function findHiddenName (document: Json, version: Version, found: Found, hidden: PathTrie): string | null {
  return lastCheck(document, version, [found], new Map([[found.id, hidden]]))?.pointer ?? null
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
    : { openapi: '3.1.0', components: { schemas: row.components ?? {}, examples: { party: { value: { id: 1, ssn: 's' } }, plain: { value: { id: 1 } } }, links: { plain: { parameters: { id: '$response.body#/id' } }, secret: { parameters: { ssn: '$response.body#/ssn' } } } }, paths: { '/parties': pathItem, '/other': other } }
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
  { title: 'a pattern that names no hidden field', schema: { patternProperties: { '^x': person } }, expected: null },
  { title: 'a pattern that compiles in neither form may name any name', schema: { patternProperties: { '^x': person, '(': {} } }, expected: `${SCHEMA}/patternProperties/(` },
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
  { title: 'local $defs, resolved against the response schema that holds them', schema: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/inner/properties/ssn` },
  { title: 'local $defs of a component, resolved against the component', schema: ref('holder'), components: { holder: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } } }, hidden: ['owner.ssn'], expected: '/components/schemas/holder/$defs/inner/properties/ssn' },
  { title: 'local $defs reached through a $ref into the middle of a component', schema: { $ref: '#/components/schemas/holder/properties/owner' }, components: { holder: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } } }, hidden: ['ssn'], expected: '/components/schemas/holder/$defs/inner/properties/ssn' },
  { title: 'a $ref into the response itself keeps the response as the outermost schema', schema: { properties: { owner: { $ref: '#/paths/~1parties/get/responses/200/content/application~1json/schema/$defs/inner' } }, $defs: { inner: { $ref: '#/$defs/person' }, person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/person/properties/ssn` },
  { title: 'a plain-name fragment, resolved by its $anchor', schema: { properties: { owner: { $ref: '#inner' } }, $defs: { inner: { $anchor: 'inner', ...person } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/inner/properties/ssn` },
  { title: 'a plain-name fragment that names nothing cannot be checked', schema: { properties: { owner: { $ref: '#gone' } }, $defs: { inner: person, list: [1] } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/$ref` },
  { title: 'additionalProperties and unevaluatedProperties describe what is hidden below an undeclared name', schema: { properties: { id: {} }, additionalProperties: person }, hidden: ['owner.ssn'], expected: `${SCHEMA}/additionalProperties/properties/ssn` },
  { title: 'unevaluatedProperties too', schema: { unevaluatedProperties: { properties: { ssn: {} } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/unevaluatedProperties/properties/ssn` },
  { title: 'additionalProperties beside the declared field describe nothing hidden', schema: { properties: { owner: { properties: { city: {} } } }, additionalProperties: { type: 'string' } }, hidden: ['owner.ssn', 'ssn'], expected: null },
  { title: 'additionalProperties at a level that hides a field whole may describe that field: every name in them is its', schema: { properties: { id: {} }, additionalProperties: { type: 'object', additionalProperties: true, default: { pin: 'p' } } }, expected: `${SCHEMA}/additionalProperties/default` },
  { title: 'additionalProperties below a hidden field, and their patterns and maps', schema: { additionalProperties: { additionalProperties: { patternProperties: { '^a': {} } } } }, expected: `${SCHEMA}/additionalProperties/additionalProperties/patternProperties/^a` },
  { title: 'additionalProperties of a field hidden whole, with its own fields', schema: { additionalProperties: person }, expected: `${SCHEMA}/additionalProperties/properties/id` },
  // @fastify/swagger writes a pattern's schema there in OpenAPI 3: `^account$` matched the declared name, and what is
  // hidden below it stays.
  {
    title: 'additionalProperties made of a pattern that matched a declared name, with a hidden path below that name',
    schema: {
      properties: { account: { properties: { limits: { default: { daily: 1 } } } } },
      additionalProperties: { properties: { limits: { default: { daily: 1, secret: 2 } } } }
    },
    hidden: ['account.limits.secret'],
    expected: `${SCHEMA}/additionalProperties/properties/limits/default`
  },
  {
    title: 'a declared field hidden whole is found at its property, whatever comes first',
    schema: { additionalProperties: { default: { pin: 1 } }, properties: { ssn: {} } },
    expected: `${SCHEMA}/properties/ssn`
  },
  {
    title: 'the same, the hidden path far below',
    schema: { properties: { a: {} }, additionalProperties: { properties: { b: { properties: { c: { items: person } } } } } },
    hidden: ['a.b.c.ssn'],
    expected: `${SCHEMA}/additionalProperties/properties/b/properties/c/items/properties/ssn`
  },
  { title: 'a pattern that matches a hidden name only without the u flag', schema: { patternProperties: { '^s\\-?sn$': {} } }, expected: `${SCHEMA}/patternProperties/^s\\-?sn$` },
  { title: 'keywords that hold nothing named', schema: { xml: { name: 'ssn' }, externalDocs: { url: 'ssn' } }, expected: null },
  { title: 'propertyNames that exclude a hidden name', schema: { propertyNames: { not: { const: 'ssn' } } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames that choose among names', schema: { propertyNames: { anyOf: [{ const: 'id' }, { const: 'ssn' }] } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames that refer to a shared enum', schema: { propertyNames: ref('fieldNames') }, components: { fieldNames: { enum: ['id', 'ssn'] } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames that refer to another document', schema: { propertyNames: { $ref: 'FieldNames#' } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames with a pattern valid only without the u flag', schema: { propertyNames: { pattern: '^s\\-?sn$' } }, expected: `${SCHEMA}/propertyNames` },
  { title: 'propertyNames that name no hidden field, in their own words, with loops', schema: { propertyNames: { description: 'ssn', allOf: [ref('names'), { $ref: '#' }, { pattern: 7 }] } }, components: { names: { anyOf: [ref('names'), { enum: ['id'] }] } }, expected: null },
  { title: 'a link that reads a hidden path of the body', response: { content: {}, links: { self: { operationId: 'getParty', parameters: { id: '$response.body#/id' } }, next: { operationId: 'getThings', parameters: { ref: '$response.body#/ssn' } } } }, expected: '/paths/~1parties/get/responses/200/links/next' },
  { title: 'a link that reads a hidden path inside a string, through an array, percent-encoded', response: { links: { next: { requestBody: { where: 'owner {$response.body#/owner/0/s%73n}' } } } }, hidden: ['owner.ssn'], expected: '/paths/~1parties/get/responses/200/links/next' },
  { title: 'links that read no hidden path', response: { links: { whole: { parameters: { all: '$response.body', owner: '$response.body#/owner', odd: '$response.body#/owner/-/%E0%A4%A', n: 7, path: '$request.path.ssn' } }, odd: 'x' } }, hidden: ['owner.ssn'], expected: null },
  { title: 'a shared link that reads a hidden path', response: { links: { plain: { $ref: '#/components/links/plain' }, next: { $ref: '#/components/links/secret' } } }, expected: '/paths/~1parties/get/responses/200/links/next' },
  { title: 'a shared link that is not there cannot be checked', response: { links: { next: { $ref: '#/components/links/gone' } } }, expected: '/paths/~1parties/get/responses/200/links/next' },
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
  { title: 'only\'s choices in a list shared among the components', schema: {}, components: { list: { type: 'string', enum: ['id', 'ssn'] } }, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: ref('list') } }] }, expected: '/components/schemas/list/enum/1' },
  { title: 'defer\'s shared list that names nothing hidden', schema: {}, components: { list: { type: 'string', enum: ['id'] } }, operation: { parameters: [{ name: 'defer', in: 'query', schema: { items: ref('list') } }] }, expected: null },
  { title: 'a shared list the document does not hold', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: ref('gone') } }] }, expected: `${OPERATION}/parameters/0/schema/items/$ref` },
  { title: 'a shared list in another document', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: { $ref: 'other.json#/list' } } }] }, expected: `${OPERATION}/parameters/0/schema/items/$ref` },
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

/** What the last check says of a row's document: the pointer, the reason and the kind of position; null when it serves it. */
function refusalOf (row: Omit<Row, 'expected'>): { pointer: string, reason: string, position: string } | null {
  const version = row.version ?? '3'
  const response = row.response ?? (version === '2.0' ? { description: 'ok', schema: row.schema } : { content: { 'application/json': { schema: row.schema } } })
  const operation = { responses: { 200: response }, ...row.operation }
  const pathItem = { get: operation }
  const document: Json = version === '2.0'
    ? { swagger: '2.0', definitions: row.components ?? {}, paths: { '/parties': pathItem } }
    : { openapi: '3.1.0', components: { schemas: row.components ?? {} }, paths: { '/parties': pathItem } }
  const found: Found = { id: '1', route: { ...route, ...row.route }, operation, pathItem, method: 'get', path: '/parties' }
  const refusal = lastCheck(document, version, [found], new Map([['1', hiddenTrie(row.hidden ?? ['ssn'])]]))
  return refusal === null ? null : { pointer: refusal.pointer, reason: refusal.reason, position: refusal.position }
}

const named = (pointer: string, position: string): { pointer: string, reason: string, position: string } => ({ pointer, reason: 'hidden name', position })
const profile = { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } } }

const namesNotValues: Array<Omit<Row, 'expected'> & { expected: ReturnType<typeof refusalOf> }> = [
  // Issue 50's false refusals: a hidden name as a value.
  { title: 'a string enum value equal to a hidden name', schema: { properties: { role: { type: 'string', enum: ['admin', 'member'] } } }, hidden: ['admin'], expected: null },
  { title: 'a string const, and a string default', schema: { properties: { kind: { const: 'ssn' }, visibility: { default: 'ssn' } }, const: 'ssn', default: 'ssn' }, expected: null },
  { title: 'a value\'s pattern that matches every name', schema: { properties: { templateKey: { type: 'string', pattern: '^[a-zA-Z_][-a-zA-Z0-9_]*$' } }, pattern: '.*' }, expected: null },
  { title: 'an example URL and a sentence that hold the name', schema: { properties: { avatar: { example: 'https://cdn.example.com/icons/ssn.png' } }, example: 'the ssn of the party', description: 'ssn' }, expected: null },
  { title: 'a visible map\'s propertyNames pattern, at a level that hides nothing', schema: { properties: { labels: { type: 'object', propertyNames: { pattern: '^[a-z_]+$' }, additionalProperties: { type: 'string' } } } }, expected: null },
  { title: 'a tag of an object that spells the hidden name as a dotted value', schema: { properties: { object: { type: 'string', enum: ['apps.ssn'] } }, 'x-resourceId': 'apps.ssn' }, expected: null },
  { title: 'a link whose expression\'s own word is hidden: $response.body', response: { content: {}, links: { author: { operationId: 'getUser', parameters: { id: '$response.body#/author_id', q: '$request.query.body', h: '$response.header.body' } } } }, hidden: ['body'], expected: null },
  { title: 'a field of the same name at another level, and in a shared component reached through a visible path', schema: { properties: { phone: { type: 'string', enum: ['phone'] }, profile: { $ref: '#/components/schemas/profile' }, contact: { $ref: '#/components/schemas/contact' } } }, components: { profile, contact: { properties: { phone: {} }, required: ['phone'] } }, hidden: ['profile.phone'], expected: named('/components/schemas/profile/properties/phone', 'property') },
  { title: 'the shared component reached only through visible paths is not read', schema: { properties: { phone: { type: 'string' }, contact: { $ref: '#/components/schemas/contact' } } }, components: { contact: { properties: { phone: {} }, required: ['phone'], 'x-order': ['phone'] } }, hidden: ['profile.phone'], expected: null },
  // Names in the positions that say what a property is called.
  { title: 'an x- extension that lists a hidden name, where the same name is visible at another level', schema: { properties: { phone: {}, profile: { ...profile, properties: { city: {} }, 'x-order': ['city', 'phone'] } } }, hidden: ['profile.phone'], expected: named(`${SCHEMA}/properties/profile/x-order`, 'unknown content') },
  { title: '$comment that is the hidden name', schema: { properties: { profile: { properties: { city: {} }, $comment: 'phone' } } }, hidden: ['profile.phone'], expected: named(`${SCHEMA}/properties/profile/$comment`, 'unknown content') },
  { title: 'an x- extension that names a hidden path from its level, or holds it as a key', schema: { 'x-examples': { staff: { profile: { city: 'Oslo', phone: '1' } } } }, hidden: ['profile.phone'], expected: named(`${SCHEMA}/x-examples`, 'unknown content') },
  { title: 'an x- extension that spells the dotted path', schema: { 'x-sort': 'profile.phone' }, hidden: ['profile.phone'], expected: named(`${SCHEMA}/x-sort`, 'unknown content') },
  { title: 'x- extensions and $comment without hidden names', schema: { 'x-order': ['city'], $comment: 'the phone', 'x-n': 7, 'x-obj': { a: 'city' } }, hidden: ['profile.phone'], expected: null },
  { title: 'a nested x-examples that @fastify/swagger wrote as a map of named examples', schema: { example: { sample: { summary: 's', value: { id: 7, ssn: 's' } } } }, expected: named(`${SCHEMA}/example`, 'instance key') },
  { title: 'an example that only looks like a map of named examples', schema: { example: { sample: { value: { id: 7 } }, other: { value: 1, odd: 2 } } }, expected: null },
  { title: 'examples that are not a list', schema: { examples: { sample: { value: { ssn: 's' } } } }, expected: named(`${SCHEMA}/examples`, 'instance key') },
  { title: 'examples that are one instance', schema: { examples: { ssn: 's' } }, expected: named(`${SCHEMA}/examples`, 'instance key') },
  { title: 'a pattern\'s schema moved to additionalProperties, holding the hidden field\'s contents', schema: { properties: { id: {} }, additionalProperties: { type: 'object', additionalProperties: true, default: { zqh2x: 'val' } } }, hidden: ['zqh1x'], expected: named(`${SCHEMA}/additionalProperties/default`, 'instance key') },
  { title: 'the same, with a name list and a schema of names', schema: { additionalProperties: { required: ['pin'] } }, expected: named(`${SCHEMA}/additionalProperties/required/0`, 'name list') },
  { title: 'propertyNames by a reference to shared names', schema: { propertyNames: { $ref: '#/components/schemas/names' } }, components: { names: { type: 'string', enum: ['id', 'ssn'] } }, expected: named(`${SCHEMA}/propertyNames`, 'property names') },
  { title: 'propertyNames below a field hidden whole', schema: { additionalProperties: { propertyNames: { pattern: '^a' } } }, expected: named(`${SCHEMA}/additionalProperties/propertyNames`, 'property names') },
  { title: 'a dependentRequired list and key', schema: { dependentRequired: { id: ['ssn'] } }, expected: named(`${SCHEMA}/dependentRequired/id/0`, 'name list') },
  { title: 'a dependentSchemas key', schema: { dependentSchemas: { ssn: {} } }, expected: named(`${SCHEMA}/dependentSchemas/ssn`, 'dependency') },
  { title: 'a discriminator', schema: { discriminator: { propertyName: 'ssn' } }, expected: named(`${SCHEMA}/discriminator/propertyName`, 'discriminator') },
  { title: 'a patternProperties key', schema: { patternProperties: { '^ss': {} } }, expected: named(`${SCHEMA}/patternProperties/^ss`, 'pattern') },
  { title: 'a $dynamicRef to a place that is not there', schema: { $dynamicRef: '#/$defs/gone' }, expected: { pointer: `${SCHEMA}/$dynamicRef`, reason: 'unchecked reference', position: 'reference' } },
  { title: 'a $recursiveRef to the schema itself', schema: { $recursiveRef: '#' }, expected: null },
  { title: 'a link\'s pointer percent-encoded as a URI fragment: %2F is a separator', response: { links: { next: { parameters: { a: '$response.body#/owner%2Fssn' } } } }, hidden: ['owner.ssn'], expected: named('/paths/~1parties/get/responses/200/links/next', 'link expression') },
  { title: 'a link\'s pointer as written, ~1 inside a name', response: { links: { next: { parameters: { a: '$response.body#/a~1b' } } } }, hidden: ['a/b'], expected: named('/paths/~1parties/get/responses/200/links/next', 'link expression') },
  { title: 'a link whose percent-encoding is malformed is read as written', response: { links: { next: { parameters: { a: '$response.body#/ssn%' } } } }, expected: null },
  { title: 'the keys of a media type\'s encoding', response: { content: { 'multipart/form-data': { schema: {}, encoding: { id: {}, ssn: {} } }, 'application/json': { encoding: 'odd' } } }, expected: named('/paths/~1parties/get/responses/200/content/multipart~1form-data/encoding/ssn', 'media encoding') },
  { title: 'a media type\'s example written as a map of named examples', response: { content: { 'application/json': { example: { one: { value: { ssn: 's' } } } } } }, expected: named('/paths/~1parties/get/responses/200/content/application~1json/example', 'instance key') },
  { title: 'a field set of the x-restricted-fields key', schema: {}, operation: { [OPERATION_KEY]: { sets: { mine: ['id', 'ssn'] } } }, expected: named(`${OPERATION}/x-restricted-fields/sets/mine/1`, 'field set') },
  { title: 'only\'s choices', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: { enum: ['id', 'ssn'] } } }] }, expected: named(`${OPERATION}/parameters/0/schema/items/enum/1`, 'restriction parameter') },
  { title: 'only\'s choices, bounded beside a pattern', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: { anyOf: [{ pattern: '^a' }, 'odd', { enum: ['id', 'ssn'] }] } } }] }, expected: named(`${OPERATION}/parameters/0/schema/items/anyOf/2/enum/1`, 'restriction parameter') },
  { title: 'only\'s choices bounded, none hidden', schema: {}, operation: { parameters: [{ name: 'only', in: 'query', schema: { items: { anyOf: [{ enum: ['id'] }, { pattern: '^[^.]+(\\.[^.]+){1,}$' }] } } }] }, expected: null },
  { title: 'a shared link in another document cannot be checked', response: { links: { next: { $ref: 'other.json#/links/next' } } }, expected: { pointer: '/paths/~1parties/get/responses/200/links/next', reason: 'unchecked reference', position: 'reference' } },
  { title: 'a list of instances below a field hidden whole', schema: { additionalProperties: { default: [[], [{ pin: 1 }]] } }, expected: named(`${SCHEMA}/additionalProperties/default`, 'instance key') },
  { title: 'the complete record of the x-restricted-fields key, not there', schema: {}, operation: { [OPERATION_KEY]: { statuses: { 200: { record: { $ref: '#/components/schemas/gone' } } } } }, expected: { pointer: `${OPERATION}/x-restricted-fields/statuses/200/record/$ref`, reason: 'unchecked reference', position: 'reference' } },
  { title: 'malformed maps of properties, dependencies and patterns', schema: { properties: 'odd', dependentRequired: 'odd', patternProperties: 'odd', default: 'ssn' }, expected: null },
  // The segments of a reference's pointer that say what a property is called.
  { title: 'a twin that points into the hidden property of the component it was made from', schema: ref('personRestricted'), components: { person, personRestricted: { properties: { id: {}, hint: { $ref: '#/components/schemas/person/properties/ssn' } } } }, expected: named('/components/schemas/personRestricted/properties/hint/$ref', 'reference segment') },
  { title: 'a pointer into the response itself, below a field', schema: { properties: { hint: { $ref: `#${SCHEMA}/properties/owner/items/properties/ssn` }, owner: { items: { properties: { city: {} } } } } }, hidden: ['owner.ssn'], expected: named(`${SCHEMA}/properties/hint/$ref`, 'reference segment') },
  { title: 'a pointer of the schema into itself, percent-encoded', schema: { properties: { id: {}, hint: { allOf: [{ $ref: '#/properties/s%73n' }] } } }, expected: named(`${SCHEMA}/properties/hint/allOf/0/$ref`, 'reference segment') },
  { title: 'a discriminator\'s mapping to a pointer', schema: { discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/person/properties/ssn', b: 'plain', c: 7 } } }, components: { person, plain: { type: 'object' } }, expected: named(`${SCHEMA}/discriminator/mapping/a`, 'reference segment') },
  { title: 'Swagger 2.0: a pointer into a definition\'s hidden property', version: '2.0', schema: { properties: { hint: { $ref: '#/definitions/person/properties/ssn' } } }, components: { person }, expected: named(`${SCHEMA.replace('/content/application~1json', '')}/properties/hint/$ref`, 'reference segment') },
  { title: 'a component named like a hidden field names no property', schema: { properties: { id: {}, tax: ref('ssn'), code: { $ref: '#/components/schemas/ssn/properties/id' }, shared: { $ref: '#/components/examples/ssn' } } }, components: { ssn: person }, expected: null },
  { title: 'a pointer into a property of the same name at another path', schema: { properties: { hint: { $ref: '#/components/schemas/person/properties/ssn' }, owner: { properties: { city: {} } } } }, components: { person }, hidden: ['owner.ssn'], expected: null },
  { title: 'a pointer on a route that hides nothing', schema: { properties: { hint: { $ref: '#/components/schemas/person/properties/ssn' } } }, components: { person }, hidden: [], expected: null },
  { title: 'a component reached at two levels, its pointers read at each', schema: { properties: { a: ref('place'), owner: ref('place') } }, components: { place: { properties: { city: {}, hint: { $ref: '#/components/schemas/place/properties/city' }, odd: { $ref: 7 }, list: [{ $ref: 'other.json#/ssn' }] } } }, hidden: ['a.ssn', 'owner.ssn'], expected: null },
  { title: 'a pointer of a place inside a component to elsewhere in it is not read there', schema: { $ref: '#/components/schemas/holder/properties/owner' }, components: { holder: { properties: { owner: { properties: { city: {}, hint: { $ref: '#/components/schemas/holder/properties/ssn' } } }, ssn: {} } } }, expected: null },
  { title: 'a pointer into a place inside a component, read from there', schema: { $ref: '#/components/schemas/holder/properties/owner' }, components: { holder: { properties: { owner: { properties: { city: {}, hint: { $ref: '#/components/schemas/holder/properties/owner/properties/ssn' } } } } } }, expected: named('/components/schemas/holder/properties/owner/properties/hint/$ref', 'reference segment') }
]

test('the last check refuses a name where a position says what a property is called, never where the name is a value, and says which position', async (t) => {
  for (const row of namesNotValues) t.strictSame(refusalOf(row), row.expected, row.title)
})
