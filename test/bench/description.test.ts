import { test } from 'tap'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import {
  byVariants, declareRoutes, declaredPathsOf, describe, fastifyPath, generate, jsonSchemaOf, routeSchemaOf, seededRandom, selectionOf
} from '../../bench/description.js'
import type { DescribedRoute } from '../../bench/description.js'

test('an OpenAPI schema becomes JSON Schema: component references as name#, nullable as a type with null, OpenAPI-only keywords and unknown formats left out', async (t) => {
  const cases: Array<[unknown, unknown]> = [
    [{ $ref: '#/components/schemas/simple-user' }, { $ref: 'simple-user#' }],
    [{ $ref: '#/components/schemas/user', nullable: true }, { $ref: 'user#' }],
    [{ type: 'string', nullable: true, format: 'date-time' }, { type: ['string', 'null'], format: 'date-time' }],
    [{ type: 'integer', format: 'int64', example: 1, readOnly: true, 'x-github': {} }, { type: 'integer' }],
    [{ type: 'string', enum: ['a', 'b'], nullable: true }, { type: ['string', 'null'], enum: ['a', 'b', null] }],
    [{ enum: ['a', null], nullable: true }, { enum: ['a', null] }],
    [{ type: 'object', properties: { example: { type: 'string' }, 'x-y': { $ref: '#/components/schemas/a' } }, discriminator: { propertyName: 'k' } },
      { type: 'object', properties: { example: { type: 'string' }, 'x-y': { $ref: 'a#' } } }],
    [{ oneOf: [{ type: 'string' }, { $ref: '#/components/responses/r' }] }, { oneOf: [{ type: 'string' }, { $ref: '#/components/responses/r' }] }],
    [[1, null], [1, null]]
  ]
  for (const [openapi, json] of cases) t.strictSame(jsonSchemaOf(openapi), json, JSON.stringify(openapi))
})

test('a value is generated from a schema: every kind, format and composition, required and optional fields, arrays by depth', async (t) => {
  const shared = new Map([['pet', { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }]])
  const first = (): number => 0
  const middle = (): number => 0.5
  const last = (): number => 0.99
  const cases: Array<[string, unknown, () => number, unknown]> = [
    ['formats', { type: 'object', properties: Object.fromEntries(['date-time', 'date', 'time', 'uri', 'uri-reference', 'email', 'uuid', 'hostname', 'ipv4', 'ipv6', 'other'].map((format) => [format, { type: 'string', format }])) }, first, {
      'date-time': '2024-01-01T00:00:00.000Z',
      date: '2024-01-01',
      time: '00:00:00Z',
      uri: 'https://api.example.com/items/0',
      'uri-reference': '/items/0',
      email: 'user0@example.com',
      uuid: '00000000-0000-4000-8000-000000000000',
      hostname: 'host0.example.com',
      ipv4: '10.0.0.0',
      ipv6: '::1',
      other: 'text 0'
    }],
    ['kinds', { properties: { i: { type: 'integer' }, n: { type: 'number' }, b: { type: ['null', 'boolean'] }, z: { type: 'null' }, s: {}, c: { const: 7 }, e: { enum: [null, 'x', 'y'] }, none: { enum: [null] } } }, middle,
      { i: 500, n: 62.5, b: true, z: null, s: 'text 500', c: 7, e: 'y', none: null }],
    ['optional fields left out', { type: 'object', required: ['a'], properties: { a: { type: 'integer' }, b: { type: 'integer' } } }, last, { a: 990 }],
    ['a required property the schema does not declare', { type: 'object', required: ['tags'], properties: { tag: { type: 'string' } } }, last, { tags: 'text 990' }],
    ['records at the top, nested arrays of one or two, a $ref', { type: 'array', items: { properties: { pets: { items: { $ref: 'pet#' } } } } }, first, [{ pets: [{ id: 0 }] }, { pets: [{ id: 0 }] }, { pets: [{ id: 0 }] }]],
    ['a choice, and a choice beside properties', { properties: { a: { oneOf: [{ type: 'integer' }, { type: 'string' }] }, b: { anyOf: [{ properties: { x: { const: 1 } } }], properties: { y: { const: 2 } } } } }, first, { a: 0, b: { x: 1, y: 2 } }],
    ['allOf, with and without properties beside it', { properties: { a: { allOf: [{ properties: { x: { const: 1 } } }, { $ref: 'pet#' }] }, b: { allOf: [{ const: 3 }], properties: { y: { const: 2 } } }, c: { allOf: [{ properties: { x: { const: 1 } } }, { const: null }] } } }, first, { a: { x: 1, id: 0 }, b: 3, c: { x: 1 } }],
    ['nothing optional past six levels', { properties: { a: { properties: { b: { properties: { c: { properties: { d: { properties: { e: { properties: { f: { properties: { g: { type: 'integer' }, h: { items: { type: 'integer' } } }, required: ['h'] } } } } } } } } } } } } }, first,
      { a: { b: { c: { d: { e: { f: { h: [] } } } } } } }],
    ['a missing reference', { $ref: 'missing#' }, first, null]
  ]
  for (const [title, schema, random, expected] of cases) t.strictSame(generate(schema, shared, random), expected, title)
  t.strictSame(generate({ type: 'array', items: { type: 'integer' } }, shared, first, 1), [0], 'the number of records is a setting')
  t.strictSame(generate({ type: 'array' }, shared, first, 1), ['text 0'], 'items of no schema are strings')
  t.strictSame(generate({ type: 'object' }, shared, first), {}, 'an object of no properties is empty')
})

test('the same seed draws the same numbers; selections draw distinct paths, as many as there are', async (t) => {
  const draws = (seed: number): number[] => { const random = seededRandom(seed); return [random(), random(), random()] }
  t.strictSame(draws(41), draws(41))
  t.not(draws(41)[0], draws(42)[0])
  t.ok(draws(7).every((value) => value >= 0 && value < 1))
  const picked = selectionOf(['a', 'b', 'c'], seededRandom(1), 2)
  t.equal(new Set(picked).size, 2)
  t.strictSame(selectionOf(['a', 'b'], seededRandom(1), 5).sort(), ['a', 'b'])
})

test('routes: Fastify\'s path form, the most variant-heavy first, and the declared paths of their records', async (t) => {
  t.equal(fastifyPath('/repos/{owner}/{repo}/issues'), '/repos/:owner/:repo/issues')
  const route = (path: string, widestUnion: number, unionWidths: number, schema: Record<string, unknown> = {}): DescribedRoute =>
    ({ path, url: path, schema, widestUnion, unionWidths })
  t.strictSame(byVariants([route('/a', 2, 2), route('/b', 20, 20), route('/c', 2, 5), route('/d', 2, 2)]).map((r) => r.path), ['/b', '/c', '/a', '/d'])
  t.strictSame(declaredPathsOf(route('/u', 0, 0, { type: 'array', items: { $ref: 'user#' } }), { user: { $id: 'user', type: 'object', properties: { id: { type: 'integer' }, org: { type: 'object', properties: { login: { type: 'string' } } } } } }), ['id', 'org', 'org.login'])
  t.strictSame(declaredPathsOf(route('/n', 0, 0, { type: 'string' }), {}), [], 'no object fields, no paths')
  t.throws(() => declaredPathsOf(route('/m', 0, 0, { $ref: 'missing#' }), {}), { message: /^\/m: unresolved / })
  const loop = { $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } }
  t.throws(() => declaredPathsOf(route('/x', 0, 0, loop), {}), { message: /^\/x: .* \$ref: its references loop/ })
})

test('the description: GitHub\'s REST API, its shared schemas, its GET routes with a JSON 200 response, and its widest unions', async (t) => {
  const description = describe()
  t.match(description, { title: 'GitHub v3 REST API' })
  t.equal(description.shared.length, 582)
  t.equal(description.routes.length, 420)
  t.equal(description.skipped.length, 24)
  const [widest] = byVariants(description.routes)
  t.strictSame([widest.path, widest.url, widest.widestUnion], ['/repos/{owner}/{repo}/issues/{issue_number}/timeline', '/repos/x/x/issues/x/timeline', 22])
})

test('a description that writes every schema inline, as Mailchimp\'s does, has no shared schemas', async (t) => {
  const openapi = { info: { title: 'inline', version: '1' }, paths: { '/a': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } } } } } }
  const { shared, routes } = describe(openapi)
  t.strictSame(shared, [])
  t.strictSame(routes.map((route) => [route.path, route.schema]), [['/a', { type: 'object', properties: { id: { type: 'integer' } } }]])
})

test('a route is declared with its operation\'s id, summary, description, tags, parameters (through their $refs) and 200 response', async (t) => {
  const response = { type: 'object', properties: { id: { type: 'integer' } } }
  const openapi = {
    components: { parameters: { owner: { name: 'owner', in: 'path', required: true, schema: { type: 'string' }, description: 'The owner' } } },
    paths: {
      '/repos/{owner}': { get: { operationId: 'repos/get', summary: 'Get', description: 'A repository', tags: ['repos'], parameters: [{ $ref: '#/components/parameters/owner' }, { name: 'page', in: 'query', schema: { type: 'integer' } }, { name: 'q', in: 'query', required: true }] } },
      '/bare': { get: {} }
    }
  }
  t.strictSame(routeSchemaOf(openapi, { path: '/repos/{owner}', url: '/repos/x', schema: response, widestUnion: 0, unionWidths: 0 }), {
    operationId: 'repos/get',
    summary: 'Get',
    description: 'A repository',
    tags: ['repos'],
    params: { type: 'object', properties: { owner: { type: 'string', description: 'The owner' } }, required: ['owner'] },
    querystring: { type: 'object', properties: { page: { type: 'integer' }, q: {} }, required: ['q'] },
    response: { 200: response }
  })
  t.strictSame(routeSchemaOf(openapi, { path: '/bare', url: '/bare', schema: response, widestUnion: 0, unionWidths: 0 }), {
    operationId: undefined, summary: undefined, description: undefined, tags: undefined, params: { type: 'object', properties: {}, required: [] }, querystring: { type: 'object', properties: {}, required: [] }, response: { 200: response }
  })
  t.strictSame(routeSchemaOf(openapi, { path: '/repos/{owner}', url: '/repos/x', schema: response, widestUnion: 0, unionWidths: 0 }, false), {
    operationId: 'repos/get',
    params: { type: 'object', properties: { owner: { type: 'string' } }, required: ['owner'] },
    querystring: { type: 'object', properties: { page: { type: 'integer' }, q: {} }, required: ['q'] },
    response: { 200: response }
  }, 'without words: no summary, description, tags, nor a parameter\'s description')
})

test('a description\'s routes are declared restricted, or plain where the plugin refuses one, each answering what it is given', async (t) => {
  const json = (schema: unknown): unknown => ({ responses: { 200: { content: { 'application/json': { schema } } } } })
  const openapi = {
    info: { title: 'two', version: '1' },
    components: { schemas: { user: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } },
    paths: { '/users/{id}': { get: json({ $ref: '#/components/schemas/user' }) }, '/motto': { get: json({ type: 'string' }) } }
  }
  const description = describe(openapi)
  const app = Fastify()
  t.teardown(async () => await app.close())
  await app.register(fastifyRestrictedFields)
  const answered: string[] = []
  const restricted = declareRoutes(app, openapi, description, (route, index) => {
    answered.push(`${index} ${route.path}`)
    return route.path === '/motto' ? 'ok' : { id: 1, name: 'Ada' }
  })
  t.equal(restricted, 1)
  t.strictSame(answered, ['0 /users/{id}', '1 /motto'])
  const user = await app.inject('/users/1?only=name')
  t.equal(user.statusCode, 200)
  t.strictSame(user.json(), { name: 'Ada' })
  const motto = await app.inject('/motto?only=name')
  t.equal(motto.statusCode, 200)
  t.equal(motto.body, 'ok')
})

test('allOf members that each declare the items of one array field make items holding both members\' fields', async (t) => {
  const item = (name: string, type: string) => ({ type: 'object', required: [name], properties: { [name]: { type } } })
  const schema = { allOf: [{ type: 'object', required: ['o'], properties: { o: { type: 'array', items: item('k', 'string') } } }, { type: 'object', required: ['o'], properties: { o: { type: 'array', items: item('i', 'integer') } } }] }
  const value = generate(schema, new Map(), seededRandom(1)) as { o: Array<Record<string, unknown>> }
  t.ok(value.o.length > 0)
  t.strictSame(value.o.map((each) => Object.keys(each).sort()), value.o.map(() => ['i', 'k']))
})
