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

test('the README quotes the warning as it is logged', async (t) => {
  t.ok(readFileSync(new URL('../../README.md', import.meta.url), 'utf8').includes(`\n> ${warning}\n`))
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
  await ruled.register(fastifyRestrictedFields, { global: true, hiddenFields: () => ['author_id'] })
  ruled.get('/said', { schema: odd, restrictFields: false }, async () => ({}))
  const refused = t.throws(() => ruled.get('/odd', { schema: odd }, async () => ({})), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: 'fastify-restricted-fields, route GET /odd: the `global` option opts it in, as it sends records, but it cannot be restricted, ' +
      `so the hiddenFields rule could hide nothing from it: ${why}. Set restrictFields: false on the route to send its replies unrestricted`
  }) as Error
  t.equal((refused.cause as { code?: string }).code, 'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD', 'the reason is its cause')
})
