import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'

const warning = 'fastify-restricted-fields: no route has opted in with restrictFields, so no response will be restricted. ' +
  'The plugin sees only routes declared after it has loaded: await app.register(fastifyRestrictedFields) before declaring routes ' +
  '(in CommonJS, declare them in app.register(fastifyRestrictedFields).after(() => { ... }))'

const schema = { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } }

/** A Fastify instance whose warnings and errors are kept, one parsed pino line each. */
function appWithLog (): { app: FastifyInstance, lines: Array<{ level: number, msg: string }> } {
  const lines: Array<{ level: number, msg: string }> = []
  const stream = new Writable({
    write (chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)))
      callback()
    }
  })
  return { app: Fastify({ logger: { level: 'warn', stream } }), lines }
}

const levelAndMessage = (lines: Array<{ level: number, msg: string }>): Array<[number, string]> =>
  lines.map((line) => [line.level, line.msg])

test('a route declared before the registration is awaited is not restricted, and the ready app warns with the likely cause', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  app.register(fastifyRestrictedFields)
  app.get('/user', { restrictFields: true, schema }, async () => ({ id: 1, name: 'Ada' }))
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, warning]])
  const response = await app.inject('/user?only=id')
  t.equal(response.statusCode, 200)
  t.equal(response.body, '{"id":1,"name":"Ada"}')
})

test('an app whose only opted-in route is declared in a sibling context the plugin never sees warns once', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  app.register(async (child) => {
    child.get('/user', { restrictFields: true, schema }, async () => ({ id: 1, name: 'Ada' }))
  })
  app.register(async (child) => {
    await child.register(fastifyRestrictedFields)
    child.get('/plain', async () => 'plain')
  })
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, warning]])
  t.equal((await app.inject('/user?only=id')).body, '{"id":1,"name":"Ada"}')
})

test('no warning when the registration is awaited before the routes', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields)
  app.get('/user', { restrictFields: true, schema }, async () => ({ id: 1, name: 'Ada' }))
  await app.ready()
  t.strictSame(lines, [])
  t.equal((await app.inject('/user?only=id')).body, '{"id":1}')
})

test('no warning when the routes are declared in after(), as CommonJS code without top-level await does', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  app.register(fastifyRestrictedFields).after(() => {
    app.get('/user', { restrictFields: true, schema }, async () => ({ id: 1, name: 'Ada' }))
  })
  await app.ready()
  t.strictSame(lines, [])
  t.equal((await app.inject('/user?defer=name')).body, '{"id":1}')
})

test('a route opted in through config counts as opted in', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields)
  app.get('/user', { config: { restrictFields: true }, schema }, async () => ({ id: 1, name: 'Ada' }))
  await app.ready()
  t.strictSame(lines, [])
  t.equal((await app.inject('/user?only=name')).body, '{"name":"Ada"}')
})

const task = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, author_id: { type: 'integer' } } }
const hideAuthor = { hiddenFields: () => ['author_id'] }
const advice = 'Opt it in with restrictFields: true, or every route that sends records with the plugin option global: true; ' +
  'restrictFields: false on a route says that it may send every field'

const assignWarning = "fastify-restricted-fields: route POST /tasks/:id/assign sends the schema 'task' that a hiddenFields rule " +
  'restricts on GET /tasks/:id, but did not opt in: it sends every field to every caller. ' + advice

test('the ready app warns of routes that did not opt in but send a record that a rule restricts on another route', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers['x-role'] === 'admin' ? [] : ['author_id'] })
  app.addSchema({ $id: 'task', ...task })
  const one = async () => ({ id: 1, name: 'a', author_id: 2 })
  app.get('/tasks/:id', { restrictFields: true, schema: { response: { 200: { $ref: 'task#' } } } }, one)
  app.post('/tasks/:id/assign', { schema: { response: { 200: { $ref: 'task#' } } } }, one)
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, assignWarning]])
  t.equal((await app.inject({ method: 'POST', url: '/tasks/1/assign' })).body, '{"id":1,"name":"a","author_id":2}', 'a warning, nothing more')
})

test('the warning names each route once, grouped by what it sends, wherever in its reply the record sits', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, hideAuthor)
  app.addSchema({ $id: 'task', ...task })
  app.addSchema({ $id: 'user', type: 'object', properties: { id: { type: 'integer' }, author_id: { type: 'integer' } } })
  const record = { type: 'object', properties: { id: { type: 'integer' }, author_id: { type: 'integer' } } }
  const nothing = { type: 'null' }
  const none = async () => null as never
  app.get('/tasks', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { $ref: 'task#' } } } } }, none)
  app.get('/also-tasks', { restrictFields: true, schema: { response: { 200: { $ref: 'task#' } } } }, none)
  app.get('/page', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: 'user#' } } } } } } }, none)
  app.get('/records', { restrictFields: true, schema: { response: { 200: { anyOf: [record, nothing] } } } }, none)
  app.get('/own-rule', { restrictFields: { hiddenFields: () => [] }, schema: { response: { 200: { type: 'object', properties: { other: { $ref: 'user#' }, list: { type: 'array', items: { type: 'array', items: { $ref: 'task#' } } } } } } } }, none)
  app.post('/a', { schema: { response: { 201: { $ref: 'task' } } } }, none)
  app.put('/b', { schema: { response: { 200: { type: 'object', properties: { user: { $ref: 'user#' }, token: { type: 'string' } } } } } }, none)
  app.patch('/c', { schema: { response: { 200: { $ref: 'user#' } } } }, none)
  app.get('/d', { schema: { response: { 200: { type: 'object', properties: { many: { type: 'array', items: { $ref: 'task#' } } } } } } }, none)
  app.get('/e', { schema: { response: { 200: { type: 'object', properties: { one: record } } } } }, none)
  // Not warned of: the app's word, a definition nothing refers to, a part of a record, a level beside a record that holds no fields.
  app.delete('/f', { restrictFields: false, schema: { response: { 200: { $ref: 'task#' } } } }, none)
  app.get('/g', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } }, $defs: { unused: { $ref: 'task#' } } } } } }, none)
  app.get('/h', { schema: { response: { 200: { $ref: 'task#/properties/name' }, 400: { $ref: 'task#' } } } }, none)
  app.get('/j', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, gone: nothing } } } } }, none)
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, 'fastify-restricted-fields: ' +
    "routes POST /a, GET /d send the schema 'task' that a hiddenFields rule restricts on GET /tasks; " +
    "routes PUT /b, PATCH /c send the schema 'user' that a hiddenFields rule restricts on GET /page; " +
    'route GET /e sends a schema that a hiddenFields rule restricts on GET /records, but did not opt in: they send every field to every caller. ' +
    advice.replace('it in', 'them in')]])
})

test('no warning without a rule, or for routes the global option opts in', async (t) => {
  const record = { response: { 200: { $ref: 'task#' } } }
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['no rule', {}, { restrictFields: true }],
    ['a rule, with global', { ...hideAuthor, global: true }, {}]
  ]
  for (const [title, options, opted] of cases) {
    const { app, lines } = appWithLog()
    t.teardown(() => app.close())
    await app.register(fastifyRestrictedFields, options)
    app.addSchema({ $id: 'task', ...task })
    app.get('/tasks', { ...opted, schema: record }, async () => ({}))
    app.post('/tasks', { schema: record }, async () => ({}))
    await app.ready()
    t.strictSame(lines, [], title)
  }
})

test('a schema the search cannot read whole is searched as far as it can be', async (t) => {
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, hideAuthor)
  app.get('/tasks', { restrictFields: true, schema: { response: { 200: task } } }, async () => ({}))
  // A serializer of the app's own takes schemas fast-json-stringify would refuse: two under one $id, a reference to nowhere.
  const twice = { type: 'object', properties: { a: { $id: 'x', type: 'string' }, b: { $id: 'x', type: 'integer' }, c: task } }
  app.get('/twice', { serializerCompiler: () => JSON.stringify, schema: { response: { 200: twice } } }, async () => ({}))
  app.get('/nowhere', { serializerCompiler: () => JSON.stringify, schema: { response: { 200: { $ref: 'nowhere#' } } } }, async () => ({}))
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, 'fastify-restricted-fields: route GET /twice sends a schema that a hiddenFields rule restricts on GET /tasks, ' +
    'but did not opt in: it sends every field to every caller. ' + advice]])
})

test('with global, a route whose records cannot be restricted is left out with a warning naming it, or refused where a rule would hide fields', async (t) => {
  const odd = { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, 'a.b': { type: 'string' } } } } }
  const why = 'Route GET /odd: the response property "a.b" cannot be named in a request or a rule, because it holds \'.\', which separates names in a request'
  const { app, lines } = appWithLog()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { global: true })
  app.get('/odd', { schema: odd }, async () => ({ id: 1, 'a.b': 'x' }))
  app.get('/said', { schema: odd, restrictFields: false }, async () => ({ id: 1, 'a.b': 'x' }))
  app.get('/users', { schema }, async () => ({ id: 1, name: 'Ada' }))
  await app.ready()
  t.strictSame(levelAndMessage(lines), [[40, `fastify-restricted-fields, route GET /odd: left out of the \`global\` option, as it cannot be restricted (${why}): ` +
    'its replies are sent unrestricted. Set restrictFields: false on the route to leave it out without this warning']], 'once: not again for its HEAD route')
  t.equal((await app.inject('/odd?only=id')).body, '{"id":1,"a.b":"x"}')
  t.equal((await app.inject('/users?only=id')).body, '{"id":1}', 'the other routes are restricted')

  const ruled = Fastify()
  t.teardown(() => ruled.close())
  await ruled.register(fastifyRestrictedFields, { global: true, ...hideAuthor })
  ruled.get('/said', { schema: odd, restrictFields: false }, async () => ({}))
  const refused = t.throws(() => ruled.get('/odd', { schema: odd }, async () => ({})), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: 'fastify-restricted-fields, route GET /odd: the `global` option opts it in, as it sends records, but it cannot be restricted, ' +
      `so the hiddenFields rule could hide nothing from it: ${why}. Set restrictFields: false on the route to send its replies unrestricted`
  }) as Error
  t.equal((refused.cause as { code?: string }).code, 'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD', 'the reason is its cause')
})

test('the README quotes the warning as it is logged, and docs/visibility.md the warning of a route that did not opt in', async (t) => {
  t.ok(readFileSync(new URL('../../README.md', import.meta.url), 'utf8').includes(`\n> ${warning}\n`))
  t.ok(readFileSync(new URL('../../docs/visibility.md', import.meta.url), 'utf8').includes(`\n> ${assignWarning}\n`))
})
