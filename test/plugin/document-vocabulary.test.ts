import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { Type } from '@fastify/type-provider-typebox'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

type Json = Record<string, any>

const text = { type: 'string' }
const id = { type: 'integer' }

// A schema reused through local `$defs`, as Zod 4 and TypeBox write it.
const inner = z.object({ b: z.string(), secret: z.string() })
const zodDefs = z.toJSONSchema(z.object({ id: z.int(), a: inner, c: inner }), { reused: 'ref', target: 'draft-2020-12' }) as Json
const typeboxInner = Type.Object({ b: Type.String(), secret: Type.String() }, { $id: 'Inner' })
const typeboxDefs = Type.Object({ id: Type.Integer(), a: Type.Ref('Inner') }, { $defs: { Inner: typeboxInner } })
const typeboxPointer = Type.Object({ id: Type.Integer(), a: Type.Ref('#/$defs/Inner') }, { $defs: { Inner: Type.Object({ b: Type.String(), secret: Type.String() }) } })

const ROUTES: Record<string, { schema: Json, reply: Json, links?: Json }> = {
  '/defs': {
    schema: { type: 'object', properties: { id, a: { $ref: '#/$defs/inner' } }, $defs: { inner: { type: 'object', properties: { b: text, secret: text } } } },
    reply: { id: 1, a: { b: 'B', secret: 'S' } }
  },
  '/definitions': {
    schema: { type: 'object', properties: { id, a: { $ref: '#/definitions/inner' } }, definitions: { inner: { type: 'object', properties: { b: text, secret: text } } } },
    reply: { id: 1, a: { b: 'B', secret: 'S' } }
  },
  '/zod': { schema: zodDefs, reply: { id: 1, a: { b: 'B', secret: 'S' }, c: { b: 'B', secret: 'S' } } },
  '/typebox-pointer': { schema: typeboxPointer, reply: { id: 1, a: { b: 'B', secret: 'S' } } },
  '/links': {
    schema: { type: 'object', properties: { id, secret: text } },
    reply: { id: 1, secret: 'S' },
    links: {
      200: {
        next: { operationId: 'getLinks', parameters: { ref: '$response.body#/secret', id: '$response.body#/id' } },
        body: { operationId: 'getLinks', requestBody: { query: 'id={$response.body#/secret}' } },
        self: { operationId: 'getLinks', parameters: { id: '$response.body#/id' }, requestBody: '$response.body' }
      }
    }
  },
  '/names-not': { schema: { type: 'object', properties: { id, secret: text }, propertyNames: { not: { const: 'secret' } } }, reply: { id: 1 } },
  '/names-any': { schema: { type: 'object', properties: { id, secret: text }, propertyNames: { anyOf: [{ const: 'id' }, { const: 'secret' }] } }, reply: { id: 1 } },
  '/names-ref': { schema: { type: 'object', properties: { id, secret: text }, propertyNames: { $ref: 'FieldNames#' } }, reply: { id: 1 } },
  '/patterned': {
    schema: { type: 'object', properties: { id, data: { type: 'object', patternProperties: { '^item': { type: 'object', properties: { b: text, secret: text } } } } } },
    reply: { id: 1, data: { item1: { b: 'B', secret: 'S' } } }
  }
}

const HIDDEN = ['secret', 'a.secret', 'c.secret', 'data.item1.secret']

async function vocabularyApp (t: Test, version: string, routes = ROUTES, hidden = HIDDEN) {
  const app = Fastify()
  t.teardown(() => app.close())
  const info = { title: 'test', version: '1.0.0' }
  await app.register(swagger, version === '2.0' ? { swagger: { info } } : { openapi: { openapi: version, info } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : hidden })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema({ $id: 'FieldNames', type: 'string', enum: ['id', 'secret'] })
  for (const [url, { schema, reply, links }] of Object.entries(routes)) {
    // Swagger 2.0 has no links.
    const linked = links === undefined || version === '2.0' ? {} : { links }
    const routeSchema = { operationId: operationIdOf(url), response: { 200: schema } }
    app.get(url, { restrictFields: true, schema: routeSchema, ...linked }, async () => reply)
  }
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  return app
}

const operationIdOf = (url: string): string => 'get' + url.slice(1).split('-').map((word) => word[0].toUpperCase() + word.slice(1)).join('')

/** The caller's document from Swagger UI's route and from restrictedFieldsDocument. */
async function documents (
  app: Awaited<ReturnType<typeof vocabularyApp>>,
  headers: Record<string, string> = {}
): Promise<Array<[string, Json]>> {
  const served: Array<[string, Json]> = []
  for (const url of ['/documentation/json', '/docs']) {
    const response = await app.inject({ url, headers })
    served.push([url, response.statusCode === 200 ? response.json() : { refused: response.json() }])
  }
  return served
}

/** The schema a `$ref` names in the document, or the schema itself. */
function resolved (document: Json, schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema
  return schema.$ref.split('/').slice(1).reduce((value: Json | undefined, token: string) => value?.[token], document) ?? {}
}

function responseOf (document: Json, url: string): Json {
  const response = document.paths[url].get.responses['200']
  return response.schema ?? response.content['application/json'].schema
}

for (const version of ['3.1.0', '3.0.3', '2.0']) {
  test(`${version}: no hidden name reaches the anonymous document, nor the client generated from it, through local $defs, links, propertyNames or patternProperties`, async (t) => {
    const app = await vocabularyApp(t, version)
    t.equal((await app.inject('/zod')).body, '{"id":1,"a":{"b":"B"},"c":{"b":"B"}}', 'the route sends no hidden field')
    for (const [url, document] of await documents(app)) {
      t.notMatch(JSON.stringify(document), /secret/, url)
      // The client is generated from OpenAPI 3 documents.
      if (version !== '2.0') t.notMatch(restrictedRoutesSource(document), /secret/, `${url}: the generated client`)
      for (const path of ['/defs', '/zod', '/typebox-pointer']) {
        const schema = responseOf(document, path)
        t.strictSame([schema.$defs, resolved(document, schema.properties.a).properties], [undefined, { b: { type: 'string' } }], `${url} ${path}: the definition, lifted and relaxed`)
      }
      for (const path of ['/names-not', '/names-any', '/names-ref']) t.strictSame(responseOf(document, path), { type: 'object', properties: { id } }, `${url} ${path}`)
      // @fastify/swagger writes a pattern's schema as additionalProperties in OpenAPI 3, and a string in Swagger 2.0.
      t.strictSame(responseOf(document, '/patterned').properties.data.additionalProperties, version === '2.0' ? text : { type: 'object', properties: { b: text } }, `${url}: the pattern's schema`)
      if (version !== '2.0') t.strictSame(Object.keys(document.paths['/links'].get.responses['200'].links), ['self'], `${url}: the links that read no hidden path`)
    }
    for (const [url, document] of await documents(app, { authorization: 'staff' })) {
      const served = JSON.stringify(document)
      t.match(served, /"secret"/, `${url}: staff`)
      if (version !== '2.0') t.match(served, /\$response\.body#\/secret/, `${url}: staff get every link`)
    }
  })
}

// TypeBox's Type.Ref by $id to a schema of the route's own $defs: @fastify/swagger writes it as a reference to a
// component the document does not hold, which no check can follow, so the anonymous document fails closed.
test('a reference the document does not hold (TypeBox Type.Ref by $id into $defs) refuses the anonymous document, and staff get theirs', async (t) => {
  const app = await vocabularyApp(t, '3.1.0', { '/typebox': { schema: typeboxDefs, reply: { id: 1, a: { b: 'B', secret: 'S' } } } }, ['a.secret'])
  t.equal((await app.inject('/typebox')).body, '{"id":1,"a":{"b":"B"}}', 'the route sends no hidden field')
  for (const [url, document] of await documents(app)) t.equal(document.refused?.code, 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK', url)
  for (const [url, document] of await documents(app, { authorization: 'staff' })) t.equal(document.openapi, '3.1.0', `${url}: staff`)
})
