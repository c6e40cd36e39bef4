import { test } from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildApp } from '../../example/app.js'
import { startServer } from '../../example/server.js'
import { memoryStore } from '../../example/store.js'

test('the example server serves its routes as MCP tools at /mcp, beside the REST routes, to each caller its own fields', async (t) => {
  const app = await startServer({ PORT: '0', PAGE_SIZE: '5', LOG_LEVEL: 'silent', STAFF_TOKEN: 'staff-secret' })
  t.teardown(() => app.close())
  const results: unknown[] = []
  for (const headers of [{}, { authorization: 'Bearer staff-secret' }] as Array<Record<string, string>>) {
    const client = new Client({ name: 'example-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin), { requestInit: { headers } }))
    const { tools } = await client.listTools()
    const only = tools.map((tool) => (tool.inputSchema.properties?.only as { items: { enum: string[] } }).items.enum.includes('last_login'))
    results.push([tools.map((tool) => tool.name), only])
    results.push(await client.callTool({ name: 'getUser', arguments: { id: 3, only: ['name', 'profile.city'] } }))
    await client.close()
  }
  const user = { content: [{ type: 'text', text: '{"name":"Barbara Wirth","profile":{"city":"Oslo"}}' }], structuredContent: { name: 'Barbara Wirth', profile: { city: 'Oslo' } } }
  t.strictSame(results, [[['listUsers', 'getUser'], [false, false]], user, [['listUsers', 'getUser'], [true, true]], user])
  const rest = await fetch(new URL('/api/users/3?only=name,profile.city', app.listeningOrigin))
  t.equal(await rest.text(), user.content[0].text)
})

test('built with `mcp: false`, the example serves no MCP endpoint', async (t) => {
  const app = await buildApp({ store: memoryStore([]), pageSize: 5, mcp: false })
  t.teardown(() => app.close())
  const response = await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: {} })
  t.strictSame([response.statusCode, response.json()], [404, { message: 'Route POST:/mcp not found', error: 'Not Found', statusCode: 404 }])
})
