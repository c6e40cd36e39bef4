// What each operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's operations and their x-restricted-fields keys: do not edit.
import type { components, paths } from './api.js'

export interface RestrictedRoutes {
  '/api/users/': {
    get: {
      operation: paths['/api/users/']['get']
      statuses: {
        200: {
          reply: paths['/api/users/']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['userVisible']
          records: 'envelope'
          key: 'results'
        }
      }
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: never
      maxDepth: 8
    }
  }
  '/api/users/{id}': {
    get: {
      operation: paths['/api/users/{id}']['get']
      statuses: {
        200: {
          reply: paths['/api/users/{id}']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['userVisible']
          records: 'object'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: never
      maxDepth: 8
    }
  }
}
