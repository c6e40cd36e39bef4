import { test } from 'tap'
import { Components } from '../../../lib/openapi/components.js'
import { liftInnerReferences } from '../../../lib/openapi/relax/inner-references.js'
import type { Found } from '../../../lib/openapi/operations.js'
import type { Json, RestrictedRoute } from '../../../lib/openapi/types.js'

const route = { method: 'GET', url: '/x', statusKey: '200', shape: { kind: 'object' } } as unknown as RestrictedRoute
const found = (operation: Json): Found => ({ id: 'x', route, operation, pathItem: {}, method: 'get', path: '/x' })

test('a $ref inside a schema points at a component of its own, named after its container; whole components stay as written', async (t) => {
  const ssn = { type: 'string', minLength: 9 }
  const node = { type: 'object', properties: { next: { $ref: '#/components/schemas/tree/properties/node' }, up: { $ref: '#/properties/nowhere' } } }
  const schemas: Json = {
    user: { type: 'object', properties: { id: { type: 'integer' }, ssn, hint: { $ref: '#/components/schemas/user/properties/ssn' }, odd: { $ref: '#/components/schemas/user/properties/s%73n' } } },
    tree: { properties: { node } },
    flag: true,
    pets: { discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/user/properties/ssn', b: 'user', c: 7 } }, oneOf: [{ $ref: '#/components/schemas/user' }, { $ref: '#/components/schemas/flag' }] },
    kept: { allOf: [{ $ref: 'other.json#/x' }, { $ref: '#/components/schemas/gone/properties/x' }, { $ref: '#/components/schemas/user/properties/%E0%A4%A' }, { $ref: '#/$defs/nowhere' }] }
  }
  const schema = {
    type: 'object',
    properties: {
      self: { $ref: '#/properties/own' },
      own: { type: 'boolean' },
      yes: { $ref: '#/components/schemas/tree/properties/yes' },
      no: { $ref: '#/components/schemas/tree/properties/no' },
      tree: { $ref: '#/components/schemas/tree/properties/node' }
    }
  }
  schemas.tree.properties.yes = true
  schemas.tree.properties.no = false
  const document: Json = { openapi: '3.1.0', components: { schemas }, paths: {} }
  const operation = { responses: { 200: { content: { 'application/json': { schema }, 'text/plain': 'odd' } }, 201: 'odd', 404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/user/properties/id' } } } }, default: { description: 'none' } } }
  liftInnerReferences(document, new Components(document, '3'), '3', [found(operation), found({})])
  t.strictSame(schemas.user.properties, { id: { type: 'integer' }, ssn, hint: { $ref: '#/components/schemas/userPart' }, odd: { $ref: '#/components/schemas/userPart' } }, 'one component per place, read as written or percent-decoded')
  t.strictSame(schemas.pets.discriminator.mapping, { a: '#/components/schemas/userPart', b: 'user', c: 7 })
  t.strictSame(schemas.kept, { allOf: [{ $ref: 'other.json#/x' }, { $ref: '#/components/schemas/gone/properties/x' }, { $ref: '#/components/schemas/user/properties/%E0%A4%A' }, { $ref: '#/$defs/nowhere' }] }, 'what does not resolve stays')
  t.strictSame(schema.properties, {
    self: { $ref: '#/components/schemas/ResponsePart' },
    own: { type: 'boolean' },
    yes: { $ref: '#/components/schemas/treePart2' },
    no: { $ref: '#/components/schemas/treePart3' },
    tree: { $ref: '#/components/schemas/treePart' }
  })
  t.strictSame(Object.keys(schemas), ['user', 'tree', 'flag', 'pets', 'kept', 'userPart', 'treePart', 'ResponsePart', 'treePart2', 'treePart3'])
  t.strictSame([schemas.userPart, schemas.treePart, schemas.ResponsePart, schemas.treePart2, schemas.treePart3], [ssn, node, { type: 'boolean' }, {}, { not: {} }])
  t.equal(schemas.treePart, node, 'the place and its component share the schema')
  t.strictSame(node.properties, { next: { $ref: '#/components/schemas/treePart' }, up: { $ref: '#/properties/nowhere' } }, 'a pointer inside a lifted schema follows it')
  t.strictSame(operation.responses[404].content['application/json'].schema, { $ref: '#/components/schemas/user/properties/id' }, 'a status that is not restricted keeps its own')
})

test('Swagger 2.0: definitions are containers too, and a response holds its schema', async (t) => {
  const schema = { properties: { hint: { $ref: '#/definitions/user/properties/ssn' }, whole: { $ref: '#/definitions/user' } } }
  const document: Json = { swagger: '2.0', definitions: { user: { properties: { ssn: { type: 'string' } } }, other: { properties: { self: { $ref: '#/properties/x' }, x: { type: 'integer' } } } } }
  liftInnerReferences(document, new Components(document, '2.0'), '2.0', [found({ responses: { 200: { schema } } }), found({ responses: { 200: 'odd' } })])
  t.strictSame(schema.properties, { hint: { $ref: '#/definitions/userPart' }, whole: { $ref: '#/definitions/user' } })
  t.strictSame(document.definitions.other.properties.self, { $ref: '#/definitions/otherPart' }, 'a component\'s own pointer is resolved against it')
  t.strictSame(document.definitions.otherPart, { type: 'integer' })
})
