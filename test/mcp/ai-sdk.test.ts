import { test } from 'tap'
import type { Test } from 'tap'
import { createMCPClient } from '@ai-sdk/mcp'
import type { RestrictedFieldsMcpOptions } from '../../lib/mcp/index.js'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'

/** The example, listening, and the Vercel AI SDK's MCP client over its HTTP transport, as an agent built on it connects. */
async function aiSdkClient (
  t: Test,
  mcp: RestrictedFieldsMcpOptions,
  headers: Record<string, string> = {}
): Promise<{ client: Awaited<ReturnType<typeof createMCPClient>>, origin: string }> {
  const app = await buildApp({ store: memoryStore(generateUsers(12)), pageSize: 3, staffToken: 'staff-secret', mcp })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const client = await createMCPClient({ transport: { type: 'http', url: new URL('/mcp', app.listeningOrigin).href, headers } })
  t.teardown(() => client.close())
  return { client, origin: app.listeningOrigin }
}

const options = { toolCallId: 'call-1', messages: [], context: {} }

test('the AI SDK\'s MCP client lists the per-route tools with the caller\'s field names and calls one with only', async (t) => {
  const { client, origin } = await aiSdkClient(t, { mode: 'routes' })
  const tools = await client.tools()
  t.strictSame(Object.keys(tools).sort(), ['getUser', 'listUsers'])
  const listed = await client.listTools()
  const getUser = listed.tools.find((tool) => tool.name === 'getUser') as { inputSchema: { properties: Record<string, any> } }
  t.notOk(getUser.inputSchema.properties.only.items.enum.includes('last_login'), 'an anonymous caller is not offered a staff field')
  const result = await tools.getUser.execute({ id: 3, only: ['name', 'profile.city'] }, options) as { content: Array<{ text: string }>, structuredContent: unknown }
  const http = await (await fetch(new URL('/api/users/3?only=name&only=profile.city', origin))).text()
  t.equal(result.content[0].text, http)
  t.strictSame(result.structuredContent, JSON.parse(http))
})

test('the AI SDK\'s MCP client finds, describes and calls an operation in discovery mode, as staff', async (t) => {
  const { client, origin } = await aiSdkClient(t, { mode: 'discovery' }, { authorization: 'Bearer staff-secret' })
  const tools = await client.tools()
  t.strictSame(Object.keys(tools), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  const text = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await tools[name].execute(args, options)) as { content: Array<{ text: string }> }
    return result.content[0].text
  }
  t.match(await text('find_operations', { query: 'list users' }), /^listUsers: \/api\/users\/ /)
  t.match(await text('describe_operation', { operation: 'listUsers' }), /\nFields: id, name, email, is_staff, profile\{\}, posts\{\}, last_login\n/)
  const http = await (await fetch(new URL('/api/users/?only=name&only=last_login', origin), { headers: { authorization: 'Bearer staff-secret' } })).text()
  t.equal(await text('call_operation', { operation: 'listUsers', arguments: { only: ['name', 'last_login'] } }), http)
})
