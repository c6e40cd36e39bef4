import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'

const text = { type: 'string' }
const id = { type: 'integer' }
const inner = z.object({ b: z.string(), secret: z.string() })

// One route for each way a hidden name reached the tools: local $defs (Zod 4's and JSON Schema's),
// propertyNames of any shape, a pattern's schema.
const ROUTES: Record<string, unknown> = {
  '/zod': z.toJSONSchema(z.object({ id: z.int(), a: inner, c: inner }), { reused: 'ref', target: 'draft-2020-12' }),
  '/defs': { type: 'object', properties: { id, a: { $ref: '#/$defs/inner' } }, $defs: { inner: { type: 'object', required: ['secret'], properties: { b: text, secret: text } } } },
  '/names-not': { type: 'object', properties: { id, secret: text }, propertyNames: { not: { const: 'secret' } } },
  '/names-any': { type: 'object', properties: { id, secret: text }, propertyNames: { anyOf: [{ const: 'id' }, { const: 'secret' }] } },
  '/names-ref': { type: 'object', properties: { id, secret: text }, propertyNames: { $ref: 'FieldNames#' } },
  '/patterned': { type: 'object', properties: { id, data: { type: 'object', patternProperties: { '^item': { type: 'object', properties: { b: text, secret: text } } } } } }
}
const HIDDEN = ['secret', 'a.secret', 'c.secret', 'data.item1.secret']

/**
 * The tools the app's endpoint lists to a caller sending `headers`, as JSON
 * text: through the SDK 1.x client on 2025-11-25, then the SDK v2 client on
 * 2026-07-28, which must list the same.
 */
function toolsListed (t: Test, app: FastifyInstance): (headers: Record<string, string>) => Promise<string> {
  return async function listed (headers) {
    const url = new URL('/mcp', app.listeningOrigin)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }))
    t.teardown(() => client.close())
    const modern = new ModernClient({ name: 'test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await modern.connect(new ModernTransport(url, { requestInit: { headers } }))
    t.teardown(() => modern.close())
    const listed = JSON.stringify((await client.listTools()).tools)
    t.equal(JSON.stringify((await modern.listTools()).tools), listed, 'the same tools under 2026-07-28')
    return listed
  }
}

test('the anonymous tools/list names no hidden field through local $defs, propertyNames or a pattern\'s schema; staff\'s does', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : HIDDEN })
  await app.register(restrictedFieldsMcp)
  app.addSchema({ $id: 'FieldNames', type: 'string', enum: ['id', 'secret'] })
  for (const [url, schema] of Object.entries(ROUTES)) {
    app.get(url, { restrictFields: true, schema: { operationId: 'get_' + url.slice(1).replace('-', '_'), response: { 200: schema } } }, async () => ({ id: 1 }))
  }
  await app.listen({ port: 0, host: '127.0.0.1' })
  const listed = toolsListed(t, app)
  const anonymous = await listed({})
  t.match(anonymous, /get_zod.*get_defs.*get_names_not.*get_names_any.*get_names_ref.*get_patterned/, 'every route is a tool')
  t.notMatch(anonymous, /secret/)
  t.match(await listed({ authorization: 'staff' }), /secret/, 'staff')
})

test('with global, a route that sends the record without saying restrictFields is a tool whose anonymous listing names no hidden field', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { global: true, hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : ['author_id'] })
  await app.register(restrictedFieldsMcp)
  app.addSchema({ $id: 'task', type: 'object', properties: { id, name: text, author_id: id }, required: ['id', 'name', 'author_id'] })
  const task = { response: { 200: { $ref: 'task#' } } }
  app.get('/tasks/:id', { schema: { operationId: 'get_task', ...task } }, async () => ({ id: 1, name: 'a', author_id: 2 }))
  app.post('/tasks/:id/assign', { schema: { operationId: 'assign_task', ...task } }, async () => ({ id: 1, name: 'a', author_id: 2 }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const listed = toolsListed(t, app)
  const anonymous = await listed({})
  t.match(anonymous, /get_task/, 'the GET route is a tool')
  t.notMatch(anonymous, /assign_task/, 'other methods are never tools')
  t.notMatch(anonymous, /author_id/)
  t.match(await listed({ authorization: 'staff' }), /author_id/, 'staff')
})
