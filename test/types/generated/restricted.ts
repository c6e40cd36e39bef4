// What each operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's operations and their x-restricted-fields keys: do not edit.
import type { components, paths } from './api.js'

export interface RestrictedRoutes {
  '/users': {
    get: {
      operation: paths['/users']['get']
      statuses: {
        200: {
          reply: paths['/users']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['userVisible']
          records: 'envelope'
          key: 'items'
        }
      }
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: 'id'
      maxDepth: 8
    }
    post: {
      operation: paths['/users']['post']
      statuses: {
        201: {
          reply: paths['/users']['post']['responses'][201]['content']['application/json']
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
  '/users/{id}': {
    put: {
      operation: paths['/users/{id}']['put']
      statuses: {
        200: {
          reply: paths['/users/{id}']['put']['responses'][200]['content']['application/json']
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
    delete: {
      operation: paths['/users/{id}']['delete']
      statuses: {
        200: {
          reply: paths['/users/{id}']['delete']['responses'][200]['content']['application/json']
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
    patch: {
      operation: paths['/users/{id}']['patch']
      statuses: {
        200: {
          reply: paths['/users/{id}']['patch']['responses'][200]['content']['application/json']
          record: components['schemas']['userVisible']
          records: 'object'
          key: never
        }
        202: {
          reply: paths['/users/{id}']['patch']['responses'][202]['content']['application/json']
          record: components['schemas']['updateUserRecord202']
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
  '/shallow/{id}': {
    get: {
      operation: paths['/shallow/{id}']['get']
      statuses: {
        200: {
          reply: paths['/shallow/{id}']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['userVisible']
          records: 'object'
          key: never
        }
      }
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: never
      maxDepth: 2
    }
  }
}
