import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastify58 from 'fastify-5-8'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import SwaggerParser from '@apidevtools/swagger-parser'
import { Type } from '@fastify/type-provider-typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { OpenAPIBackend } from 'openapi-backend'
import { parse } from 'yaml'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'
import type { RestrictedFieldsOptions } from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const userSchema = {
  $id: 'user',
  type: 'object',
  required: ['id', 'name', 'profile', 'tags'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    profile: { type: ['object', 'null'], required: ['city', 'phone'], properties: { city: { type: 'string' }, phone: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'object', required: ['id', 'label'], properties: { id: { type: 'integer' }, label: { type: 'string' } } } }
  }
}

const users = [
  { id: 1, name: 'Ada', profile: { city: 'London', phone: '1' }, tags: [{ id: 1, label: 'math' }] },
  { id: 2, name: 'Alan', profile: null, tags: [] }
]

const paths = ['id', 'name', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label']

/** An app with swagger and the plugin: a restricted list and item over a shared schema, and an unrestricted item over the same schema. */
async function usersApp (
  t: Test,
  swaggerOptions: FastifyDynamicSwaggerOptions,
  options: RestrictedFieldsOptions = {}
): Promise<FastifyInstance> {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, swaggerOptions)
  await app.register(fastifyRestrictedFields, options)
  app.addSchema(userSchema)
  app.get('/users', {
    restrictFields: true,
    schema: {
      operationId: 'listUsers',
      querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1 } } },
      response: { 200: { type: 'object', required: ['count', 'results'], properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: 'user#' } } } } }
    }
  }, async () => ({ count: users.length, results: users }))
  app.get('/users/:id', {
    restrictFields: true,
    schema: {
      operationId: 'getUser',
      params: { type: 'object', properties: { id: { type: 'integer' } } },
      response: { 200: { $ref: 'user#' }, 404: { type: 'object', required: ['statusCode', 'error', 'message'], properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } } } }
    }
  }, async (request, reply) => {
    const user = users.find((each) => each.id === (request.params as { id: number }).id)
    return user ?? reply.code(404 as 200).send({ statusCode: 404, error: 'Not Found', message: 'No such user' } as never)
  })
  app.get('/admin/users/:id', { schema: { operationId: 'getAdminUser', response: { 200: { $ref: 'user#' } } } }, async () => users[0])
  await app.ready()
  return app
}

const openapi30 = { openapi: { info: { title: 'test', version: '1.0.0' } }, refResolver: { buildLocalReference: (json: Json) => String(json.$id) } }

/** Requests `url` of `app` and checks the response against the document; its status and body. */
type Contract = (t: Test, app: FastifyInstance, url: string) => Promise<{ status: number, body: unknown }>

/** Validates a response with openapi-backend, which reads the document only. Fails when the status is not documented. */
async function contract (document: unknown): Promise<Contract> {
  const definition = structuredClone(document) as any
  // openapi-backend checks a definition against the OpenAPI 3.0 schema only: a 3.1 one skips that check (SwaggerParser makes it).
  const api = new OpenAPIBackend({ definition, strict: true, quick: definition.openapi.startsWith('3.1') })
  await api.init()
  return async (t, app, url) => {
    const response = await app.inject(url)
    const [path, query = ''] = url.split('?')
    const operation = api.matchOperation({ method: 'get', path, query, headers: {} })
    const body = response.json()
    t.ok(operation?.responses?.[response.statusCode], `${url}: ${response.statusCode} is documented`)
    const result = api.validateResponse(body, operation as any, response.statusCode)
    t.strictSame(result.errors ?? [], [], `${url}: the ${response.statusCode} body matches the document`)
    return { status: response.statusCode, body }
  }
}

const restrictedRequests: Array<[string, unknown]> = [
  ['/users?only=id&only=name', { count: 2, results: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] }],
  ['/users?only=id,profile.city', { count: 2, results: [{ id: 1, profile: { city: 'London' } }, { id: 2, profile: null }] }],
  ['/users?only[]=name&only[]=tags.label', { count: 2, results: [{ name: 'Ada', tags: [{ label: 'math' }] }, { name: 'Alan', tags: [] }] }],
  ['/users?defer=profile.phone&defer=tags.id&defer=name', { count: 2, results: [{ id: 1, profile: { city: 'London' }, tags: [{ label: 'math' }] }, { id: 2, profile: null, tags: [] }] }],
  ['/users?only=id,profile&defer=profile.phone', { count: 2, results: [{ id: 1, profile: { city: 'London' } }, { id: 2, profile: null }] }],
  ['/users?only=', { count: 2, results: [{}, {}] }],
  ['/users', { count: 2, results: users }],
  ['/users/1?only=profile.phone', { profile: { phone: '1' } }],
  ['/users/2?defer=id&defer=name', { profile: null, tags: [] }],
  ['/users/9', { statusCode: 404, error: 'Not Found', message: 'No such user' }],
  ['/users?only=password', {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: "Unknown field 'password' in query parameter 'only'; allowed fields: id, name, profile, tags"
  }],
  ['/users/1?only=a.b.c.d.e.f.g.h.i', {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP',
    error: 'Bad Request',
    message: "Field path 'a.b.c.d.e.f.g.h.i' in query parameter 'only' is too deep: at most 8 levels are allowed"
  }],
  ['/users?defer=id,name,profile,tags&only=tags.id,tags.label', {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS',
    error: 'Bad Request',
    message: "Too many field names in query parameters 'only' and 'defer': at most 5 are allowed"
  }]
]

for (const version of ['3.0.3', '3.1.0']) {
  test(`OpenAPI ${version}: every restricted response, nested or not, and every error matches the document`, async (t) => {
    const app = await usersApp(t, { ...openapi30, openapi: { ...openapi30.openapi, openapi: version } }, { maxFields: 5 })
    const document = app.swagger() as Json
    await SwaggerParser.validate(structuredClone(document) as any)
    const check = await contract(document)
    for (const [url, body] of restrictedRequests) {
      t.strictSame((await check(t, app, url)).body, body, url)
    }
    const api = new OpenAPIBackend({ definition: structuredClone(document) as any, quick: true })
    await api.init()
    t.strictSame(api.validateRequest({ method: 'get', path: '/users', query: 'only=id&only=profile.city&defer=tags.label', headers: {} }).errors ?? [], [],
      'the repeated form is a valid request')
    const restricted = (await app.inject('/users/1?only=id')).json()
    t.strictSame(api.validateResponse(restricted, 'getAdminUser', 200).errors?.map((error) => error.message), ["must have required property 'name'"],
      'the unrestricted route keeps the complete record, which a restricted one does not match')
  })
}

test('a shared schema keeps its name for the unrestricted route and gets a relaxed twin for the restricted ones', async (t) => {
  const app = await usersApp(t, openapi30)
  const document = app.swagger() as Json
  const { user, userRestricted } = document.components.schemas
  t.strictSame(user.required, ['id', 'name', 'profile', 'tags'])
  t.strictSame(user.properties.profile.required, ['city', 'phone'])
  t.strictSame(userRestricted, {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      profile: { type: 'object', nullable: true, properties: { city: { type: 'string' }, phone: { type: 'string' } } },
      tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } }
    },
    description: 'As restricted responses send it: any field may be left out.'
  })
  const schemaOf = (path: string): unknown => document.paths[path].get.responses['200'].content['application/json'].schema
  t.strictSame(schemaOf('/users'), {
    type: 'object',
    required: ['count', 'results'],
    properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: '#/components/schemas/userRestricted' } } }
  }, 'the envelope stays as declared')
  t.strictSame(schemaOf('/users/{id}'), { $ref: '#/components/schemas/userRestricted' })
  t.strictSame(schemaOf('/admin/users/{id}'), { $ref: '#/components/schemas/user' })
  t.strictSame(Object.keys(document.paths['/admin/users/{id}'].get.responses), ['200'], 'a route without the option is not touched')
  t.strictSame(document.paths['/users'].get.parameters.map((p: Json) => [p.name, p.style, p.explode, parameterChoices(document, p)]), [
    ['only', 'form', true, [...paths, '*']], ['defer', 'form', true, [...paths, '*']], ['page', undefined, undefined, undefined]
  ], 'one list for both parameters; defer refuses `*`, as its description says')
  const lists = ['/users', '/users/{id}'].flatMap((path) => document.paths[path].get.parameters.slice(0, 2).map((p: Json) => p.schema.items))
  t.strictSame(lists, Array(4).fill({ $ref: '#/components/schemas/Fields-' + Object.keys(document.components.schemas).find((name) => name.startsWith('Fields-'))?.slice(7) }),
    'routes that return the same record share the list')
  t.strictSame(document.paths['/users/{id}'].get.parameters.map((p: Json) => p.name), ['only', 'defer', 'id'], 'added to a route without a querystring schema')
  t.strictSame(document.paths['/users'].get.responses['400'], {
    description: 'Bad Request: a restriction parameter is invalid (`code` says how).',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/RestrictedFieldsError' } } }
  })
  t.equal(document.paths['/users'].get.responses['200'].description,
    'Default Response. The `only` and `defer` query parameters choose the fields of each record in `results`; a field they leave out is absent.')
})

test('Swagger 2.0: a valid document with relaxed twins, the 400 and collectionFormat multi', async (t) => {
  const app = await usersApp(t, { swagger: { info: { title: 'test', version: '1.0.0' } }, refResolver: openapi30.refResolver })
  const document = app.swagger() as Json
  await SwaggerParser.validate(structuredClone(document) as any)
  t.strictSame(document.paths['/users'].get.responses['200'].schema.properties.results.items, { $ref: '#/definitions/userRestricted' })
  t.strictSame(document.definitions.userRestricted.properties.profile, { type: ['object', 'null'], properties: { city: { type: 'string' }, phone: { type: 'string' } } })
  t.strictSame(document.definitions.user.required, ['id', 'name', 'profile', 'tags'])
  t.strictSame(document.paths['/users/{id}'].get.responses['400'].schema, { $ref: '#/definitions/RestrictedFieldsError' })
  t.strictSame(document.paths['/users/{id}'].get.parameters.slice(0, 2).map((p: Json) => [p.name, p.type, p.collectionFormat]), [['only', 'array', 'multi'], ['defer', 'array', 'multi']])
  t.strictSame(document.paths['/users'].get.parameters.slice(0, 2).map((p: Json) => [p.name, p.type, p.collectionFormat]), [['only', 'array', 'multi'], ['defer', 'array', 'multi']])
})

test('the document is the same object on every call, and the same document as YAML', async (t) => {
  const app = await usersApp(t, openapi30)
  const document = app.swagger()
  t.equal(app.swagger(), document)
  const yaml = app.swagger({ yaml: true })
  t.equal(app.swagger({ yaml: true }), yaml)
  t.strictSame(parse(yaml as unknown as string), document)
})

test('a TypeBox route is documented with relaxed records', async (t) => {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  const User = Type.Object({
    id: Type.Integer(),
    profile: Type.Union([Type.Object({ city: Type.String(), phone: Type.String() }), Type.Null()])
  })
  app.get('/users', {
    restrictFields: true,
    schema: { operationId: 'listUsers', querystring: Type.Object({ limit: Type.Optional(Type.Integer()) }), response: { 200: Type.Array(User) } }
  }, async () => [{ id: 1, profile: { city: 'London', phone: '1' } }])
  await app.ready()
  const document = app.swagger() as Json
  t.strictSame(document.paths['/users'].get.responses['200'].content['application/json'].schema, {
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'integer' }, profile: { type: 'object', nullable: true, properties: { city: { type: 'string' }, phone: { type: 'string' } } } } }
  })
  t.strictSame(document.paths['/users'].get.parameters.map((p: Json) => p.name), ['only', 'defer', 'limit'])
  const check = await contract(document)
  t.strictSame((await check(t, app, '/users?only=profile.city')).body, [{ profile: { city: 'London' } }])
})

test('a Zod route is documented through jsonSchemaTransform, with the parameters its querystring does not declare', async (t) => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>()
  t.teardown(() => app.close())
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await app.register(swagger, { ...openapi30, transform: jsonSchemaTransform })
  await app.register(fastifyRestrictedFields)
  const user = z.object({ id: z.int(), profile: z.object({ city: z.string(), phone: z.string() }).nullable() })
  app.get('/users', {
    restrictFields: true,
    schema: { operationId: 'listUsers', querystring: z.object({ page: z.coerce.number().int().min(1).optional() }), response: { 200: z.object({ count: z.int(), results: z.array(user) }) } }
  }, async () => ({ count: 1, results: [{ id: 1, profile: { city: 'London', phone: '1' } }] }))
  await app.ready()
  const document = app.swagger() as Json
  const schema = document.paths['/users'].get.responses['200'].content['application/json'].schema
  t.strictSame(schema.required, ['count', 'results'], 'the envelope stays as declared')
  const item = schema.properties.results.items
  t.strictSame([item.required, item.properties.profile.required], [undefined, undefined])
  t.strictSame(document.paths['/users'].get.parameters.map((p: Json) => [p.name, parameterChoices(document, p)]), [
    ['only', ['id', 'profile', 'profile.city', 'profile.phone', '*']], ['defer', ['id', 'profile', 'profile.city', 'profile.phone', '*']], ['page', undefined]
  ])
  const check = await contract(document)
  t.strictSame((await check(t, app, '/users?only=profile.city&only=id')).body, { count: 1, results: [{ id: 1, profile: { city: 'London' } }] })
  t.strictSame((await check(t, app, '/users?only=nope')).status, 400)
})

test('the user\'s global transform, route-level swaggerTransform and transformObject still run', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, {
    ...openapi30,
    transform: ({ schema, url }) => ({ schema: { ...schema, summary: `global ${url}` } as any, url: url === '/moved' ? '/elsewhere' : url }),
    transformObject: ({ openapiObject }: any) => ({ ...openapiObject, info: { ...openapiObject.info, title: 'transformed' } })
  } as FastifyDynamicSwaggerOptions)
  await app.register(fastifyRestrictedFields)
  app.addSchema(userSchema)
  const response = { 200: { $ref: 'user#' } }
  app.get('/global', { restrictFields: true, schema: { response } }, async () => users[0])
  app.get('/moved', { restrictFields: true, schema: { response } }, async () => users[0])
  app.get('/own/:id', {
    restrictFields: true,
    schema: { response },
    // A transform of its own that keeps only some keys drops the plugin's: the operation is found by method and path.
    config: { swaggerTransform: ({ schema, url }: any) => ({ schema: { response: schema.response, summary: 'own' }, url }) }
  }, async () => users[0])
  await app.ready()
  const document = app.swagger() as Json
  t.equal(document.info.title, 'transformed')
  const operations = [document.paths['/global'].get, document.paths['/elsewhere'].get, document.paths['/own/{id}'].get]
  t.strictSame(operations.map((operation) => operation.summary), ['global /global', 'global /moved', 'own'])
  t.strictSame(operations.map((operation) => operation.responses['200'].content['application/json'].schema), Array(3).fill({ $ref: '#/components/schemas/userRestricted' }))
  t.strictSame(operations.map((operation) => Object.keys(operation).filter((key) => key.startsWith('x-'))), Array(3).fill(['x-restricted-fields']), 'the vendor key is the only one')
  t.strictSame(operations.map((operation) => operation['x-restricted-fields']), Array(3).fill({
    statuses: { 200: { record: { $ref: '#/components/schemas/user' }, records: 'object' } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8
  }), 'it no longer holds the route id, but what a client needs')
})

test('the plugin finds the decorator on an ancestor, and two registrations each document their routes', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  app.addSchema(userSchema)
  for (const prefix of ['/a', '/b']) {
    await app.register(async function child (instance) {
      await instance.register(fastifyRestrictedFields, { onlyParam: `${prefix.slice(1)}Only`, deferParam: `${prefix.slice(1)}Defer` })
      instance.get('/users/:id', { restrictFields: true, schema: { response: { 200: { $ref: 'user#' } } } }, async () => users[0])
    }, { prefix })
  }
  await app.ready()
  const document = app.swagger() as Json
  t.strictSame(['/a/users/{id}', '/b/users/{id}'].map((path) => document.paths[path].get.parameters.map((p: Json) => p.name)), [
    ['aOnly', 'aDefer', 'id'], ['bOnly', 'bDefer', 'id']
  ])
  t.strictSame(['/a/users/{id}', '/b/users/{id}'].map((path) => document.paths[path].get.responses['200'].content['application/json'].schema.$ref), [
    '#/components/schemas/userRestricted', '#/components/schemas/userRestricted2'
  ], 'each registration relaxes its own routes')
})

test('without @fastify/swagger nothing is wrapped; a decorator that gives no object is passed through', async (t) => {
  const plain = Fastify()
  t.teardown(() => plain.close())
  await plain.register(fastifyRestrictedFields)
  plain.get('/users', { restrictFields: true, schema: { response: { 200: { type: 'array', items: userSchema } } } }, async () => users)
  await plain.ready()
  t.strictSame((await plain.inject('/users?only=id')).json(), [{ id: 1 }, { id: 2 }])

  const other = Fastify()
  t.teardown(() => other.close())
  other.decorate('swagger', (options?: { yaml?: boolean }) => options?.yaml === true ? 'yaml text' : 'text')
  await other.register(fastifyRestrictedFields)
  other.get('/users', { restrictFields: true, schema: { response: { 200: { type: 'array', items: userSchema } } } }, async () => users)
  await other.ready()
  const decorated = other as unknown as { swagger: (options?: { yaml?: boolean }) => unknown }
  t.strictSame([decorated.swagger(), decorated.swagger({ yaml: true })], ['text', 'yaml text'])
})

test('an app without opted-in routes keeps swagger\'s own document', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  app.get('/plain', { schema: { response: { 200: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  await app.ready()
  const document = app.swagger() as Json
  t.strictSame(document.components.schemas, {})
  t.strictSame(document.paths['/plain'].get.responses['200'].content['application/json'].schema.required, ['id'])
})

test('a static document is changed the same way, its operations found by method and path', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  const written = {
    openapi: '3.0.3',
    info: { title: 'static', version: '1.0.0' },
    paths: { '/users/{id}': { get: { responses: { 200: { description: 'A user', content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } } } } } }
  }
  await app.register(swagger, { mode: 'static', specification: { document: written } } as any)
  await app.register(fastifyRestrictedFields)
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  await app.ready()
  const document = app.swagger() as Json
  t.strictSame(document.paths['/users/{id}'].get.responses['200'].content['application/json'].schema, { type: 'object', properties: { id: { type: 'integer' } } })
  t.strictSame(written.paths['/users/{id}'].get.responses['200'].content['application/json'].schema.required, ['id'], 'the written document is not modified')
})

test('restrictedFieldsDocument serves each caller, from a route of the app\'s own, the document without what it may not see', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  app.addSchema(userSchema)
  const hiddenFields = (request: FastifyRequest): string[] => {
    if (request.headers['x-role'] === 'broken') return 'profile' as unknown as string[]
    return request.headers['x-role'] === 'staff' ? [] : ['profile.phone', 'tags']
  }
  app.get('/users/:id', { restrictFields: { hiddenFields }, schema: { response: { 200: { $ref: 'user#' } } } }, async () => users[0])
  app.get('/tags', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { type: 'object', properties: { tags: { type: 'string' } } } } } } }, async () => [])
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  app.get('/docs.yaml', async (request, reply) => reply.type('application/x-yaml').send(await app.restrictedFieldsDocument(request, { yaml: true })))
  await app.ready()
  const complete = JSON.parse(JSON.stringify(app.swagger()))
  const anonymous = await app.inject('/docs')
  t.notMatch(anonymous.body, /phone/)
  const enums = (path: string): unknown => parameterChoices(anonymous.json(), anonymous.json().paths[path].get.parameters.find((parameter: Json) => parameter.name === 'only'))
  t.strictSame([enums('/users/{id}'), enums('/tags')], [['id', 'name', 'profile', 'profile.city', '*'], ['tags', '*']], 'a route without a rule keeps every name')
  t.strictSame(anonymous.json().components.schemas.userRestricted.properties, { id: { type: 'integer' }, name: { type: 'string' }, profile: { type: 'object', nullable: true, properties: { city: { type: 'string' } } } })
  t.strictSame(parse((await app.inject('/docs.yaml')).body), anonymous.json(), 'the same document as YAML')
  t.strictSame((await app.inject({ url: '/docs', headers: { 'x-role': 'staff' } })).json(), complete, 'staff get the complete document')
  t.match(complete.components.schemas.userRestricted.properties, { tags: {} }, 'app.swagger() stays complete')
  const broken = await app.inject({ url: '/docs', headers: { 'x-role': 'broken' } })
  t.strictSame([broken.statusCode, broken.json().code, broken.json().message], [500, 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', 'Route GET /users/:id: the hiddenFields rule must return an array of field names, instead returned string'])
})

test('without an opted-in route, or before ready, a caller\'s document is the generated one', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.get('/plain', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  t.equal(await app.restrictedFieldsDocument({} as never), null, 'before ready')
  await app.ready()
  t.strictSame((await app.inject('/documentation/json')).json(), JSON.parse(JSON.stringify(app.swagger())))
})

test('composed and variant schemas are documented relaxed: every restricted response of every shape matches the document', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields, { maxDepth: 2 })
  app.addSchema({ $id: 'base', type: 'object', required: ['id', 'createdBy'], properties: { id: { type: 'integer' }, createdBy: { type: 'string' } } })
  app.addSchema({ $id: 'place', type: 'object', required: ['city', 'zip'], additionalProperties: false, properties: { city: { type: 'string' }, zip: { type: 'string' } } })
  app.addSchema({ $id: 'node', type: 'object', required: ['id', 'label', 'children'], properties: { id: { type: 'integer' }, label: { type: 'string' }, children: { type: 'array', items: { $ref: 'node#' } } } })
  const cat = { type: 'object', required: ['kind', 'name', 'lives'], properties: { kind: { type: 'string', enum: ['cat'] }, name: { type: 'string' }, lives: { type: 'integer' } } }
  const dog = { type: 'object', required: ['kind', 'name', 'barks'], properties: { kind: { type: 'string', enum: ['dog'] }, name: { type: 'string' }, barks: { type: 'boolean' } } }
  const person = {
    allOf: [
      { $ref: 'base#' },
      { type: 'object', required: ['name', 'home'], properties: { name: { type: 'string' }, home: { allOf: [{ $ref: 'place#' }], description: 'Where they live' } } }
    ]
  }
  const routes: Array<{ url: string, schema: Json, payload: unknown }> = [
    { url: '/people', schema: { type: 'array', items: person }, payload: [{ id: 1, createdBy: 'x', name: 'Ada', home: { city: 'Oslo', zip: '1' } }] },
    {
      url: '/mixed',
      schema: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } }, allOf: [{ type: 'object', required: ['role'], properties: { role: { type: 'string' } } }] },
      payload: { id: 1, name: 'Ada', role: 'admin' }
    },
    { url: '/pets', schema: { type: 'array', items: { oneOf: [cat, dog], discriminator: { propertyName: 'kind' } } }, payload: [{ kind: 'cat', name: 'Tom', lives: 9 }, { kind: 'dog', name: 'Rex', barks: true }] },
    { url: '/any', schema: { type: 'array', items: { anyOf: [cat, dog] } }, payload: [{ kind: 'dog', name: 'Rex', barks: true }] },
    {
      url: '/branches',
      schema: {
        type: 'object',
        required: ['kind'],
        properties: { kind: { type: 'string' } },
        if: { type: 'object', properties: { kind: { enum: ['a'] } } },
        then: { required: ['a'], properties: { a: { type: 'integer' } } },
        else: { required: ['b'], properties: { b: { type: 'integer' } } }
      },
      payload: { kind: 'a', a: 1 }
    },
    { url: '/maybe', schema: { type: 'object', nullable: true, required: ['id'], properties: { id: { type: 'integer' } } }, payload: null },
    { url: '/tree', schema: { $ref: 'node#' }, payload: { id: 1, label: 'a', children: [{ id: 2, label: 'b', children: [{ id: 3, label: 'c', children: [] }] }] } },
    {
      url: '/page',
      schema: { allOf: [{ type: 'object', required: ['count'], properties: { count: { type: 'integer' } } }, { type: 'object', required: ['results'], properties: { results: { type: 'array', items: person } } }] },
      payload: { count: 1, results: [{ id: 1, createdBy: 'x', name: 'Ada', home: { city: 'Oslo', zip: '1' } }] }
    }
  ]
  for (const { url, schema, payload } of routes) {
    app.get(url, { restrictFields: true, schema: { operationId: url.slice(1), response: { 200: schema } } }, async () => payload)
  }
  await app.ready()
  const document = app.swagger() as Json
  await SwaggerParser.validate(structuredClone(document) as never)
  const check = await contract(document)
  const requests: Array<[string, unknown]> = [
    ['/people?only=id', [{ id: 1 }]],
    ['/people?only=home.city', [{ home: { city: 'Oslo' } }]],
    ['/people?defer=createdBy,home.zip', [{ id: 1, name: 'Ada', home: { city: 'Oslo' } }]],
    ['/mixed?only=id', { id: 1 }],
    ['/mixed?defer=name', { id: 1, role: 'admin' }],
    ['/pets?only=lives', [{ lives: 9 }, {}]],
    ['/pets?defer=kind', [{ name: 'Tom', lives: 9 }, { name: 'Rex', barks: true }]],
    ['/any?only=name', [{ name: 'Rex' }]],
    ['/branches?defer=kind', { a: 1 }],
    ['/branches?only=b', {}],
    ['/maybe?only=id', null],
    ['/tree?only=children.id', { children: [{ id: 2 }] }],
    ['/tree?defer=label', { id: 1, children: [{ id: 2, label: 'b', children: [{ id: 3, label: 'c', children: [] }] }] }],
    ['/page?only=home.zip', { count: 1, results: [{ home: { zip: '1' } }] }],
    ['/page', routes[7].payload]
  ]
  for (const [url, body] of requests) {
    t.strictSame((await check(t, app, url)).body, body, url)
  }
})

test('an OpenAPI 3.0 document\'s complete record has no conditional keyword at any level: under additionalProperties, patternProperties and prefixItems either', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  const conditional = { type: 'object', if: { required: ['a'] }, then: { required: ['b'] }, dependentRequired: { a: ['b'] }, properties: { a: { type: 'string' }, b: { type: 'string' } } }
  const record = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      byName: { type: 'object', additionalProperties: conditional },
      byPattern: { type: 'object', patternProperties: { '^x': conditional } },
      pair: { type: 'array', prefixItems: [conditional], items: { type: 'string' } },
      if: { type: 'string' }
    }
  }
  app.get('/things', { restrictFields: true, schema: { operationId: 'listThings', response: { 200: { type: 'array', items: record } } } }, async () => [])
  await app.ready()
  const document = (await app.inject('/documentation/json')).json()
  const plain = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }
  t.strictSame(document.components.schemas.listThingsRecord, {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      byName: { type: 'object', additionalProperties: plain },
      byPattern: { type: 'object', additionalProperties: plain },
      pair: { type: 'array', prefixItems: [plain], items: { type: 'string' } },
      if: { type: 'string' }
    }
  })
})

test('where the app answers errors with a handler of its own, the 400 is documented without a body the plugin cannot promise', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields)
  const record = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
  const own400 = { description: 'A bad page', type: 'object', properties: { message: { type: 'string' } } }
  const one = async () => ({ id: 1, name: 'a' })
  app.get('/tasks/:id', { restrictFields: true, schema: { response: { 200: record } } }, one)
  app.get('/tasks', { restrictFields: true, schema: { response: { 200: { type: 'array', items: record }, 400: own400 } } }, async () => [])
  // Fastify gives a route its context's handler once the context has loaded: one set after the routes counts.
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    reply.code(error.statusCode ?? 500).send({ message: error.message })
  })
  const swagger2 = Fastify()
  t.teardown(() => swagger2.close())
  await swagger2.register(swagger, { swagger: { info: { title: 'test', version: '1.0.0' } } })
  await swagger2.register(fastifyRestrictedFields)
  // Fastify's own handler, given to a route, hands the error on to the instance's: here Fastify's own too.
  swagger2.get('/tasks', { restrictFields: true, errorHandler: swagger2.errorHandler, schema: { response: { 200: record } } }, one)
  swagger2.get('/own', {
    restrictFields: true,
    errorHandler: (error, _request, reply) => { reply.code(400 as 200).send({ oops: error.message }) },
    schema: { response: { 200: record } }
  }, one)
  await swagger2.register(async (child) => {
    child.get('/tasks/:id', { restrictFields: true, errorHandler: child.errorHandler, schema: { response: { 200: record } } }, one)
    child.setErrorHandler((error, _request, reply) => { reply.code(400).send({ message: (error as Error).message }) })
  })
  await app.ready()
  await swagger2.ready()
  const app400 = { description: "Bad Request: a restriction parameter is invalid (the body is what the app's error handler sends)." }
  const document = app.swagger() as Json
  t.strictSame(document.paths['/tasks/{id}'].get.responses['400'], app400)
  t.strictSame(document.paths['/tasks'].get.responses['400'], {
    description: 'A bad page. Also sent when a restriction parameter is invalid.',
    content: { 'application/json': { schema: { description: 'A bad page', type: 'object', properties: { message: { type: 'string' } } } } }
  }, 'a route\'s own 400 is kept as it is: its schema writes what the handler sends')
  t.equal(document.components.schemas.RestrictedFieldsError, undefined, 'no component the app does not send')
  t.strictSame((await app.inject('/tasks/1?only=nope')).json(), { message: "Unknown field 'nope' in query parameter 'only'; allowed fields: id, name" })
  const other = swagger2.swagger() as Json
  t.strictSame(other.paths['/tasks/{id}'].get.responses['400'], app400, 'a handler of its context, set after the route')
  t.strictSame(other.paths['/own'].get.responses['400'], app400, 'a route\'s own errorHandler')
  t.strictSame((await swagger2.inject('/tasks/1?only=nope')).json(), { message: "Unknown field 'nope' in query parameter 'only'; allowed fields: id, name" })
  t.strictSame(other.paths['/tasks'].get.responses['400'].schema, { $ref: '#/definitions/RestrictedFieldsError' }, 'a sibling context keeps Fastify\'s')
  t.equal((await swagger2.inject('/tasks?only=nope')).json().code, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD')
  // Fastify's own handler is told by its name, the same in the oldest Fastify tested.
  for (const own of [false, true]) {
    const older = (fastify58 as unknown as typeof Fastify)()
    t.teardown(() => older.close())
    await older.register(swagger, openapi30)
    await older.register(fastifyRestrictedFields)
    older.get('/tasks/:id', { restrictFields: true, schema: { response: { 200: record } } }, one)
    if (own) older.setErrorHandler((error, _request, reply) => { reply.code(400).send({ message: (error as Error).message }) })
    await older.ready()
    const documented = (older.swagger() as Json).paths['/tasks/{id}'].get.responses['400']
    const plugin400 = {
      description: 'Bad Request: a restriction parameter is invalid (`code` says how).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/RestrictedFieldsError' } } }
    }
    t.strictSame(documented, own ? app400 : plugin400, `Fastify 5.8, ${own ? 'with' : 'without'} a handler of the app's own`)
  }
})
