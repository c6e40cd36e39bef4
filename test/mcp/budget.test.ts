import { test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { BYTES_PER_TOKEN, estimatedTokens, heaviestFields, oversizedResult } from '../../lib/mcp/budget.js'
import type { RouteFieldsDescription } from '../../lib/openapi/route-fields.js'

const described = (records: 'object' | 'array' | 'envelope', extra: Partial<RouteFieldsDescription> = {}): RouteFieldsDescription => ({
  statuses: { 200: { record: { $ref: '#/components/schemas/r' }, records, ...records === 'envelope' ? { key: 'results' } : {} } },
  only: 'only',
  defer: 'defer',
  sets: {},
  maxDepth: 8,
  ...extra
})

test('a reply\'s tokens are estimated from its bytes, erring high', async (t) => {
  t.equal(BYTES_PER_TOKEN, 3)
  t.equal(estimatedTokens(''), 0)
  t.equal(estimatedTokens('abcd'), 2)
  t.equal(estimatedTokens('é'), 1, 'two bytes')
})

test('the heaviest fields are the records\' own, wherever the records sit, with their share', async (t) => {
  const issue = (body: string): unknown => ({ id: 1, body, title: 'x' })
  const cases: Array<[string, unknown, RouteFieldsDescription | undefined, unknown]> = [
    ['an array of records', [issue('a'.repeat(80)), issue('b'.repeat(80))], described('array'), [{ name: 'body', percent: 84 }, { name: 'title', percent: 10 }, { name: 'id', percent: 6 }]],
    ['an envelope\'s records', { count: 2, results: [issue('a'.repeat(80))] }, described('envelope'), [{ name: 'body', percent: 84 }, { name: 'title', percent: 10 }, { name: 'id', percent: 6 }]],
    ['one record, described by no route', issue('a'), undefined, [{ name: 'title', percent: 41 }, { name: 'body', percent: 37 }, { name: 'id', percent: 22 }]],
    ['records that are not objects', [1, 'two'], described('array'), []],
    ['at most five', { a: 1, b: 1, c: 1, d: 1, e: 1, f: 11 }, described('object'), [{ name: 'f', percent: 19 }, { name: 'a', percent: 16 }, { name: 'b', percent: 16 }, { name: 'c', percent: 16 }, { name: 'd', percent: 16 }]]
  ]
  for (const [title, reply, fields, expected] of cases) t.strictSame(heaviestFields(reply, fields), expected, title)
})

test('a reply past the budget becomes a coded message: its size, its heaviest fields, the sets and defaults, the arguments that page', async (t) => {
  const body = JSON.stringify([{ id: 1, body: 'a'.repeat(100) }])
  t.equal(oversizedResult(body, 1000, undefined, []), null, 'a reply that fits')
  const full = oversizedResult(body, 10, described('array', { sets: { card: ['id', 'title'] }, defaultFields: ['id'] }), ['page', 'per_page', 'state', 'limit'])
  t.strictSame({ code: full?.code, statusCode: full?.statusCode, message: full?.message }, {
    code: 'FST_RESTRICTED_FIELDS_RESULT_TOO_LARGE',
    statusCode: 400,
    message: 'The reply is about 40 tokens (120 bytes), more than the 10 one result may hold. Its heaviest fields: body (95%), id (5%). ' +
      'Ask for the fields you need with `only`, or leave the heaviest out with `defer` (["body"]); field sets: @card (id, title). Without `only` the route sends id. Or ask for less at a time: page, per_page, limit.'
  })
  t.equal(oversizedResult('x'.repeat(40), 10, described('object'), [])?.message, 'The reply is about 14 tokens (40 bytes), more than the 10 one result may hold. Ask for the fields you need with `only`.', 'text, and a route without sets or defaults')
})

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
async function call (app: FastifyInstance, name: string, args: unknown): Promise<any> {
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } })
  return response.json().result
}

test('through the endpoint, in both modes, a result past maxResultTokens is the message, naming only what the caller may see', async (t) => {
  const issue = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' }, secret_notes: { type: 'string' } } }
  for (const mode of ['routes', 'discovery'] as const) {
    const app = Fastify()
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
    await app.register(fastifyRestrictedFields, { hiddenFields: () => ['secret_notes'] })
    await app.register(restrictedFieldsMcp, { mode, maxResultTokens: 200 })
    app.get('/issues', {
      restrictFields: { fieldSets: { card: ['id', 'title', 'secret_notes'] } },
      schema: { operationId: 'listIssues', querystring: { type: 'object', properties: { per_page: { type: 'integer' } } }, response: { 200: { type: 'array', items: issue } } }
    }, async (request) => Array.from({ length: (request.query as { per_page?: number }).per_page ?? 10 }, (_, id) => ({ id, title: `t${id}`, body: 'b'.repeat(100), secret_notes: 's'.repeat(500) })))
    await app.ready()
    t.teardown(() => app.close())
    const run = async (args: unknown): Promise<any> => mode === 'routes' ? await call(app, 'listIssues', args) : await call(app, 'call_operation', { operation: 'listIssues', arguments: args })
    const refused = await run({})
    t.strictSame(refused, {
      content: [{
        type: 'text',
        text: JSON.stringify({
          statusCode: 400,
          code: 'FST_RESTRICTED_FIELDS_RESULT_TOO_LARGE',
          error: 'Bad Request',
          message: 'The reply is about 441 tokens (1321 bytes), more than the 200 one result may hold. Its heaviest fields: body (86%), title (9%), id (5%). ' +
            'Ask for the fields you need with `only`, or leave the heaviest out with `defer` (["body"]); field sets: @card (id, title). Or ask for less at a time: per_page.'
        })
      }],
      isError: true
    }, mode)
    t.strictSame((await run({ only: ['id'], per_page: 2 })).structuredContent, { result: [{ id: 0 }, { id: 1 }] }, `${mode}: a smaller call is answered`)
  }
})

test('maxResultTokens is checked at registration', async (t) => {
  for (const value of [0, -1, 1.5, '10']) {
    const app = Fastify()
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
    await app.register(fastifyRestrictedFields)
    await t.rejects(async () => await app.register(restrictedFieldsMcp, { maxResultTokens: value as number }), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION', message: `The maxResultTokens option should be a positive integer, instead got ${String(value)}` })
  }
})

test('when the caller\'s document cannot be made, the message goes without the route\'s field sets', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  // A rule that fails when it is asked for the caller's document (from the endpoint), not on the route's own request.
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => {
      if (request.url === '/mcp') throw new Error('the rule failed')
      return []
    }
  })
  await app.register(restrictedFieldsMcp, { mode: 'routes', maxResultTokens: 10 })
  app.get('/notes', { restrictFields: { fieldSets: { card: ['id'] } }, schema: { operationId: 'listNotes', response: { 200: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, text: { type: 'string' } } } } } } },
    async () => [{ id: 1, text: 'x'.repeat(60) }])
  await app.ready()
  t.teardown(() => app.close())
  t.strictSame(JSON.parse((await call(app, 'listNotes', {})).content[0].text).message, 'The reply is about 27 tokens (80 bytes), more than the 10 one result may hold. Its heaviest fields: text (92%), id (8%).')
})

test('a route that did not opt in has no field sets to offer: the message says its size and weights', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { mode: 'routes', maxResultTokens: 10, include: () => true })
  app.get('/opted', { restrictFields: true, schema: { operationId: 'opted', response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async () => ({ id: 1 }))
  app.get('/log', { schema: { operationId: 'readLog', querystring: { type: 'object', properties: { limit: { type: 'integer' } } } } }, async () => ({ lines: 'x'.repeat(60) }))
  await app.ready()
  t.teardown(() => app.close())
  t.strictSame(JSON.parse((await call(app, 'readLog', {})).content[0].text).message, 'The reply is about 24 tokens (72 bytes), more than the 10 one result may hold. Its heaviest fields: lines (100%). Or ask for less at a time: limit.')
})
