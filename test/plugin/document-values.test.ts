import { test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'

const profile = {
  type: 'object',
  properties: { city: { type: 'string' }, phone: { type: 'string', example: '555-0100' } },
  example: { city: 'Oslo', phone: '555-0100' },
  default: { city: 'Nowhere', phone: '555-0199' }
}
const user = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    last_login: { type: 'string', example: '2026-11-01', default: 'never' },
    meta: { type: 'object', additionalProperties: true, example: { plan: 'pro', secret: 's3' }, default: { secret: 'none' } },
    profile
  }
}
const userExample = { id: 1, last_login: '2026-11-01', meta: { plan: 'pro', secret: 's3' }, profile: { city: 'Oslo', phone: '555-0100' } }
const visibleExample = { id: 1, meta: { plan: 'pro' }, profile: { city: 'Oslo' } }
const hidden = ['last_login', 'profile.phone', 'meta.secret']

const pageExamples = [{ count: 1, results: [userExample] }, { count: 0 }]

async function documented (version: 'openapi' | 'swagger') {
  // The body's validator is strict: OpenAPI's `example` is a keyword it must know.
  const app = Fastify({ ajv: { customOptions: { keywords: ['example'] } } })
  await app.register(swagger, version === 'swagger'
    ? {
        swagger: { info: { title: 'test', version: '1.0.0' } },
        // Swagger 2.0 keeps examples on the response, by mime type: here an app's transform puts one there.
        transformObject: (documentObject) => {
          const { swaggerObject } = documentObject as { swaggerObject: Record<string, any> }
          swaggerObject.paths['/one'].get.responses['200'].examples = { 'application/json': userExample }
          swaggerObject.paths['/pages'].get.responses['200'].examples = { 'application/json': pageExamples[0] }
          return swaggerObject
        }
      }
    : { openapi: { info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-staff'] === 'yes' ? [] : hidden })
  app.get('/one', { restrictFields: true, schema: { response: { 200: { ...user, examples: [userExample] } } } }, async () => userExample)
  app.get('/two', { restrictFields: true, schema: { response: { 200: { type: 'array', items: user, examples: [[userExample], []] } } } }, async () => [userExample])
  app.get('/page', {
    restrictFields: true,
    schema: { response: { 200: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: user } }, example: { count: 1, results: [userExample] } } } }
  }, async () => ({ count: 1, results: [userExample] }))
  app.get('/pages', {
    restrictFields: true,
    schema: { response: { 200: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: user } }, examples: pageExamples } } }
  }, async () => ({ count: 1, results: [userExample] }))
  app.post('/users', { restrictFields: true, schema: { body: { ...user, examples: [userExample] }, response: { 201: user } } }, async () => userExample)
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  return app
}

test('a caller\'s OpenAPI 3 document shows examples and defaults without its hidden paths, at any depth, on the schema and the media type', async (t) => {
  const app = await documented('openapi')
  t.teardown(() => app.close())
  const document = (await app.inject('/docs')).json()
  t.notMatch(JSON.stringify(document.paths['/one'].get.responses), /555-0100|555-0199|2026-11-01|s3|secret|never/, 'no hidden name or value in the restricted responses')
  const one = document.paths['/one'].get.responses['200'].content['application/json']
  t.strictSame(one.example ?? one.examples?.example1?.value, visibleExample, 'the media type\'s example')
  t.strictSame(one.schema.properties.profile, { type: 'object', properties: { city: { type: 'string' } }, example: { city: 'Oslo' }, default: { city: 'Nowhere' } })
  t.strictSame(one.schema.properties.meta, { type: 'object', additionalProperties: true, example: { plan: 'pro' }, default: {} })
  const two = document.paths['/two'].get.responses['200'].content['application/json']
  t.strictSame([two.examples.example1.value, two.examples.example2.value], [[visibleExample], []], 'each of the media type\'s examples')
  const page = document.paths['/page'].get.responses['200'].content['application/json']
  t.strictSame(page.schema.example, { count: 1, results: [visibleExample] }, 'an envelope\'s example keeps its own keys')
  const pages = document.paths['/pages'].get.responses['200'].content['application/json']
  t.strictSame([pages.examples.example1.value, pages.examples.example2.value], [{ count: 1, results: [visibleExample] }, { count: 0 }], 'an envelope\'s examples on the media type')
  const body = document.paths['/users'].post.requestBody.content['application/json']
  t.strictSame(body.examples?.example1?.value ?? body.example, userExample, 'request bodies keep their full schema and examples')
  const staff = (await app.inject({ url: '/docs', headers: { 'x-staff': 'yes' } })).json()
  t.match(JSON.stringify(staff.paths['/one'].get.responses), /555-0100/, 'a caller who sees everything gets every example')
})

test('a caller\'s Swagger 2.0 document shows the response\'s examples without its hidden paths', async (t) => {
  const app = await documented('swagger')
  t.teardown(() => app.close())
  const document = (await app.inject('/docs')).json()
  const responses = JSON.stringify(['/one', '/two', '/page', '/pages'].map((path) => document.paths[path].get.responses))
  t.notMatch(responses, /555-0100|555-0199|2026-11-01|s3|secret|never/)
  t.strictSame(document.paths['/one'].get.responses['200'].examples, { 'application/json': visibleExample })
  t.strictSame(document.paths['/pages'].get.responses['200'].examples, { 'application/json': { count: 1, results: [visibleExample] } })
  t.strictSame(document.paths['/page'].get.responses['200'].schema.example, { count: 1, results: [visibleExample] })
})
