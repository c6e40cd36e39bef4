import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { buildApp } from '../../example/app.js'
import { defaultUsersFile } from '../../example/server.js'
import { memoryStore } from '../../example/store.js'
import { loadUsers } from '../../example/users.js'
import { DISCOVERY_TOOLS } from '../../lib/mcp/discovery.js'
import { connect, definitionTokens, taskTokens } from '../../bench/tokens-tables.js'
import type { ToolDefinition } from '../../bench/tokens-tables.js'

const file = (name: string): string => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')
/**
 * A docs page as a reader sees it: each generated figure's value without its markers
 * (test/bench/figures.test.ts holds them to their files).
 */
const page = (name: string): string => file(name).replace(/<!-- figure [^>]*-->(.*?)<!-- \/figure -->/g, '$1')

interface TaskRow {
  task: string
  calls: string[]
  tokens: { wholePretty: number, wholeCompact: number, chosen: number, compact: number }
  chosenOverWhole: number
}

test('the token tables of docs/agents.md are those the code makes now, as bench/tokens.json records them, and a list task\'s chosen fields cost at most a fifth of the whole page', async (t) => {
  const app = await buildApp({ store: memoryStore(loadUsers(defaultUsersFile)), pageSize: 10, staffToken: 'bench-staff' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const clients = { anonymous: await connect(app.listeningOrigin, false, 'bench-staff'), staff: await connect(app.listeningOrigin, true, 'bench-staff') }
  t.teardown(async () => { await clients.anonymous.close(); await clients.staff.close() })
  const tasks = await taskTokens(clients) as TaskRow[]
  const definitions = {
    anonymous: definitionTokens((await clients.anonymous.listTools()).tools as ToolDefinition[]),
    staff: definitionTokens((await clients.staff.listTools()).tools as ToolDefinition[])
  }
  const results = JSON.parse(file('bench/tokens.json'))
  t.strictSame(tasks, results.tasks, 'the tasks as recorded')
  t.strictSame(definitions, results.definitions, 'the definitions as recorded')
  const agents = page('docs/agents.md')
  for (const row of tasks) {
    const { wholePretty, wholeCompact, chosen, compact } = row.tokens
    const line = `| ${row.task} | ${row.calls.length} | ${wholePretty} | ${wholeCompact} | ${chosen} | ${compact} | ${row.chosenOverWhole.toFixed(2)} |`
    t.ok(agents.includes(line), line)
  }
  for (const caller of ['anonymous', 'staff'] as const) {
    const { generic, withFieldChoicesWithoutEnums, withFieldChoices, withOutputSchemas } = definitions[caller]
    const line = `| ${caller} | ${generic} | ${withFieldChoicesWithoutEnums} | ${withFieldChoices} | ${withOutputSchemas} |`
    t.ok(agents.includes(line), line)
  }
  const names = tasks.find((row) => row.task === 'a page of names') as TaskRow
  t.ok(names.tokens.chosen * 5 <= names.tokens.wholeCompact, `${names.tokens.chosen} tokens against ${names.tokens.wholeCompact}`)
})

test('the large API\'s figures of docs/agents.md are those of bench/tokens.json, within the discovery mode\'s budgets', async (t) => {
  const { scale } = JSON.parse(file('bench/tokens.json'))
  const agents = page('docs/agents.md')
  const definitions = countTokens(JSON.stringify(DISCOVERY_TOOLS))
  t.equal(scale.github.discoveryMode.definitions, definitions, 'the fixed definitions as the code makes them')
  t.ok(definitions <= 3000, `${definitions} tokens of fixed definitions`)
  t.ok(scale.github.task.total <= 5000, `${scale.github.task.total} tokens for the task`)
  const { github, stripe } = scale
  const lines = [
    `| GitHub (${github.routes} routes), per route | ${github.routesMode.total} | ${github.routesMode.medianTool} | ${github.routesMode.largestTool} |`,
    `| GitHub, discovery | ${github.discoveryMode.definitions} | | |`,
    `| Stripe (${stripe.operations} operations), per route | ${stripe.routesMode.total} | ${stripe.routesMode.medianTool} | ${stripe.routesMode.largestTool} |`,
    `| the titles of a page of issues | ${github.task.steps.map((step: { argumentsTokens: number, resultTokens: number }) => step.argumentsTokens + step.resultTokens).join(' + ')} = ${github.task.total} | ${github.task.wholeResponse.compact} | ${github.task.wholeResponse.pretty} |`
  ]
  for (const line of lines) t.ok(agents.includes(line), line)
})
