import { test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import SwaggerParser from '@apidevtools/swagger-parser'
import fastifyRestrictedFields from '../../lib/index.js'
import type { FieldSelection } from '../../lib/index.js'
import { build, parameterChoices } from '../helpers.js'
import { records, userSchema } from '../fixtures.js'

const schema = { response: { 200: { type: 'array', items: userSchema } } }

test('handlers and preHandler hooks see the selection as request.restrictedFields', async (t) => {
  const app = await build(t)
  const seen: Array<[string, boolean, readonly string[]]> = []
  const record = (where: string, selection: FieldSelection): void => { seen.push([where, selection.restricted, selection.fields]) }
  app.addHook('preHandler', async (request) => { record('preHandler', request.restrictedFields) })
  app.get('/users', { restrictFields: true, schema }, async (request) => {
    record('handler', request.restrictedFields)
    return records
  })
  app.get('/plain', async (request) => ({ restricted: request.restrictedFields.restricted, has: request.restrictedFields.has('x'), fields: request.restrictedFields.fields }))
  await app.inject('/users?only=name,profile.city')
  await app.inject('/users')
  await app.inject('/users?only=name,profile.city')
  t.strictSame(seen, [
    ['preHandler', true, ['name', 'profile']],
    ['handler', true, ['name', 'profile']],
    ['preHandler', false, ['id', 'name', 'email', 'role', 'profile', 'tags']],
    ['handler', false, ['id', 'name', 'email', 'role', 'profile', 'tags']],
    ['preHandler', true, ['name', 'profile']],
    ['handler', true, ['name', 'profile']]
  ], 'the view is built once per request and kept with a remembered selection')
  t.strictSame((await app.inject('/plain?only=x')).json(), { restricted: false, has: true, fields: [] }, 'a route without the option restricts nothing')
})

test('the parameters reach the handler as arrays of declared names', async (t) => {
  const app = await build(t, { unknownFields: 'ignore' })
  app.get('/users', { restrictFields: true, schema }, async (request) => {
    t.strictSame({ ...(request.query as object) }, { only: ['profile.city', 'id'], defer: ['name'], page: '2' }, 'plain form first, then bracket form; unknown names dropped')
    return records
  })
  await app.inject('/users?only[]=id,zzz&only=%20profile.city&defer=name&page=2')
})

test('a strict querystring schema accepts every form, and keeps validating the route\'s own parameters', async (t) => {
  const app = await build(t, {}, { ajv: { customOptions: { removeAdditional: false } } })
  app.get('/users', {
    restrictFields: true,
    schema: {
      ...schema,
      querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1 } }, additionalProperties: false }
    }
  }, async () => records)
  for (const query of ['only=id&only=name', 'only=id,name', 'only[]=id&only[]=name', 'only[]=id&only=name&page=2', 'defer=email&only=id,name,email']) {
    t.strictSame([(await app.inject(`/users?${query}`)).body], ['[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}]'], query)
  }
  t.strictSame((await app.inject('/users?only=id&page=0')).json().code, 'FST_ERR_VALIDATION', 'the route\'s own parameter is still validated')
  t.strictSame((await app.inject('/users?only=id&other=1')).json().code, 'FST_ERR_VALIDATION', 'and its additionalProperties: false still holds')
})

test('@fastify/swagger documents only and defer with the allowed names, in a valid OpenAPI document', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields)
  app.get('/users', { restrictFields: true, schema: { ...schema, querystring: { type: 'object', properties: { page: { type: 'integer' } } } } }, async () => records)
  app.get('/plain', { schema }, async () => records)
  await app.ready()
  const document = app.swagger() as any
  await SwaggerParser.validate(structuredClone(document))
  const parameters = document.paths['/users'].get.parameters
  t.strictSame(parameters.map((p: any) => [p.name, p.in]), [['only', 'query'], ['defer', 'query'], ['page', 'query']])
  t.match(parameters[0].schema, { type: 'array', items: { $ref: /^#\/components\/schemas\/Fields-[0-9a-f]{8}$/ } })
  t.strictSame(parameters[1].schema, parameters[0].schema, 'one list for both parameters')
  t.strictSame(
    parameterChoices(document, parameters[0]),
    ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label', '*']
  )
  t.match(parameters[1].description, /^Remove these fields from every returned object/)
  t.equal(document.paths['/plain'].get.parameters, undefined, 'other routes are not touched')
})

test('a bad parameter is answered with its 400 before the handler runs, also when a hook asked for request.restrictedFields first', async (t) => {
  const app = await build(t)
  const calls: string[] = []
  app.get('/users', { restrictFields: true, schema }, async function (this: unknown) {
    calls.push(this === app ? 'handler, bound to the instance' : 'handler, unbound')
    return records
  })
  app.get('/asked', {
    restrictFields: true,
    schema,
    preHandler: async (request) => { calls.push(`preHandler sees ${request.restrictedFields.fields.join(',')}`) }
  }, async () => {
    calls.push('handler')
    return records
  })
  for (const url of ['/users?only=nope', '/asked?only=nope', '/users?defer=nope', '/asked?only=id&only=nope']) {
    const response = await app.inject(url)
    t.equal(response.statusCode, 400, url)
    t.equal(response.json().code, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', url)
  }
  t.strictSame(calls, [], 'neither the handler nor the hook that asked went on')
  t.equal((await app.inject('/users?only=id')).body, '[{"id":1},{"id":2}]')
  t.equal((await app.inject('/asked?only=id')).body, '[{"id":1},{"id":2}]')
  t.strictSame(calls, ['handler, bound to the instance', 'preHandler sees id', 'handler'])
})

test('after a visibility rule fails, an error handler that reads request.restrictedFields gets a coded error, not every field', async (t) => {
  const app = await build(t)
  app.setErrorHandler(async (error: Error, request, reply) => {
    try {
      return await reply.code(503).send({ message: error.message, fields: request.restrictedFields.fields })
    } catch (readError) {
      return await reply.code(503).send({ message: error.message, read: (readError as Error).message })
    }
  })
  app.get('/users', { restrictFields: { hiddenFields: () => { throw new Error('no rule today') } }, schema }, async () => records)
  const response = await app.inject('/users?only=id')
  t.equal(response.statusCode, 503)
  t.strictSame(response.json(), { message: 'no rule today', read: 'Route GET /users: request.restrictedFields was read after its hiddenFields rule failed, so what the request may see is unknown' })
})

test('read before the selection is known, request.restrictedFields never answers every field', async (t) => {
  const app = await build(t)
  const seen: string[] = []
  const see = (where: string, selection: FieldSelection): void => { seen.push(`${where}: ${selection.restricted} ${selection.paths.join(',')}`) }
  const rule = { hiddenFields: () => ['email'] }
  // A route hook before the rule, and an app hook before it, cannot know what the request may see.
  app.get('/ruled', { restrictFields: rule, schema, preHandler: async (request) => { see('preHandler', request.restrictedFields) } }, async () => records)
  app.register(async (scoped) => {
    scoped.addHook('onRequest', async (request) => { see('onRequest', request.restrictedFields) })
    scoped.get('/ruled-early', { restrictFields: rule, schema }, async () => records)
  })
  // Without a rule, the query is what the client sent until validation: a hook that asks has it read, before a querystring schema too.
  const querystring = { type: 'object', properties: { page: { type: 'integer' } } }
  app.get('/early', {
    restrictFields: true,
    schema: { ...schema, querystring },
    onRequest: async (request) => { see('onRequest', request.restrictedFields) },
    preValidation: async (request) => { see('preValidation', request.restrictedFields) }
  }, async (request) => { see('handler', request.restrictedFields); return records })
  app.get('/early-plain', { restrictFields: true, schema, onRequest: async (request) => { see('onRequest', request.restrictedFields) } }, async () => records)
  const notYet = "request.restrictedFields was read before its hiddenFields rule ran, so what the request may see is not known yet; read it in the handler (the rule runs after the route's own preHandler hooks)"
  for (const url of ['/ruled', '/ruled-early']) {
    const response = await app.inject(`${url}?only=name`)
    t.strictSame([response.statusCode, response.json()], [500, {
      statusCode: 500,
      code: 'FST_RESTRICTED_FIELDS_SELECTION_NOT_READ',
      error: 'Internal Server Error',
      message: `Route GET ${url}: ${notYet}`
    }], url)
  }
  t.equal((await app.inject('/early?only=name&page=2')).body, '[{"name":"Ada"},{"name":"Alan"}]')
  t.equal((await app.inject('/early-plain?only=profile.city')).body, '[{"profile":{"city":"London"}},{"profile":null}]')
  const bad = await app.inject('/early?only=nope')
  t.strictSame([bad.statusCode, bad.json().code], [400, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD'], 'a bad parameter read early is its 400')
  t.strictSame(seen, ['onRequest: true name', 'preValidation: true name', 'handler: true name', 'onRequest: true profile,profile.city'])
})
