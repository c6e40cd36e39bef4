/**
 * Issue 50's reproductions of ordinary documents that the last check
 * refused: a hidden field's name that appears as a value (an enum's string, a
 * value's pattern, an example URL, a runtime expression's own word) is no
 * leak, so the caller's document is served, MCP's tools/list answers, and
 * neither names the hidden field.
 */
import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'

type Json = Record<string, any>

const base = { id: { type: 'integer' }, name: { type: 'string' } }
const LIST = { method: 'POST' as const, url: '/mcp', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) }

/** An app whose one restricted route declares `properties` and hides `hidden` from callers without the staff header. */
async function served (
  t: Test,
  properties: Json,
  hidden: string[],
  extra: Json = {}
): Promise<{ document: Json, tools: Json, lines: Json[] }> {
  const lines: Json[] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'staff' ? [] : hidden })
  await app.register(restrictedFieldsMcp, { mode: 'routes' })
  app.get('/users/:id', { restrictFields: true, ...extra, schema: { operationId: 'getUser', response: { 200: { type: 'object', properties } } } }, async () => ({ id: 1 }))
  app.get('/doc', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  const document = await app.inject('/doc')
  const tools = await app.inject(LIST)
  t.equal(document.statusCode, 200, 'the anonymous document is served')
  t.equal(tools.json().error, undefined, 'tools/list answers')
  return { document: document.json(), tools: tools.json().result, lines }
}

/** The properties of the restricted response, as the anonymous caller's document describes them. */
const described = (document: Json): string[] => Object.keys(document.paths['/users/{id}'].get.responses['200'].content['application/json'].schema.properties)

test('a pattern on a visible string says nothing of field names: the anonymous document and tools/list are served (fp-pattern)', async (t) => {
  for (const [field, pattern, hidden] of [['username', '^[a-z0-9_]+$', 'ssn'], ['title', '^.{1,80}$', 'salary'], ['slug', '^[\\w-]+$', 'last_login']]) {
    const { document, tools, lines } = await served(t, { id: { type: 'integer' }, [field]: { type: 'string', pattern }, [hidden]: { type: 'string' } }, [hidden])
    t.strictSame(described(document), ['id', field], `${field} ${pattern}: ${hidden} is not described`)
    t.strictSame(Object.keys(tools.tools[0].outputSchema.properties), ['id', field])
    t.strictSame(lines, [], 'nothing is logged')
  }
})

test('a hidden name as an enum value, a default, an example URL, or a visible map\'s name pattern is no leak (false-positives)', async (t) => {
  const rows: Array<[string, Json, string]> = [
    ['role enum', { role: { type: 'string', enum: ['admin', 'member'] }, admin: { type: 'boolean' } }, 'admin'],
    ['contact_preference enum', { contact_preference: { type: 'string', enum: ['email', 'phone'] }, phone: { type: 'string' } }, 'phone'],
    ['status enum', { status: { type: 'string', enum: ['active', 'deleted'] }, deleted: { type: 'boolean' } }, 'deleted'],
    ['example URL', { avatar: { type: 'string', example: 'https://cdn.example.com/icons/email.png' }, email: { type: 'string' } }, 'email'],
    ['default', { visibility: { type: 'string', default: 'internal' }, internal: { type: 'boolean' } }, 'internal'],
    ['uppercase pattern', { code: { type: 'string', pattern: '^[A-Z]{3}$' }, notes: { type: 'string' } }, 'notes'],
    ['propertyNames pattern', { labels: { type: 'object', propertyNames: { pattern: '^[a-z_]+$' }, additionalProperties: { type: 'string' } }, ssn: { type: 'string' } }, 'ssn']
  ]
  for (const [title, properties, hidden] of rows) {
    const { document } = await served(t, { ...base, ...properties }, [hidden])
    t.strictSame(described(document), Object.keys({ ...base, ...properties }).filter((name) => name !== hidden), `${title}: served without ${hidden}`)
  }
})

test('a hidden body field and a link that reads $response.body#/author_id: the expression\'s own word is no field (fp-body-link)', async (t) => {
  const properties = { id: { type: 'integer' }, author_id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' } }
  const links = { 200: { author: { operationId: 'getUser', parameters: { id: '$response.body#/author_id' } } } }
  const { document } = await served(t, properties, ['body'], { links })
  t.strictSame(described(document), ['id', 'author_id', 'title'])
  t.strictSame(document.paths['/users/{id}'].get.responses['200'].links, { author: { operationId: 'getUser', parameters: { id: '$response.body#/author_id' } } })
})
