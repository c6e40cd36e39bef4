/**
 * `npm run bench:documents`: callers' OpenAPI documents on GitHub's REST API
 * description (every `GET` route with a JSON 200 response opted in), served
 * through @fastify/swagger-ui with `restrictedFieldsSwaggerUi()`, beside
 * @fastify/swagger's own document, JSON and YAML, served by a route of the
 * same app. An anonymous caller is hidden `node_id` and `email` on every
 * route; staff are hidden nothing. Each row is one request, or eight at
 * once, through `app.inject`, its body read as a stream, with the event loop's longest block meanwhile,
 * read both with `perf_hooks.monitorEventLoopDelay` and with a 1 ms timer
 * that notes the longest gap between its ticks. The builds are counted from
 * the plugin's debug log line. `ready()` is timed, with the share of the
 * plugin's `onReady` hooks (which generate @fastify/swagger's document).
 * Prints a JSON report.
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { declareRoutes, describe, generate, readDescription, seededRandom } from './description.js'

/** Who the bench's callers are, by their `authorization` header, and what each is hidden. */
const HIDDEN: Record<string, readonly string[]> = {
  anonymous: ['node_id', 'email'],
  staff: [],
  partner: ['email'],
  agent: ['node_id'],
  reader: ['html_url'],
  auditor: ['url']
}

let builds = 0
/** The bytes of every body read, read and dropped. */
let bytesRead = 0
/** The app's log, at debug level: only the line of each document build is counted. */
const log = new Writable({
  write (chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.includes('"documentBuild"')) builds++
    done()
  }
})

/** How long `ready()` took, and the plugin's `onReady` hooks within it. */
const readiness = { readyMs: 0, pluginHooksMs: 0 }

async function githubApp (): Promise<ReturnType<typeof Fastify>> {
  const openapi = readDescription()
  const description = describe(openapi)
  const app = Fastify({ logger: { level: 'debug', stream: log } })
  // Fastify's own serializers are compiled for every route at ready (minutes on this description); documents do not depend on them.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version } } })
  // onReady hooks run in the order they were added: these two stand either side of the plugin's.
  let hooksStarted = 0
  app.addHook('onReady', async () => { hooksStarted = performance.now() })
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request) => HIDDEN[String(request.headers.authorization ?? 'anonymous')] ?? HIDDEN.anonymous
  })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addHook('onReady', async () => { readiness.pluginHooksMs = performance.now() - hooksStarted })
  await app.register(restrictedFieldsMcp, { path: '/mcp', mode: 'discovery' })
  // @fastify/swagger's own document, as its static route serves it: the same object each time, serialized by Fastify.
  app.get('/static.json', { schema: { hide: true } }, async () => app.swagger())
  app.get('/static.yaml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/x-yaml').send(app.swagger({ yaml: true })))
  // A caller's view found, without a body to send: the rules asked on every route, the view's key, the lookup.
  app.get('/view', { schema: { hide: true } }, async (request) => {
    await app.restrictedFieldsDocument(request, { shared: true })
    return 'found'
  })
  const shared = new Map(description.shared.map((schema) => [schema.$id, schema]))
  declareRoutes(app, openapi, description, (route, index) => generate(route.schema, shared, seededRandom(41 + index)))
  const started = performance.now()
  await app.ready()
  readiness.readyMs = performance.now() - started
  return app
}

interface Row { request: string, ms: number, loopBlockMs: number, timerGapMs: number, builds: number, status: number[] }

/** Runs `work` (one request or several at once) with the event loop watched two ways. */
async function row (request: string, work: () => Promise<number[]>): Promise<Row> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  let last = performance.now()
  let gap = 0
  const timer = setInterval(() => {
    const now = performance.now()
    gap = Math.max(gap, now - last)
    last = now
  }, 1)
  const buildsBefore = builds
  // Let the probes take their first reading before the work starts.
  await new Promise((resolve) => setTimeout(resolve, 5))
  last = performance.now()
  const started = performance.now()
  const status = await work()
  const ms = performance.now() - started
  // The last gap ends when the loop is free again.
  await new Promise((resolve) => setTimeout(resolve, 5))
  clearInterval(timer)
  histogram.disable()
  const round = (value: number): number => Math.round(value * 10) / 10
  const result = {
    request, ms: round(ms), loopBlockMs: round(histogram.max / 1e6), timerGapMs: round(gap), builds: builds - buildsBefore, status
  }
  process.stderr.write(`  ${JSON.stringify(result)}\n`)
  return result
}

async function main (): Promise<void> {
  const startedAt = performance.now()
  process.stderr.write('  declaring GitHub\'s routes\n')
  const app = await githubApp()
  process.stderr.write(`  made in ${Math.round(performance.now() - startedAt)} ms, ready() ${Math.round(readiness.readyMs)} ms, the plugin's onReady hooks ${Math.round(readiness.pluginHooksMs)} ms\n`)
  // The body is read as a stream, as a socket takes it: inject's own copy and decoding of a whole body
  // is the client's work, not the server's.
  const get = async (url: string, caller: string): Promise<number> => {
    const response = await app.inject({ url, headers: { authorization: caller }, payloadAsStream: true })
    for await (const chunk of response.stream()) bytesRead += (chunk as Buffer).length
    return response.statusCode
  }
  const find = async (caller: string): Promise<number> => (await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { authorization: caller, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_operations', arguments: { query: 'list issues of a repository' } } }
  })).statusCode
  const rows: Row[] = []
  const once = async (request: string, url: string, caller: string): Promise<void> => {
    rows.push(await row(request, async () => [await get(url, caller)]))
  }
  const eight = async (request: string, url: string, caller: string): Promise<void> => {
    rows.push(await row(request, async () => await Promise.all(Array.from({ length: 8 }, async () => await get(url, caller)))))
  }
  await once('@fastify/swagger document, first', '/static.json', 'anonymous')
  for (let again = 1; again <= 3; again++) await once(`@fastify/swagger document, again ${again}`, '/static.json', 'anonymous')
  await eight('@fastify/swagger document, 8 at once', '/static.json', 'anonymous')
  await once('@fastify/swagger YAML, first', '/static.yaml', 'anonymous')
  await once('@fastify/swagger YAML, again', '/static.yaml', 'anonymous')
  await eight('@fastify/swagger YAML, 8 at once', '/static.yaml', 'anonymous')
  await once('anonymous document, first', '/documentation/json', 'anonymous')
  for (let again = 1; again <= 3; again++) await once(`anonymous document, again ${again}`, '/documentation/json', 'anonymous')
  await eight('anonymous document, 8 at once, again', '/documentation/json', 'anonymous')
  await once('anonymous view found again, without sending it (restrictedFieldsDocument shared)', '/view', 'anonymous')
  await once('a view\'s first build, found without sending it (reader)', '/view', 'reader')
  await once('anonymous YAML, first', '/documentation/yaml', 'anonymous')
  await once('anonymous YAML, again', '/documentation/yaml', 'anonymous')
  await eight('anonymous YAML, 8 at once, again', '/documentation/yaml', 'anonymous')
  await once('staff document, first', '/documentation/json', 'staff')
  await once('staff document, again', '/documentation/json', 'staff')
  await eight('8 concurrent first requests of one view (partner)', '/documentation/json', 'partner')
  await eight('8 concurrent first YAML requests of one view (auditor)', '/documentation/yaml', 'auditor')
  rows.push(await row('find_operations, a view\'s first (agent)', async () => [await find('agent')]))
  rows.push(await row('find_operations, again (agent)', async () => [await find('agent')]))
  const size = (await app.inject({ url: '/documentation/json', headers: { authorization: 'anonymous' } })).body.length
  await app.close()
  const [one, five, fifteen] = loadavg()
  const results = JSON.stringify({
    description: 'github.com/api.github.com.json, every GET route with a JSON 200 response',
    anonymousDocumentCharacters: size,
    readyMs: Math.round(readiness.readyMs),
    pluginOnReadyMs: Math.round(readiness.pluginHooksMs),
    bytesRead,
    loadAverage: [one, five, fifteen].map((value) => Number(value.toFixed(2))),
    rows
  }, null, 2) + '\n'
  process.stdout.write(results)
  writeFileSync(new URL('../../bench/documents.json', import.meta.url), results)
}

await main()
