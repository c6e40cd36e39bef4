import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { parse } from 'yaml'
import fastifyRestrictedFields from '../../lib/index.js'

type Json = Record<string, any>

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

// Variants told apart by a tag that anonymous callers may not see.
const person = { $id: 'person', type: 'object', required: ['secret_kind'], properties: { id: { type: 'integer' }, secret_kind: { type: 'string', enum: ['person'] }, ssn: { type: 'string' } } }
const org = { $id: 'org', type: 'object', required: ['secret_kind'], properties: { id: { type: 'integer' }, secret_kind: { type: 'string', enum: ['org'] }, vat: { type: 'string' } } }
const parties = [{ id: 1, secret_kind: 'person', ssn: 'S' }, { id: 2, secret_kind: 'org', vat: 'V' }]

/** An app whose rule hides `secret_kind` and `ssn` from anyone but staff, with its documents served by swagger-ui and by an app route. */
async function documentedApp (t: Test) {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, {
    openapi: { info: { title: 'test', version: '1.0.0' } },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}` }
  })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : ['secret_kind', 'ssn'] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema(person)
  app.addSchema(org)
  const tagged = { oneOf: [{ $ref: 'person#' }, { $ref: 'org#' }], discriminator: { propertyName: 'secret_kind', mapping: { person: '#/components/schemas/person', org: '#/components/schemas/org' } } }
  app.get('/parties', { restrictFields: true, schema: { operationId: 'getParties', response: { 200: { type: 'array', items: tagged } } } }, async () => parties)
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  app.get('/docs.yaml', async (request) => app.restrictedFieldsDocument(request, { yaml: true }))
  await app.ready()
  return app
}

/** The caller's document, from each place it is served. */
async function documents (app: Awaited<ReturnType<typeof documentedApp>>, headers: Record<string, string> = {}): Promise<Record<string, Json>> {
  const served: Record<string, Json> = {}
  for (const url of ['/documentation/json', '/docs']) served[url] = (await app.inject({ url, headers })).json()
  for (const url of ['/documentation/yaml', '/docs.yaml']) served[url] = parse((await app.inject({ url, headers })).body)
  return served
}

test('variants told apart by a hidden tag are described without it: the tag leaves the complete record, its variants become a plain union', async (t) => {
  const app = await documentedApp(t)
  t.equal((await app.inject('/parties')).body, '[{"id":1},{"id":2,"vat":"V"}]')
  for (const [url, document] of Object.entries(await documents(app))) {
    t.notMatch(JSON.stringify(document), /secret_kind|ssn/, `${url}: no hidden name anywhere`)
    t.same(document.components.schemas.getPartiesRecord, { anyOf: [ref('personRestricted2'), ref('orgRestricted2')] }, `${url}: the complete record`)
    t.same(document.paths['/parties'].get.responses['200'].content['application/json'].schema.items, { anyOf: [ref('personRestricted'), ref('orgRestricted')] }, `${url}: the response`)
  }
  for (const [url, document] of Object.entries(await documents(app, { authorization: 'staff' }))) {
    t.same(document.components.schemas.getPartiesRecord, {
      oneOf: [ref('person'), ref('org')],
      discriminator: { propertyName: 'secret_kind', mapping: { person: '#/components/schemas/person', org: '#/components/schemas/org' } }
    }, `${url}: staff keep the tag`)
  }
})
