import { test } from 'tap'
import { normalizeMcpOptions } from '../../lib/mcp/options.js'
import type { RestrictedFieldsMcpOptions } from '../../lib/mcp/options.js'
import { includeRestrictedRoutes } from '../../lib/mcp/tools.js'

test('the endpoint\'s options are completed with their defaults once', async (t) => {
  t.strictSame(normalizeMcpOptions({}), {
    path: '/mcp',
    serverInfo: { name: 'fastify-restricted-fields', version: '1.0.0' },
    instructions: undefined,
    include: includeRestrictedRoutes,
    forwardHeaders: ['authorization', 'cookie'],
    allowedOrigins: new Set(),
    maxArgumentsLength: 2048,
    bodyLimit: 65536,
    onRequest: [],
    mode: undefined,
    maxSchemaNodes: 250_000,
    maxResultTokens: 25_000
  })
})

test('given options are read as the endpoint reads them: header names in lower case, origins as browsers write them, hooks as a list', async (t) => {
  const include = (): boolean => true
  const hook = async (): Promise<void> => {}
  const cases: Array<[RestrictedFieldsMcpOptions, Record<string, unknown>]> = [
    [{ path: '/agents', name: 'api', version: '2' }, { path: '/agents', serverInfo: { name: 'api', version: '2' } }],
    [{ instructions: 'Ask for few fields.', include }, { instructions: 'Ask for few fields.', include }],
    [{ forwardHeaders: ['X-Agent-Key'], allowedOrigins: ['https://App.example.com/'] }, { forwardHeaders: ['authorization', 'x-agent-key'], allowedOrigins: new Set(['https://app.example.com']) }],
    [{ forwardHeaders: [] }, { forwardHeaders: ['authorization'] }],
    [{ onRequest: hook, mode: 'discovery' }, { onRequest: [hook], mode: 'discovery' }],
    [{ onRequest: [hook, hook], mode: 'routes' }, { onRequest: [hook, hook], mode: 'routes' }],
    [
      { maxArgumentsLength: 64, bodyLimit: 1024, maxSchemaNodes: 10, maxResultTokens: 100 },
      { maxArgumentsLength: 64, bodyLimit: 1024, maxSchemaNodes: 10, maxResultTokens: 100 }
    ]
  ]
  for (const [options, expected] of cases) {
    const resolved = normalizeMcpOptions(options) as unknown as Record<string, unknown>
    t.strictSame(Object.fromEntries(Object.keys(expected).map((key) => [key, resolved[key]])), expected, JSON.stringify(options))
  }
})

test('a wrong option is refused with its coded error, in Fastify\'s words', async (t) => {
  const cases: Array<[RestrictedFieldsMcpOptions, string]> = [
    [{ path: 'mcp' }, "The path option should be a path starting with '/', instead got mcp"],
    [{ path: 7 as never }, "The path option should be a path starting with '/', instead got 7"],
    [{ include: 'all' as never }, 'The include option should be a function'],
    [{ forwardHeaders: 'cookie' as never }, 'The forwardHeaders option should be an array of non-empty strings'],
    [{ allowedOrigins: [''] }, 'The allowedOrigins option should be an array of non-empty strings'],
    [{ maxArgumentsLength: 0 }, 'The maxArgumentsLength option should be a positive integer, instead got 0'],
    [{ bodyLimit: 1.5 }, 'The bodyLimit option should be a positive integer, instead got 1.5'],
    [{ mode: 'tools' as never }, "The mode option should be one of 'routes', 'discovery', instead got 'tools'"],
    [{ maxSchemaNodes: -1 }, 'The maxSchemaNodes option should be a positive integer, instead got -1'],
    [{ maxResultTokens: '9' as never }, 'The maxResultTokens option should be a positive integer, instead got 9']
  ]
  for (const [options, message] of cases) t.throws(() => normalizeMcpOptions(options), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION', statusCode: 500, message }, message)
})
