import { test } from 'tap'
import { normalizeOptions, resolveRouteOptions } from '../lib/options.js'

const defaults = { onlyParam: 'only', deferParam: 'defer', unknownFields: 'reject', resultsKey: 'results', cacheSize: 100, cacheBytes: 2097152, maxFields: 100, maxDepth: 8, maxListedFields: 100, hiddenFields: null, fieldSets: {}, documentCacheBytes: 67108864, global: false }
const PLUGIN = 'fastify-restricted-fields: '

test('normalizeOptions fills in the defaults', async (t) => {
  t.strictSame(normalizeOptions({}), defaults)
  t.strictSame(normalizeOptions({ onlyParam: 'fields', cacheSize: 0 }), { ...defaults, onlyParam: 'fields', cacheSize: 0 })
  t.strictSame(normalizeOptions({ global: true }), { ...defaults, global: true })
})

const invalid: Array<[unknown, string]> = [
  [null, 'options should be an object, instead got null'],
  [[], 'options should be an object, instead got an array'],
  [{ only: 'x' }, "unknown option 'only'; known options: onlyParam, deferParam, unknownFields, resultsKey, cacheSize, cacheBytes, maxFields, maxDepth, maxListedFields, hiddenFields, fieldSets, documentCacheBytes, global"],
  [{ onlyParam: '' }, "`onlyParam` option should be a non-empty string without surrounding spaces, instead got ''"],
  [{ deferParam: ' d' }, "`deferParam` option should be a non-empty string without surrounding spaces, instead got ' d'"],
  [{ resultsKey: 3 }, '`resultsKey` option should be a non-empty string without surrounding spaces, instead got 3'],
  [{ unknownFields: 'warn' }, "`unknownFields` option should be one of 'reject', 'ignore', instead got 'warn'"],
  [{ cacheSize: -1 }, '`cacheSize` option should be an integer from 0 to 100000, instead got -1'],
  [{ cacheBytes: 1.5 }, '`cacheBytes` option should be an integer from 0 to 1073741824, instead got 1.5'],
  [{ documentCacheBytes: -1 }, '`documentCacheBytes` option should be an integer from 0 to 17179869184, instead got -1'],
  [{ documentCacheBytes: '64mb' }, "`documentCacheBytes` option should be an integer from 0 to 17179869184, instead got '64mb'"],
  [{ maxFields: 1.5 }, '`maxFields` option should be an integer from 1 to 10000, instead got 1.5'],
  [{ maxDepth: 33 }, '`maxDepth` option should be an integer from 1 to 32, instead got 33'],
  [{ maxDepth: {} }, '`maxDepth` option should be an integer from 1 to 32, instead got an object'],
  [{ maxListedFields: 0 }, '`maxListedFields` option should be an integer from 1 to 1000000, instead got 0'],
  [{ maxListedFields: '100' }, "`maxListedFields` option should be an integer from 1 to 1000000, instead got '100'"],
  [{ hiddenFields: ['email'] }, '`hiddenFields` option should be a function of the request, instead got an array'],
  [{ global: 'all' }, "`global` option should be a boolean, instead got 'all'"],
  [{ global: 1 }, '`global` option should be a boolean, instead got 1'],
  [{ onlyParam: 'defer' }, "`onlyParam` and `deferParam` must differ, both are 'defer'"]
]

test('normalizeOptions rejects a wrong option with a message naming it and what is allowed', async (t) => {
  for (const [options, message] of invalid) {
    t.throws(() => normalizeOptions(options), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION', message: PLUGIN + message }, message)
  }
})

test('resolveRouteOptions: undefined and false opt out, true takes the plugin options', async (t) => {
  const global = normalizeOptions({})
  t.equal(resolveRouteOptions(undefined, global, 'GET /'), null)
  t.equal(resolveRouteOptions(false, global, 'GET /'), null)
  t.strictSame(resolveRouteOptions(true, global, 'GET /'), { ...defaults, ownResultsKey: false, fields: null, defaultFields: null, loads: [] })
})

test('resolveRouteOptions merges an object over the plugin options', async (t) => {
  const global = normalizeOptions({ unknownFields: 'ignore' })
  t.strictSame(resolveRouteOptions({ fields: ['id'], deferParam: 'omit' }, global, 'GET /'),
    { ...defaults, unknownFields: 'ignore', deferParam: 'omit', ownResultsKey: false, fields: ['id'], defaultFields: null, loads: [] })
  const planner = { check: () => {}, plan: () => null }
  t.strictSame(resolveRouteOptions({ loads: planner }, global, 'GET /')?.loads, [planner], 'one loader is a list of one')
  const loader = Object.assign(() => null, { check: () => {} })
  t.strictSame(resolveRouteOptions({ loads: [loader, planner] }, global, 'GET /')?.loads, [loader, planner])
  const items = normalizeOptions({ resultsKey: 'items' })
  t.strictSame([resolveRouteOptions(true, items, 'GET /'), resolveRouteOptions({ maxDepth: 3 }, items, 'GET /')].map((route) => [route?.resultsKey, route?.ownResultsKey]),
    [['items', false], ['items', false]], 'the plugin\'s resultsKey is not the route\'s own')
  t.strictSame([resolveRouteOptions({ resultsKey: 'items' }, items, 'GET /')?.ownResultsKey], [true], 'one the route names, even the plugin\'s, is')
})

test('a route\'s field sets add to the plugin\'s and replace the one of the same name', async (t) => {
  const global = normalizeOptions({ fieldSets: { summary: ['id', 'name'], contact: ['email'] } })
  t.strictSame(resolveRouteOptions(true, global, 'GET /')?.fieldSets, { summary: ['id', 'name'], contact: ['email'] })
  t.strictSame(resolveRouteOptions({ defaultFields: ['id'], fieldSets: { summary: ['id'], mini: ['id'] } }, global, 'GET /'),
    { ...defaults, ownResultsKey: false, fields: null, defaultFields: ['id'], fieldSets: { summary: ['id'], contact: ['email'], mini: ['id'] }, loads: [] })
  t.strictSame(resolveRouteOptions({ maxDepth: 3 }, global, 'GET /')?.fieldSets, { summary: ['id', 'name'], contact: ['email'] })
})

const invalidSets: Array<[unknown, string, string]> = [
  [{ fieldSets: ['id'] }, 'FST_RESTRICTED_FIELDS_INVALID_OPTION', '`fieldSets` option should be an object of field lists, instead got an array'],
  [{ fieldSets: { summary: [] } }, 'FST_RESTRICTED_FIELDS_INVALID_OPTION', '`fieldSets.summary` option should be a non-empty array of field names or dotted paths, instead got an array'],
  [{ fieldSets: { summary: 'id' } }, 'FST_RESTRICTED_FIELDS_INVALID_OPTION', "`fieldSets.summary` option should be a non-empty array of field names or dotted paths, instead got 'id'"],
  [{ fieldSets: { 'a b': ['id'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', "field set \"a b\" should be named with a plain word (letters, digits, '_' and '-')"],
  [{ fieldSets: { '@summary': ['id'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', "field set \"@summary\" should be named with a plain word (letters, digits, '_' and '-')"],
  [{ fieldSets: { default: ['id'] } }, 'FST_RESTRICTED_FIELDS_INVALID_FIELD_SET', "field set 'default' would shadow @default, the fields sent without `only`; declare them with `defaultFields`"]
]

test('a misdeclared field set fails at registration, and on a route naming the route', async (t) => {
  for (const [options, code, message] of invalidSets) {
    t.throws(() => normalizeOptions(options), { code, message: PLUGIN + message }, message)
    t.throws(() => resolveRouteOptions(options, normalizeOptions({}), 'GET /users'), { code, message: 'fastify-restricted-fields, route GET /users: ' + message }, message)
  }
  t.throws(() => resolveRouteOptions({ defaultFields: [] }, normalizeOptions({}), 'GET /users'), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: 'fastify-restricted-fields, route GET /users: `defaultFields` option should be a non-empty array of field names or dotted paths, instead got an array'
  })
  t.throws(() => normalizeOptions({ defaultFields: ['id'] }), { code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION' }, 'defaultFields is a route option')
})

const invalidRoute: Array<[unknown, string]> = [
  ['yes', "`restrictFields` option should be true, false or an options object, instead got 'yes'"],
  [1, '`restrictFields` option should be true, false or an options object, instead got 1'],
  [null, '`restrictFields` option should be true, false or an options object, instead got null'],
  [{ field: ['id'] }, "unknown option 'field'; known options: onlyParam, deferParam, unknownFields, resultsKey, cacheSize, cacheBytes, maxFields, maxDepth, maxListedFields, hiddenFields, fieldSets, fields, defaultFields, loads"],
  [{ documentCacheBytes: 1024 }, "unknown option 'documentCacheBytes'; known options: onlyParam, deferParam, unknownFields, resultsKey, cacheSize, cacheBytes, maxFields, maxDepth, maxListedFields, hiddenFields, fieldSets, fields, defaultFields, loads"],
  [{ global: true }, "unknown option 'global'; known options: onlyParam, deferParam, unknownFields, resultsKey, cacheSize, cacheBytes, maxFields, maxDepth, maxListedFields, hiddenFields, fieldSets, fields, defaultFields, loads"],
  [{ fields: [] }, '`fields` option should be a non-empty array of field names or dotted paths, instead got an array'],
  [{ fields: 'id' }, "`fields` option should be a non-empty array of field names or dotted paths, instead got 'id'"],
  [{ fields: ['a..b'] }, '`fields` option should be a non-empty array of field names or dotted paths, instead got an array'],
  [{ fields: [1] }, '`fields` option should be a non-empty array of field names or dotted paths, instead got an array'],
  [{ deferParam: 'only' }, "`onlyParam` and `deferParam` must differ, both are 'only'"],
  [{ loads: 'users' }, "`loads` option should be a loader (an ORM adapter's function or a loadPlanner) or an array of them, instead got 'users'"],
  [{ loads: [() => {}] }, "`loads` option should be a loader (an ORM adapter's function or a loadPlanner) or an array of them, instead got an array"],
  [{ loads: { plan: () => null } }, "`loads` option should be a loader (an ORM adapter's function or a loadPlanner) or an array of them, instead got an object"]
]

test('resolveRouteOptions rejects any other value, naming the route', async (t) => {
  const global = normalizeOptions({})
  for (const [value, message] of invalidRoute) {
    t.throws(() => resolveRouteOptions(value, global, 'GET /users'), {
      code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
      message: 'fastify-restricted-fields, route GET /users: ' + message
    }, message)
  }
})
