import { test } from 'tap'
import { lastCheck, scanHiddenNames } from '../../lib/openapi/last-check.js'
import { findHiddenName, namesHiddenName } from '../../lib/openapi/leaks.js'
import type { Found } from '../../lib/openapi/operations.js'
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
  { title: 'local $defs, resolved against the response schema that holds them', schema: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/inner/properties/ssn` },
  { title: 'local $defs of a component, resolved against the component', schema: ref('holder'), components: { holder: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } } }, hidden: ['owner.ssn'], expected: '/components/schemas/holder/$defs/inner/properties/ssn' },
  { title: 'local $defs reached through a $ref into the middle of a component', schema: { $ref: '#/components/schemas/holder/properties/owner' }, components: { holder: { properties: { owner: { $ref: '#/$defs/inner' } }, $defs: { inner: person } } }, hidden: ['ssn'], expected: '/components/schemas/holder/$defs/inner/properties/ssn' },
  { title: 'a $ref into the response itself keeps the response as the outermost schema', schema: { properties: { owner: { $ref: '#/paths/~1parties/get/responses/200/content/application~1json/schema/$defs/inner' } }, $defs: { inner: { $ref: '#/$defs/person' }, person } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/person/properties/ssn` },
  { title: 'a plain-name fragment, resolved by its $anchor', schema: { properties: { owner: { $ref: '#inner' } }, $defs: { inner: { $anchor: 'inner', ...person } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/$defs/inner/properties/ssn` },
  { title: 'a plain-name fragment that names nothing cannot be checked', schema: { properties: { owner: { $ref: '#gone' } }, $defs: { inner: person, list: [1] } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/properties/owner/$ref` },
  { title: 'additionalProperties and unevaluatedProperties describe what is hidden below an undeclared name', schema: { properties: { id: {} }, additionalProperties: person }, hidden: ['owner.ssn'], expected: `${SCHEMA}/additionalProperties/properties/ssn` },
  { title: 'unevaluatedProperties too', schema: { unevaluatedProperties: { properties: { ssn: {} } } }, hidden: ['owner.ssn'], expected: `${SCHEMA}/unevaluatedProperties/properties/ssn` },
  { title: 'additionalProperties beside the declared field, or of a field hidden whole, describe nothing hidden', schema: { properties: { owner: { properties: { city: {} } } }, additionalProperties: person }, hidden: ['owner.ssn', 'ssn'], expected: null },
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

/** A route of `/things` that declares `paths`, found in a document. */
const things = (paths: string[], extra: Partial<RestrictedRoute> = {}): RestrictedRoute => ({ ...route, url: '/things', paths, ...extra })
const THINGS = '/paths/~1things/get/responses/200'
const THINGS_SCHEMA = `${THINGS}/content/application~1json/schema`

interface ScanRow {
  title: string
  /** The restricted route's 200 response schema, or its whole response with `response`. */
  schema?: unknown
  response?: Json
  /** The route's declared paths, and those hidden from the caller. */
  paths: string[]
  hidden: string[]
  /** More of the document: components, another route's operation, the restricted operation's other keys. */
  components?: Json
  other?: Json
  operation?: Json
  route?: Partial<RestrictedRoute>
  version?: Version
  /** What the plain reading finds: the place and the name (null for a reference it cannot follow), or null. */
  expected: { pointer: string, name: string | null } | null
}

/** The document of a row, unrelaxed, and the restricted operation found in it. */
function scanDocument (row: ScanRow): { document: Json, found: Found[] } {
  const version = row.version ?? '3'
  const response = row.response ?? (version === '2.0' ? { description: 'ok', schema: row.schema } : { description: 'ok', content: { 'application/json': { schema: row.schema } } })
  const operation: Json = { operationId: 'getThings', responses: { 200: response }, ...row.operation }
  const paths: Json = { '/things': { get: operation }, ...row.other === undefined ? {} : { '/other': { post: row.other } } }
  const document: Json = version === '2.0'
    ? { swagger: '2.0', info: { title: 'things', version: '1' }, definitions: row.components ?? {}, paths }
    : { openapi: '3.1.0', info: { title: 'things', version: '1' }, components: { schemas: row.components ?? {} }, paths }
  return { document, found: [{ id: '1', route: things(row.paths, row.route), operation, pathItem: paths['/things'], method: 'get', path: '/things' }] }
}

const SECRET = ['id', 'secret']
const scanTable: ScanRow[] = [
  {
    title: 'issue 45, leak 1: local $defs that a response schema refers to',
    schema: { type: 'object', properties: { a: { $ref: '#/$defs/inner' } }, $defs: { inner: { type: 'object', properties: { b: { type: 'string' }, secret: { type: 'string' } } } } },
    paths: ['a', 'a.b', 'a.secret'],
    hidden: ['a.secret'],
    expected: { pointer: `${THINGS_SCHEMA}/$defs/inner/properties/secret`, name: 'secret' }
  },
  {
    title: 'issue 45, leak 2: a response link that reads a hidden path of the body',
    response: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } }, links: { next: { operationId: 'getThings', parameters: { ref: '$response.body#/secret' } } } },
    paths: SECRET,
    hidden: ['secret'],
    expected: { pointer: `${THINGS}/links/next/parameters/ref`, name: 'secret' }
  },
  {
    title: 'issue 45, leak 3: propertyNames as { not: { const } }',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, propertyNames: { not: { const: 'secret' } } },
    paths: SECRET,
    hidden: ['secret'],
    expected: { pointer: `${THINGS_SCHEMA}/propertyNames/not/const`, name: 'secret' }
  },
  {
    title: 'issue 45, leak 3: propertyNames as { anyOf: [{ const }, { const }] }',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, propertyNames: { anyOf: [{ const: 'a' }, { const: 'secret' }] } },
    paths: SECRET,
    hidden: ['secret'],
    expected: { pointer: `${THINGS_SCHEMA}/propertyNames/anyOf/1/const`, name: 'secret' }
  },
  {
    title: 'issue 45, leak 3: propertyNames as a $ref to a shared enum, as @fastify/swagger writes FieldNames#',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, propertyNames: { $ref: '#/components/schemas/def-0' } },
    components: { 'def-0': { type: 'string', enum: ['id', 'secret'] } },
    paths: SECRET,
    hidden: ['secret'],
    expected: { pointer: '/components/schemas/def-0/enum/1', name: 'secret' }
  },
  {
    title: 'issue 45, leak 3: propertyNames as a $ref that the document does not hold (FieldNames#)',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, propertyNames: { $ref: 'FieldNames#' } },
    paths: SECRET,
    hidden: ['secret'],
    expected: { pointer: `${THINGS_SCHEMA}/propertyNames/$ref`, name: null }
  },
  {
    title: 'issue 45, leak 4: a pattern\'s schema that @fastify/swagger moved into additionalProperties, holding the hidden field\'s own fields',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'object', properties: { pin: { type: 'string' } } } },
    paths: ['id', 'secret', 'secret.pin'],
    hidden: ['secret'],
    expected: { pointer: `${THINGS_SCHEMA}/additionalProperties/properties/pin`, name: 'pin' }
  },
  {
    title: 'issue 45, leak 4: the same in Swagger 2.0, behind a definition',
    version: '2.0',
    schema: { $ref: '#/definitions/thing' },
    components: { thing: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'object', properties: { pin: { type: 'string' } } } } },
    paths: ['id', 'secret', 'secret.pin'],
    hidden: ['secret'],
    expected: { pointer: '/definitions/thing/additionalProperties/properties/pin', name: 'pin' }
  },
  { title: 'a pattern that matches a hidden name only without the u flag', schema: { patternProperties: { '^s\\-?ecret$': {} }, properties: { x: { pattern: '^se\\-?cret$' } } }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS_SCHEMA}/patternProperties/^s\\-?ecret$`, name: 'secret' } },
  { title: 'a pattern value that matches a hidden name', schema: { properties: { x: { pattern: '^se\\-?cret$' } } }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS_SCHEMA}/properties/x/pattern`, name: 'secret' } },
  { title: 'a percent-encoded segment of a reference', response: { links: { next: { parameters: { a: '$response.body#/s%65cret', b: 'x#/%E0%A4%A' } } } }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS}/links/next/parameters/a`, name: 'secret' } },
  { title: 'a discriminator\'s mapping by a component\'s name is followed', schema: { discriminator: { propertyName: 'kind', mapping: { a: 'Hider' } } }, components: { Hider: { properties: { secret: {} } } }, paths: SECRET, hidden: ['secret'], expected: { pointer: '/components/schemas/Hider/properties/secret', name: 'secret' } },
  { title: 'a $dynamicRef to a place that is not there cannot be checked', schema: { $dynamicRef: '#/$defs/gone' }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS_SCHEMA}/$dynamicRef`, name: null } },
  { title: 'a plain-name fragment resolved, and one that names nothing', schema: { items: { $ref: '#meta' }, $defs: { meta: { $anchor: 'meta' } }, allOf: [{ $ref: '#gone' }] }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS_SCHEMA}/allOf/0/$ref`, name: null } },
  { title: 'the x-restricted-fields key and the only parameter are read', schema: {}, operation: { 'x-restricted-fields': { sets: { mine: ['id', 'secret'] } } }, paths: SECRET, hidden: ['secret'], expected: { pointer: '/paths/~1things/get/x-restricted-fields/sets/mine/1', name: 'secret' } },
  { title: 'the only parameter is read', schema: {}, operation: { parameters: [{ name: 'id', in: 'path' }, { name: 'only', in: 'query', schema: { items: { enum: ['id', 'secret'] } } }] }, paths: SECRET, hidden: ['secret'], expected: { pointer: '/paths/~1things/get/parameters/1/schema/items/enum/1', name: 'secret' } },
  { title: 'a name seen elsewhere (another route, the route\'s request body) is not a secret', schema: { properties: { secret: {}, other: {} } }, operation: { requestBody: { content: { 'application/json': { schema: { properties: { other: {} } } } } } }, other: { responses: { 200: { content: { 'application/json': { schema: { properties: { secret: {} } } } } } } }, paths: ['id', 'secret', 'other'], hidden: ['secret', 'other'], expected: null },
  { title: 'a name that a visible path ends with is the structural check\'s', schema: { properties: { secret: {}, owner: { properties: { secret: {} } } } }, paths: ['secret', 'owner', 'owner.secret'], hidden: ['owner.secret'], expected: null },
  { title: 'a hidden name that is a keyword is the structural check\'s', schema: { properties: { type: { type: 'string' } } }, paths: ['id', 'type'], hidden: ['type'], expected: null },
  { title: 'a component named like a hidden field is no field', schema: { $ref: '#/components/schemas/secret' }, components: { secret: { properties: { id: {} } } }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'the author\'s prose and words of a fixed vocabulary are not read', schema: { description: 'no secret', title: 'secret', properties: { id: { format: 'secret', summary: 'secret' } } }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'an envelope\'s own fields are the route\'s', response: { $ref: '#/components/responses/page' }, components: {}, operation: {}, route: { shape: { kind: 'envelope', key: 'results' } }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'a reference to the schema itself, and strings that are no reference', schema: { items: { $ref: '#' }, allOf: [{ $ref: '' }], properties: { link: { example: '#/paths/gone' } } }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'Swagger 2.0: an envelope, and a mapping by a definition\'s name', version: '2.0', schema: { properties: { count: {}, results: { items: { discriminator: { mapping: { a: 'Hider' } } } } } }, components: { Hider: { properties: { pin: {} } } }, route: { shape: { kind: 'envelope', key: 'results' } }, paths: ['id', 'secret', 'secret.pin'], hidden: ['secret'], expected: { pointer: '/definitions/Hider/properties/pin', name: 'pin' } },
  { title: 'an envelope\'s shared response that is not there cannot be checked', response: { $ref: '#/components/responses/gone' }, route: { shape: { kind: 'envelope', key: 'results' } }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS}/$ref`, name: null } },
  { title: 'an envelope without a schema to read', response: { content: { 'application/json': null, 'text/plain': {} } }, route: { shape: { kind: 'envelope', key: 'results' } }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'an operation without responses', operation: { responses: 'odd' }, paths: SECRET, hidden: ['secret'], expected: null },
  { title: 'a $ref into a place inside a component that is not there', schema: { $ref: '#/components/schemas/text/type/x' }, components: { text: { type: 'string' } }, paths: SECRET, hidden: ['secret'], expected: { pointer: `${THINGS_SCHEMA}/$ref`, name: null } },
  { title: 'Swagger 2.0: a shared response is read where the route refers to it, not taken for one seen elsewhere', version: '2.0', response: { $ref: '#/responses/things' }, paths: SECRET, hidden: ['secret'], expected: { pointer: '/responses/things/schema/properties/secret', name: 'secret' } }
]

test('the last check reads what restricted routes give a caller as plain JSON: a hidden name seen nowhere else is found at any place, whatever the keyword', async (t) => {
  for (const row of scanTable) {
    const { document, found } = scanDocument(row)
    if (row.title.startsWith('an envelope')) {
      document.components.responses = { page: { content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/count' }, { properties: { results: { items: { properties: { id: {} } } } } }] } } } } }
      document.components.schemas.count = { properties: { secret: { type: 'integer' } } }
      document.components.schemas.loop = { allOf: [{ $ref: '#/components/schemas/loop' }] }
    }
    if (row.version === '2.0' && row.response?.$ref !== undefined) document.responses = { things: { description: 'ok', schema: { properties: { secret: {} } } } }
    const scanned = scanHiddenNames(document, row.version ?? '3', found, new Map([['1', hiddenTrie(row.hidden)]]))
    t.strictSame(scanned === null ? null : { pointer: scanned.pointer, name: scanned.name }, row.expected, row.title)
  }
})

test('each of issue 45\'s four leaks, as the unrelaxed document holds it, is refused by the last check alone', async (t) => {
  for (const row of scanTable.filter(({ title }) => title.startsWith('issue 45'))) {
    const { document, found } = scanDocument(row)
    const refusal = lastCheck(document, row.version ?? '3', found, new Map([['1', hiddenTrie(row.hidden)]]))
    t.not(refusal, null, row.title)
  }
  const nothing = scanDocument({ title: 'none', schema: { properties: { id: {} } }, paths: SECRET, hidden: ['secret'], expected: null })
  t.equal(lastCheck(nothing.document, '3', nothing.found, new Map([['1', hiddenTrie(['secret'])]])), null, 'a document that names nothing hidden passes')
  t.equal(scanHiddenNames(nothing.document, '3', [], new Map()), null, 'a document without restricted routes has nothing to read')
  delete nothing.document.components
  t.equal(lastCheck(nothing.document, '3', nothing.found, new Map([['1', hiddenTrie(['secret'])]])), null, 'nor one without components')
})

test('the structural half finds what the plain reading cannot tell: a name both hidden and visible', async (t) => {
  const both = { title: 'both', schema: { properties: { secret: {}, owner: { properties: { secret: {}, city: {} } } }, links: {} }, paths: ['secret', 'owner', 'owner.secret', 'owner.city'], hidden: ['owner.secret'], expected: null }
  const { document, found } = scanDocument(both)
  const hidden = new Map([['1', hiddenTrie(both.hidden)]])
  t.equal(scanHiddenNames(document, '3', found, hidden), null, 'the plain reading sees the name visible at the top level')
  t.strictSame(lastCheck(document, '3', found, hidden), { place: found[0], pointer: `${THINGS_SCHEMA}/properties/owner/properties/secret`, reason: 'hidden name' })
  const link = scanDocument({ ...both, schema: undefined, response: { links: { next: { parameters: { a: '$response.body#/owner/secret' } } } } })
  t.strictSame(lastCheck(link.document, '3', link.found, hidden)?.pointer, `${THINGS}/links/next`, 'a link to the hidden one, not the visible one')
  const external = scanDocument({ ...both, schema: { properties: { id: { $ref: 'other.json#/id' } } } })
  t.strictSame(lastCheck(external.document, '3', external.found, hidden), { place: external.found[0], pointer: `${THINGS_SCHEMA}/properties/id/$ref`, reason: 'unchecked reference' }, 'a reference the structural walk does not read is still refused')
})

test('the relaxer\'s reading of propertyNames still names a hidden field by its const, enum or pattern', async (t) => {
  const hidden = hiddenTrie(['ssn'])
  t.equal(namesHiddenName({ enum: ['id'], pattern: '^i' }, hidden), false)
  t.equal(namesHiddenName({ enum: ['id', 'ssn'] }, hidden), true)
  t.equal(namesHiddenName({ const: 'ssn' }, hidden), true)
  t.equal(namesHiddenName({ pattern: '^s\\-?sn$' }, hidden), true, 'a pattern valid only without the u flag')
})
