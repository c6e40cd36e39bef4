/**
 * `npm run bench:tokens`: what an agent pays, in o200k tokens, to use the
 * example's routes as MCP tools, and what a tool call costs the server.
 *
 * Tokens: for a handful of agent tasks, the text of the results (a) as a
 * generic OpenAPI-to-MCP bridge returns them, the whole response, compact
 * and pretty-printed as such bridges print it, (b) with the fields the task
 * needs, (c) with the route's default or `@summary`; and the tool
 * definitions as `tools/list` sends them, with and without the field choices
 * (the enums and the lines that explain them) and the output schemas.
 *
 * Time: the example server runs in a process of its own; tool calls through
 * the SDK's client and the same HTTP requests with fetch alternate in
 * slices, back to back, and the report gives the median of the per-pair
 * ratios of latency and of the server's CPU time per call, with a
 * calibration pair (HTTP against HTTP). The results go to bench/tokens.json.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ChildProcess } from 'node:child_process'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { scaleTokens } from './tokens-scale.js'
import { connect, definitionTokens, taskTokens } from './tokens-tables.js'
import type { ToolDefinition } from './tokens-tables.js'

const STAFF_TOKEN = 'bench-staff'
const PAIRS = Number(process.env.BENCH_PAIRS ?? 9)
const CALLS = Number(process.env.BENCH_CALLS ?? 200)
// A run that leaves out the per-route list (BENCH_DISCOVERY_ONLY) has not every figure of the file: it prints them only.
const write = !process.argv.includes('--no-write') && process.env.BENCH_DISCOVERY_ONLY === undefined
// Only the large APIs' figures, written into the committed results beside the example's.
const scaleOnly = process.argv.includes('--scale-only')

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function serverCpu (server: ChildProcess): Promise<number> {
  server.send('cpu')
  const [message] = await once(server, 'message') as [{ cpu: NodeJS.CpuUsage }]
  return message.cpu.user + message.cpu.system
}

/** One slice: `CALLS` calls one after the other; microseconds per call, of wall time and of the server's CPU. */
async function slice (server: ChildProcess, call: () => Promise<unknown>): Promise<{ latency: number, cpu: number }> {
  const cpuBefore = await serverCpu(server)
  const start = process.hrtime.bigint()
  for (let index = 0; index < CALLS; index++) await call()
  const elapsed = Number(process.hrtime.bigint() - start) / 1000
  const cpu = (await serverCpu(server)) - cpuBefore
  return { latency: elapsed / CALLS, cpu: cpu / CALLS }
}

async function timing (server: ChildProcess, origin: string, client: Client): Promise<unknown> {
  const url = new URL('/api/users/5?only=name&only=email', origin)
  const http = async (): Promise<void> => {
    const response = await fetch(url)
    await response.text()
  }
  const mcp = async (): Promise<void> => { await client.callTool({ name: 'getUser', arguments: { id: 5, only: ['name', 'email'] } }) }
  // Warm both paths before measuring.
  await slice(server, http)
  await slice(server, mcp)
  const pairs: Array<Record<string, { latency: number, cpu: number }>> = []
  for (let pair = 0; pair < PAIRS; pair++) {
    // Alternate which goes first, so that neither always follows the other.
    const first = pair % 2 === 0
    const a = first ? await slice(server, mcp) : await slice(server, http)
    const b = first ? await slice(server, http) : await slice(server, mcp)
    const calibrationA = await slice(server, http)
    const calibrationB = await slice(server, http)
    pairs.push({ mcp: first ? a : b, http: first ? b : a, calibrationA, calibrationB })
  }
  const ratio = (key: 'latency' | 'cpu', over: string, under: string): number => Number(median(pairs.map((pair) => pair[over][key] / pair[under][key])).toFixed(3))
  const micros = (key: 'latency' | 'cpu', which: string): number => Math.round(median(pairs.map((pair) => pair[which][key])))
  return {
    call: 'getUser {"id":5,"only":["name","email"]} against GET /api/users/5?only=name&only=email',
    pairs: PAIRS,
    callsPerSlice: CALLS,
    microsecondsPerCall: {
      mcp: { latency: micros('latency', 'mcp'), serverCpu: micros('cpu', 'mcp') },
      http: { latency: micros('latency', 'http'), serverCpu: micros('cpu', 'http') }
    },
    medianRatio: { latency: ratio('latency', 'mcp', 'http'), serverCpu: ratio('cpu', 'mcp', 'http') },
    calibration: { latency: ratio('latency', 'calibrationA', 'calibrationB'), serverCpu: ratio('cpu', 'calibrationA', 'calibrationB') }
  }
}

const resultsFile = fileURLToPath(new URL('../../bench/tokens.json', import.meta.url))
if (scaleOnly) {
  const results = { ...JSON.parse(readFileSync(resultsFile, 'utf8')), scale: await scaleTokens() }
  console.log(JSON.stringify(results.scale, null, 2))
  if (write) writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n')
  process.exit(0)
}

const server = fork(fileURLToPath(new URL('./tokens-server.js', import.meta.url)), [STAFF_TOKEN], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
try {
  const [{ origin }] = await once(server, 'message') as [{ origin: string }]
  const clients = { anonymous: await connect(origin, false, STAFF_TOKEN), staff: await connect(origin, true, STAFF_TOKEN) }
  const anonymousTools = (await clients.anonymous.listTools()).tools as ToolDefinition[]
  const staffTools = (await clients.staff.listTools()).tools as ToolDefinition[]
  const results = {
    tokenizer: 'o200k_base (gpt-tokenizer)',
    example: '200 users, pages of 10',
    definitions: { anonymous: definitionTokens(anonymousTools), staff: definitionTokens(staffTools) },
    tasks: await taskTokens(clients),
    timing: await timing(server, origin, clients.anonymous),
    scale: await scaleTokens()
  }
  console.log(JSON.stringify(results, null, 2))
  if (write) writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n')
  await clients.anonymous.close()
  await clients.staff.close()
} finally {
  server.send('close')
  await once(server, 'exit')
}
