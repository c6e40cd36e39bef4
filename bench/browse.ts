/**
 * Browsing GitHub's REST API by area in the discovery mode: the scale
 * benchmark's description (410 opted-in `GET` routes) served as one
 * anonymous caller sees it. Checks that every operation is reached by
 * browsing (the areas, then each area's pages), counts each browsing answer
 * in o200k tokens against its budget, and the discovery tools' definitions
 * against theirs; writes bench/browse.json and exits 1 when one is past it.
 * `npm run bench:browse`.
 */
import { writeFileSync } from 'node:fs'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { DISCOVERY_TOOLS } from '../lib/mcp/discovery.js'
import { BROWSE_TOOL } from '../lib/mcp/tool-names.js'
import { declareRoutes, describe, generate, readDescription, seededRandom } from './description.js'

const tokens = (value: unknown): number => countTokens(typeof value === 'string' ? value : JSON.stringify(value))

/** The most tokens one browsing answer, and all the discovery tools' definitions, may cost. */
const ANSWER_BUDGET = 1500
const DEFINITIONS_BUDGET = 600
/** The most tokens the list task, find, describe and call with `only`, may cost together. */
const TASK_BUDGET = 1000

const openapi = readDescription()
const description = describe(openapi)
const app = Fastify({ logger: false })
app.setSerializerCompiler(() => (data) => JSON.stringify(data))
await app.register(swagger, { openapi: { info: { title: description.title, version: description.version }, tags: openapi.tags } })
await app.register(fastifyRestrictedFields)
await app.register(restrictedFieldsMcp, { mode: 'discovery' })
// As the token bench declares them, with the same generated bodies: the list task's figures are its figures.
const shared = new Map(description.shared.map((schema) => [schema.$id, schema]))
declareRoutes(app, openapi, description, (route, index) => generate(route.schema, shared, seededRandom(41 + index)))
await app.listen({ port: 0, host: '127.0.0.1' })
const client = new Client({ name: 'bench', version: '1.0.0' })
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin)))

async function text (name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args }) as { content: Array<{ text: string }> }
  return result.content[0].text
}

const answers: Array<{ call: string, tokens: number }> = []
async function browse (args: Record<string, unknown>): Promise<string> {
  const answer = await text(BROWSE_TOOL, args)
  answers.push({ call: JSON.stringify(args), tokens: tokens(answer) })
  return answer
}

const areas = (await browse({})).split('\n').slice(1).map((line) => /^(.+?) \(\d+\)/.exec(line)?.[1] as string)
const reached = new Set<string>()
for (const area of areas) {
  for (let page = 1; ; page++) {
    const answer = await browse({ area, page })
    for (const line of answer.split('\n').slice(1)) if (line.endsWith(`[${area}]`)) reached.add(line.split(':', 1)[0])
    if (!answer.endsWith(`More: page ${page + 1}.`)) break
  }
}
// The token bench's list task, "the titles of a page of issues": find, describe, call with `only`.
const task = [
  ['find_operations', { query: 'list issues of a repository' }],
  ['describe_operation', { operation: 'issues_list-for-repo' }],
  ['call_operation', { operation: 'issues_list-for-repo', arguments: { owner: 'octocat', repo: 'hello-world', only: ['title'] } }]
] as const
const taskTokens: number[] = []
for (const [name, args] of task) taskTokens.push(tokens(args) + tokens(await text(name, args)))
const found = (await text('find_operations', { query: '', limit: 50 })).split('\n').at(-1) as string
const operations = 50 + Number(/^(\d+) more/.exec(found)?.[1])
const largest = answers.reduce((most, answer) => answer.tokens > most.tokens ? answer : most)
const definitions = tokens(DISCOVERY_TOOLS)
const report = {
  operations,
  reachedByBrowsing: reached.size,
  areas: areas.length,
  browsingAnswers: answers.length,
  areasAnswerTokens: answers[0].tokens,
  largestAnswer: largest,
  answerBudget: ANSWER_BUDGET,
  definitionsTokens: definitions,
  definitionsBudget: DEFINITIONS_BUDGET,
  listTask: { findDescribeCall: taskTokens, total: taskTokens.reduce((sum, count) => sum + count), budget: TASK_BUDGET }
}
console.log(JSON.stringify(report, null, 2))
writeFileSync(new URL('../../bench/browse.json', import.meta.url), JSON.stringify(report, null, 2) + '\n')
await client.close()
await app.close()
const overBudget = largest.tokens > ANSWER_BUDGET || definitions > DEFINITIONS_BUDGET || report.listTask.total > TASK_BUDGET
if (reached.size !== operations || overBudget) process.exitCode = 1
