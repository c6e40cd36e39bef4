import { test } from 'tap'
import { Components } from '../../../lib/openapi/components.js'
import { liftLocalDefinitions } from '../../../lib/openapi/relax/local-definitions.js'
import type { Found } from '../../../lib/openapi/operations.js'
import type { Json, RestrictedRoute } from '../../../lib/openapi/types.js'

const route = { method: 'GET', url: '/x', statusKey: '200', shape: { kind: 'object' } } as unknown as RestrictedRoute
const found = (operation: Json): Found => ({ id: 'x', route, operation, pathItem: {}, method: 'get', path: '/x' })

test('local definitions move to the components, and the $refs that name them, resolved against their holder, follow', async (t) => {
  const schema = {
    type: 'object',
    properties: {
      a: { $ref: '#/$defs/inner' },
      b: { $ref: '#/$defs/inner/properties/x' },
      c: { $ref: '#/definitions/old' },
      d: { $ref: '#/$defs/innerMost' },
      e: { $ref: '#/$defs/missing' },
      f: { $defs: { inner: { type: 'integer' } }, items: { $ref: '#/$defs/inner' } }
    },
    $defs: { inner: { type: 'object', properties: { x: { type: 'string' }, self: { $ref: '#/$defs/inner' } } }, innerMost: true, skipped: 7 },
    definitions: { old: { type: 'boolean' } }
  }
  const document: Json = { openapi: '3.1.0', components: { schemas: { inner: { type: 'null' }, shared: { $defs: { s: { type: 'string' } }, $ref: '#/$defs/s' } } } }
  const components = new Components(document, '3')
  const operation = { responses: { 200: { content: { 'application/json': { schema } }, links: {} }, 404: { content: { 'application/json': { schema: { $defs: { n: {} } } } } } } }
  liftLocalDefinitions(components, '3', [found(operation), found({}), found({ responses: { 200: 'x' } }), found({ responses: { 200: { description: 'no content' } } })])
  t.strictSame(schema, {
    type: 'object',
    properties: {
      a: { $ref: '#/components/schemas/inner2' },
      b: { $ref: '#/components/schemas/inner2/properties/x' },
      c: { $ref: '#/components/schemas/old' },
      d: { $ref: '#/$defs/innerMost' },
      e: { $ref: '#/$defs/missing' },
      f: { items: { $ref: '#/components/schemas/inner3' } }
    }
  })
  t.strictSame(document.components.schemas, {
    inner: { type: 'null' },
    shared: { $ref: '#/components/schemas/s' },
    s: { type: 'string' },
    inner2: { type: 'object', properties: { x: { type: 'string' }, self: { $ref: '#/components/schemas/inner2' } } },
    old: { type: 'boolean' },
    inner3: { type: 'integer' }
  }, 'a definition that is no schema object stays out; a status that is not restricted keeps its own')
  t.strictSame(operation.responses[404].content['application/json'].schema, { $defs: { n: {} } })
})

test('Swagger 2.0: a response\'s schema holds its definitions', async (t) => {
  const schema = { properties: { a: { $ref: '#/$defs/inner' } }, $defs: { inner: { type: 'string' } } }
  const document: Json = { swagger: '2.0' }
  liftLocalDefinitions(new Components(document, '2.0'), '2.0', [found({ responses: { 200: { schema } } }), found({ responses: { 200: { description: 'none' } } })])
  t.strictSame([schema, document.definitions], [{ properties: { a: { $ref: '#/definitions/inner' } } }, { inner: { type: 'string' } }])
})
