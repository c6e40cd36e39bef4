// What each restricted operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's x-restricted-fields keys: do not edit.
import type { components, paths } from './api.js'

export interface RestrictedRoutes {
  '/api/users/': {
    get: {
      parameters: paths['/api/users/']['get']['parameters']
      responses: paths['/api/users/']['get']['responses']
      reply: paths['/api/users/']['get']['responses'][200]['content']['application/json']
      record: components['schemas']['userVisible']
      records: 'envelope'
      key: 'results'
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: never
    }
  }
  '/api/users/{id}': {
    get: {
      parameters: paths['/api/users/{id}']['get']['parameters']
      responses: paths['/api/users/{id}']['get']['responses']
      reply: paths['/api/users/{id}']['get']['responses'][200]['content']['application/json']
      record: components['schemas']['userVisible']
      records: 'object'
      key: never
      only: 'only'
      defer: 'defer'
      sets: { 'summary': ['id', 'name'] }
      defaultFields: never
    }
  }
}
