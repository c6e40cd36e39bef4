// What each operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's operations and their x-restricted-fields keys: do not edit.
import type { components, paths } from './api.js'

export interface RestrictedRoutes {
  '/items': {
    get: {
      operation: paths['/items']['get']
      statuses: {
        200: {
          reply: paths['/items']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['itemVisible']
          records: 'array'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: {}
      defaultFields: never
      maxDepth: 8
    }
    post: {
      operation: paths['/items']['post']
      statuses: {
        201: {
          reply: paths['/items']['post']['responses'][201]['content']['application/json']
          record: components['schemas']['itemVisible']
          records: 'object'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: {}
      defaultFields: never
      maxDepth: 8
    }
  }
  '/items/batch': {
    post: {
      operation: paths['/items/batch']['post']
      statuses: {
        200: {
          reply: paths['/items/batch']['post']['responses'][200]['content']['application/json']
          record: components['schemas']['itemVisible']
          records: 'array'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: {}
      defaultFields: never
      maxDepth: 8
    }
  }
  '/notes/{id}': {
    get: {
      operation: paths['/notes/{id}']['get']
    }
  }
  '/notes': {
    post: {
      operation: paths['/notes']['post']
    }
  }
}
