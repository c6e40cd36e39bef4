/** The example API: a paginated, read-only list of users with restrictable fields. */
import Fastify from 'fastify'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import sensible from '@fastify/sensible'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../lib/index.js'
import { pageCount, pageLink, parsePage } from './pagination.js'
import type { UserStore } from './store.js'

export interface ExampleOptions {
  store: UserStore
  pageSize: number
  logger?: FastifyServerOptions['logger']
}

const userSchema = {
  $id: 'user',
  type: 'object',
  required: ['id', 'name', 'email', 'is_staff'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    is_staff: { type: 'boolean' }
  },
  additionalProperties: false
}

const pageSchema = {
  type: 'object',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: { type: 'integer' },
    next: { type: ['string', 'null'] },
    previous: { type: ['string', 'null'] },
    results: { type: 'array', items: { $ref: 'user#' } }
  }
}

/** Builds the example server; call `listen()` on the result to serve it. */
export async function buildApp (options: ExampleOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false })
  await app.register(sensible)
  await app.register(swagger, {
    openapi: { info: { title: 'fastify-restricted-fields example', version: '1.0.0' } }
  })
  await app.register(swaggerUi, { routePrefix: '/documentation', uiConfig: { deepLinking: true } })
  await app.register(fastifyRestrictedFields)
  app.addSchema(userSchema)

  const store = options.store

  app.get('/api/users/', {
    restrictFields: true,
    schema: {
      // A string here, so that the handler's own message explains a malformed page.
      querystring: { type: 'object', properties: { page: { type: 'string', description: "A page number from 1, or 'last'; absent means 1" } } },
      response: { 200: pageSchema }
    }
  }, async function listUsers (request, reply) {
    const count = await store.count()
    const pages = pageCount(count, options.pageSize)
    const requested = parsePage((request.query as Record<string, unknown>).page, pages)
    if (!requested.ok) return reply.badRequest(requested.message)
    const page = requested.page
    if (page > pages) return reply.notFound(`Page ${page} does not exist: there ${pages === 1 ? 'is 1 page' : `are ${pages} pages`}`)

    const queryStart = request.url.indexOf('?')
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart)
    const rawQuery = queryStart === -1 ? '' : request.url.slice(queryStart + 1)
    const base = `${request.protocol}://${request.host}${path}`
    return {
      count,
      next: page < pages ? pageLink(base, rawQuery, page + 1) : null,
      previous: page > 1 ? pageLink(base, rawQuery, page - 1) : null,
      // Only the fields the response will contain: a database store selects just those columns.
      results: await store.page((page - 1) * options.pageSize, options.pageSize, request.restrictedFields.fields)
    }
  })

  app.get('/api/users/:id', {
    restrictFields: true,
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
      response: { 200: { $ref: 'user#' } }
    }
  }, async function getUser (request, reply) {
    const { id } = request.params as { id: number }
    const user = await store.byId(id, request.restrictedFields.fields)
    if (user === undefined) return reply.notFound(`User ${id} not found`)
    return user
  })

  return app
}
