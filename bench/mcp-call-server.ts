/**
 * The servers of `npm run bench:mcp`, in a process of their own so that
 * their CPU time is their own: the example app (its REST routes and its MCP
 * endpoint), and beside it two floors, each SDK's own minimal server with one
 * trivial tool, made per request as the SDK's examples make it: SDK 1.x's
 * stateless server, and SDK v2's `createMcpHandler` on its Fastify adapter,
 * which answers both revisions. It reports the origins once they listen, and
 * answers each 'cpu' message with the CPU time it has used so far.
 */
import Fastify from 'fastify'
import { createMcpFastifyApp } from '@modelcontextprotocol/fastify'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { createMcpHandler, McpServer as McpServerV2 } from '@modelcontextprotocol/server'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { buildApp } from '../example/app.js'
import { defaultUsersFile } from '../example/server.js'
import { memoryStore } from '../example/store.js'
import { loadUsers } from '../example/users.js'

const app = await buildApp({ store: memoryStore(loadUsers(defaultUsersFile)), pageSize: 10 })
await app.listen({ port: 0, host: '127.0.0.1' })

const floor = Fastify()
floor.post('/mcp', async function minimalServer (request, reply) {
  const server = new McpServer({ name: 'floor', version: '1.0.0' })
  server.registerTool('echo', { description: 'Echoes nothing.' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  reply.hijack()
  reply.raw.on('close', () => {
    transport.close().catch(() => {})
    server.close().catch(() => {})
  })
  await server.connect(transport)
  await transport.handleRequest(request.raw, reply.raw, request.body)
})
await floor.listen({ port: 0, host: '127.0.0.1' })

const handler = toNodeHandler(createMcpHandler(function minimalServer () {
  const server = new McpServerV2({ name: 'floor-v2', version: '1.0.0' })
  server.registerTool('echo', { description: 'Echoes nothing.' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
  return server
}))
const floorV2 = createMcpFastifyApp()
floorV2.all('/mcp', async function sdkV2 (request, reply) {
  reply.hijack()
  await handler(request.raw, reply.raw, request.body)
})
await floorV2.listen({ port: 0, host: '127.0.0.1' })

process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
  if (message === 'close') Promise.all([app.close(), floor.close(), floorV2.close()]).then(() => process.exit(0), () => process.exit(1))
})
process.send?.({ app: app.listeningOrigin, floor: floor.listeningOrigin, floorV2: floorV2.listeningOrigin })
