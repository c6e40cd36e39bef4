/**
 * The example's token tables of `npm run bench:tokens`, apart from the bench
 * so that the token test recomputes them: each agent task's results (whole,
 * chosen fields, `@summary`) and the tool definitions, counted in o200k tokens.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

type Args = Record<string, unknown>
interface Task {
  task: string
  staff?: boolean
  /** The calls the task makes, each with the arguments the task needs. */
  calls: Array<{ tool: string, args: Args }>
  /** The route's default or a field set, for the same calls. */
  compact: Args
}

const five = [1, 2, 3, 4, 5]
export const TASKS: Task[] = [
  { task: 'a page of names', calls: [{ tool: 'listUsers', args: { only: ['name'] } }], compact: { only: ['@summary'] } },
  { task: "one user's city", calls: [{ tool: 'getUser', args: { id: 42, only: ['profile.city'] } }], compact: { only: ['@summary'] } },
  { task: 'the emails of five users', calls: five.map((id) => ({ tool: 'getUser', args: { id, only: ['email'] } })), compact: { only: ['@summary'] } },
  { task: "the titles of one user's posts", calls: [{ tool: 'getUser', args: { id: 7, only: ['posts.title'] } }], compact: { only: ['@summary'] } },
  { task: 'who of a page is staff', calls: [{ tool: 'listUsers', args: { only: ['@summary', 'is_staff'] } }], compact: { only: ['@summary'] } },
  { task: 'when a page of users last logged in (staff)', staff: true, calls: [{ tool: 'listUsers', args: { only: ['name', 'last_login'] } }], compact: { only: ['@summary'] } }
]

interface ToolResult { content: Array<{ text: string }>, structuredContent?: unknown }
export interface ToolDefinition {
  name: string
  description?: string
  inputSchema: { properties?: Record<string, unknown> }
  outputSchema?: unknown
}

export async function connect (origin: string, staff: boolean, staffToken: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' })
  const headers: Record<string, string> = staff ? { authorization: `Bearer ${staffToken}` } : {}
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin), { requestInit: { headers } }))
  return client
}

/** The arguments without the field choices: what a generic bridge's tool takes. */
function whole (args: Args): Args {
  const { only, defer, ...rest } = args
  return rest
}

async function text (client: Client, tool: string, args: Args): Promise<string> {
  const result = await client.callTool({ name: tool, arguments: args }) as ToolResult
  return result.content[0].text
}

export async function taskTokens (clients: { anonymous: Client, staff: Client }): Promise<unknown[]> {
  const rows = []
  for (const task of TASKS) {
    const client = task.staff === true ? clients.staff : clients.anonymous
    const totals = { wholeCompact: 0, wholePretty: 0, chosen: 0, compact: 0 }
    for (const call of task.calls) {
      const all = await text(client, call.tool, whole(call.args))
      totals.wholeCompact += countTokens(all)
      // A generic bridge prints the JSON with two-space indents (JSON.stringify(x, null, 2)).
      totals.wholePretty += countTokens(JSON.stringify(JSON.parse(all), null, 2))
      totals.chosen += countTokens(await text(client, call.tool, call.args))
      totals.compact += countTokens(await text(client, call.tool, { ...whole(call.args), ...task.compact }))
    }
    rows.push({
      task: task.task,
      calls: task.calls.map((call) => `${call.tool} ${JSON.stringify(call.args)}`),
      tokens: totals,
      chosenOverWhole: Number((totals.chosen / totals.wholeCompact).toFixed(3))
    })
  }
  return rows
}

/** A generic bridge's definition of the same tool: the operation's own words, its other parameters, no output schema. */
function genericDefinition (tool: ToolDefinition): unknown {
  // Every tool of the example has parameters: its selection's, at least.
  const { only, defer, ...properties } = tool.inputSchema.properties as Record<string, unknown>
  const description = (tool.description as string).split('\n')[0]
  return { name: tool.name, description, inputSchema: { ...tool.inputSchema, properties } }
}

export function definitionTokens (tools: ToolDefinition[]): Record<string, number> {
  const tokens = (value: unknown): number => countTokens(JSON.stringify(value))
  // The same tools with only and defer taking any string: what the names' enums cost.
  const withoutEnums = tools.map(({ outputSchema, ...tool }) => ({
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: Object.fromEntries(Object.entries(tool.inputSchema.properties as Record<string, unknown>).map(([name, schema]) =>
        [name, ['only', 'defer'].includes(name) ? { ...schema as object, items: { type: 'string' } } : schema]))
    }
  }))
  return {
    generic: tokens(tools.map(genericDefinition)),
    withFieldChoicesWithoutEnums: tokens(withoutEnums),
    withFieldChoices: tokens(tools.map(({ outputSchema, ...tool }) => tool)),
    withOutputSchemas: tokens(tools)
  }
}
