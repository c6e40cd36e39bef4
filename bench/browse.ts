/**
 * Browsing two APIs by area in the discovery mode, a row each, each served
 * as one anonymous caller sees it: GitHub's REST API, the scale benchmark's
 * description (410 opted-in `GET` routes, tagged), and Stripe's (its `GET`
 * routes with a JSON reply, without tags, all under `/v1`). Checks that
 * every operation is reached by browsing (the areas, then each area's
 * pages), counts each browsing answer in o200k tokens against its budget,
 * the discovery tools' definitions against theirs, and GitHub's list task
 * against its own; writes bench/browse.json and exits 1 when one is past it.
 * `npm run bench:browse`.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { DISCOVERY_TOOLS } from '../lib/mcp/discovery.js'
import { BROWSE_TOOL } from '../lib/mcp/tool-names.js'
import { declareRoutes, describe, generate, readDescription, seededRandom } from './description.js'
import type { DescribedRoute } from './description.js'
import { STRIPE_FILE } from './search-scope.js'

const tokens = (value: unknown): number => countTokens(typeof value === 'string' ? value : JSON.stringify(value))

/** The most tokens one browsing answer, and all the discovery tools' definitions, may cost. */
const ANSWER_BUDGET = 1500
const DEFINITIONS_BUDGET = 600
/** The most tokens the list task, find, describe and call with `only`, may cost together. */
const TASK_BUDGET = 1000

/** One API's app in discovery mode, served on a port, and a client connected to it. */
async function serve (
  openapi: Record<string, any>,
  reply: (route: DescribedRoute, index: number) => unknown
): Promise<{ app: FastifyInstance, client: Client }> {
  const description = describe(openapi)
  const app = Fastify({ logger: false })
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version }, tags: openapi.tags } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { mode: 'discovery' })
  declareRoutes(app, openapi, description, reply)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const client = new Client({ name: 'bench', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin)))
  return { app, client }
}

async function text (client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args }) as { content: Array<{ text: string }> }
  return result.content[0].text
}

/** Browses every area of an API a page at a time: how many operations it lists, how many browsing reached, and each answer's tokens. */
async function browseAll (client: Client): Promise<Record<string, unknown>> {
  const answers: Array<{ call: string, tokens: number }> = []
  const browse = async (args: Record<string, unknown>): Promise<string> => {
    const answer = await text(client, BROWSE_TOOL, args)
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
  const found = (await text(client, 'find_operations', { query: '', limit: 50 })).split('\n').at(-1) as string
  const operations = 50 + Number(/^(\d+) more/.exec(found)?.[1] ?? 0)
  return {
    operations,
    reachedByBrowsing: reached.size,
    areas: areas.length,
    browsingAnswers: answers.length,
    areasAnswerTokens: answers[0].tokens,
    largestAnswer: answers.reduce((most, answer) => answer.tokens > most.tokens ? answer : most)
  }
}

const openapi = readDescription()
const description = describe(openapi)
// As the token bench declares them, with the same generated bodies: the list task's figures are its figures.
const shared = new Map(description.shared.map((schema) => [schema.$id, schema]))
const { app, client } = await serve(openapi, (route, index) => generate(route.schema, shared, seededRandom(41 + index)))
const github = await browseAll(client)
// The token bench's list task, "the titles of a page of issues": find, describe, call with `only`.
const task = [
  ['find_operations', { query: 'list issues of a repository' }],
  ['describe_operation', { operation: 'issues_list-for-repo' }],
  ['call_operation', { operation: 'issues_list-for-repo', arguments: { owner: 'octocat', repo: 'hello-world', only: ['title'] } }]
] as const
const taskTokens: number[] = []
for (const [name, args] of task) taskTokens.push(tokens(args) + tokens(await text(client, name, args)))
await client.close()
await app.close()
const listTask = { findDescribeCall: taskTokens, total: taskTokens.reduce((sum, count) => sum + count), budget: TASK_BUDGET }

// Stripe's description has no tags: its areas are the resources its paths name past `/v1`. Nothing is called, so no body is made.
const stripeApp = await serve(JSON.parse(readFileSync(createRequire(import.meta.url).resolve(STRIPE_FILE), 'utf8')), () => ({}))
const stripe = await browseAll(stripeApp.client)
await stripeApp.client.close()
await stripeApp.app.close()

const definitions = tokens(DISCOVERY_TOOLS)
const report = {
  github: { ...github, listTask },
  stripe,
  answerBudget: ANSWER_BUDGET,
  definitionsTokens: definitions,
  definitionsBudget: DEFINITIONS_BUDGET
}
console.log(JSON.stringify(report, null, 2))
writeFileSync(new URL('../../bench/browse.json', import.meta.url), JSON.stringify(report, null, 2) + '\n')
const failed = [github, stripe].some((row) =>
  row.reachedByBrowsing !== row.operations || (row.largestAnswer as { tokens: number }).tokens > ANSWER_BUDGET)
if (failed || definitions > DEFINITIONS_BUDGET || listTask.total > TASK_BUDGET) process.exitCode = 1
