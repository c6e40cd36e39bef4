import { test } from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import * as entry from '../lib/index.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))

test('the plugin is exported as default and as fastifyRestrictedFields, with fastify-plugin metadata', async (t) => {
  t.equal(entry.default, entry.fastifyRestrictedFields)
  const meta = (entry.default as unknown as Record<symbol, unknown>)[Symbol.for('plugin-meta')]
  t.same(meta, { name: 'fastify-restricted-fields', fastify: '5.x' })
  t.equal((entry.default as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')], true)
})

test('the error constructors are exported with their codes', async (t) => {
  t.same(Object.keys(entry).filter((name) => name.endsWith('Error')).sort().map((name) => {
    const error = new (entry as unknown as Record<string, new (...args: unknown[]) => { code: string, statusCode: number }>)[name]('a', 'b', 1)
    return [name, error.code, error.statusCode]
  }), [
    ['InvalidOptionError', 'FST_RESTRICTED_FIELDS_INVALID_OPTION', 500],
    ['InvalidParameterError', 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER', 400],
    ['NoDeclaredFieldsError', 'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS', 500],
    ['PathTooDeepError', 'FST_RESTRICTED_FIELDS_PATH_TOO_DEEP', 400],
    ['TooManyFieldsError', 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS', 400],
    ['UnknownFieldError', 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', 400],
    ['UnresolvedReferenceError', 'FST_RESTRICTED_FIELDS_UNRESOLVED_REFERENCE', 500]
  ])
})

test('the built package can be loaded with require() from CommonJS', async (t) => {
  // npm test builds dist/ before the suite runs.
  const script = `
    const plugin = require('fastify-restricted-fields')
    const app = require('fastify')()
    app.register(plugin.fastifyRestrictedFields).after(() => {
      app.get('/', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { a: {}, b: {} } } } } }, async () => ({ a: 1, b: 2 }))
    })
    app.inject('/?only=b').then((res) => { console.log(plugin.default === plugin.fastifyRestrictedFields, res.body) })
  `
  const { stdout } = await run(process.execPath, ['--no-warnings', '-e', script], { cwd: root })
  t.equal(stdout, 'true {"b":2}\n')
})
