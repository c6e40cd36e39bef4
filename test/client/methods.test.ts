// The types test/types/methods.test-d.ts compiles: generated with openapi-typescript and
// restrictedRoutesSource from the document of an app whose routes answer every method, with
// restricted statuses beside the 200, a custom resultsKey and a low maxDepth. This test checks
// that the committed files are what the generators write today (WRITE_GENERATED=1 rewrites them).
import { readFileSync, writeFileSync } from 'node:fs'
import { test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import openapiTS, { astToString } from 'openapi-typescript'
import fastifyRestrictedFields from '../../lib/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

const user = {
  $id: 'user',
  type: 'object',
  required: ['id', 'name', 'email', 'address'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    secret: { type: 'string' },
    address: { type: 'object', required: ['city', 'geo'], properties: { city: { type: 'string' }, geo: { type: 'object', required: ['lat'], properties: { lat: { type: 'number' } } } } }
  }
}
const change = { type: 'object', required: ['id', 'status'], properties: { id: { type: 'integer' }, status: { type: 'string' }, note: { type: 'string' } } }
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }
const created = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, email: { type: 'string' } } }

async function documentOf (): Promise<unknown> {
  const app = Fastify()
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'methods', version: '1' } }, refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) } })
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'name'] }, hiddenFields: (request) => request.headers.authorization === undefined ? ['secret'] : [] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema(user)
  const reply = async (): Promise<unknown> => ({})
  const restricted = { restrictFields: true }
  app.post('/users', { ...restricted, schema: { operationId: 'createUser', body: created, response: { 201: { $ref: 'user#' } } } }, reply)
  app.put('/users/:id', { ...restricted, schema: { operationId: 'replaceUser', params: idParams, body: created, response: { 200: { $ref: 'user#' } } } }, reply)
  app.patch('/users/:id', { ...restricted, schema: { operationId: 'updateUser', params: idParams, response: { 200: { $ref: 'user#' }, 202: change } } }, reply)
  app.delete('/users/:id', { ...restricted, schema: { operationId: 'deleteUser', params: idParams, response: { 200: { $ref: 'user#' }, 204: { type: 'null' } } } }, reply)
  app.get('/users', { restrictFields: { resultsKey: 'items', defaultFields: ['id'] }, schema: { operationId: 'listUsers', response: { 200: { type: 'object', required: ['total', 'items'], properties: { total: { type: 'integer' }, items: { type: 'array', items: { $ref: 'user#' } } } } } } }, reply)
  app.get('/shallow/:id', { restrictFields: { maxDepth: 2 }, schema: { operationId: 'getShallow', params: idParams, response: { 200: { $ref: 'user#' } } } }, reply)
  await app.ready()
  const document = (await app.inject('/documentation/json')).json()
  await app.close()
  return document
}

const generated = (name: string): URL => new URL(`../types/generated/${name}`, import.meta.url)

test('the generated types of a route of each method are what the generators write from its document', async (t) => {
  const document = await documentOf()
  const files = {
    'api.ts': astToString(await openapiTS(JSON.parse(JSON.stringify(document)))),
    'restricted.ts': restrictedRoutesSource(document, { types: './api.js' })
  }
  for (const [name, text] of Object.entries(files)) {
    if (process.env.WRITE_GENERATED === '1') writeFileSync(generated(name), text)
    t.equal(readFileSync(generated(name), 'utf8'), text, `test/types/generated/${name} is up to date`)
  }
  t.match(files['restricted.ts'], /'\/users\/\{id\}': \{\n {4}put: \{[^]*\n {4}delete: \{[^]*\n {4}patch: \{[^]*\n {8}202: \{/, 'PUT, PATCH (with its 202) and DELETE are described')
  t.notMatch(files['restricted.ts'] + files['api.ts'], /secret/, 'the anonymous document names no hidden field')
})
