import type { Level1 } from './record.js'

// A route as a generated RestrictedRoutes has it: an envelope of 72-field records.
export interface Routes {
  '/records': {
    get: {
      operation: {
        parameters: { query?: { only?: string[], defer?: string[], page?: number } }
        responses: { 200: { content: { 'application/json': { count: number, results: Level1[] } } }, 400: { content: { 'application/json': { message: string } } } }
      }
      statuses: {
        200: {
          reply: { count: number, results: Level1[] }
          record: Level1
          records: 'envelope'
          key: 'results'
        }
      }
      only: 'only'
      defer: 'defer'
      sets: { summary: ['f1_0', 'l2.f2_0'] }
      defaultFields: never
      maxDepth: 8
    }
  }
}
