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
