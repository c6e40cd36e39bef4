// The types test/types/methods.test-d.ts compiles: generated with openapi-typescript and
// restrictedRoutesSource from the document of an app whose routes answer every method, with
// restricted statuses beside the 200, a custom resultsKey and a low maxDepth. This test checks
// that the committed files are what the generators write today (WRITE_GENERATED=1 rewrites them).
import { readFileSync, writeFileSync } from 'node:fs'
import { test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import createClient from 'openapi-fetch'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import openapiTS, { astToString } from 'openapi-typescript'
import fastifyRestrictedFields from '../../lib/index.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'
import { restrictedClient } from '../../lib/client/index.js'
import type { paths } from '../types/generated/items/api.js'
import type { RestrictedRoutes } from '../types/generated/items/restricted.js'

type Json = Record<string, unknown>

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

const item = {
  $id: 'item',
  type: 'object',
  required: ['id', 'name', 'labels', 'owner'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    labels: { type: 'array', items: { type: 'string' } },
    secret: { type: 'string' },
    owner: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } }
  }
}
const note = { type: 'object', required: ['id', 'text'], properties: { id: { type: 'integer' }, text: { type: 'string' } } }
const newItem = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } } }

/**
 * An app as a new user writes one: restricted routes whose calls carry array literals of their own
 * (a body's list, an array body, an array query parameter), beside routes that did not opt in.
 */
async function itemsApp (): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'items', version: '1' } }, refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === undefined ? ['secret'] : [] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema(item)
  const stored = (name: string, labels: string[] = []): Json => ({ id: 1, name, labels, secret: 's', owner: { id: 7, name: 'Ann' } })
  app.post<{ Body: { name: string, labels?: string[] } }>('/items', { restrictFields: true, schema: { operationId: 'createItem', body: newItem, response: { 201: { $ref: 'item#' } } } },
    async (request, reply) => await reply.code(201).send(stored(request.body.name, request.body.labels)))
  app.post<{ Body: Array<{ name: string }> }>('/items/batch', { restrictFields: true, schema: { operationId: 'createItems', body: { type: 'array', items: newItem }, response: { 200: { type: 'array', items: { $ref: 'item#' } } } } },
    async (request) => request.body.map(({ name }) => stored(name)))
  app.get<{ Querystring: { tag?: string[] } }>('/items', { restrictFields: true, schema: { operationId: 'listItems', querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } } } }, response: { 200: { type: 'array', items: { $ref: 'item#' } } } } },
    async (request) => [stored('Ada', request.query.tag)])
  app.get<{ Params: { id: number } }>('/notes/:id', { schema: { operationId: 'getNote', params: idParams, response: { 200: note } } }, async (request) => ({ id: request.params.id, text: 'hello' }))
  app.post<{ Body: { text: string } }>('/notes', { schema: { operationId: 'createNote', body: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } }, response: { 201: note, 400: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } } } },
    async (request, reply) => await reply.code(201).send({ id: 2, text: request.body.text }))
  return app
}

const issue = {
  $id: 'issue',
  type: 'object',
  required: ['id', 'number', 'title', 'state', 'labels', 'user'],
  properties: {
    id: { type: 'integer' },
    number: { type: 'integer' },
    title: { type: 'string' },
    body: { type: 'string' },
    state: { type: 'string', enum: ['open', 'closed'] },
    labels: { type: 'array', items: { type: 'string', enum: ['bug', 'feature', 'docs'] } },
    secret: { type: 'string' },
    user: { type: 'object', required: ['id', 'login'], properties: { id: { type: 'integer' }, login: { type: 'string' } } }
  }
}
const label = { type: 'string', enum: ['bug', 'feature', 'docs'] }
const issueQuery = {
  type: 'object',
  properties: {
    state: { type: 'string', enum: ['open', 'closed', 'all'] },
    sort: { type: 'string', enum: ['created', 'updated', 'comments'] },
    direction: { type: 'string', enum: ['asc', 'desc'] },
    per_page: { type: 'integer' },
    pinned: { type: 'boolean' },
    labels: { type: 'array', items: label }
  }
}
const issueBody = { type: 'object', required: ['title'], properties: { title: { type: 'string' }, state: { type: 'string', enum: ['open', 'closed'] }, labels: { type: 'array', items: label }, priority: { type: 'integer' }, locked: { type: 'boolean' } } }
const repoParams = { type: 'object', required: ['owner'], properties: { owner: { type: 'string' } } }
const issueParams = { type: 'object', required: ['owner', 'number'], properties: { owner: { type: 'string' }, number: { type: 'integer' } } }

/**
 * An app with GitHub's kind of parameters: enum query parameters beside numbers, booleans and lists of enums;
 * enum path parameters; bodies with enum fields; on every method.
 */
async function issuesApp (): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'issues', version: '1' } }, refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) } })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === undefined ? ['secret'] : [] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema(issue)
  const stored = (query: Json = {}): Json => ({ id: 1, number: 7, title: `${String(query.state)} ${String(query.sort)}`, state: 'open', labels: query.labels ?? [], secret: 's', user: { id: 2, login: 'ada' } })
  const restricted = { restrictFields: true }
  app.get<{ Querystring: Json }>('/repos/:owner/issues', { ...restricted, schema: { operationId: 'listIssues', params: repoParams, querystring: issueQuery, response: { 200: { type: 'array', items: { $ref: 'issue#' } } } } },
    async (request) => [stored(request.query)])
  app.get('/repos/:owner/labels/:label/issues', { ...restricted, schema: { operationId: 'listLabelIssues', params: { type: 'object', required: ['owner', 'label'], properties: { owner: { type: 'string' }, label } }, querystring: issueQuery, response: { 200: { type: 'array', items: { $ref: 'issue#' } } } } },
    async () => [stored()])
  app.post('/repos/:owner/issues', { ...restricted, schema: { operationId: 'createIssue', params: repoParams, querystring: { type: 'object', properties: { notify: { type: 'string', enum: ['all', 'none'] } } }, body: issueBody, response: { 201: { $ref: 'issue#' } } } },
    async (request, reply) => await reply.code(201).send(stored()))
  app.put('/repos/:owner/issues/:number', { ...restricted, schema: { operationId: 'replaceIssue', params: issueParams, querystring: { type: 'object', properties: { mode: { type: 'string', enum: ['replace', 'merge'] } } }, body: issueBody, response: { 200: { $ref: 'issue#' } } } },
    async () => stored())
  app.patch('/repos/:owner/issues/:number', { ...restricted, schema: { operationId: 'updateIssue', params: issueParams, body: { type: 'object', properties: { state: { type: 'string', enum: ['open', 'closed'] }, state_reason: { type: 'string', enum: ['completed', 'not_planned', 'reopened'] } } }, response: { 200: { $ref: 'issue#' }, 202: { type: 'object', required: ['id', 'state'], properties: { id: { type: 'integer' }, state: { type: 'string', enum: ['open', 'closed'] } } } } } },
    async () => stored())
  app.delete('/repos/:owner/issues/:number', { ...restricted, schema: { operationId: 'deleteIssue', params: issueParams, querystring: { type: 'object', properties: { reason: { type: 'string', enum: ['completed', 'not_planned'] } } }, response: { 200: { $ref: 'issue#' } } } },
    async () => stored())
  return app
}

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

test('the generated types of restricted routes with array literals of their own, beside routes that did not opt in, are what the generators write', async (t) => {
  const app = await itemsApp()
  const document = (await app.inject('/documentation/json')).json()
  await app.close()
  const files = {
    'items/api.ts': astToString(await openapiTS(JSON.parse(JSON.stringify(document)))),
    'items/restricted.ts': restrictedRoutesSource(document, { types: './api.js' })
  }
  for (const [name, text] of Object.entries(files)) {
    if (process.env.WRITE_GENERATED === '1') writeFileSync(generated(name), text)
    t.equal(readFileSync(generated(name), 'utf8'), text, `test/types/generated/${name} is up to date`)
  }
  t.notMatch(files['items/restricted.ts'] + files['items/api.ts'], /secret/, 'the anonymous document names no hidden field')
})

test('the generated types of routes with enum, number, boolean and list parameters, enum path parameters and bodies with enum fields are what the generators write', async (t) => {
  const app = await issuesApp()
  const document = (await app.inject('/documentation/json')).json()
  await app.close()
  const files = {
    'issues/api.ts': astToString(await openapiTS(JSON.parse(JSON.stringify(document)))),
    'issues/restricted.ts': restrictedRoutesSource(document, { types: './api.js' })
  }
  for (const [name, text] of Object.entries(files)) {
    if (process.env.WRITE_GENERATED === '1') writeFileSync(generated(name), text)
    t.equal(readFileSync(generated(name), 'utf8'), text, `test/types/generated/${name} is up to date`)
  }
  t.notMatch(files['issues/restricted.ts'] + files['issues/api.ts'], /secret/, 'the anonymous document names no hidden field')
})

test('one restricted client calls the routes that did not opt in as documented, and the restricted ones with their selection, through openapi-fetch', async (t) => {
  const app = await itemsApp()
  t.teardown(() => app.close())
  const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }) }))
  const note = await api.POST('/notes', { body: { text: 'hi' } })
  t.strictSame([note.response.status, note.data], [201, { id: 2, text: 'hi' }], 'a POST to a route that did not opt in')
  const read = await api.GET('/notes/{id}', { params: { path: { id: 3 } } })
  t.strictSame(read.data, { id: 3, text: 'hello' }, 'a GET with a path parameter')
  const created = await api.POST('/items', { body: { name: 'Ada', labels: ['x'] }, params: { query: { only: ['id', 'labels'] } } })
  t.strictSame([created.response.status, created.data], [201, { id: 1, labels: ['x'] }], 'a restricted POST, with a list in its body')
  const listed = await api.GET('/items', { params: { query: { tag: ['new'], only: ['labels'] } } })
  t.strictSame(listed.data, [{ labels: ['new'] }], 'a restricted GET, with a list parameter of its own')
  t.equal(new URL(listed.response.url).search, '?tag=new&only=labels', 'both lists sent as openapi-fetch sends them')
})
