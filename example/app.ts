/** The example API: a paginated, read-only list of users with restrictable fields. */
import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify'
import sensible from '@fastify/sensible'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import type { RestrictedFieldsMcpOptions } from '../lib/mcp/index.js'
import { pageCount, pageLink, parsePage } from './pagination.js'
import type { UserStore } from './store.js'

export interface ExampleOptions {
  store: UserStore
  pageSize: number
  /** The bearer token that makes a request staff; without one, nobody is staff. */
  staffToken?: string
  logger?: FastifyServerOptions['logger']
  /**
   * The origin the API is reached at (`https://api.example.com`), for the
   * absolute `next`/`previous` links. Without it, the links use the address
   * the server listens on, or, behind a trusted proxy, the proxy's word.
   */
  publicUrl?: string
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-* headers to believe. Default: none. */
  trustProxy?: FastifyServerOptions['trustProxy']
  /** Options of the MCP endpoint at /mcp (its allowed origins, say); `false` serves none. */
  mcp?: RestrictedFieldsMcpOptions | false
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Whether the request sent the staff token. */
    isStaff: boolean
  }
}

/** What only staff may see: to any other request these fields do not exist. */
const STAFF_ONLY = Object.freeze(['last_login', 'profile.phone'])
const NOTHING = Object.freeze([])

function digest (text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

const userSchema = {
  $id: 'user',
  type: 'object',
  description: 'A user of the example API.',
  required: ['id', 'name', 'email', 'is_staff', 'profile', 'posts'],
  properties: {
    id: { type: 'integer', description: 'Unique, from 1.' },
    name: { type: 'string' },
    email: { type: ['string', 'null'], description: 'null when the user has given none.' },
    is_staff: { type: 'boolean' },
    last_login: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When the user last logged in; null if never. Sent to staff only (a request with the staff bearer token): to any other request this field does not exist.'
    },
    profile: {
      type: ['object', 'null'],
      description: 'null when the user has no profile.',
      required: ['city', 'phone'],
      properties: {
        city: { type: 'string' },
        phone: { type: 'string', description: 'Sent to staff only: to any other request this field does not exist.' }
      },
      additionalProperties: false
    },
    posts: {
      type: 'array',
      description: 'What the user wrote, oldest first.',
      items: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'integer' }, title: { type: 'string' } },
        additionalProperties: false
      }
    }
  },
  additionalProperties: false
}

// The bodies of @fastify/sensible's errors and of Fastify's validation errors, which add a code.
const errorSchema = {
  $id: 'error',
  type: 'object',
  description: 'An error.',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    error: { type: 'string' },
    message: { type: 'string' }
  }
}

const pageSchema = {
  type: 'object',
  description: 'A page of users, with the links to its neighbours.',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: { type: 'integer', description: 'The number of users on every page together.' },
    next: { type: ['string', 'null'], description: 'The next page, with the same query parameters; null on the last page.' },
    previous: { type: ['string', 'null'], description: 'The previous page, with the same query parameters; null on the first page.' },
    results: { type: 'array', items: { $ref: 'user#' } }
  }
}

/** Builds the example server; call `listen()` on the result to serve it. */
export async function buildApp (options: ExampleOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false, trustProxy: options.trustProxy ?? false })
  // Links never follow the Host header a client sends: behind a cache, one forged Host would poison every later reader's links.
  const origin = options.publicUrl !== undefined
    ? () => options.publicUrl as string
    : options.trustProxy !== undefined && options.trustProxy !== false
      ? (request: FastifyRequest) => `${request.protocol}://${request.host}`
      : () => app.addresses().length > 0 ? app.listeningOrigin : 'http://localhost'
  await app.register(sensible)
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'fastify-restricted-fields example',
        version: '1.0.0',
        description: 'A paginated, read-only list of users whose fields clients choose with `only` and `defer`.',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' }
      },
      // Relative: the API is served where this document is, whatever HOST and PORT say.
      servers: [{ url: '/', description: 'The server of this document' }],
      // Anonymous requests are served; the staff token shows more.
      security: [{}, { staffToken: [] }],
      tags: [{ name: 'users', description: 'The users of the example' }],
      components: {
        securitySchemes: {
          staffToken: { type: 'http', scheme: 'bearer', description: 'The STAFF_TOKEN the server was started with. Staff see every field, and this document lists the fields only staff see.' }
        }
      }
    },
    // Shared schemas become components named after their $id ('user'), not 'def-0'.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => [json.$id, `def-${i}`].find((name) => typeof name === 'string') as string }
  })
  // Who asks, from an app-level hook: a missing header is anonymous, a wrong token is a 401.
  const staffDigest = options.staffToken === undefined || options.staffToken === '' ? null : digest(options.staffToken)
  app.decorateRequest('isStaff', false)
  app.addHook('onRequest', async function authenticate (request: FastifyRequest, reply) {
    const header = request.headers.authorization
    if (header === undefined) return
    const token = /^Bearer +(\S+)$/i.exec(header)?.[1]
    // Digests have one length, so the comparison takes the same time whatever was sent.
    if (token !== undefined && staffDigest !== null && timingSafeEqual(digest(token), staffDigest)) {
      request.isStaff = true
      return
    }
    reply.header('www-authenticate', 'Bearer')
    throw app.httpErrors.unauthorized(token === undefined ? "The Authorization header must be 'Bearer <token>'" : 'Invalid bearer token')
  })
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => request.isStaff ? NOTHING : STAFF_ONLY,
    // `only=@summary` on every route that declares these fields: a compact record, for lists and links.
    fieldSets: { summary: ['id', 'name'] }
  })
  // Each caller's document leaves out what it may not see: last_login and a profile's phone appear in staff's only.
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi({ uiConfig: { deepLinking: true } }) })
  // The same routes as MCP tools, for agents: each caller's tools name only the fields it may see,
  // and a call runs the route with its Authorization.
  if (options.mcp !== false) {
    await app.register(restrictedFieldsMcp, {
      path: '/mcp',
      name: 'fastify-restricted-fields-example',
      instructions: 'The users of an example API. Every tool takes `only`: name the fields the task needs, and the reply holds those alone.',
      ...options.mcp
    })
  }
  app.addSchema(userSchema)
  app.addSchema(errorSchema)

  const store = options.store
  // A store that loads through an ORM adapter has every declared field checked against its tables now, when the routes are declared.
  const restrictFields = store.loads === undefined ? true : { loads: store.loads }

  app.get('/api/users/', {
    restrictFields,
    schema: {
      operationId: 'listUsers',
      summary: 'List the users, a page at a time',
      description: `Pages hold ${options.pageSize} users, in id order. \`next\` and \`previous\` keep the query parameters as they were sent.`,
      tags: ['users'],
      // A string here, so that the handler's own message explains a malformed page.
      querystring: { type: 'object', properties: { page: { type: 'string', description: "A page number from 1, or 'last'; absent means 1" } } },
      response: {
        200: pageSchema,
        400: { $ref: 'error#', description: 'A malformed page.' },
        401: { $ref: 'error#', description: 'An Authorization header without the staff bearer token.' },
        404: { $ref: 'error#', description: 'A page past the last one.' }
      }
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
    const base = `${origin(request)}${path}`
    return {
      count,
      next: page < pages ? pageLink(base, rawQuery, page + 1) : null,
      previous: page > 1 ? pageLink(base, rawQuery, page - 1) : null,
      // Only the fields the response will contain: a database store selects just those columns.
      results: await store.page((page - 1) * options.pageSize, options.pageSize, request.restrictedFields)
    }
  })

  // The list's URL ends with a slash; without it, a client is sent there, its query kept.
  app.get('/api/users', { schema: { hide: true } }, async function toUsersList (request, reply) {
    const queryStart = request.url.indexOf('?')
    return reply.redirect(`/api/users/${queryStart === -1 ? '' : request.url.slice(queryStart)}`, 308)
  })

  app.get('/api/users/:id', {
    restrictFields,
    schema: {
      operationId: 'getUser',
      summary: 'Get one user',
      description: 'The user with this id, or a 404.',
      tags: ['users'],
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1, description: 'The id of the user.' } }, required: ['id'] },
      response: {
        200: { $ref: 'user#', description: 'The user.' },
        400: { $ref: 'error#', description: 'An id that is not a positive integer.' },
        401: { $ref: 'error#', description: 'An Authorization header without the staff bearer token.' },
        404: { $ref: 'error#', description: 'No user has this id.' }
      }
    }
  }, async function getUser (request, reply) {
    const { id } = request.params as { id: number }
    const user = await store.byId(id, request.restrictedFields)
    if (user === undefined) return reply.notFound(`User ${id} not found`)
    return user
  })

  return app
}
