import { test } from 'tap'
import { clientSchema, restrictedResponses, schemaHolders } from '../../lib/openapi/operations.js'
import type { RestrictedRoute } from '../../lib/openapi/types.js'

const declared: RestrictedRoute = {
  method: 'GET', url: '/users', statusKey: '200', shape: { kind: 'array' }, maxDepth: 3, maxListedFields: 100, onlyParam: 'only', deferParam: 'defer', paths: []
}
const route = (fields: Partial<RestrictedRoute>): RestrictedRoute => ({ ...declared, ...fields })

test('an operation\'s restricted responses are its route\'s declared statuses, as the document keys them, or every 2xx of a fields route', async (t) => {
  const ok = { description: 'ok' }
  const operation = { responses: { 200: ok, 201: ok, '2XX': ok, 404: ok } }
  const envelope = { kind: 'envelope', key: 'items' } as const
  const array = { kind: 'array' } as const
  const auto = { kind: 'auto', key: 'results' } as const
  const fieldsRoute = ['200', '201', '2XX'].map((key) => ({ key, shape: auto, response: ok }))
  const rows: Array<[string, RestrictedRoute, '2.0' | '3', unknown]> = [
    ['a status', route({}), '3', [{ key: '200', shape: array, response: ok }]],
    [
      'a range, and another status whose records sit in an envelope',
      route({ statusKey: '2xx', otherStatuses: [{ statusKey: '201', shape: envelope }] }),
      '3',
      [{ key: '2XX', shape: array, response: ok }, { key: '201', shape: envelope, response: ok }]
    ],
    ['a range in Swagger 2.0, which has none', route({ statusKey: '2xx' }), '2.0', [{ key: '200', shape: array, response: ok }]],
    ['a fields route', route({ statusKey: undefined, shape: auto }), '3', fieldsRoute]
  ]
  for (const [title, declared, version, expected] of rows) t.strictSame(restrictedResponses(operation, declared, version), expected, title)
  const lacking = [{ key: '200', shape: array, response: undefined }]
  t.strictSame(restrictedResponses({}, route({}), '3'), lacking, 'a response the document lacks')
  t.strictSame(restrictedResponses({}, route({ statusKey: undefined }), '3'), [], 'a fields route without responses')
})

test('a response\'s schemas sit on it in Swagger 2.0 and on each media type in OpenAPI 3; a client reads the JSON one first', async (t) => {
  const json = { schema: { type: 'array' } }
  const text = { schema: { type: 'string' } }
  const rows: Array<[string, unknown, '2.0' | '3', unknown[], unknown]> = [
    ['Swagger 2.0', { schema: { type: 'object' } }, '2.0', [{ schema: { type: 'object' } }], { type: 'object' }],
    ['JSON first', { content: { 'text/plain': text, 'application/json': json } }, '3', [text, json], json.schema],
    ['else the first media type with a schema', { content: { 'text/csv': {}, 'text/plain': text, x: 'no' } }, '3', [{}, text], text.schema],
    ['no content', { description: 'none' }, '3', [], undefined],
    ['no response', undefined, '3', [], undefined]
  ]
  for (const [title, response, version, holders, read] of rows) {
    t.strictSame(schemaHolders(response, version), holders, `${title}: holders`)
    t.strictSame(clientSchema(response, version), read, `${title}: the schema a client reads`)
  }
})
