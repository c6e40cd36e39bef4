/**
 * `npm run bench:scale`: a large public API description served whole, with
 * the plugin (`restrictFields: true` on every GET route) and without it, each
 * app in its own process, one after the other. Requests go through
 * `app.inject` in the app's process, so a request's time is the time the
 * event loop takes to answer it, with no network in between; the event loop's
 * delay is read with `perf_hooks.monitorEventLoopDelay`.
 *
 * Each app reports: the time to declare the shared schemas and routes, the
 * time to `ready()`, the heap after it; the first sighting of a selection on
 * every route (its first restricted request, then the same selection again,
 * which is when a selection seen twice is compiled); mixed traffic over 40
 * routes; then other routes' traffic alone, and beside a flood of new
 * selections on the most variant-heavy route, each sent twice; and the heap
 * after it. Writes bench/scale.json and the table of docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, release } from 'node:os'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../lib/index.js'
import { byVariants, declaredPathsOf, describe, fastifyPath, generate, seededRandom, selectionOf } from './description.js'
import type { DescribedRoute } from './description.js'
import { updateScaleSection } from './readme.js'
import type { ScaleApp, ScaleResults } from './readme.js'
import { childResults, counted, drive, gcHeap, latency, turn } from './drive.js'

const SEED = 41
const MIXED_ROUTES = 40
const MIXED_REQUESTS = Number(process.env.SCALE_MIXED_REQUESTS ?? 3000)
const QUIET_REQUESTS = Number(process.env.SCALE_QUIET_REQUESTS ?? 1000)
const FLOOD_SELECTIONS = Number(process.env.SCALE_FLOOD_SELECTIONS ?? 100)
// Bounds on the phases whose length depends on the code measured: a compile that blocks for a second must not make a run last an hour.
const FIRST_SIGHTING_SECONDS = Number(process.env.SCALE_FIRST_SIGHTING_SECONDS ?? 240)
const FLOOD_SECONDS = Number(process.env.SCALE_FLOOD_SECONDS ?? 90)
const CONCURRENCY = 8
// A check of the script itself on fewer routes (the most variant-heavy and a spread of the others); the committed run declares them all.
const ROUTES = Number(process.env.SCALE_ROUTES ?? Infinity)

const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))

const startedAt = performance.now()
/** Says on stderr what the app is doing, for a run that takes minutes. */
function progress (what: string): void {
  process.stderr.write(`  ${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${what}\n`)
}

/** One app, with the plugin or without it, measured in this process. */
async function measure (
  withPlugin: boolean, refusedElsewhere: readonly string[], floodPath: string | null
): Promise<ScaleApp & { refusedPaths: string[], floodPath: string }> {
  const description = describe()
  if (ROUTES < description.routes.length) {
    const kept = new Set(byVariants(description.routes).slice(0, ROUTES / 2))
    const every = Math.ceil(2 * description.routes.length / ROUTES)
    description.routes = description.routes.filter((route, index) => kept.has(route) || index % every === 0)
  }
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const sharedMap = new Map(Object.entries(shared))
  const bodies = new Map(description.routes.map((route, index) => [
    route.path, generate(route.schema, sharedMap, seededRandom(SEED + index))
  ]))
  const heapBefore = await gcHeap()
  progress(`read ${description.routes.length} routes; declaring them`)

  const started = performance.now()
  const app = Fastify({ logger: false })
  if (withPlugin) await app.register(fastifyRestrictedFields)
  for (const schema of description.shared) app.addSchema(schema)
  const refused: Array<{ path: string, code: string }> = []
  const declared: DescribedRoute[] = []
  for (const route of description.routes) {
    const options = { schema: { response: { 200: route.schema } } }
    const body = bodies.get(route.path)
    const handler = async (): Promise<unknown> => body
    try {
      app.get(fastifyPath(route.path), withPlugin ? { ...options, restrictFields: true } : options, handler)
      declared.push(route)
    } catch (error) {
      // A route the plugin refuses is declared without it, as an app would to start at all.
      refused.push({ path: route.path, code: (error as { code?: string }).code ?? String(error) })
      app.get(fastifyPath(route.path), options, handler)
    }
  }
  const declaredAt = performance.now()
  progress('declared; ready()')
  await app.ready()
  const readyAt = performance.now()
  const heapReady = await gcHeap()

  progress('ready; plain bodies')
  // Every route answers its plain body first, so that what follows measures the selections alone.
  const plainStatuses: Record<string, number> = {}
  for (const route of description.routes) {
    const status = (await app.inject(route.url)).statusCode
    plainStatuses[status] = (plainStatuses[status] ?? 0) + 1
  }

  const skip = new Set([...refusedElsewhere, ...refused.map((entry) => entry.path)])
  const restricted = declared.filter((route) => !skip.has(route.path))
    .map((route) => ({ route, paths: declaredPathsOf(route, shared) }))
    .filter(({ paths }) => paths.length > 0)
  const random = seededRandom(SEED)
  // Names are encoded: `+1` is a field of GitHub's reactions, and a `+` in a query string is a space.
  const onlyOf = (paths: readonly string[]): string => `only=${selectionOf(paths, random, 1 + Math.floor(random() * 3)).map(encodeURIComponent).join(',')}`
  const urlOf = (route: DescribedRoute, query: string): string => `${route.url}?${query}`

  progress(`first sightings on ${restricted.length} routes`)
  const first: number[] = []
  const second: number[] = []
  const firstStatuses: Record<string, number> = {}
  const firstStarted = performance.now()
  const sightings = monitorEventLoopDelay({ resolution: 1 })
  sightings.enable()
  for (const { route, paths } of restricted) {
    if (performance.now() - firstStarted > FIRST_SIGHTING_SECONDS * 1000) break
    const url = urlOf(route, onlyOf(paths))
    for (const times of [first, second]) {
      const start = performance.now()
      await turn()
      const response = await app.inject(url)
      times.push(performance.now() - start)
      firstStatuses[response.statusCode] = (firstStatuses[response.statusCode] ?? 0) + 1
    }
  }
  sightings.disable()

  // Mixed traffic: 40 routes spread evenly over the description; on each, no parameters (40%), one of
  // its four usual selections (50%), a new one (10%).
  const step = Math.max(1, Math.floor(restricted.length / MIXED_ROUTES))
  const mixed = restricted.filter((_, index) => index % step === 0).slice(0, MIXED_ROUTES)
  const usual = new Map(mixed.map(({ route, paths }) => [route.path, Array.from({ length: 4 }, () => onlyOf(paths))]))
  const mixedUrl = (): string => {
    const { route, paths } = mixed[Math.floor(random() * mixed.length)]
    const roll = random()
    if (roll < 0.4) return route.url
    if (roll < 0.9) return urlOf(route, usual.get(route.path)![Math.floor(random() * 4)])
    return urlOf(route, onlyOf(paths))
  }
  progress(`mixed traffic over ${mixed.length} routes`)
  const mixedRun = await drive(app, Array.from({ length: CONCURRENCY }, () => counted(MIXED_REQUESTS / CONCURRENCY, mixedUrl)))

  // The flood's route: the most variant-heavy route this app restricts (or the one the other app flooded).
  const flooded = floodPath === null
    ? byVariants(restricted.map(({ route }) => route))[0]
    : restricted.find(({ route }) => route.path === floodPath)!.route
  const floodPaths = restricted.find(({ route }) => route.path === flooded.path)!.paths
  const others = mixed.filter(({ route }) => route.path !== flooded.path)
  const usualUrl = (): string => {
    const { route } = others[Math.floor(random() * others.length)]
    return urlOf(route, usual.get(route.path)![Math.floor(random() * 4)])
  }
  progress('other routes alone')
  const quiet = await drive(app, Array.from({ length: CONCURRENCY / 2 }, () => counted(QUIET_REQUESTS / (CONCURRENCY / 2), usualUrl)))

  progress(`the flood on ${flooded.path}`)
  let floodDone = false
  let floodSent = 0
  let pending: string | null = null
  const floodStarted = performance.now()
  const floodUrl = (): string | null => {
    if (pending !== null) {
      const again = pending
      pending = null
      return again
    }
    if (floodSent >= FLOOD_SELECTIONS || performance.now() - floodStarted > FLOOD_SECONDS * 1000) {
      floodDone = true
      return null
    }
    floodSent++
    // A selection no request has named before, sent twice: the second sighting is the one a selection's admission counts.
    pending = urlOf(flooded, `${onlyOf(floodPaths)}&n=${floodSent}`)
    return pending
  }
  const whileFlooding = (): string | null => floodDone ? null : usualUrl()
  const flood = await drive(app, [floodUrl, ...Array.from({ length: CONCURRENCY / 2 }, () => whileFlooding)])
  const floodSeconds = (performance.now() - floodStarted) / 1000
  const heapAfter = await gcHeap()
  progress('done')
  await app.close()

  return {
    plugin: withPlugin,
    routes: description.routes.length,
    restricted: restricted.length,
    refused: refused.length,
    refusedPaths: refused.map((entry) => `${entry.path} (${entry.code})`),
    sharedSchemas: description.shared.length,
    declareMs: declaredAt - started,
    readyMs: readyAt - declaredAt,
    heap: { start: heapBefore, ready: heapReady, afterFlood: heapAfter },
    plainStatuses,
    firstSighting: {
      routes: first.length, first: latency(first), second: latency(second), statuses: firstStatuses, loopDelayMax: sightings.max / 1e6
    },
    mixed: { routes: mixed.length, latency: latency(mixedRun.times.flat()), loopDelay: mixedRun.loopDelay, statuses: mixedRun.statuses },
    quiet: { latency: latency(quiet.times.flat()), loopDelay: quiet.loopDelay },
    flood: {
      route: flooded.path,
      widestUnion: flooded.widestUnion,
      selections: floodSent,
      seconds: floodSeconds,
      flooded: latency(flood.times[0]),
      others: latency(flood.times.slice(1).flat()),
      loopDelay: flood.loopDelay,
      statuses: flood.statuses
    },
    floodPath: flooded.path
  }
}

/** Runs one app in a child process with the garbage collector exposed, and reads its results. */
async function child (
  withPlugin: boolean, refused: readonly string[], floodPath: string | null
): Promise<ScaleApp & { refusedPaths: string[], floodPath: string }> {
  const app = withPlugin ? 'plugin' : 'plain'
  return await childResults(fileURLToPath(import.meta.url), ['child', app, JSON.stringify({ refused, floodPath })], app)
}

async function main (): Promise<void> {
  if (process.argv[2] === 'child') {
    const { refused, floodPath } = JSON.parse(process.argv[4])
    process.stdout.write(JSON.stringify(await measure(process.argv[3] === 'plugin', refused, floodPath)))
    return
  }
  const loadBefore = loadavg()
  const started = Date.now()
  console.log('The app with the plugin…')
  const withPlugin = await child(true, [], null)
  console.log('The app without it…')
  const plain = await child(false, withPlugin.refusedPaths.map((entry) => entry.replace(/ \(.*$/, '')), withPlugin.floodPath)
  const description = describe()
  const results: ScaleResults = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${process.platform} ${release()}` },
    load: { before: loadBefore, after: loadavg() },
    minutes: (Date.now() - started) / 60_000,
    description: {
      title: description.title,
      version: description.version,
      file: 'github.com/api.github.com.json',
      routes: description.routes.length,
      skipped: description.skipped.length,
      shared: description.shared.length
    },
    settings: {
      seed: SEED,
      concurrency: CONCURRENCY,
      mixedRequests: MIXED_REQUESTS,
      quietRequests: QUIET_REQUESTS,
      floodSelections: FLOOD_SELECTIONS,
      floodSeconds: FLOOD_SECONDS,
      firstSightingSeconds: FIRST_SIGHTING_SECONDS
    },
    refused: withPlugin.refusedPaths,
    apps: { plugin: strip(withPlugin), plain: strip(plain) }
  }
  const file = process.env.SCALE_RESULTS ?? 'bench/scale.json'
  writeFileSync(projectFile(file), JSON.stringify(results, null, 2) + '\n')
  console.log(`Wrote ${file}`)
  if (file === 'bench/scale.json') {
    const page = projectFile('docs/benchmarks.md')
    writeFileSync(page, updateScaleSection(readFileSync(page, 'utf8'), results))
  }
}

function strip ({ refusedPaths, floodPath, ...app }: ScaleApp & { refusedPaths: string[], floodPath: string }): ScaleApp {
  return app
}

await main()
