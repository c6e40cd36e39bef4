/**
 * A `$ref` whose pointer goes inside a schema (`User#/properties/ssn`, which
 * @fastify/swagger writes as `#/components/schemas/User/properties/ssn`)
 * names a property by its segments. A caller's document points such a
 * reference at a component of its own, so that no pointer names a field
 * hidden from the caller, and the component pointed into is kept while
 * anything else refers into it.
 */
import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const STAFF = { authorization: 'staff' }

/** An app whose anonymous callers do not see `ssn`; components named by their `$id`. */
async function pointerApp (
  t: Test,
  version: string,
  declare: (app: FastifyInstance) => void,
  transformObject?: (document: Json) => Json
): Promise<{ app: FastifyInstance, lines: Json[] }> {
  const lines: Json[] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  t.teardown(() => app.close())
  await app.register(swagger, {
    openapi: { openapi: version, info: { title: 'test', version: '1.0.0' } },
    refResolver: { buildLocalReference: (json) => String(json.$id) },
    ...(transformObject === undefined ? {} : { transformObject: ({ openapiObject }: Json) => transformObject(openapiObject) })
  })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : ['ssn'] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.get('/doc', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  declare(app)
  await app.ready()
  return { app, lines }
}

const user = { $id: 'User', type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string', minLength: 9 }, hint: { $ref: '#/properties/ssn' } } }
const schemaOf = (document: Json, path: string): Json => document.paths[path].get.responses['200'].content['application/json'].schema

for (const version of ['3.0.3', '3.1.0']) {
  test(`OpenAPI ${version}: a visible field that points into a hidden property gets that schema as a component of its own`, async (t) => {
    const { app, lines } = await pointerApp(t, version, (app) => {
      app.addSchema(user)
      app.get('/me', { restrictFields: true, schema: { response: { 200: { $ref: 'User#' } } } }, async () => ({ id: 1 }))
      app.get('/parties', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, tax_id: { $ref: 'User#/properties/ssn' } } } } } }, async () => ({ id: 1 }))
      // A route that restricts nothing refers into the component too: it keeps it.
      app.get('/people', { schema: { response: { 200: { type: 'object', properties: { id: { $ref: 'User#/properties/id' } } } } } }, async () => ({ id: 1 }))
    })
    const staff = (await app.inject({ url: '/documentation/json', headers: STAFF })).json()
    t.strictSame(schemaOf(staff, '/parties').properties.tax_id, { $ref: '#/components/schemas/User/properties/ssn' }, 'the complete document is as @fastify/swagger wrote it')
    for (const url of ['/documentation/json', '/doc']) {
      const response = await app.inject(url)
      t.equal(response.statusCode, 200, url)
      const document = response.json()
      const { User, UserPart, UserRestricted, UserVisible, getPartiesRecord, ...others } = document.components.schemas
      t.strictSame(Object.keys(others).filter((name) => !name.startsWith('Fields-')), ['RestrictedFieldsError'])
      t.strictSame(getPartiesRecord, schemaOf(document, '/parties'), 'the complete record of the x-restricted-fields key')
      t.strictSame(UserPart, { type: 'string', minLength: 9 }, 'the schema pointed into, under a name of its own')
      t.strictSame(UserRestricted, { type: 'object', properties: { id: { type: 'integer' }, hint: { $ref: '#/components/schemas/UserPart' } }, description: 'As restricted responses send it: any field may be left out.' })
      t.strictSame(UserVisible.properties, UserRestricted.properties)
      t.strictSame(schemaOf(document, '/me'), { $ref: '#/components/schemas/UserRestricted' })
      t.strictSame(schemaOf(document, '/parties'), { type: 'object', properties: { id: { type: 'integer' }, tax_id: { $ref: '#/components/schemas/UserPart' } } })
      // The route that restricts nothing keeps its pointer, and the component it points into is kept for it.
      t.strictSame(schemaOf(document, '/people'), { type: 'object', properties: { id: { $ref: '#/components/schemas/User/properties/id' } } })
      t.strictSame(User, { type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string', minLength: 9 }, hint: { $ref: '#/components/schemas/UserPart' } } })
    }
    t.strictSame(lines, [])
  })
}

test('a pointer into a response\'s own schema, written by a transform, and a local definition\'s property', async (t) => {
  const pointer = '#/paths/~1accounts/get/responses/200/content/application~1json/schema/properties/ssn'
  const { app, lines } = await pointerApp(t, '3.1.0', (app) => {
    app.get('/accounts', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, ssn: { type: 'string', pattern: '^[0-9]{9}$' }, copy: { type: 'string' } } } } } }, async () => ({ id: 1 }))
    // As Zod 4 and TypeBox write a reused schema: in `$defs`, referred to by pointer, here into a property.
    app.get('/owners', { restrictFields: true, schema: { response: { 200: { type: 'object', $defs: { Person: { type: 'object', properties: { ssn: { type: 'string', format: 'ssn' }, name: { type: 'string' } } } }, properties: { person: { $ref: '#/$defs/Person' }, ssn: { $ref: '#/$defs/Person/properties/ssn' }, backup: { $ref: '#/$defs/Person/properties/ssn' } } } } } }, async () => ({}))
  }, (document) => {
    document.paths['/accounts'].get.responses['200'].content['application/json'].schema.properties.copy = { $ref: pointer }
    return document
  })
  const staff = (await app.inject({ url: '/documentation/json', headers: STAFF })).json()
  t.strictSame(schemaOf(staff, '/accounts').properties.copy, { $ref: pointer })
  const response = await app.inject('/documentation/json')
  t.equal(response.statusCode, 200)
  const document = response.json()
  t.strictSame(schemaOf(document, '/accounts'), { type: 'object', properties: { id: { type: 'integer' }, copy: { $ref: '#/components/schemas/ResponsePart' } } })
  // `person.ssn` is not hidden: Person keeps it, and the pointer into it goes the same way.
  t.strictSame(schemaOf(document, '/owners'), { type: 'object', properties: { person: { $ref: '#/components/schemas/Person' }, backup: { $ref: '#/components/schemas/PersonPart' } } })
  const { RestrictedFieldsError, ...schemas } = document.components.schemas
  t.ok(RestrictedFieldsError)
  t.strictSame(schemas, {
    Person: { type: 'object', properties: { ssn: { type: 'string', format: 'ssn' }, name: { type: 'string' } } },
    ResponsePart: { type: 'string', pattern: '^[0-9]{9}$' },
    PersonPart: { type: 'string', format: 'ssn' },
    getAccountsRecord: { type: 'object', properties: { id: { type: 'integer' }, copy: { $ref: '#/components/schemas/ResponsePart' } } },
    getOwnersRecord: { type: 'object', properties: { person: { $ref: '#/components/schemas/Person' }, backup: { $ref: '#/components/schemas/PersonPart' } } },
    ...Object.fromEntries(['/accounts', '/owners'].map((path) => [document.paths[path].get.parameters[0].schema.items.$ref.split('/').at(-1), {
      type: 'string', enum: parameterChoices(document, document.paths[path].get.parameters[0])
    }]))
  })
  t.strictSame(['/accounts', '/owners'].map((path) => parameterChoices(document, document.paths[path].get.parameters[0])), [['id', 'copy', '*'], ['person', 'person.ssn', 'person.name', 'backup', '*']])
  t.strictSame(lines, [])
})
