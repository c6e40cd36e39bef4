// Compiled by `npm run test:types`: the MCP endpoint's registration, as a user types it.
import Fastify from 'fastify'
import restrictedFieldsMcp, { restrictedFieldsMcp as named, InvalidArgumentsError } from '../../lib/mcp/index.js'
import type { RestrictedFieldsMcpOptions, ToolRoute } from '../../lib/mcp/index.js'

const app = Fastify()
app.register(restrictedFieldsMcp)
app.register(named, {
  path: '/agents',
  include: (route: ToolRoute) => route.restricted || route.operationId === 'health',
  forwardHeaders: ['cookie'],
  allowedOrigins: ['https://app.example.com'],
  onRequest: async (request) => { request.log.info('an agent') }
})
// @ts-expect-error include is a function of the route, not a list
app.register(restrictedFieldsMcp, { include: ['listUsers'] })
// @ts-expect-error maxArgumentsLength is a number
export const options: RestrictedFieldsMcpOptions = { maxArgumentsLength: '2k' }
// @ts-expect-error a tool is never another method than GET
export const post: ToolRoute = { method: 'POST', path: '/x', restricted: true }
export const code: 'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS' = new InvalidArgumentsError('x').code
