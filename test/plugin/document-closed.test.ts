import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import type { SwaggerOptions } from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'

type Json = Record<string, any>

const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, secret: { type: 'string' } } }
const STAFF = { 'x-staff': 'yes' }
const REFUSED = {
  statusCode: 500,
  code: 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK',
  error: 'Internal Server Error',
  message: "The caller's OpenAPI document would describe a field hidden from this caller, so it is refused (the server's log says where)"
}

/**
 * An app with one restricted route that hides `secret` from callers without the staff header,
 * documented through `swagger` options; its log lines.
 */
async function documentedApp (
  t: Test,
  swaggerOptions: Partial<SwaggerOptions>,
  schema: Json = {}
): Promise<{ app: ReturnType<typeof Fastify>, lines: Json[] }> {
  const lines: Json[] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'test', version: '1.0.0' } }, ...swaggerOptions } as SwaggerOptions)
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-staff'] === 'yes' ? [] : ['secret'] })
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: user }, ...schema } }, async () => ({ id: 1, name: 'Ada', secret: 's' }))
  app.get('/docs', async (request) => await app.restrictedFieldsDocument(request))
  await app.ready()
  return { app, lines }
}

/** Each caller's document: the anonymous one refused with the coded 500 (and why, in the log), staff's served. */
async function refusedToAnonymous (t: Test, app: ReturnType<typeof Fastify>, lines: Json[], reason: Json): Promise<Json> {
  const anonymous = await app.inject('/docs')
  t.strictSame([anonymous.statusCode, anonymous.json()], [500, REFUSED], 'the anonymous caller\'s document is refused')
  t.strictSame(lines.filter((line) => 'reason' in line).map(({ route, pointer, reason }) => ({ route, pointer, reason })), [reason], 'the log says why')
  const staff = await app.inject({ url: '/docs', headers: STAFF })
  t.equal(staff.statusCode, 200, 'staff, from whom nothing is hidden, get theirs')
  return staff.json()
}

test('a transform that moves a restricted route\'s operation without its key refuses the caller\'s document, never serving it unchecked', async (t) => {
  const { app, lines } = await documentedApp(t, {
    transform: ({ schema, url }) => {
      const { 'x-restricted-fields': key, ...rest } = (schema ?? {}) as Json
      return { schema: rest as typeof schema, url: `/v2${url}` }
    }
  })
  const staff = await refusedToAnonymous(t, app, lines, { route: 'GET /users/:id', pointer: '', reason: 'operation not found' })
  t.strictSame(Object.keys(staff.paths), ['/v2/users/{id}', '/v2/docs'])
  t.match(JSON.stringify(app.swagger()), /"secret"/, 'the complete document is made as before')
})

test('a transform that hides a restricted route refuses the caller\'s document; the route\'s own hide does not', async (t) => {
  const hidden = await documentedApp(t, { transform: ({ schema, url }) => ({ schema: { ...schema, hide: true } as typeof schema, url }) })
  await refusedToAnonymous(t, hidden.app, hidden.lines, { route: 'GET /users/:id', pointer: '', reason: 'operation not found' })
  const own = await documentedApp(t, {}, { hide: true })
  const anonymous = await own.app.inject('/docs')
  t.strictSame([anonymous.statusCode, Object.keys(anonymous.json().paths)], [200, ['/docs']], 'a route hidden by its own schema is left out, as @fastify/swagger does')
})

test('a transform that moves a restricted route with its key keeps it relaxed and checked', async (t) => {
  const { app } = await documentedApp(t, { transform: ({ schema, url }) => ({ schema, url: `/v2${url}` }) })
  const anonymous = await app.inject('/docs')
  t.equal(anonymous.statusCode, 200)
  t.strictSame(Object.keys(anonymous.json().paths), ['/v2/users/{id}', '/v2/docs'])
  t.notMatch(anonymous.body, /secret/)
})

test('a reference the document does not hold, at a level of a restricted route that hides something, refuses the document; one at a visible field does not', async (t) => {
  const external = { $ref: 'https://example.com/user.json' }
  const { app, lines } = await documentedApp(t, {
    transformObject: (object) => {
      const document = (object as Json).openapiObject
      document.paths['/users/{id}'].get.responses[200].content['application/json'].schema.allOf = [external]
      return document
    }
  })
  await refusedToAnonymous(t, app, lines, {
    route: 'GET /users/:id',
    pointer: '/paths/~1users~1{id}/get/responses/200/content/application~1json/schema/allOf/0/$ref',
    reason: 'unchecked reference'
  })
  // Nothing is hidden below `friend`: what another document says of it names no hidden path.
  const visible = await documentedApp(t, {
    transformObject: (object) => {
      const document = (object as Json).openapiObject
      document.paths['/users/{id}'].get.responses[200].content['application/json'].schema.properties.friend = external
      return document
    }
  })
  const anonymous = await visible.app.inject('/docs')
  t.equal(anonymous.statusCode, 200)
  t.strictSame(anonymous.json().paths['/users/{id}'].get.responses[200].content['application/json'].schema.properties.friend, external)
})
