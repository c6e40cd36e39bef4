import { test } from 'tap'
import { restrictedDocument } from '../../lib/openapi/document.js'
import { CLIENT_ERROR_CODES } from '../../lib/openapi/error-response.js'
import { OPERATION_KEY } from '../../lib/openapi/types.js'
import type { Json, RestrictedRoute } from '../../lib/openapi/types.js'
import { hiddenTrie } from '../../lib/hidden-paths.js'
import type { PathTrie } from '../../lib/hidden-paths.js'
import { parameterChoices } from '../helpers.js'

const route: RestrictedRoute = {
  method: 'GET',
  url: '/users',
  statusKey: '200',
  shape: { kind: 'object' },
  maxDepth: 8,
  maxListedFields: 100,
  onlyParam: 'only',
  deferParam: 'defer',
  paths: ['id', 'name']
}

const routes = (...list: RestrictedRoute[]): Map<string, RestrictedRoute> => new Map(list.map((each, index) => [String(index + 1), each]))

/** The document a build answers, or its refusal. */
function documentOf (document: unknown, list: ReadonlyMap<string, RestrictedRoute>, hidden?: ReadonlyMap<string, PathTrie>): unknown {
  const answer = hidden === undefined ? restrictedDocument(document, list) : restrictedDocument(document, list, hidden)
  return 'document' in answer ? answer.document : answer
}

/** An OpenAPI 3.0 document with one operation per entry, each marked with its route's id. */
function openapi (operations: Record<string, Json>, components: Json = {}): Json {
  const paths: Json = {}
  for (const [key, operation] of Object.entries(operations)) {
    const [method, path] = key.split(' ')
    paths[path] = { ...paths[path], [method]: operation }
  }
  return { openapi: '3.0.3', info: { title: 't', version: '1' }, components: { schemas: components }, paths }
}

const json = (schema: unknown): Json => ({ content: { 'application/json': { schema } } })
const marked = (id: string, responses: Json): Json => ({ [OPERATION_KEY]: id, responses })

const ERROR_REF = { $ref: '#/components/schemas/RestrictedFieldsError' }
const ERROR_SCHEMA = {
  type: 'object',
  description: 'A restriction parameter names an undeclared field, is malformed, names too many fields, has too deep a path or names an unknown field set.',
  required: ['statusCode', 'code', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', enum: [400] },
    code: {
      type: 'string',
      enum: ['FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER', 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS', 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP', 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD_SET']
    },
    error: { type: 'string' },
    message: { type: 'string' }
  }
}
const OBJECT_NOTE = 'The `only` and `defer` query parameters choose its fields; a field they leave out is absent.'
const RECORDS_NOTE = 'As restricted responses send it: any field may be left out.'

/** Relaxes one 200 response of `shape` and returns its schema and the components after. */
/**
 * The relaxed response schema, the components made or kept, and the complete record that the operation's vendor key
 * names (when a component is added for it).
 */
function relax (schema: unknown, options: { shape?: RestrictedRoute['shape'], maxDepth?: number, components?: Json } = {}): { schema: unknown, components: Json, record?: unknown } {
  const document = openapi({ 'get /users': marked('1', { 200: json(schema) }) }, options.components)
  const result = documentOf(document, routes({ ...route, shape: options.shape ?? route.shape, maxDepth: options.maxDepth ?? 8 })) as Json
  const { RestrictedFieldsError: _error, getUsersRecord: record, ...components } = withoutLists(result.components.schemas)
  return { schema: result.paths['/users'].get.responses['200'].content['application/json'].schema, components, ...record === undefined ? {} : { record } }
}

const object = (properties: Json, required = Object.keys(properties)): Json => ({ type: 'object', required, properties })

/** The components but the lists of `only` and `defer` choices, told apart by their names. */
const withoutLists = (schemas: Json): Json => Object.fromEntries(Object.entries(schemas).filter(([name]) => !name.startsWith('Fields-')))

test('an operation that lost its key is found at the path @fastify/swagger writes for the route URL', async (t) => {
  const table: Array<[string, string]> = [
    ['/users/:id', '/users/{id}'],
    ['/files/:name.:ext', '/files/{name}.{ext}'],
    ['/users/:id(^\\d+)', '/users/{id}'],
    ['/any/(^\\d+)/(^(x)$)', '/any/{regexp1}/{regexp2}'],
    ['/time::now', '/time:now'],
    ['/static/*', '/static/{*}']
  ]
  for (const [url, path] of table) {
    const document = openapi({ [`get ${path}`]: { responses: { 200: json({ type: 'object', properties: { id: { type: 'integer' } } }) } } })
    const result = documentOf(document, routes({ ...route, url })) as Json
    t.strictSame(result.paths[path].get.parameters.map((parameter: Json) => parameter.name), ['only', 'defer'], url)
  }
})

test('a record loses required at every level a restriction reaches, and no deeper', async (t) => {
  const geo = object({ lat: { type: 'number' } })
  const profile = object({ city: { type: 'string' }, geo })
  const record = object({ id: { type: 'integer' }, profile })
  const table: Array<{ title: string, schema: unknown, shape?: RestrictedRoute['shape'], maxDepth?: number, expected: unknown }> = [
    {
      title: 'an object, all levels within maxDepth',
      schema: record,
      expected: { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { city: { type: 'string' }, geo: { type: 'object', properties: { lat: { type: 'number' } } } } } } }
    },
    {
      title: 'maxDepth 2 keeps the third level whole',
      schema: record,
      maxDepth: 2,
      expected: { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', properties: { city: { type: 'string' }, geo } } } }
    },
    {
      title: 'maxDepth 1 keeps nested objects whole',
      schema: record,
      maxDepth: 1,
      expected: { type: 'object', properties: { id: { type: 'integer' }, profile } }
    },
    {
      title: 'an array of records, and arrays of objects inside them',
      schema: { type: 'array', items: object({ tags: { type: 'array', items: object({ label: { type: 'string' } }) } }) },
      shape: { kind: 'array' },
      expected: { type: 'array', items: { type: 'object', properties: { tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } } } } }
    },
    {
      title: 'an envelope keeps its own required; its records lose theirs',
      schema: object({ count: { type: 'integer' }, results: { type: 'array', items: object({ id: { type: 'integer' } }) } }),
      shape: { kind: 'envelope', key: 'results' },
      expected: object({ count: { type: 'integer' }, results: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } }, ['count', 'results'])
    },
    {
      title: 'a nullable envelope, as anyOf with null',
      schema: { anyOf: [object({ data: { type: 'array', items: object({ id: { type: 'integer' } }) } }), { type: 'null' }] },
      shape: { kind: 'envelope', key: 'data' },
      expected: { anyOf: [object({ data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } }, ['data']), { type: 'null' }] }
    },
    {
      title: 'an envelope without the records key is left as it is',
      schema: object({ count: { type: 'integer' } }),
      shape: { kind: 'envelope', key: 'results' },
      expected: object({ count: { type: 'integer' } })
    },
    {
      title: 'nullable objects: type with null, and anyOf or oneOf with null',
      schema: object({
        a: { type: ['object', 'null'], required: ['x'], properties: { x: { type: 'string' } } },
        b: { anyOf: [object({ x: { type: 'string' } }), { type: 'null' }] },
        c: { oneOf: [object({ x: { type: 'string' } }), { type: 'null' }] }
      }),
      expected: {
        type: 'object',
        properties: {
          a: { type: ['object', 'null'], properties: { x: { type: 'string' } } },
          b: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'null' }] },
          c: { anyOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { type: 'null' }] }
        }
      }
    },
    {
      title: 'a changed oneOf becomes anyOf, or one more allOf member next to an anyOf; an unchanged oneOf stays',
      schema: {
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'object' }], oneOf: [object({ x: {} }), object({ y: {} })] },
          b: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          c: { allOf: [object({ x: {} })], oneOf: [object({ y: {} })] }
        }
      },
      expected: {
        type: 'object',
        properties: {
          a: { anyOf: [{ type: 'string' }, { type: 'object' }], allOf: [{ anyOf: [{ type: 'object', properties: { x: {} } }, { type: 'object', properties: { y: {} } }] }] },
          b: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          c: { allOf: [{ type: 'object', properties: { x: {} } }], anyOf: [{ type: 'object', properties: { y: {} } }] }
        }
      }
    },
    {
      title: 'every keyword that a shorter object could fail goes',
      schema: {
        type: 'object',
        properties: { kind: { type: 'string' }, a: {} },
        minProperties: 1,
        dependentRequired: { a: ['kind'] },
        dependentSchemas: { a: { required: ['kind'] } },
        dependencies: { a: ['kind'] },
        if: { required: ['a'] },
        then: { required: ['kind'] },
        else: {},
        not: { required: ['b'] },
        discriminator: { propertyName: 'kind' },
        additionalProperties: false,
        maxProperties: 2
      },
      expected: { type: 'object', properties: { kind: { type: 'string' }, a: {} }, additionalProperties: false, maxProperties: 2 }
    },
    {
      title: 'tuples, boolean schemas and odd values are left as they are',
      schema: { type: 'object', properties: { t: { type: 'array', items: [object({ x: {} })] }, b: true, n: null }, required: [] },
      expected: { type: 'object', properties: { t: { type: 'array', items: [object({ x: {} })] }, b: true, n: null } }
    },
    {
      title: 'a malformed properties keyword is kept',
      schema: { type: 'object', properties: 'x', required: ['x'] },
      expected: { type: 'object', properties: 'x' }
    },
    {
      title: 'a schema without requiring keywords is the same object',
      schema: { type: 'object', properties: { id: { type: 'integer' } } },
      expected: { type: 'object', properties: { id: { type: 'integer' } } }
    }
  ]
  for (const row of table) {
    const result = relax(row.schema, { shape: row.shape, maxDepth: row.maxDepth })
    t.strictSame(result.schema, row.expected, row.title)
    t.strictSame(result.components, {}, `${row.title}: no twin`)
  }
  t.strictSame(relax({ type: 'array', items: object({ id: { type: 'integer' }, tags: { type: 'array', items: object({ label: { type: 'string' } }) } }) }, { shape: { kind: 'array' } }).record,
    object({ id: { type: 'integer' }, tags: { type: 'array', items: object({ label: { type: 'string' } }) } }), 'a record declared inline is kept complete in a component of its own')
})

test('a named record gets a relaxed twin, made once, and the original stays for the routes that are not restricted', async (t) => {
  const user = { title: 'user', description: 'A user.', ...object({ id: { type: 'integer' }, name: { type: 'string' } }) }
  const userRestricted = { title: 'userRestricted', description: `A user. ${RECORDS_NOTE}`, type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
  const document = openapi({
    'get /users': marked('1', { 200: json({ type: 'array', items: { $ref: '#/components/schemas/user' } }) }),
    'get /users/{id}': marked('2', { 200: json({ $ref: '#/components/schemas/user' }) }),
    'get /plain': { responses: { 200: json({ $ref: '#/components/schemas/user' }) } }
  }, { user })
  const before = structuredClone(document)
  const result = documentOf(document, routes({ ...route, shape: { kind: 'array' } }, { ...route, url: '/users/:id' })) as Json
  t.strictSame(document, before, 'the input is not modified')
  t.strictSame(withoutLists(result.components.schemas), { user, userRestricted, RestrictedFieldsError: ERROR_SCHEMA })
  t.strictSame(result.paths['/users'].get.responses['200'].content['application/json'].schema, { type: 'array', items: { $ref: '#/components/schemas/userRestricted' } })
  t.strictSame(result.paths['/users/{id}'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/userRestricted' })
  t.strictSame(result.paths['/plain'].get, { responses: { 200: json({ $ref: '#/components/schemas/user' }) } }, 'a route that is not restricted is not touched')
})

test('twins follow references: recursion, a component that reaches a changing one, name clashes, and what is left alone', async (t) => {
  const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
  const table: Array<{ title: string, schema: unknown, components: Json, expected: unknown, twins: Json, dropped?: string[] }> = [
    {
      title: 'a recursive schema has one twin that refers to itself',
      schema: ref('node'),
      components: { node: object({ id: { type: 'integer' }, children: { type: 'array', items: ref('node') } }) },
      expected: ref('nodeRestricted'),
      twins: { nodeRestricted: { type: 'object', properties: { id: { type: 'integer' }, children: { type: 'array', items: ref('nodeRestricted') } }, description: RECORDS_NOTE } }
    },
    {
      title: 'a component without required that holds one with required changes too',
      schema: ref('team'),
      components: { team: { type: 'object', properties: { lead: ref('person'), tags: { type: 'array', items: ref('tag') } } }, person: object({ id: {} }), tag: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      expected: ref('teamRestricted'),
      twins: {
        teamRestricted: { type: 'object', properties: { lead: ref('personRestricted'), tags: { type: 'array', items: ref('tag') } }, description: RECORDS_NOTE },
        personRestricted: { type: 'object', properties: { id: {} }, description: RECORDS_NOTE }
      }
    },
    {
      title: 'a chain of references through components that change: each is referred to as the twin of the last',
      schema: ref('alias'),
      components: { alias: ref('other'), other: ref('base'), base: object({ id: {} }) },
      expected: ref('baseRestricted'),
      twins: {
        baseRestricted: { type: 'object', properties: { id: {} }, description: RECORDS_NOTE }
      }
    },
    {
      title: 'a taken name gets a number',
      schema: ref('user'),
      components: { user: object({ id: {} }), userRestricted: { type: 'string' }, userRestricted2: { type: 'string' } },
      expected: ref('userRestricted3'),
      twins: { userRestricted3: { type: 'object', properties: { id: {} }, description: RECORDS_NOTE } }
    },
    {
      title: 'a component that a relaxation does not change is referred to as it is',
      schema: object({ role: ref('role'), kind: ref('kind') }),
      components: { role: { type: 'string', enum: ['a'] }, kind: { type: 'object', properties: { x: {} } }, odd: { type: 'object', properties: 'x' } },
      expected: { type: 'object', properties: { role: ref('role'), kind: ref('kind') } },
      twins: {}
    },
    {
      title: 'references inside a component, to another document or to a missing component, are left as they are',
      schema: object({ a: ref('user/properties/profile'), b: { $ref: 'other.json#/user' }, c: ref('missing'), d: { $ref: 7 } }),
      components: { user: object({ profile: object({ city: {} }) }) },
      expected: { type: 'object', properties: { a: ref('user/properties/profile'), b: { $ref: 'other.json#/user' }, c: ref('missing'), d: { $ref: 7 } } },
      twins: {}
    },
    {
      title: 'a reference with requiring siblings loses them (OpenAPI 3.1)',
      schema: { $ref: '#/components/schemas/a~1b', required: ['id'] },
      components: { 'a/b': object({ id: {} }) },
      expected: { $ref: '#/components/schemas/a~1bRestricted' },
      twins: { 'a/bRestricted': { type: 'object', properties: { id: {} }, description: RECORDS_NOTE } }
    },
    {
      title: 'a named envelope gets a twin that keeps its own required',
      schema: ref('page'),
      components: { page: { title: 'page', ...object({ count: {}, results: { type: 'array', items: ref('user') } }) }, user: object({ id: {} }) },
      expected: ref('pageRestricted'),
      // The envelope, which only its twin replaced, is left out.
      dropped: ['page'],
      twins: {
        pageRestricted: { title: 'pageRestricted', ...object({ count: {}, results: { type: 'array', items: ref('userRestricted') } }), description: 'As restricted responses send it: any field of the records in `results` may be left out.' },
        userRestricted: { type: 'object', properties: { id: {} }, description: RECORDS_NOTE }
      }
    },
    {
      title: 'a named envelope whose records need nothing keeps its name',
      schema: ref('page'),
      components: { page: object({ results: { type: 'array', items: { type: 'object' } } }) },
      expected: ref('page'),
      twins: {}
    },
    {
      title: 'a loop of references that never reaches an envelope is left as it is',
      schema: ref('loop'),
      components: { loop: ref('loop') },
      expected: ref('loop'),
      twins: {}
    }
  ]
  for (const row of table) {
    const envelope = row.title.includes('envelope')
    const result = relax(row.schema, { components: row.components, shape: envelope ? { kind: 'envelope', key: 'results' } : undefined })
    t.strictSame(result.schema, row.expected, row.title)
    const kept = Object.fromEntries(Object.entries(row.components).filter(([name]) => !(row.dropped ?? []).includes(name)))
    t.strictSame(result.components, { ...kept, ...row.twins }, `${row.title}: components`)
  }
})

test('envelope twins depend on the records key and depth; one component can have several', async (t) => {
  const page = object({ results: { type: 'array', items: object({ a: object({ b: {} }) }) } })
  const document = openapi({
    'get /a': marked('1', { 200: json({ $ref: '#/components/schemas/page' }) }),
    'get /b': marked('2', { 200: json({ $ref: '#/components/schemas/page' }) }),
    'get /c': marked('3', { 200: json({ $ref: '#/components/schemas/page' }) })
  }, { page })
  const envelope = { shape: { kind: 'envelope', key: 'results' } } as const
  const result = documentOf(document, routes(
    { ...route, url: '/a', ...envelope },
    { ...route, url: '/b', ...envelope },
    { ...route, url: '/c', ...envelope, maxDepth: 1 }
  )) as Json
  const refs = ['/a', '/b', '/c'].map((path) => result.paths[path].get.responses['200'].content['application/json'].schema.$ref)
  t.strictSame(refs, ['#/components/schemas/pageRestricted', '#/components/schemas/pageRestricted', '#/components/schemas/pageRestricted2'])
  t.strictSame(result.components.schemas.pageRestricted2.properties.results.items, { type: 'object', properties: { a: object({ b: {} }) } }, 'maxDepth 1 keeps the nested object whole')
})

test('operations are found by their key, else by method and path; other operations are not touched', async (t) => {
  const response = (): Json => ({ 200: json(object({ id: {} })) })
  const table: Array<{ title: string, document: Json, routes: Map<string, RestrictedRoute>, relaxed: string[] }> = [
    {
      title: 'by key, whatever the path',
      document: openapi({ 'get /renamed': marked('1', response()) }),
      routes: routes(route),
      relaxed: ['get /renamed']
    },
    {
      title: 'a key of another instance is left for it',
      document: openapi({ 'get /users': marked('9', response()) }),
      routes: routes(route),
      relaxed: []
    },
    {
      title: 'by method and path, path parameters written as swagger writes them',
      document: openapi({ 'get /users/{id}': { responses: response() }, 'post /users/{id}': { responses: response() } }),
      routes: routes({ ...route, url: '/users/:id' }),
      relaxed: ['get /users/{id}']
    },
    {
      title: 'every method of a route with several',
      document: openapi({ 'get /users': { responses: response() }, 'post /users': { responses: response() }, 'delete /users': { responses: response() } }),
      routes: routes({ ...route, method: ['GET', 'POST'] }),
      relaxed: ['get /users', 'post /users']
    },
    {
      title: 'with the base path of a server stripped, its variables resolved',
      document: {
        ...openapi({ 'get /users': { responses: response() }, 'get /v2/other': { responses: response() } }),
        servers: [{ url: 'http://[' }, { description: 'no url' }, { url: '/' }, { url: 'https://{host}/{base}', variables: { host: { default: 'api.test' }, base: { default: 'v1' } } }]
      },
      routes: routes({ ...route, url: '/v1/users' }, { ...route, url: '/v2/other' }),
      relaxed: ['get /users', 'get /v2/other']
    },
    {
      title: 'a server variable without a default strips nothing',
      document: { ...openapi({ 'get /users': { responses: response() } }), servers: [{ url: 'https://api.test/{base}' }] },
      routes: routes({ ...route, url: '/base/users' }),
      relaxed: []
    },
    {
      title: 'a route that is not in the document (hidden) changes nothing',
      document: openapi({ 'get /other': { responses: response() } }),
      routes: routes(route),
      relaxed: []
    },
    {
      title: 'path items and operations that are not objects are skipped',
      document: { ...openapi({ 'get /users': { responses: response() } }), paths: { '/users': { get: { responses: response() }, put: 'x' }, '/x': null } },
      routes: routes(route),
      relaxed: ['get /users']
    }
  ]
  for (const row of table) {
    const before = structuredClone(row.document)
    const result = documentOf(row.document, row.routes) as Json
    const relaxed: string[] = []
    for (const [path, item] of Object.entries(result.paths as Json)) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        if (typeof operation === 'object' && operation !== null && (operation as Json).responses['400'] !== undefined) relaxed.push(`${method} ${path}`)
      }
    }
    t.strictSame(relaxed, row.relaxed, row.title)
    if (row.relaxed.length === 0) t.strictSame(result, before, `${row.title}: the document is unchanged`)
  }
  const swagger2 = {
    swagger: '2.0',
    basePath: '/api/',
    paths: { '/users': { get: { responses: { 200: { description: 'ok', schema: object({ id: {} }) } } } } }
  }
  t.strictSame((documentOf(swagger2, routes({ ...route, url: '/api/users' })) as Json).paths['/users'].get.responses['200'].schema, { type: 'object', properties: { id: {} } },
    'Swagger 2.0: with basePath stripped, and the path kept absolute')
  const date = new Date(0)
  const bare = Object.assign(Object.create(null), { a: 1 })
  const marker = documentOf({ ...openapi({ 'get /users': marked('1', response()) }), 'x-date': date, 'x-bare': bare }, routes(route)) as Json
  t.strictSame(marker.paths['/users'].get[OPERATION_KEY], {
    statuses: { 200: { record: { $ref: '#/components/schemas/getUsersRecord' }, records: 'object' } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8
  }, 'the key holds what a client needs, no longer the route id')
  t.not(marker['x-date'], date, 'a Date is copied')
  t.equal(marker['x-date'].getTime(), 0, 'with its value')
  t.not(marker['x-bare'], bare, 'an object without a prototype is copied')
  t.strictSame(marker['x-bare'], { a: 1 })
  t.equal(date.getTime(), 0, 'the generated document is not changed')
})

test('what is not an OpenAPI 3 or Swagger 2.0 document with paths comes back as it is', async (t) => {
  for (const value of [null, 'text', [], { openapi: '2.0', paths: {} }, { swagger: '1.2', paths: {} }, { openapi: '3.1.0' }, { openapi: 3 }]) {
    t.equal(documentOf(value, routes(route)), value, JSON.stringify(value))
  }
})

test('the success response says which parameters shape it', async (t) => {
  const describe = (description: unknown, shape: RestrictedRoute['shape'] = { kind: 'object' }, names: Partial<RestrictedRoute> = {}): unknown => {
    const document = openapi({ 'get /users': marked('1', { 200: { description, ...json({}) } }) })
    return (documentOf(document, routes({ ...route, shape, ...names })) as Json).paths['/users'].get.responses['200'].description
  }
  t.equal(describe('Default Response'), `Default Response. ${OBJECT_NOTE}`)
  t.equal(describe('The user.'), `The user. ${OBJECT_NOTE}`)
  t.equal(describe(undefined), OBJECT_NOTE)
  t.equal(describe(`Users. ${OBJECT_NOTE}`), `Users. ${OBJECT_NOTE}`, 'said once')
  t.equal(describe('Users', { kind: 'array' }), 'Users. The `only` and `defer` query parameters choose the fields of each item; a field they leave out is absent.')
  t.equal(describe('A page', { kind: 'envelope', key: 'data' }, { onlyParam: 'fields', deferParam: 'omit' }),
    'A page. The `fields` and `omit` query parameters choose the fields of each record in `data`; a field they leave out is absent.')
  t.equal(describe('The user', { kind: 'object' }, { hidesFields: true }),
    `The user. ${OBJECT_NOTE} Some fields are hidden from some requests, which are answered as if those fields were not declared.`)
})

test('a route that lists its fields gets the note on every 2xx response; a missing response is skipped', async (t) => {
  const document = openapi({
    'get /users': marked('1', { 200: { description: 'Default Response' }, 201: { description: 'Made' }, 404: { description: 'Missing' } }),
    'get /other': marked('2', { 404: { description: 'Missing' } }),
    'get /third': marked('3', { '2XX': { description: 'Any', content: { 'application/json': { example: 1 } } } })
  })
  const result = documentOf(document, routes(
    { ...route, statusKey: undefined, shape: { kind: 'auto', key: 'results' } },
    { ...route, url: '/other' },
    { ...route, url: '/third', statusKey: '2xx' }
  )) as Json
  t.strictSame(Object.entries(result.paths['/users'].get.responses).map(([status, response]: [string, any]) => [status, response.description]), [
    ['200', `Default Response. ${OBJECT_NOTE}`], ['201', `Made. ${OBJECT_NOTE}`],
    ['400', 'Bad Request: a restriction parameter is invalid (`code` says how).'], ['404', 'Missing']
  ])
  t.strictSame(result.paths['/other'].get.responses['404'], { description: 'Missing' })
  t.strictSame(result.paths['/third'].get.responses['2XX'], { description: `Any. ${OBJECT_NOTE}`, content: { 'application/json': { example: 1 } } }, 'a 2xx key is 2XX; a media type without a schema is kept')
})

test('the plugin\'s 400 is documented, merged with the route\'s own', async (t) => {
  const error = { $ref: '#/components/schemas/error' }
  const description = 'Bad Request: a restriction parameter is invalid (`code` says how).'
  const also = 'Also sent when a restriction parameter is invalid.'
  const table: Array<{ title: string, responses: Json | undefined, expected: Json }> = [
    {
      title: 'none of its own: the plugin\'s',
      responses: { 200: json({}) },
      expected: { description, content: { 'application/json': { schema: ERROR_REF } } }
    },
    {
      title: 'no responses at all',
      responses: undefined,
      expected: { description, content: { 'application/json': { schema: ERROR_REF } } }
    },
    {
      title: 'its own 400: either body, for every JSON media type; others kept, JSON added',
      responses: { 400: { description: 'Bad page', content: { 'text/plain': { schema: { type: 'string' } }, 'application/problem+json': { schema: error }, 'application/xml': {} } } },
      expected: {
        description: `Bad page. ${also}`,
        content: {
          'text/plain': { schema: { type: 'string' } },
          'application/problem+json': { schema: { anyOf: [error, ERROR_REF] } },
          'application/xml': {},
          'application/json': { schema: ERROR_REF }
        }
      }
    },
    {
      title: 'its own 400 without a body',
      responses: { 400: { description: 'Bad page.' } },
      expected: { description: `Bad page. ${also}`, content: { 'application/json': { schema: ERROR_REF } } }
    },
    {
      title: 'its 4XX response, which its 400s fell under',
      responses: { '4XX': { description: 'Client error', ...json(error) } },
      expected: { description: `Client error. ${also}`, content: { 'application/json': { schema: { anyOf: [error, ERROR_REF] } } } }
    },
    {
      title: 'its default response',
      responses: { default: { description: 'Error', ...json(error) } },
      expected: { description: `Error. ${also}`, content: { 'application/json': { schema: { anyOf: [error, ERROR_REF] } } } }
    }
  ]
  for (const row of table) {
    const document = openapi({ 'get /users': { [OPERATION_KEY]: '1', ...(row.responses === undefined ? {} : { responses: row.responses }) } }, { error: { type: 'object' } })
    const result = documentOf(document, routes(route)) as Json
    t.strictSame(result.paths['/users'].get.responses['400'], row.expected, row.title)
    t.strictSame(result.components.schemas.RestrictedFieldsError, ERROR_SCHEMA, `${row.title}: the error component`)
  }
  t.strictSame(CLIENT_ERROR_CODES, ERROR_SCHEMA.properties.code.enum, 'the codes are those of lib/errors.ts')
})

test('where the app answers errors itself, the 400 names no body the plugin cannot promise, and a route\'s own 400 is kept as it is', async (t) => {
  const error = { $ref: '#/components/schemas/error' }
  const app400 = { description: "Bad Request: a restriction parameter is invalid (the body is what the app's error handler sends)." }
  const also = 'Also sent when a restriction parameter is invalid.'
  const table: Array<{ title: string, version: '3' | '2.0', responses: Json, expected: Json }> = [
    { title: 'none of its own', version: '3', responses: { 200: json({}) }, expected: app400 },
    { title: 'its own 400', version: '3', responses: { 400: { description: 'Bad page', ...json(error) } }, expected: { description: `Bad page. ${also}`, ...json(error) } },
    { title: 'its 4XX', version: '3', responses: { '4XX': { description: 'Client error', ...json(error) } }, expected: { description: `Client error. ${also}`, ...json(error) } },
    { title: 'Swagger 2.0, none of its own', version: '2.0', responses: { 200: { description: 'OK' } }, expected: app400 },
    { title: 'Swagger 2.0, its own 400', version: '2.0', responses: { 400: { description: 'Bad', schema: { type: 'object' } } }, expected: { description: `Bad. ${also}`, schema: { type: 'object' } } }
  ]
  for (const row of table) {
    const operation = { [OPERATION_KEY]: '1', responses: row.responses }
    const document = row.version === '3'
      ? openapi({ 'get /users': operation }, { error: { type: 'object' } })
      : { swagger: '2.0', info: { title: 't', version: '1' }, paths: { '/users': { get: operation } }, definitions: {} }
    const result = documentOf(document, routes({ ...route, ownErrorHandler: true })) as Json
    t.strictSame(result.paths['/users'].get.responses['400'], row.expected, row.title)
    t.notOk('RestrictedFieldsError' in (result.components?.schemas ?? result.definitions), `${row.title}: no error component`)
  }
})

test('the error component keeps its name when it is already the same schema, and takes a free one otherwise', async (t) => {
  for (const [components, name] of [
    [{ RestrictedFieldsError: ERROR_SCHEMA }, 'RestrictedFieldsError'],
    [{ RestrictedFieldsError: { type: 'string' } }, 'RestrictedFieldsError2'],
    [{ RestrictedFieldsError: { type: 'string' }, RestrictedFieldsError2: { type: 'number' } }, 'RestrictedFieldsError3']
  ] as Array<[Json, string]>) {
    const document = openapi({ 'get /users': marked('1', {}), 'get /more': marked('2', {}) }, components)
    const result = documentOf(document, routes(route, { ...route, url: '/more' })) as Json
    t.strictSame(withoutLists(result.components.schemas), { ...components, [name]: ERROR_SCHEMA }, name)
    t.strictSame([result.paths['/users'].get.responses['400'].content['application/json'].schema, result.paths['/more'].get.responses['400'].content['application/json'].schema],
      [{ $ref: `#/components/schemas/${name}` }, { $ref: `#/components/schemas/${name}` }], `${name}: shared by the operations`)
  }
  const bare = documentOf({ openapi: '3.1.0', paths: { '/users': { get: marked('1', {}) } } }, routes(route)) as Json
  t.strictSame(withoutLists(bare.components.schemas), { RestrictedFieldsError: ERROR_SCHEMA }, 'components are added to a document without them')
})

test('only and defer are documented as repeated query parameters, added where the route did not declare them', async (t) => {
  const items = { type: 'string', enum: ['id', 'name'] }
  // The route's choices, `id`, `name` and `*`, as one list among the components, named by a hash of it.
  const list = { $ref: '#/components/schemas/Fields-a2e19d29' }
  const only = {
    name: 'only',
    in: 'query',
    required: false,
    description: 'Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field.',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: list }
  }
  const defer = {
    name: 'defer',
    in: 'query',
    required: false,
    description: 'Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only.',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: list }
  }
  const page = { name: 'page', in: 'query', schema: { type: 'integer' } }
  const declared = { name: 'only', in: 'query', required: false, description: 'mine', schema: { type: 'array', items } }
  const table: Array<{ title: string, parameters?: Json[], inherited?: Json[], expected: Json[] }> = [
    { title: 'none declared: both added first', parameters: [page], expected: [only, defer, page] },
    { title: 'no parameters at all', expected: [only, defer] },
    { title: 'declared by the querystring schema: the form is added, and its paths are the route\'s list', parameters: [declared, page], expected: [defer, { ...declared, schema: { type: 'array', items: list }, style: 'form', explode: true }, page] },
    { title: 'a declared form is kept', parameters: [{ ...declared, style: 'spaceDelimited', explode: false }], expected: [defer, { ...declared, schema: { type: 'array', items: list }, style: 'spaceDelimited', explode: false }] },
    {
      title: 'declared choices of the app\'s own are a list of their own',
      parameters: [{ ...declared, schema: { type: 'array', items: { type: 'string', enum: ['id'] } } }],
      expected: [defer, { ...declared, schema: { type: 'array', items: { $ref: '#/components/schemas/Fields-fc949a4d' } }, style: 'form', explode: true }]
    },
    {
      title: 'declared items that are more than a list of choices are left as they are',
      parameters: [{ ...declared, schema: { type: 'array', items: { ...items, minLength: 1 } } }],
      expected: [defer, { ...declared, schema: { type: 'array', items: { ...items, minLength: 1 } }, style: 'form', explode: true }]
    },
    { title: 'a route\'s own parameter that is not an array is left alone', parameters: [{ name: 'only', in: 'query', schema: { type: 'string' } }], expected: [defer, { name: 'only', in: 'query', schema: { type: 'string' } }] },
    { title: 'a path parameter of the same name does not count', parameters: [{ name: 'only', in: 'path', required: true, schema: { type: 'string' } }], expected: [only, defer, { name: 'only', in: 'path', required: true, schema: { type: 'string' } }] },
    { title: 'declared on the path item', inherited: [{ ...declared }], expected: [defer] }
  ]
  for (const row of table) {
    const document = openapi({ 'get /users': { ...marked('1', {}), ...(row.parameters === undefined ? {} : { parameters: row.parameters }) } })
    if (row.inherited !== undefined) document.paths['/users'].parameters = row.inherited
    const result = documentOf(document, routes(route)) as Json
    t.strictSame(result.paths['/users'].get.parameters, row.expected, row.title)
  }
})

test('Swagger 2.0: definitions, 400 without anyOf, collectionFormat multi', async (t) => {
  const user = object({ id: { type: 'integer' } })
  const document = {
    swagger: '2.0',
    info: { title: 't', version: '1' },
    paths: {
      '/users': {
        get: {
          [OPERATION_KEY]: '1',
          parameters: [{ name: 'only', in: 'query', type: 'array', items: { type: 'string' }, description: 'mine' }],
          responses: { 200: { description: 'Default Response', schema: { type: 'array', items: { $ref: '#/definitions/user' } } } }
        }
      },
      '/users/{id}': { get: { [OPERATION_KEY]: '2', responses: { 200: { description: 'A user', schema: { $ref: '#/definitions/user' } }, 400: { description: 'Bad id', schema: { type: 'object' } } } } },
      '/more': { get: { [OPERATION_KEY]: '3', parameters: [{ name: 'only', in: 'query', type: 'string' }], responses: { 201: { description: 'Made' }, 400: { description: 'Bad' } } } }
    },
    definitions: { user }
  }
  const result = documentOf(document, routes(
    { ...route, shape: { kind: 'array' } },
    { ...route, url: '/users/:id' },
    { ...route, url: '/more', statusKey: '2xx' }
  )) as Json
  const error = { $ref: '#/definitions/RestrictedFieldsError' }
  const defer = {
    name: 'defer',
    in: 'query',
    required: false,
    description: 'Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only.',
    type: 'array',
    items: { type: 'string', enum: ['id', 'name'] },
    collectionFormat: 'multi'
  }
  t.strictSame(result.definitions, { user, userRestricted: { type: 'object', properties: { id: { type: 'integer' } }, description: RECORDS_NOTE }, RestrictedFieldsError: ERROR_SCHEMA })
  t.strictSame(result.paths['/users'].get, {
    'x-restricted-fields': { statuses: { 200: { record: { $ref: '#/definitions/user' }, records: 'array' } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8 },
    parameters: [defer, { name: 'only', in: 'query', type: 'array', items: { type: 'string' }, description: 'mine', collectionFormat: 'multi' }],
    responses: {
      200: { description: 'Default Response. The `only` and `defer` query parameters choose the fields of each item; a field they leave out is absent.', schema: { type: 'array', items: { $ref: '#/definitions/userRestricted' } } },
      400: { description: 'Bad Request: a restriction parameter is invalid (`code` says how).', schema: error }
    }
  })
  t.strictSame(result.paths['/users/{id}'].get.responses['400'], { description: 'Bad id. Also sent when a restriction parameter is invalid.', schema: { type: 'object' } }, 'the route\'s own 400 body is kept')
  t.strictSame(result.paths['/more'].get.responses, {
    201: { description: 'Made' },
    400: { description: 'Bad. Also sent when a restriction parameter is invalid.', schema: error }
  }, 'a 2xx route whose 200 is absent; an own 400 without a body gets the plugin\'s')
  t.strictSame(result.paths['/more'].get.parameters[1], { name: 'only', in: 'query', type: 'string' }, 'a route\'s own parameter that is not an array is left alone')
  const bare = documentOf({ swagger: '2.0', paths: { '/users': { get: marked('1', {}) } } }, routes(route)) as Json
  t.strictSame(bare.definitions, { RestrictedFieldsError: ERROR_SCHEMA }, 'definitions are added to a document without them')
})

test('a caller\'s document leaves out the hidden paths: in schemas at any depth, behind $refs, in required, in both parameters', async (t) => {
  const components = {
    user: object({ id: { type: 'integer' }, secret: { type: 'string' }, profile: { $ref: '#/components/schemas/profile' } }),
    profile: object({ city: { type: 'string' }, phone: { type: 'string' } }),
    page: object({ count: { type: 'integer' }, results: { type: 'array', items: { $ref: '#/components/schemas/user' } } }),
    unused: object({ secret: { type: 'string' } })
  }
  const paths = ['id', 'secret', 'profile', 'profile.city', 'profile.phone']
  const document = openapi({
    'get /users': marked('1', { 200: json({ $ref: '#/components/schemas/page' }) }),
    'get /user': {
      ...marked('2', { 200: json({ $ref: '#/components/schemas/user' }) }),
      parameters: [{ name: 'only', in: 'query', schema: { type: 'array', items: { type: 'string', enum: paths } } }]
    },
    'get /shallow': marked('3', { 200: json(object({ id: { type: 'integer' }, secret: { type: 'string' }, profile: { $ref: '#/components/schemas/profile' } })) }),
    'get /open': marked('4', { 200: json(object({ id: { type: 'integer' }, other: { type: 'string' } })) })
  }, components)
  const list = routes(
    { ...route, url: '/users', shape: { kind: 'envelope', key: 'results' }, paths },
    { ...route, url: '/user', paths },
    { ...route, url: '/shallow', maxDepth: 1, paths: ['id', 'secret', 'profile'] },
    { ...route, url: '/open', paths: ['id', 'other'] }
  )
  const hidden = hiddenTrie(['secret', 'profile.phone'])
  const result = documentOf(document, list, new Map([['1', hidden], ['2', hidden], ['3', hidden]])) as Json
  t.notMatch(JSON.stringify(result), /secret|phone/, 'no hidden name anywhere')
  const schemas = result.components.schemas
  t.strictSame(Object.keys(withoutLists(schemas)).sort(), ['RestrictedFieldsError', 'getOpenRecord', 'getShallowRecord', 'pageRestricted', 'profileRestricted', 'profileRestricted2', 'userRestricted', 'userVisible'],
    'the originals that named hidden fields are left out; each complete record the client reads is there, without them')
  t.strictSame(schemas.userVisible, { ...object({ id: { type: 'integer' }, profile: { $ref: '#/components/schemas/profileRestricted2' } }), description: 'As this caller is sent it, complete: the record that a restricted response narrows.' },
    'the complete record keeps its required names but the hidden one')
  t.strictSame(schemas.getShallowRecord, object({ id: { type: 'integer' }, profile: { $ref: '#/components/schemas/profileRestricted2' } }))
  t.strictSame(schemas.getOpenRecord, object({ id: { type: 'integer' }, other: { type: 'string' } }), 'a route whose rule hides nothing here keeps its complete record')
  t.strictSame(['/users', '/user'].map((path) => result.paths[path].get['x-restricted-fields'].statuses['200'].record), Array(2).fill({ $ref: '#/components/schemas/userVisible' }), 'the envelope\'s records and the object are the same visible user')
  t.strictSame(schemas.userRestricted.properties, { id: { type: 'integer' }, profile: { $ref: '#/components/schemas/profileRestricted' } })
  t.strictSame(schemas.profileRestricted.properties, { city: { type: 'string' } })
  t.strictSame(result.paths['/shallow'].get.responses['200'].content['application/json'].schema.properties, { id: { type: 'integer' }, profile: { $ref: '#/components/schemas/profileRestricted2' } })
  t.strictSame(schemas.profileRestricted2, {
    required: ['city'], allOf: [{ $ref: '#/components/schemas/profileRestricted' }], description: 'As this caller is sent it.'
  }, 'below maxDepth, a schema keeps its required names but the hidden one, over its relaxed form')
  const parameters = (path: string) => Object.fromEntries(
    result.paths[path].get.parameters.map((parameter: Json) => [parameter.name, parameterChoices(result, parameter)])
  )
  t.strictSame(parameters('/users'), { only: ['id', 'profile', 'profile.city', '*'], defer: ['id', 'profile', 'profile.city', '*'] })
  t.strictSame(parameters('/user'), { only: ['id', 'profile', 'profile.city', '*'], defer: ['id', 'profile', 'profile.city', '*'] }, 'the route\'s own parameter too, its paths the route\'s list')
  t.strictSame(parameters('/open'), { only: ['id', 'other', '*'], defer: ['id', 'other', '*'] }, 'a route whose rule hides nothing here is complete')
  const complete = documentOf(document, list, new Map()) as Json
  t.strictSame(complete, documentOf(document, list), 'a caller from whom nothing is hidden gets the complete document')
  const swagger2 = {
    swagger: '2.0',
    info: { title: 't', version: '1' },
    paths: { '/user': { get: { [OPERATION_KEY]: '1', parameters: [{ name: 'only', in: 'query', type: 'array', items: { type: 'string', enum: paths } }], responses: { 200: { description: 'ok', schema: object({ id: { type: 'integer' }, secret: { type: 'string' } }) } } } } }
  }
  const two = documentOf(swagger2, routes({ ...route, url: '/user', paths }), new Map([['1', hidden]])) as Json
  t.strictSame(two.paths['/user'].get.parameters.map((parameter: Json) => [parameter.name, parameter.items.enum]), [['defer', ['id', 'profile', 'profile.city']], ['only', ['id', 'profile', 'profile.city']]], 'Swagger 2.0 too')
  t.strictSame(Object.keys(two.paths['/user'].get.responses['200'].schema.properties), ['id'])
})

test('a caller\'s document leaves the hidden paths out of an envelope\'s values, whatever they hold', async (t) => {
  const records = { type: 'array', items: object({ id: { type: 'integer' }, secret: { type: 'string' } }, []) }
  const envelope = {
    type: 'object',
    properties: { count: { type: 'integer' }, results: records },
    examples: [{ count: 1, results: [{ id: 1, secret: 's' }] }, { count: 0 }, 'not a page'],
    default: { count: 0, results: [] }
  }
  const document = openapi({ 'get /users': marked('1', { 200: json(envelope) }) })
  const result = documentOf(document, routes({ ...route, shape: { kind: 'envelope', key: 'results' } }), new Map([['1', hiddenTrie(['secret'])]])) as Json
  const schema = result.paths['/users'].get.responses['200'].content['application/json'].schema
  t.strictSame([schema.examples, schema.default], [[{ count: 1, results: [{ id: 1 }] }, { count: 0 }, 'not a page'], { count: 0, results: [] }])
})

test('a caller\'s document strips the media type\'s examples that carry a value, and leaves the rest of the content as it is', async (t) => {
  const schema = object({ id: { type: 'integer' }, secret: { type: 'string' } }, [])
  const content = {
    'application/json': { schema, examples: { shared: { $ref: '#/components/examples/user' }, inline: { summary: 'one', value: { id: 1, secret: 's' } } } },
    'text/plain': null
  }
  const document = openapi({ 'get /users': marked('1', { 200: { content } }) })
  document.components.examples = { user: { value: { id: 1 } } }
  const result = documentOf(document, routes(route), new Map([['1', hiddenTrie(['secret'])]])) as Json
  const relaxed = result.paths['/users'].get.responses['200'].content
  t.strictSame(relaxed['application/json'].examples, { shared: { $ref: '#/components/examples/user' }, inline: { summary: 'one', value: { id: 1 } } })
  t.equal(relaxed['text/plain'], null)
})

test('each restricted operation tells a client its complete record, where the records sit, its parameters, sets and default fields', async (t) => {
  const user = object({ id: { type: 'integer' }, name: { type: 'string' }, secret: { type: 'string' } })
  const page = (records: Json): Json => ({ allOf: [object({ count: { type: 'integer' } }), { type: 'object', properties: { items: records } }] })
  const document: Json = {
    ...openapi({
      'get /page': marked('1', { '2XX': json(page({ anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/user' } }, { type: 'null' }] })) }),
      'get /list': { operationId: 'list-users', ...marked('2', { 200: json({ anyOf: [{ type: 'null' }, { type: 'array', items: user }] }) }) },
      'get /fields': marked('3', { 200: { description: 'any' } }),
      'get /lost': marked('4', { 200: json(page({ type: 'string' })) }),
      'get /text': marked('5', { 200: { content: { 'text/plain': {}, 'application/x-json': { schema: { $ref: '#/components/schemas/user' } } } } }),
      'get /none': marked('6', { 200: { description: 'no content' } }),
      'get /bare': marked('9', undefined as unknown as Json),
      'get /plain-text': marked('10', { 200: { content: { 'text/plain': {} } } }),
      'get /no-items': marked('7', { 200: json({ anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/loop' }] }) }),
      'get /no-key': marked('8', { 200: json({ allOf: [object({ count: { type: 'integer' } }), { $ref: '#/components/schemas/nested' }] }) })
    }, { user, loop: { $ref: '#/components/schemas/loop' }, nested: { allOf: [{ $ref: '#/components/schemas/nested' }] } }),
    openapi: '3.1.0'
  }
  const sets = { fieldSets: { summary: ['id', 'name'], private: ['secret'] }, defaultFields: ['id', 'secret'] }
  const list = routes(
    { ...route, url: '/page', statusKey: '2xx', shape: { kind: 'envelope', key: 'items' }, onlyParam: 'fields', deferParam: 'omit', ...sets },
    { ...route, url: '/list', shape: { kind: 'array' }, ...sets },
    { ...route, url: '/fields', statusKey: undefined, shape: { kind: 'auto', key: 'results' } },
    { ...route, url: '/lost', shape: { kind: 'envelope', key: 'items' } },
    { ...route, url: '/text', fieldSets: { one: ['id'] } },
    { ...route, url: '/none' },
    { ...route, url: '/no-items', shape: { kind: 'array' } },
    { ...route, url: '/no-key', shape: { kind: 'envelope', key: 'items' } },
    { ...route, url: '/bare' },
    { ...route, url: '/plain-text' }
  )
  const hidden = hiddenTrie(['secret'])
  const result = documentOf(document, list, new Map([['1', hidden], ['2', hidden]])) as Json
  const described = (path: string): unknown => result.paths[path].get[OPERATION_KEY]
  t.strictSame(described('/page'), {
    statuses: { '2XX': { record: { $ref: '#/components/schemas/userVisible' }, records: 'envelope', key: 'items' } }, only: 'fields', defer: 'omit', sets: { summary: ['id', 'name'], private: [] }, defaultFields: ['id'], maxDepth: 8
  }, 'an envelope of a nullable array, in an allOf part, under a 2XX key; hidden fields leave the sets and default fields')
  t.strictSame(described('/list'), {
    statuses: { 200: { record: { $ref: '#/components/schemas/listUsersRecord' }, records: 'array' } }, only: 'only', defer: 'defer', sets: { summary: ['id', 'name'], private: [] }, defaultFields: ['id'], maxDepth: 8
  }, 'the items of a nullable array declared inline get a component named after the operation id')
  t.strictSame(result.components.schemas.listUsersRecord, object({ id: { type: 'integer' }, name: { type: 'string' } }))
  t.strictSame(result.components.schemas.userVisible.required, ['id', 'name'])
  t.strictSame(['/fields', '/lost', '/none', '/no-items', '/no-key', '/bare', '/plain-text'].map(described), Array(7).fill(undefined),
    'no key where no record schema is found: no schema, no items, no records key, a $ref that loops')
  t.strictSame(described('/text'), { statuses: { 200: { record: { $ref: '#/components/schemas/user' }, records: 'object' } }, only: 'only', defer: 'defer', sets: { one: ['id'] }, maxDepth: 8 },
    'any JSON media type; a caller from whom nothing is hidden gets the sets whole')
  // A document the plugin made, fed back (a static document): its operations are found by method and path, and described anew.
  const again = documentOf(result, routes({ ...route, url: '/text' })) as Json
  t.match(again.paths['/text'].get[OPERATION_KEY], { statuses: { 200: { records: 'object' } }, only: 'only', defer: 'defer', sets: {} })
  t.equal(again.paths['/text'].get.parameters.length, 2, 'and documented once')
})

test('every restricted status is described with its own records, the first found first; a status whose records cannot be found is left out', async (t) => {
  const user = object({ id: { type: 'integer' }, name: { type: 'string' }, secret: { type: 'string' } })
  const created = object({ id: { type: 'integer' }, secret: { type: 'string' } })
  const document = {
    ...openapi({
      'post /users': { operationId: 'createUser', ...marked('1', { 200: json({ type: 'array', items: { $ref: '#/components/schemas/user' } }), 201: json(created), 202: json({ type: 'string' }), 204: { description: 'none' } }) },
      'put /users': marked('2', { 200: { description: 'none' }, 201: json(created) })
    }, { user }),
    openapi: '3.1.0'
  }
  const others = [{ statusKey: '201', shape: { kind: 'object' as const } }, { statusKey: '202', shape: { kind: 'array' as const } }, { statusKey: '204', shape: { kind: 'object' as const } }]
  const list = routes(
    { ...route, method: 'POST', shape: { kind: 'array' }, otherStatuses: others, maxDepth: 3 },
    { ...route, method: 'PUT', otherStatuses: others.slice(0, 1) }
  )
  const result = documentOf(document, list, new Map([['1', hiddenTrie(['secret'])]])) as Json
  t.strictSame(result.paths['/users'].post[OPERATION_KEY], {
    statuses: {
      200: { record: { $ref: '#/components/schemas/userVisible' }, records: 'array' },
      201: { record: { $ref: '#/components/schemas/createUserRecord201' }, records: 'object' }
    },
    only: 'only',
    defer: 'defer',
    sets: {},
    maxDepth: 3
  }, 'a 201 beside the 200, each with the records it sends, the hidden field left out of both; a 202 without records and a 204 without a body are not described')
  t.strictSame(result.components.schemas.createUserRecord201, object({ id: { type: 'integer' } }))
  t.strictSame(result.paths['/users'].put[OPERATION_KEY].statuses, { 201: { record: { $ref: '#/components/schemas/putUsersRecord' }, records: 'object' } },
    'the first status with records is the first described, and names its record after the operation alone')
})

test('the complete record of an OpenAPI 3.0 or Swagger 2.0 document has no conditional keywords, which their schemas lack', async (t) => {
  const branches = {
    type: 'object',
    required: ['kind'],
    properties: { kind: { type: 'string' }, more: { type: 'array', items: { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } } } },
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['a'] },
    else: { required: ['b'] },
    anyOf: [{ dependentRequired: { a: ['b'] } }, { dependentSchemas: { a: {} } }]
  }
  const expected = { type: 'object', required: ['kind'], properties: { kind: { type: 'string' }, more: { type: 'array', items: { type: 'object' } } }, anyOf: [{}, {}] }
  const three = documentOf(openapi({ 'get /users': marked('1', { 200: json(branches) }) }), routes(route)) as Json
  t.strictSame(three.components.schemas.getUsersRecord, expected)
  const two = documentOf({ swagger: '2.0', info: { title: 't', version: '1' }, paths: { '/users': { get: marked('1', { 200: { description: 'ok', schema: branches } }) } } }, routes(route)) as Json
  t.strictSame(two.definitions.getUsersRecord, expected)
  const one = documentOf({ ...openapi({ 'get /users': marked('1', { 200: json(branches) }) }), openapi: '3.1.0' }, routes(route)) as Json
  t.strictSame(one.components.schemas.getUsersRecord, branches, 'OpenAPI 3.1 keeps them')
})

test('a caller\'s document leaves hidden names out of patterns and conditions, behind $refs too, at levels a restriction relaxes and below', async (t) => {
  const record = {
    type: 'object',
    properties: { id: { type: 'integer' }, secret: { type: 'string' } },
    patternProperties: { '^sec': { type: 'string' }, '^x-': { type: 'string' } },
    additionalProperties: false,
    allOf: [{ if: { $ref: '#/components/schemas/secretSet' }, then: { required: ['id'] } }, { if: { $ref: '#/components/schemas/idSet' }, then: { required: ['secret'] } }],
    discriminator: { propertyName: 'id' }
  }
  const document = openapi({ 'get /users': marked('1', { 200: json({ type: 'object', properties: { deep: record } }) }) }, { secret: object({ secret: { type: 'string' } }), secretSet: { required: ['secret'] }, idSet: { required: ['id'] } })
  const result = documentOf({ ...document, openapi: '3.1.0' }, routes({ ...route, maxDepth: 1 }), new Map([['1', hiddenTrie(['deep.secret'])]])) as Json
  t.strictSame(result.paths['/users'].get.responses['200'].content['application/json'].schema.properties.deep, {
    type: 'object',
    properties: { id: { type: 'integer' } },
    patternProperties: { '^x-': { type: 'string' } },
    additionalProperties: { type: 'string' },
    allOf: [{}, { if: { $ref: '#/components/schemas/idSet' }, then: {} }],
    discriminator: { propertyName: 'id' }
  }, 'below maxDepth: the pattern that names it goes, a condition behind a $ref that names it goes with its branch, a branch loses it')
  t.notMatch(JSON.stringify(result), /secret/)
})

test('a caller\'s document whose relaxed response refers to another document, or to nothing, is refused as one that cannot be checked', async (t) => {
  const record = {
    type: 'object',
    properties: { id: { type: 'integer' }, secret: { type: 'string' } },
    allOf: [{ if: { $ref: '#/components/schemas/gone' }, then: { required: ['secret'] } }],
    discriminator: { propertyName: 'id', mapping: { 1: 'elsewhere.json#/user' } }
  }
  const document = openapi({ 'get /users': marked('1', { 200: json({ type: 'object', properties: { deep: record } }) }) })
  // The structural walk finds the condition's reference first; it does not tell a reference it cannot follow from a hidden name.
  t.strictSame(restrictedDocument({ ...document, openapi: '3.1.0' }, routes({ ...route, maxDepth: 1 }), new Map([['1', hiddenTrie(['deep.secret'])]])), {
    refused: { route: 'GET /users', pointer: '/paths/~1users/get/responses/200/content/application~1json/schema/properties/deep/allOf/0/if/$ref', reason: 'unchecked reference', position: 'reference' }
  })
})

test('a caller\'s document that still names a hidden field is answered with the refusal and where, not the document', async (t) => {
  const document = openapi({ 'get /users': marked('1', { 200: { content: { 'application/json': { schema: {}, examples: { shared: { $ref: '#/components/examples/user' } } } } } }) })
  document.components.examples = { user: { value: { id: 1, secret: 's' } } }
  const hidden = new Map([['1', hiddenTrie(['secret'])]])
  t.strictSame(restrictedDocument(document, routes({ ...route, method: ['GET', 'HEAD'] }), hidden), {
    refused: { route: 'GET,HEAD /users', pointer: '/paths/~1users/get/responses/200/content/application~1json/examples/shared/value', reason: 'hidden name', position: 'instance key' }
  })
  t.strictSame(Object.keys((documentOf(document, routes(route)) as Json).paths), ['/users'], 'the complete document is served')
})

test('a level that loses branches declaring its fields is no longer closed to them: every record the route writes fits the relaxed schema', async (t) => {
  const branches = {
    type: 'object',
    properties: { kind: { type: 'string' } },
    if: { properties: { kind: { const: 'a' } } },
    then: { properties: { extra: { type: 'integer' } } },
    else: { properties: { other: { type: 'string' } } }
  }
  for (const closing of [{ additionalProperties: false }, { additionalProperties: { type: 'string' } }]) {
    t.strictSame(relax({ ...branches, ...closing }).schema, { type: 'object', properties: { kind: { type: 'string' } } }, JSON.stringify(closing))
  }
  t.strictSame(relax({ ...branches, additionalProperties: true }).schema, { type: 'object', properties: { kind: { type: 'string' } }, additionalProperties: true }, 'an open level stays open')
  t.strictSame(relax({ type: 'object', properties: { a: { type: 'string' } }, dependentSchemas: { a: { properties: { b: { type: 'string' } } } }, additionalProperties: false }).schema, { type: 'object', properties: { a: { type: 'string' } } }, 'nor over fields that depend on others')
  t.strictSame(relax({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], then: { required: ['a'] }, additionalProperties: false }).schema, { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, 'branches that declare no field leave it closed')
})

test('twins that come out equal are one, and a discriminator\'s mapping names the first', async (t) => {
  const variant = (kind: string, field: string): Json => object({ kind: { type: 'string', enum: [kind] }, [field]: { type: 'integer' } })
  const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
  const pet = { oneOf: [ref('cat'), ref('dog')], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/cat', dog: '#/components/schemas/dog' } } }
  const document = openapi({ 'get /b': marked('1', { 200: json(ref('pet')) }), 'get /c': marked('2', { 200: json(ref('pet')) }) }, { cat: variant('cat', 'lives'), dog: variant('dog', 'barks'), pet })
  const list = routes({ ...route, url: '/b' }, { ...route, url: '/c' })
  const result = documentOf(document, list, new Map([['1', hiddenTrie(['barks'])], ['2', hiddenTrie(['barks', 'lives'])]])) as Json
  const schemas = result.components.schemas
  const complete = (path: string): Json => schemas[result.paths[path].get[OPERATION_KEY].statuses['200'].record.$ref.split('/').at(-1)]
  t.strictSame([complete('/b').discriminator.mapping, complete('/c').discriminator.mapping], [
    { cat: '#/components/schemas/cat', dog: '#/components/schemas/dogRestricted2' },
    { cat: '#/components/schemas/catRestricted3', dog: '#/components/schemas/dogRestricted2' }
  ], 'the dog without barks is one twin, whether lives, which it does not have, is hidden too or not')
  t.strictSame(Object.keys(schemas).filter((name) => name.startsWith('dog')), ['dogRestricted', 'dogRestricted2'], 'one relaxed dog, one complete dog without barks')
})
