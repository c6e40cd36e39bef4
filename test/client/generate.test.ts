import { test } from 'tap'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

type Json = Record<string, any>

const records = (more: Json = {}): Json => ({ record: { $ref: '#/components/schemas/user' }, records: 'object', ...more })
const described = (more: Json = {}): Json => ({ statuses: { 200: records() }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8, ...more })
const json = { 'application/json': { schema: {} } }
const operation = (key: unknown, content: Json = json): Json => ({ 'x-restricted-fields': key, responses: { 200: { content }, 201: { content }, '2XX': { content } } })

test('each operation becomes an entry of RestrictedRoutes, typed through openapi-typescript\'s paths; a described one with each restricted status\'s record from its components, one that is not or cannot be read as described with none', async (t) => {
  const document = {
    openapi: '3.1.0',
    paths: {
      "/it's": {
        get: operation(described({ statuses: { '2XX': records({ records: 'envelope', key: 'items' }) }, only: 'fields', defer: 'omit', sets: { summary: ['id', 'name'], none: [] }, defaultFields: ['id'], maxDepth: 3 })),
        post: operation(described({ statuses: { 201: records({ record: { $ref: '#/components/schemas/a~1b%20c' } }), 200: records({ records: 'array' }) }, defaultFields: [] }), { 'text/plain': {}, 'application/x-json': { schema: {} } })
      },
      '/plain': { get: { responses: { 200: { content: json } } }, parameters: [] },
      '/odd': {
        get: operation(described({ statuses: { 200: records({ record: { $ref: '#/definitions/user' } }), 201: records({ records: 'map' }), '2XX': records({ records: 'envelope' }) } })),
        put: operation(described(), {}),
        patch: operation(null),
        delete: { 'x-restricted-fields': described() },
        head: { 'x-restricted-fields': described(), responses: { 200: { content: { 'text/plain': {} } } } },
        options: operation({ ...described(), statuses: null }),
        trace: operation({ ...described(), sets: null })
      }
    }
  }
  t.equal(restrictedRoutesSource(document, { types: './generated/api.js' }), `// What each operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's operations and their x-restricted-fields keys: do not edit.
import type { components, paths } from './generated/api.js'

export interface RestrictedRoutes {
  '/it\\'s': {
    get: {
      operation: paths['/it\\'s']['get']
      statuses: {
        '2XX': {
          reply: paths['/it\\'s']['get']['responses']['2XX']['content']['application/json']
          record: components['schemas']['user']
          records: 'envelope'
          key: 'items'
        }
      }
      only: 'fields'
      defer: 'omit'
      sets: { 'summary': ['id', 'name'], 'none': [] }
      defaultFields: 'id'
      maxDepth: 3
    }
    post: {
      operation: paths['/it\\'s']['post']
      statuses: {
        200: {
          reply: paths['/it\\'s']['post']['responses'][200]['content']['application/x-json']
          record: components['schemas']['user']
          records: 'array'
          key: never
        }
        201: {
          reply: paths['/it\\'s']['post']['responses'][201]['content']['application/x-json']
          record: components['schemas']['a/b c']
          records: 'object'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: {}
      defaultFields: ''
      maxDepth: 8
    }
  }
  '/plain': {
    get: {
      operation: paths['/plain']['get']
    }
  }
  '/odd': {
    get: {
      operation: paths['/odd']['get']
    }
    put: {
      operation: paths['/odd']['put']
    }
    delete: {
      operation: paths['/odd']['delete']
    }
    options: {
      operation: paths['/odd']['options']
    }
    head: {
      operation: paths['/odd']['head']
    }
    patch: {
      operation: paths['/odd']['patch']
    }
    trace: {
      operation: paths['/odd']['trace']
    }
  }
}
`)
  t.match(restrictedRoutesSource({ openapi: '3.0.3' }), /import type \{ components, paths \} from '.\/api.js'\n\nexport interface RestrictedRoutes \{\n\n\}\n$/, 'a document without paths has no entries; the types are imported from ./api.js')
  const withoutDepth = restrictedRoutesSource({ openapi: '3.0.3', paths: { '/a': { get: operation({ ...described(), maxDepth: undefined }) } } })
  t.match(withoutDepth, /\n {6}maxDepth: 8\n/, 'a description without maxDepth reads as the plugin\'s default')
})

test('a document that is not OpenAPI 3 is refused: openapi-typescript reads no other', async (t) => {
  for (const document of [null, { swagger: '2.0', paths: {} }, { openapi: 3 }]) {
    t.throws(() => restrictedRoutesSource(document), { name: 'TypeError', message: 'restrictedRoutesSource reads OpenAPI 3 documents, as openapi-typescript does' }, JSON.stringify(document))
  }
})
