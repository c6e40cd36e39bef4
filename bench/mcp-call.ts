/**
 * `npm run bench:mcp`: what a `tools/call` costs the server against the same
 * request over HTTP, with the MCP SDK's own minimal stateless server (one
 * trivial tool) as the floor of what any SDK-served call costs.
 *
 * The servers run in a process of their own (bench/mcp-call-server.ts); this
 * one sends plain requests with fetch, one at a time, so that the client's
 * own work is not counted. Slices of `BENCH_CALLS` requests run back to back
 * in each of `BENCH_PAIRS` rounds: the route over HTTP, the same route as a
 * tool call under 2025-11-25 and under 2026-07-28, a `ping` of the endpoint
 * (what a POST costs before any route runs) and its 2026-07-28 counterpart
 * `server/discover`, each floor's tool call (SDK v2's under both revisions),
 * and the route over HTTP again (the calibration pair: a ratio of 1 is what
 * noise looks like). The figures are
 * the medians of the per-round ratios, beside the median microseconds of
 * server CPU per request, and the load average the machine had.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'

const PAIRS = Number(process.env.BENCH_PAIRS ?? 9)
const CALLS = Number(process.env.BENCH_CALLS ?? 300)
const ROUTE = '/api/users/5?only=name,email'
const LEGACY = '2025-11-25'
const MODERN = '2026-07-28'
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} }

const server = fork(fileURLToPath(new URL('./mcp-call-server.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
const [origins] = await once(server, 'message') as [{ app: string, floor: string, floorV2: string }]

async function serverCpu (): Promise<number> {
  server.send('cpu')
  const [message] = await once(server, 'message') as [{ cpu: NodeJS.CpuUsage }]
  return message.cpu.user + message.cpu.system
}

let id = 0
/** A request of `method` in revision `version`: a 2026-07-28 one carries its `_meta` and the headers that mirror its body. */
function rpc (origin: string, version: string, method: string, params: Record<string, unknown> = {}): () => Promise<void> {
  const modern = version === MODERN
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version }
  if (modern) headers['mcp-method'] = method
  if (modern && typeof params.name === 'string') headers['mcp-name'] = params.name
  const sent = modern ? { ...params, _meta: META } : params
  return async () => {
    const response = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, ...Object.keys(sent).length === 0 ? {} : { params: sent } })
    })
    // SDK v2 answers a 2025-11-25 call as an event stream of one message.
    const text = await response.text()
    const body = JSON.parse(text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6) : text) as { result?: { isError?: boolean } }
    if (response.status !== 200 || body.result === undefined || body.result.isError === true) throw new Error(`${method} failed: ${JSON.stringify(body)}`)
  }
}
const toolCall = (origin: string, version: string, name: string, args: Record<string, unknown>): () => Promise<void> =>
  rpc(origin, version, 'tools/call', { name, arguments: args })

async function httpGet (): Promise<void> {
  const response = await fetch(`${origins.app}${ROUTE}`)
  await response.text()
  if (response.status !== 200) throw new Error(`GET ${ROUTE} answered ${response.status}`)
}

const KINDS = {
  http: httpGet,
  mcp: toolCall(origins.app, LEGACY, 'getUser', { id: 5, only: ['name', 'email'] }),
  mcpModern: toolCall(origins.app, MODERN, 'getUser', { id: 5, only: ['name', 'email'] }),
  ping: rpc(origins.app, LEGACY, 'ping'),
  discover: rpc(origins.app, MODERN, 'server/discover'),
  floor: toolCall(origins.floor, LEGACY, 'echo', {}),
  floorV2: toolCall(origins.floorV2, LEGACY, 'echo', {}),
  floorV2Modern: toolCall(origins.floorV2, MODERN, 'echo', {}),
  calibration: httpGet
}
type Kind = keyof typeof KINDS

/** The server's CPU time per request over one slice, in microseconds. */
async function slice (request: () => Promise<void>): Promise<number> {
  const before = await serverCpu()
  for (let index = 0; index < CALLS; index++) await request()
  return ((await serverCpu()) - before) / CALLS
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

// A warm-up slice of each, so that compiled serializers and JIT-ed code are what is measured.
for (const request of Object.values(KINDS)) await slice(request)
const pairs: Array<Record<Kind, number>> = []
for (let round = 0; round < PAIRS; round++) {
  const pair = {} as Record<Kind, number>
  for (const [kind, request] of Object.entries(KINDS) as Array<[Kind, () => Promise<void>]>) pair[kind] = await slice(request)
  pairs.push(pair)
}
server.send('close')

const micros = (kind: Kind): number => Math.round(median(pairs.map((pair) => pair[kind])))
const ratio = (kind: Kind): number => Number(median(pairs.map((pair) => pair[kind] / pair.http)).toFixed(2))
console.log(`Server CPU per request, µs (median of ${PAIRS} rounds of ${CALLS} requests), and the median per-round ratio to GET ${ROUTE} over HTTP`)
console.log('| Request | µs | × HTTP |')
console.log('|---|---|---|')
console.log(`| GET ${ROUTE} over HTTP | ${micros('http')} | 1 |`)
console.log(`| tools/call getUser, the same request, 2025-11-25 | ${micros('mcp')} | ${ratio('mcp')} |`)
console.log(`| tools/call getUser, the same request, 2026-07-28 | ${micros('mcpModern')} | ${ratio('mcpModern')} |`)
console.log(`| ping, the endpoint alone: a JSON-RPC POST that runs no route, 2025-11-25 | ${micros('ping')} | ${ratio('ping')} |`)
console.log(`| server/discover, the endpoint alone, 2026-07-28 | ${micros('discover')} | ${ratio('discover')} |`)
console.log(`| SDK 1.x's minimal stateless server, tools/call of one trivial tool, 2025-11-25 | ${micros('floor')} | ${ratio('floor')} |`)
console.log(`| SDK v2's createMcpHandler on its Fastify adapter, the same tool, 2025-11-25 | ${micros('floorV2')} | ${ratio('floorV2')} |`)
console.log(`| SDK v2's createMcpHandler on its Fastify adapter, the same tool, 2026-07-28 | ${micros('floorV2Modern')} | ${ratio('floorV2Modern')} |`)
console.log(`| calibration: the GET again | ${micros('calibration')} | ${ratio('calibration')} |`)
console.log(`Load average: ${loadavg().map((load) => load.toFixed(2)).join(', ')}`)
