import { test } from 'tap'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

type Json = Record<string, any>

const described = (more: Json = {}): Json => ({ status: '200', record: { $ref: '#/components/schemas/user' }, records: 'object', only: 'only', defer: 'defer', sets: {}, ...more })
const operation = (key: unknown, content: Json = { 'application/json': { schema: {} } }): Json => ({ 'x-restricted-fields': key, responses: { 200: { content }, '2XX': { content } } })

test('each described operation becomes an entry of RestrictedRoutes, typed through openapi-typescript\'s paths and components', async (t) => {
  const document = {
    openapi: '3.1.0',
    paths: {
      "/it's": {
        get: operation(described({ status: '2XX', records: 'envelope', key: 'items', only: 'fields', defer: 'omit', sets: { summary: ['id', 'name'], none: [] }, defaultFields: ['id'] })),
        post: operation(described({ record: { $ref: '#/components/schemas/a~1b%20c' }, defaultFields: [] }), { 'text/plain': {}, 'application/x-json': { schema: {} } })
      },
      '/plain': { get: { responses: { 200: { content: { 'application/json': { schema: {} } } } } }, parameters: [] },
      '/odd': {
        get: operation({ ...described(), record: { $ref: '#/definitions/user' } }),
        put: operation(described(), {}),
        patch: operation(null),
        delete: { 'x-restricted-fields': described() },
        head: { 'x-restricted-fields': described(), responses: { 200: { content: { 'text/plain': {} } } } },
        options: operation({ ...described(), records: 'map' })
      }
    }
  }
  t.equal(restrictedRoutesSource(document, { types: './generated/api.js' }), `// What each restricted operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's x-restricted-fields keys: do not edit.
import type { components, paths } from './generated/api.js'

export interface RestrictedRoutes {
  '/it\\'s': {
    get: {
      parameters: paths['/it\\'s']['get']['parameters']
      responses: paths['/it\\'s']['get']['responses']
      reply: paths['/it\\'s']['get']['responses']['2XX']['content']['application/json']
      record: components['schemas']['user']
      records: 'envelope'
      key: 'items'
      only: 'fields'
      defer: 'omit'
      sets: { 'summary': ['id', 'name'], 'none': [] }
      defaultFields: 'id'
    }
    post: {
      parameters: paths['/it\\'s']['post']['parameters']
      responses: paths['/it\\'s']['post']['responses']
      reply: paths['/it\\'s']['post']['responses'][200]['content']['application/x-json']
      record: components['schemas']['a/b c']
      records: 'object'
      key: never
      only: 'only'
      defer: 'defer'
      sets: {}
      defaultFields: ''
    }
  }
}
`)
  t.match(restrictedRoutesSource({ openapi: '3.0.3' }), /import type \{ components, paths \} from '.\/api.js'\n\nexport interface RestrictedRoutes \{\n\n\}\n$/, 'a document without paths has no entries; the types are imported from ./api.js')
})

test('a document that is not OpenAPI 3 is refused: openapi-typescript reads no other', async (t) => {
  for (const document of [null, { swagger: '2.0', paths: {} }, { openapi: 3 }]) {
    t.throws(() => restrictedRoutesSource(document), { name: 'TypeError', message: 'restrictedRoutesSource reads OpenAPI 3 documents, as openapi-typescript does' }, JSON.stringify(document))
  }
})
