// What each operation of the document sends, for fastify-restricted-fields/client.
// Generated from the document's operations and their x-restricted-fields keys: do not edit.
import type { components, paths } from './api.js'

export interface RestrictedRoutes {
  '/repos/{owner}/issues': {
    get: {
      operation: paths['/repos/{owner}/issues']['get']
      statuses: {
        200: {
          reply: paths['/repos/{owner}/issues']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['issueVisible']
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
      operation: paths['/repos/{owner}/issues']['post']
      statuses: {
        201: {
          reply: paths['/repos/{owner}/issues']['post']['responses'][201]['content']['application/json']
          record: components['schemas']['issueVisible']
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
  '/repos/{owner}/labels/{label}/issues': {
    get: {
      operation: paths['/repos/{owner}/labels/{label}/issues']['get']
      statuses: {
        200: {
          reply: paths['/repos/{owner}/labels/{label}/issues']['get']['responses'][200]['content']['application/json']
          record: components['schemas']['issueVisible']
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
  '/repos/{owner}/issues/{number}': {
    put: {
      operation: paths['/repos/{owner}/issues/{number}']['put']
      statuses: {
        200: {
          reply: paths['/repos/{owner}/issues/{number}']['put']['responses'][200]['content']['application/json']
          record: components['schemas']['issueVisible']
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
    delete: {
      operation: paths['/repos/{owner}/issues/{number}']['delete']
      statuses: {
        200: {
          reply: paths['/repos/{owner}/issues/{number}']['delete']['responses'][200]['content']['application/json']
          record: components['schemas']['issueVisible']
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
    patch: {
      operation: paths['/repos/{owner}/issues/{number}']['patch']
      statuses: {
        200: {
          reply: paths['/repos/{owner}/issues/{number}']['patch']['responses'][200]['content']['application/json']
          record: components['schemas']['issueVisible']
          records: 'object'
          key: never
        }
        202: {
          reply: paths['/repos/{owner}/issues/{number}']['patch']['responses'][202]['content']['application/json']
          record: components['schemas']['updateIssueRecord202']
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
}
