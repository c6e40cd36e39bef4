import { test } from 'tap'
import type { Test } from 'tap'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { parse } from 'yaml'
import fastifyRestrictedFields from '../../lib/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

type Json = Record<string, any>

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
const id = { type: 'integer' }
const text = { type: 'string' }

// Variants told apart by a tag that anonymous callers may not see.
const person = { $id: 'person', type: 'object', required: ['secret_kind'], properties: { id, secret_kind: { type: 'string', enum: ['person'] }, ssn: text } }
const org = { $id: 'org', type: 'object', required: ['secret_kind'], properties: { id, secret_kind: { type: 'string', enum: ['org'] }, vat: text } }
const parties = [{ id: 1, secret_kind: 'person', ssn: 'S' }, { id: 2, secret_kind: 'org', vat: 'V' }]
// Variants told apart by a tag everyone sees, each with a field anonymous callers may not see.
const cat = { $id: 'cat', type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['cat'] }, lives: id, chip: text } }
const dog = { $id: 'dog', type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['dog'] }, breed: text, chip: text } }
const tagged = (one: string, other: string, propertyName: string): Json => ({
  oneOf: [{ $ref: `${one}#` }, { $ref: `${other}#` }], discriminator: { propertyName, mapping: { [one]: `#/components/schemas/${one}`, [other]: other } }
})
// Conditions: one that names the hidden field, one whose branches do.
const conditional = {
  type: 'object',
  required: ['id', 'ssn'],
  properties: { id, ssn: text },
  dependentRequired: { ssn: ['id'], id: ['ssn', 'id'] },
  dependentSchemas: { ssn: { required: ['id'] }, id: { properties: { ssn: { minLength: 1 } } } },
  allOf: [
    { if: { type: 'object', properties: { ssn: { const: 'x' } }, required: ['ssn'] }, then: { required: ['id'] }, else: { required: ['id'] } },
    { if: { type: 'object', properties: { id: { const: 1 } } }, then: { required: ['ssn'] }, else: { not: { required: ['ssn'] } } }
  ]
}
const named = { type: 'object', properties: { id, ssn: text }, propertyNames: { enum: ['id', 'ssn'] } }
// `tax_id` is hidden in the owner alone: the record's own `tax_id` is another field.
const owner = { type: 'object', properties: { city: text, tax_id: text } }
const valued = {
  type: 'object',
  properties: { id, tax_id: text, owner },
  enum: [{ id: 1, tax_id: 'T1', owner: { city: 'Oslo', tax_id: 'T2' } }],
  example: { id: 1, tax_id: 'T1', owner: { city: 'Oslo', tax_id: 'T2' } }
}

const HIDDEN = ['secret_kind', 'ssn', 'chip', 'owner.tax_id']

/** An app whose rule hides HIDDEN from anyone but staff, with its documents served by swagger-ui and by app routes. */
async function documentedApp (t: Test) {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, {
    openapi: { openapi: '3.1.0', info: { title: 'test', version: '1.0.0' } },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}` }
  })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : HIDDEN })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  for (const schema of [person, org, cat, dog]) app.addSchema(schema)
  const route = (url: string, operationId: string, schema: unknown, reply: unknown): void => {
    app.get(url, { restrictFields: true, schema: { operationId, response: { 200: schema } } }, async () => reply)
  }
  route('/parties', 'getParties', { type: 'array', items: tagged('person', 'org', 'secret_kind') }, parties)
  route('/pets', 'getPets', { type: 'array', items: tagged('cat', 'dog', 'kind') }, [{ kind: 'cat', lives: 9, chip: 'C' }])
  route('/conditional', 'getConditional', conditional, { id: 1, ssn: 'S' })
  route('/named', 'getNamed', named, { id: 1, ssn: 'S' })
  route('/valued', 'getValued', valued, valued.example)
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  app.get('/docs.yaml', async (request) => app.restrictedFieldsDocument(request, { yaml: true }))
  await app.ready()
  return app
}

/** The caller's document, from each place it is served: Swagger UI's routes and restrictedFieldsDocument, as JSON and as YAML. */
async function documents (
  app: Awaited<ReturnType<typeof documentedApp>>,
  headers: Record<string, string> = {}
): Promise<Array<[string, Json]>> {
  const served: Array<[string, Json]> = []
  for (const url of ['/documentation/json', '/docs']) served.push([url, (await app.inject({ url, headers })).json()])
  for (const url of ['/documentation/yaml', '/docs.yaml']) served.push([url, parse((await app.inject({ url, headers })).body)])
  return served
}

/** A component, by its `$ref`. */
function component (document: Json, reference: Json): Json {
  return document.components.schemas[reference.$ref.slice('#/components/schemas/'.length)]
}

const recordOf = (document: Json, path: string): Json => component(document, document.paths[path].get['x-restricted-fields'].statuses['200'].record)
const responseOf = (document: Json, path: string): Json => document.paths[path].get.responses['200'].content['application/json'].schema

test('variants told apart by a hidden tag are described without it: the tag leaves the complete record, its variants become a plain union', async (t) => {
  const app = await documentedApp(t)
  t.equal((await app.inject('/parties')).body, '[{"id":1},{"id":2,"vat":"V"}]')
  for (const [url, document] of await documents(app)) {
    // Without the tag, no field of a variant is required: its complete form is the relaxed one.
    t.strictSame(document.components.schemas.getPartiesRecord, { anyOf: [ref('personRestricted'), ref('orgRestricted')] }, `${url}: the complete record`)
    t.strictSame(document.components.schemas.getPartiesRecord.anyOf.map((variant: Json) => component(document, variant).properties), [{ id }, { id, vat: text }], `${url}: its variants`)
    t.strictSame(responseOf(document, '/parties').items, { anyOf: [ref('personRestricted'), ref('orgRestricted')] }, `${url}: the response`)
  }
  for (const [url, document] of await documents(app, { authorization: 'staff' })) {
    t.strictSame(document.components.schemas.getPartiesRecord, {
      oneOf: [ref('person'), ref('org')],
      discriminator: { propertyName: 'secret_kind', mapping: { person: '#/components/schemas/person', org: 'org' } }
    }, `${url}: staff keep the tag`)
  }
})

test('a visible tag keeps its discriminator, whose mapping names the variants as the caller is described them', async (t) => {
  const app = await documentedApp(t)
  for (const [url, document] of await documents(app)) {
    const record = recordOf(document, '/pets')
    t.strictSame(record.discriminator.propertyName, 'kind', url)
    t.strictSame(Object.values(record.discriminator.mapping), record.oneOf.map((variant: Json) => variant.$ref), `${url}: the mapping refers to the variants of the record`)
    // Each variant is its relaxed form, which the response sends, with its required tag.
    const variants = record.oneOf.map((variant: Json) => component(document, variant))
    t.strictSame(variants.map(({ required, allOf }: Json) => ({ required, allOf })), responseOf(document, '/pets').items.anyOf.map((relaxed: Json) => ({ required: ['kind'], allOf: [relaxed] })), `${url}: over the relaxed variants`)
    t.strictSame(variants.map((variant: Json) => component(document, variant.allOf[0]).properties), [{ kind: cat.properties.kind, lives: id }, { kind: dog.properties.kind, breed: text }], `${url}: without the hidden field`)
    t.strictSame(responseOf(document, '/pets').items.anyOf.map((variant: Json) => Object.keys(component(document, variant).properties)), [['kind', 'lives'], ['kind', 'breed']], `${url}: the response`)
  }
  for (const [url, document] of await documents(app, { authorization: 'staff' })) {
    t.strictSame(recordOf(document, '/pets'), { oneOf: [ref('cat'), ref('dog')], discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/cat', dog: 'dog' } } }, `${url}: staff`)
  }
})

test('dependencies and conditions lose the hidden field; a condition that names it goes with its branches, a negation that names it goes', async (t) => {
  const app = await documentedApp(t)
  for (const [url, document] of await documents(app)) {
    t.strictSame(recordOf(document, '/conditional'), {
      type: 'object',
      required: ['id'],
      properties: { id },
      dependentRequired: { id: ['id'] },
      dependentSchemas: { id: { properties: {} } },
      allOf: [{}, { if: { type: 'object', properties: { id: { enum: [1] } } }, then: {}, else: {} }]
    }, `${url}: the complete record`)
    t.strictSame(responseOf(document, '/conditional'), { type: 'object', properties: { id }, allOf: [{}, {}] }, `${url}: the response`)
  }
  for (const [url, document] of await documents(app, { authorization: 'staff' })) {
    const declared = JSON.parse(JSON.stringify(conditional).replaceAll('"const":"x"', '"enum":["x"]').replaceAll('"const":1', '"enum":[1]'))
    t.strictSame(recordOf(document, '/conditional'), declared, `${url}: staff get the record as declared`)
  }
})

test('propertyNames that name a hidden field go; values lose the hidden paths, and a visible field of the same name elsewhere stays', async (t) => {
  const app = await documentedApp(t)
  t.equal((await app.inject('/valued')).body, '{"id":1,"tax_id":"T1","owner":{"city":"Oslo"}}')
  const visible = { id: 1, tax_id: 'T1', owner: { city: 'Oslo' } }
  for (const [url, document] of await documents(app)) {
    t.strictSame(recordOf(document, '/named'), { type: 'object', properties: { id } }, `${url}: propertyNames`)
    t.strictSame(recordOf(document, '/valued'), { type: 'object', properties: { id, tax_id: text, owner: { type: 'object', properties: { city: text } } }, enum: [visible], example: visible }, `${url}: values`)
    t.strictSame(responseOf(document, '/valued'), recordOf(document, '/valued'), `${url}: the response`)
  }
  for (const [url, document] of await documents(app, { authorization: 'staff' })) {
    t.strictSame([recordOf(document, '/named'), recordOf(document, '/valued')], [named, valued], `${url}: staff`)
  }
})

test('no form of the anonymous document, nor the client generated from it, names a hidden field; staff documents name each', async (t) => {
  const app = await documentedApp(t)
  for (const [url, document] of await documents(app)) {
    const served = JSON.stringify(document)
    t.notMatch(served, /secret_kind|ssn|chip|T2/, url)
    t.match(served, /tax_id/, `${url}: the visible tax_id`)
    t.notMatch(restrictedRoutesSource(document), /secret_kind|ssn|chip/, `${url}: the generated client`)
  }
  for (const [url, document] of await documents(app, { authorization: 'staff' })) t.match(JSON.stringify(document), /(?=.*secret_kind)(?=.*ssn)(?=.*chip)(?=.*T2)/, url)
})

test('a document that would still name a hidden field is refused with a coded 500, and the log says which route and where, never the document', async (t) => {
  const lines: Json[] = []
  const stream = new Writable({ write (chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done() } })
  const app = Fastify({ logger: { level: 'error', stream } })
  t.teardown(() => app.close())
  // A shared example that the response refers to: the plugin does not copy shared examples, so the last check finds it.
  await app.register(swagger, {
    openapi: { info: { title: 'Parties API', version: '1.0.0' }, components: { examples: { party: { value: { id: 1, ssn: 'S' } } } } },
    transformObject: (documentObject) => {
      const { openapiObject } = documentObject as { openapiObject: Json }
      openapiObject.paths['/parties'].get.responses['200'].content['application/json'].examples = { shared: { $ref: '#/components/examples/party' } }
      return openapiObject
    }
  })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : ['ssn'] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.get('/parties', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { type: 'object', properties: { id, ssn: text } } } } } }, async () => [{ id: 1, ssn: 'S' }])
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  const refused = {
    statusCode: 500,
    code: 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK',
    error: 'Internal Server Error',
    message: "The caller's OpenAPI document would describe a field hidden from this caller, so it is refused (the server's log says where)"
  }
  const place = { level: 50, route: 'GET /parties', pointer: '/paths/~1parties/get/responses/200/content/application~1json/examples/shared/value', reason: 'hidden name', position: 'instance key', msg: "A caller's OpenAPI document could not be shown free of a route's hidden fields; it was refused" }
  for (const url of ['/documentation/json', '/documentation/yaml', '/docs']) {
    lines.length = 0
    const response = await app.inject(url)
    t.strictSame([response.statusCode, response.json()], [500, refused], url)
    const placed = lines.filter((line) => 'pointer' in line)
    t.strictSame(placed.map(({ level, route, pointer, reason, position, msg }) => ({ level, route, pointer, reason, position, msg })), [place], `${url}: one line names the route and the place`)
    t.notMatch(JSON.stringify(lines), /Parties API|"paths"|"components"/, `${url}: no line holds the document`)
    t.strictSame(lines.filter((line) => line.err !== undefined).map((line) => line.err.message), [refused.message], `${url}: the error logged names nothing hidden`)
  }
  const staff = await app.inject({ url: '/docs', headers: { authorization: 'staff' } })
  t.strictSame([staff.statusCode, staff.json().info.title], [200, 'Parties API'], 'a caller from whom nothing is hidden gets the document')
  t.equal((await app.inject('/parties')).body, '[{"id":1}]', 'the route itself serves as before')
})
