/**
 * The servers of `npm run bench:mcp`, in a process of their own so that
 * their CPU time is their own: the example app (its REST routes and its MCP
 * endpoint), and beside it the floor, the MCP SDK's own minimal stateless
 * server with one trivial tool, made per request as the SDK's examples make
 * it. It reports both origins once they listen, and answers each 'cpu'
 * message with the CPU time it has used so far.
 */
import Fastify from 'fastify'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
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

process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
  if (message === 'close') Promise.all([app.close(), floor.close()]).then(() => process.exit(0), () => process.exit(1))
})
process.send?.({ app: app.listeningOrigin, floor: floor.listeningOrigin })
