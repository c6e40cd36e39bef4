import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { parse } from 'yaml'

type Json = Record<string, any>

const STAFF = { authorization: 'staff' }

/** An app whose anonymous callers do not see `hidden`, and staff see everything; with Swagger UI's routes and the MCP endpoint. */
async function leakApp (t: Test, version: string, hidden: string[], declare: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = Fastify()
  t.teardown(() => app.close())
  const info = { title: 'test', version: '1.0.0' }
  await app.register(swagger, version === '2.0' ? { swagger: { info } } : { openapi: { openapi: version, info } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : hidden })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  await app.register(restrictedFieldsMcp)
  await app.register(restrictedFieldsMcp, { path: '/mcp/discovery', mode: 'discovery' })
  declare(app)
  await app.ready()
  return app
}

/** A JSON-RPC request to an MCP endpoint of the app, as a caller with `headers` sends it. */
async function mcpRequest (
  app: FastifyInstance, url: string, headers: Record<string, string>, method: string, params?: Json
): Promise<{ statusCode: number, body: string }> {
  return await app.inject({
    method: 'POST',
    url,
    headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method, params }
  })
}

/** What a caller is served: its document, in JSON and YAML, and its tools. */
async function served (
  app: FastifyInstance,
  headers: Record<string, string> = {}
): Promise<{ status: number[], document: Json, text: string }> {
  const json = await app.inject({ url: '/documentation/json', headers })
  const yaml = await app.inject({ url: '/documentation/yaml', headers })
  const tools = await mcpRequest(app, '/mcp', headers, 'tools/list')
  return { status: [json.statusCode, yaml.statusCode, tools.statusCode], document: json.json(), text: json.body + yaml.body + tools.body }
}

/** The discovery mode's description of an operation, at the top level or under a field: the tool's text, or the JSON-RPC error. */
async function described (app: FastifyInstance, operation: string, fields?: string, headers: Record<string, string> = {}): Promise<string> {
  const call = { name: 'describe_operation', arguments: { operation, fields } }
  const reply = await mcpRequest(app, '/mcp/discovery', headers, 'tools/call', call)
  const body = JSON.parse(reply.body)
  return body.result?.content[0].text ?? reply.body
}

const schemaOf = (document: Json, path: string): Json => document.paths[path].get.responses['200'].content['application/json'].schema

for (const version of ['3.0.3', '3.1.0']) {
  test(`OpenAPI ${version}: a map's value schema that @fastify/swagger made of a pattern naming a hidden field keeps none of that field's contents`, async (t) => {
    // @fastify/swagger moves a pattern's schema to additionalProperties: here it describes the hidden `vault` alone.
    const vault = {
      type: 'object',
      additionalProperties: true,
      default: { pin: '8086' },
      example: { pin: '1234' },
      propertyNames: { enum: ['pin', 'puk'] },
      dependentRequired: { pin: ['puk'] },
      required: ['pin'],
      'x-order': ['pin']
    }
    const app = await leakApp(t, version, ['vault'], (app) => {
      app.get('/accounts', {
        restrictFields: true,
        schema: { operationId: 'getAccounts', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, vault }, patternProperties: { '^vault$': vault } } } }
      }, async () => ({ id: 1 }))
    })
    const anonymous = await served(app)
    t.strictSame(anonymous.status, [200, 200, 200])
    t.notMatch(anonymous.text, /pin|puk|8086|1234/, 'no name or value of the hidden field, in JSON, YAML or the tools')
    t.strictSame(schemaOf(anonymous.document, '/accounts'), {
      type: 'object',
      properties: { id: { type: 'integer' } },
      additionalProperties: { type: 'object', additionalProperties: true }
    })
    const staff = await served(app, STAFF)
    t.match(schemaOf(staff.document, '/accounts').additionalProperties, { default: { pin: '8086' }, propertyNames: { enum: ['pin', 'puk'] } }, 'staff see the pattern\'s schema whole')
  })
}

test('a pattern\'s schema that refers to a shared component, moved to additionalProperties, refers to a twin without the hidden field\'s contents', async (t) => {
  const app = await leakApp(t, '3.1.0', ['vault'], (app) => {
    app.addSchema({ $id: 'Vault', type: 'object', properties: { label: { type: 'string', examples: ['pin 8086'] } }, default: { pin: '8086' }, propertyNames: { enum: ['label', 'pin'] } })
    app.get('/accounts', {
      restrictFields: true,
      schema: { operationId: 'getAccounts', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, vault: { $ref: 'Vault#' } }, patternProperties: { '^vault$': { $ref: 'Vault#' } } } } }
    }, async () => ({ id: 1 }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.notMatch(anonymous.text, /pin|8086|label/, 'no name or value of the hidden field, in JSON, YAML or the tools')
  const values = schemaOf(anonymous.document, '/accounts').additionalProperties
  const twin = anonymous.document.components.schemas[values.$ref.split('/').pop()]
  t.strictSame(twin, { type: 'object', title: 'VaultRestricted', description: 'As this caller is sent it where it may describe a field hidden from it: its type alone.' })
  t.match((await served(app, STAFF)).text, /8086/, 'staff see the component whole')
})

test('a nested schema\'s x-examples, which @fastify/swagger makes a map of named examples, lose the hidden paths of each example', async (t) => {
  const profile = { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' } }, 'x-examples': { staffView: { summary: 'as staff see it', value: { city: 'Oslo', phone: '+47 555 0103' } } } }
  const user = { type: 'object', properties: { id: { type: 'integer' }, last_login: { type: 'string' } }, 'x-examples': { sample: { value: { id: 7, last_login: '2026-11-01T03:14:00Z' } } } }
  const app = await leakApp(t, '3.1.0', ['profile.phone', 'last_login'], (app) => {
    app.get('/users/:id', {
      restrictFields: true,
      schema: { operationId: 'getUser', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, phone: { type: 'string' }, profile } } } }
    }, async () => ({ id: 1 }))
    app.get('/users', { restrictFields: true, schema: { operationId: 'listUsers', response: { 200: { type: 'array', items: user } } } }, async () => [])
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.notMatch(anonymous.text, /555 0103|2026-11-01/, 'no hidden value, in JSON, YAML or the tools')
  t.strictSame(schemaOf(anonymous.document, '/users/{id}').properties.profile, {
    type: 'object', properties: { city: { type: 'string' } }, example: { staffView: { summary: 'as staff see it', value: { city: 'Oslo' } } }
  })
  t.strictSame(schemaOf(anonymous.document, '/users').items.example, { sample: { value: { id: 7 } } })
  const staff = await served(app, STAFF)
  t.match(staff.text, /555 0103/, 'staff see the examples whole')
})

test('vendor extensions and $comments that name a hidden path are not shown where a path is hidden, whatever other path shares its last name', async (t) => {
  const profile = {
    type: 'object',
    properties: { city: { type: 'string' }, phone: { type: 'string' } },
    // Stoplight's examples and a property order, as authoring tools write them; a flag names nothing and stays.
    'x-examples': { staff: { city: 'Oslo', phone: '+47 555 0103' } },
    'x-order': ['city', 'phone'],
    'x-internal': false,
    $comment: 'phone is the private line'
  }
  const user = { type: 'object', properties: { id: { type: 'integer' }, phone: { type: 'string', description: 'The switchboard', 'x-order': 1 } }, allOf: [{ properties: { profile } }] }
  const app = await leakApp(t, '3.1.0', ['profile.phone'], (app) => {
    app.get('/users/:id', { restrictFields: true, schema: { operationId: 'getUser', response: { 200: user } } }, async () => ({ id: 1 }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.notMatch(anonymous.text, /555 0103|x-order":\["city|x-examples|private line/, 'no extension or comment that names the hidden path, in JSON, YAML or the tools')
  t.strictSame(schemaOf(anonymous.document, '/users/{id}'), {
    type: 'object',
    properties: { id: { type: 'integer' }, phone: { type: 'string', description: 'The switchboard', 'x-order': 1 } },
    allOf: [{ properties: { profile: { type: 'object', properties: { city: { type: 'string' } }, 'x-internal': false } } }]
  })
  const staff = await served(app, STAFF)
  t.match(staff.text, /private line/, 'staff see the comment')
})

test('a media type\'s x-examples map, moved there as written, loses the hidden paths of each example', async (t) => {
  const app = await leakApp(t, '3.1.0', ['phone'], (app) => {
    app.get('/users/:id', {
      restrictFields: true,
      schema: { operationId: 'getUser', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, phone: { type: 'string' } }, 'x-examples': { staff: { id: 1, phone: '+47 555 0103' } } } } }
    }, async () => ({ id: 1 }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.strictSame(anonymous.document.paths['/users/{id}'].get.responses['200'].content['application/json'].examples, { staff: { id: 1 } })
  t.notMatch(anonymous.text, /555 0103/)
})

test('propertyNames that refer to a shared list of names naming a hidden field go, and the shared list with them', async (t) => {
  const app = await leakApp(t, '3.1.0', ['secret', 'm.secret'], (app) => {
    app.addSchema({ $id: 'Names', type: 'string', enum: ['id', 'a', 'secret'] })
    const properties = { id: { type: 'integer' }, secret: { type: 'string' } }
    app.get('/top', { restrictFields: true, schema: { operationId: 'getTop', response: { 200: { type: 'object', properties, propertyNames: { $ref: 'Names#' } } } } }, async () => ({ id: 1 }))
    app.get('/nested', {
      restrictFields: true,
      schema: { operationId: 'getNested', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, m: { type: 'object', properties: { a: { type: 'string' }, secret: { type: 'string' } }, propertyNames: { allOf: [{ $ref: 'Names#' }] } } } } } }
    }, async () => ({ id: 1 }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.notMatch(anonymous.text, /secret/)
  t.strictSame(schemaOf(anonymous.document, '/top'), { type: 'object', properties: { id: { type: 'integer' } } })
  t.strictSame(schemaOf(anonymous.document, '/nested').properties.m, { type: 'object', properties: { a: { type: 'string' } } })
})

test('a link whose pointer into the body names a hidden field percent-encoded goes, and the document is served', async (t) => {
  // @fastify/swagger reads a route's `links` beside its schema.
  const linked: Json = { links: { 200: { byNumber: { operationId: 'getPerson', parameters: { id: '$response.body#/s%73n' } }, self: { operationId: 'getPerson', parameters: { id: '$response.body#/id' } } } } }
  const app = await leakApp(t, '3.1.0', ['ssn'], (app) => {
    app.get('/people/:id', {
      restrictFields: true,
      schema: { operationId: 'getPerson', response: { 200: { type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string' } } } } },
      ...linked
    }, async () => ({ id: 1 }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.strictSame(anonymous.document.paths['/people/{id}'].get.responses['200'].links, { self: { operationId: 'getPerson', parameters: { id: '$response.body#/id' } } })
  const staff = await served(app, STAFF)
  t.strictSame(Object.keys(staff.document.paths['/people/{id}'].get.responses['200'].links), ['byNumber', 'self'])
})

test('an envelope keeps its own extensions that name nothing, and loses those that may name its records\' hidden fields', async (t) => {
  const record = { type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string' } } }
  const app = await leakApp(t, '3.1.0', ['ssn'], (app) => {
    app.get('/people', {
      restrictFields: true,
      schema: {
        operationId: 'listPeople',
        response: { 200: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: record } }, 'x-order': ['count', 'ssn'], 'x-paged': true, $comment: 'ssn is left out' } }
      }
    }, async () => ({ count: 0, results: [] }))
  })
  const anonymous = await served(app)
  t.strictSame(anonymous.status, [200, 200, 200])
  t.notMatch(anonymous.text, /ssn/)
  t.strictSame(schemaOf(anonymous.document, '/people'), {
    type: 'object',
    properties: { count: { type: 'integer' }, results: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } },
    'x-paged': true
  })
  t.match((await served(app, STAFF)).text, /ssn is left out/)
})

/** The places of a document (or any JSON) where `name` is a key, as JSON pointers. */
function placesOf (value: unknown, name: string, pointer = ''): string[] {
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, member]) => {
    const here = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
    return [...key === name ? [here] : [], ...placesOf(member, name, here)]
  })
}

/** A response's schema in a document of any version. */
const responseSchema = (document: Json, path: string): Json => {
  const response = document.paths[path].get.responses['200']
  return response.schema ?? response.content['application/json'].schema
}

for (const version of ['3.0.3', '3.1.0', '2.0']) {
  test(`${version}: a hidden path that runs through a name a pattern matches is left out of the pattern's schema, wherever @fastify/swagger puts it`, async (t) => {
    // The pattern matches a declared name, and the hidden path goes on below it:
    // OpenAPI 3 moves the pattern's schema to additionalProperties.
    const limits = { type: 'object', additionalProperties: true, default: { daily: 'val', secret: 'val', monthly: 'val' } }
    const account = { type: 'object', properties: { limits } }
    const app = await leakApp(t, version, ['account.limits.secret'], (app) => {
      app.get('/accounts/:id', {
        restrictFields: true,
        schema: {
          operationId: 'getAccount',
          response: { 200: { type: 'object', properties: { account, name: { type: 'string' } }, patternProperties: { '^account$': account } } }
        }
      }, async () => ({ account: { limits: { daily: 1, secret: 2, monthly: 3 } }, name: 'n' }))
    })
    const anonymous = await served(app)
    t.strictSame(anonymous.status, [200, 200, 200])
    t.notMatch(anonymous.text, /secret/, 'no hidden name, in JSON, YAML or the tools')
    const seenLimits = { type: 'object', additionalProperties: true, default: { daily: 'val', monthly: 'val' } }
    const seen = { type: 'object', properties: { limits: seenLimits } }
    t.strictSame(responseSchema(anonymous.document, '/accounts/{id}'), {
      type: 'object',
      properties: { account: seen, name: { type: 'string' } },
      // Swagger 2.0 has no patterns, and @fastify/swagger writes string values for them.
      additionalProperties: version === '2.0' ? { type: 'string' } : seen
    })
    t.equal(await described(app, 'getAccount', 'account.limits'),
      'No fields are nested under that field in getAccount; describe_operation without fields lists the top level.')
    t.notMatch(await described(app, 'getAccount'), /secret/)
    t.equal((await app.inject('/accounts/1')).body, '{"account":{"limits":{"daily":1,"monthly":3}},"name":"n"}')
    const staff = await served(app, STAFF)
    const whole = { properties: { account: { properties: { limits: { default: { secret: 'val' } } } } } }
    t.match(responseSchema(staff.document, '/accounts/{id}'), whole, 'staff see the schema whole')
  })
}

for (const version of ['3.0.3', '3.1.0', '2.0']) {
  test(`${version}: a hidden path far below a name a pattern matches, among visible names it matches too, leaves the pattern's schema and its instances`, async (t) => {
    const burst = { type: 'object', properties: { rate: { type: 'integer' }, secret: { type: 'integer' } }, example: { rate: 1, secret: 2 } }
    const caps = { type: 'object', properties: { burst }, enum: [{ burst: { rate: 1, secret: 3 } }] }
    const limits = { type: 'object', properties: { caps }, default: { caps: { burst: { secret: 4 } } } }
    const account = { type: 'object', properties: { limits } }
    const app = await leakApp(t, version, ['account.limits.caps.burst.secret'], (app) => {
      app.get('/accounts/:id', {
        restrictFields: true,
        // `^acc` matches `account` and `accrual`, which the caller sees whole.
        schema: {
          operationId: 'getAccount',
          response: { 200: { type: 'object', properties: { account, accrual: account }, patternProperties: { '^acc': account } } }
        }
      }, async () => ({}))
    })
    const anonymous = await served(app)
    t.strictSame(anonymous.status, [200, 200, 200])
    // The caller sees `accrual` whole, where the name stays; nowhere else.
    const hiddenPlaces = (value: unknown): string[] => placesOf(value, 'secret').filter((place) => !place.includes('/properties/accrual/'))
    const accrual = /\/properties\/accrual\/properties\/limits\/properties\/caps\/properties\/burst\/properties\/secret$/
    const yaml = parse((await app.inject('/documentation/yaml')).body)
    const tools = JSON.parse((await mcpRequest(app, '/mcp', {}, 'tools/list')).body)
    for (const [kind, value] of [['JSON', anonymous.document], ['YAML', yaml], ['tools', tools]]) {
      t.strictSame(hiddenPlaces(value), [], `no hidden name or instance key in the ${kind}`)
      // The tools describe a route's output from an OpenAPI 3 response only.
      const stays = placesOf(value, 'secret').some((place) => accrual.test(place))
      if (version !== '2.0' || kind !== 'tools') t.ok(stays, `the visible path stays in the ${kind}`)
    }
    if (version !== '2.0') {
      t.equal(await described(app, 'getAccount', 'account.limits.caps.burst'),
        'Fields of getAccount under account.limits.caps.burst: account.limits.caps.burst.rate')
      t.equal(await described(app, 'getAccount', 'accrual.limits.caps.burst'),
        'Fields of getAccount under accrual.limits.caps.burst: accrual.limits.caps.burst.rate, accrual.limits.caps.burst.secret')
    }
    const whole = { properties: { account: { properties: { limits: { default: { caps: { burst: { secret: 4 } } } } } } } }
    t.match(responseSchema((await served(app, STAFF)).document, '/accounts/{id}'), whole, 'staff see every one')
  })

  test(`${version}: a pattern's schema loses a hidden field's names and contents from the propertyNames and patterns inside it`, async (t) => {
    const limits = {
      type: 'object',
      properties: { daily: { type: 'integer' }, secret: { type: 'object', properties: { pin: { type: 'string' } } } },
      propertyNames: { enum: ['daily', 'secret'] },
      patternProperties: { '^sec': { type: 'object', properties: { pin: { type: 'string' } }, default: { pin: '8086' } } },
      dependentRequired: { daily: ['secret'] }
    }
    const account = { type: 'object', properties: { limits } }
    const app = await leakApp(t, version, ['account.limits.secret'], (app) => {
      app.get('/accounts/:id', {
        restrictFields: true,
        schema: {
          operationId: 'getAccount',
          response: { 200: { type: 'object', properties: { account }, patternProperties: { '^account$': account } } }
        }
      }, async () => ({}))
    })
    const anonymous = await served(app)
    t.strictSame(anonymous.status, [200, 200, 200])
    t.notMatch(anonymous.text, /secret|\^sec|pin|8086/, 'no name or content of the hidden field, in JSON, YAML or the tools')
    const values = version === '2.0' ? { type: 'string' } : { type: 'object' }
    const seen = { type: 'object', properties: { daily: { type: 'integer' } }, additionalProperties: values }
    t.strictSame(responseSchema(anonymous.document, '/accounts/{id}'), {
      type: 'object',
      properties: { account: { type: 'object', properties: { limits: seen } } },
      additionalProperties: version === '2.0' ? { type: 'string' } : { type: 'object', properties: { limits: seen } }
    })
    t.match((await served(app, STAFF)).text, version === '2.0' ? /secret/ : /8086/, 'staff see the pattern\'s schema whole')
  })
}
