/**
 * `npm run bench`: measures the plugin against a baseline and against the
 * alternatives, with autocannon on 127.0.0.1 against a server in its own
 * process. Rounds alternate between variants and medians are reported, so
 * the ratios hold on a shared, noisy machine.
 *
 * Each measurement also records the server's CPU time per request, read
 * from the server process itself; 1 / (CPU time per request) is the
 * throughput one core would give, a second view of every ratio that other
 * processes on the machine disturb much less than req/s.
 *
 * BENCH_DURATION (seconds per measurement, default 3), BENCH_ROUNDS (default 5)
 * and BENCH_PAGE_SIZES (default "20,100") tune it.
 */
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, writeFileSync } from 'node:fs'
import { cpus, platform, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { SELECTED, TOP_LEVEL_FIELDS, churnSelections } from './data.js'

interface Variant { id: string, title: string, path: string, churn?: boolean }

const deferOthers = TOP_LEVEL_FIELDS.filter((field) => !SELECTED.includes(field)).map((field) => `defer=${field}`).join('&')
const only = SELECTED.map((field) => `only=${field}`).join('&')

const allVariants: Variant[] = [
  { id: '1', title: 'baseline: plugin not registered, full page', path: '/base/records' },
  { id: '2', title: 'opted-in route, no parameters', path: '/plug/records' },
  { id: '1h', title: 'baseline with two no-op route hooks, as an opted-in route has', path: '/noop/records' },
  { id: '3', title: `${only} through the plugin`, path: `/plug/records?${only}` },
  { id: '4', title: 'defer of the other 8 fields through the plugin', path: `/plug/records?${deferOthers}` },
  { id: '5', title: 'limit: hand-written route, exact two-field schema', path: '/hand/records' },
  { id: '5q', title: 'limit, sent the query string of 3 (which it ignores)', path: `/hand/records?${only}` },
  { id: '5d', title: 'limit, sent the query string of 4 (which it ignores)', path: `/hand/records?${deferOthers}` },
  { id: '6', title: 'json-mask in a preSerialization hook', path: `/mask/records?${only}` },
  { id: '7', title: 'naive object copy in a preSerialization hook', path: `/copy/records?${only}` },
  { id: '8', title: 'churn: a field set not seen before, every request', path: '/plug/records', churn: true },
  { id: '7c', title: 'naive object copy, the same churned field sets', path: '/copy/records', churn: true }
]

// BENCH_VARIANTS="1,2" times only those variants, to look into one comparison.
const chosen = process.env.BENCH_VARIANTS?.split(',')
const variants = chosen === undefined ? allVariants : allVariants.filter((v) => chosen.includes(v.id))

const allRatios: Array<{ name: string, over: string, under: string, target: number | null, pageSizes?: number[] }> = [
  { name: '2/1', over: '2', under: '1', target: 0.98 },
  { name: '2/1h', over: '2', under: '1h', target: null },
  { name: '3/5', over: '3', under: '5', target: 0.95 },
  { name: '4/5', over: '4', under: '5', target: 0.95 },
  { name: '3/5q', over: '3', under: '5q', target: null },
  { name: '4/5d', over: '4', under: '5d', target: null },
  { name: '3/6', over: '3', under: '6', target: 1.15, pageSizes: [100] },
  { name: '8/7c', over: '8', under: '7c', target: 0.95 },
  { name: '8/7', over: '8', under: '7', target: null }
]
const ratios = allRatios.filter((r) => variants.some((v) => v.id === r.over) && variants.some((v) => v.id === r.under))

// The load generator on core 0, the server on core 1 (where taskset exists): neither takes the other's core.
const pinned = existsSync('/usr/bin/taskset')
if (pinned) spawnSync('/usr/bin/taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' })

const duration = Number(process.env.BENCH_DURATION ?? 3)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const pageSizes = (process.env.BENCH_PAGE_SIZES ?? '20,100').split(',').map(Number)
const churnSets = churnSelections()
let churnIndex = 0

const nextChurnPath = (base: string): string => `${base}?only=${churnSets[churnIndex++ % churnSets.length]}`

async function startServer (pageSize: number): Promise<{ child: ChildProcess, origin: string }> {
  const script = fileURLToPath(new URL('./server.js', import.meta.url))
  const command = pinned ? ['/usr/bin/taskset', '-c', '1', process.execPath] : [process.execPath]
  const child = spawn(command[0], [...command.slice(1), script, String(pageSize)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [chunk] = await once(child.stdout!, 'data')
  const { port } = JSON.parse(String(chunk))
  return { child, origin: `http://127.0.0.1:${port}` }
}

async function fetchBody (url: string): Promise<string> {
  const response = await fetch(url)
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
  return response.text()
}

/** Every variant must send the bytes it is compared with before it is timed. */
async function checkBodies (origin: string): Promise<void> {
  const body = async (id: string): Promise<string> => fetchBody(origin + allVariants.find((v) => v.id === id)!.path)
  const full = await body('1')
  if (await body('2') !== full) throw new Error('variant 2 differs from the baseline')
  const expected = await body('5')
  for (const id of ['3', '4', '6', '7']) {
    if (await body(id) !== expected) throw new Error(`variant ${id} differs from the two-field limit`)
  }
  for (const set of churnSets.slice(0, 20)) {
    const [plugin, naive] = await Promise.all([fetchBody(`${origin}/plug/records?only=${set}`), fetchBody(`${origin}/copy/records?only=${set}`)])
    if (plugin !== naive) throw new Error(`churn set ${set} differs between the plugin and the naive copy`)
  }
}

interface Sample { rps: number, cpuPerRequest: number }

async function serverCpu (origin: string): Promise<number> {
  const { user, system } = await (await fetch(`${origin}/cpu`)).json() as { user: number, system: number }
  return user + system
}

async function measure (origin: string, variant: Variant, seconds: number): Promise<Sample> {
  const cpuBefore = await serverCpu(origin)
  const result = await autocannon({
    url: origin + variant.path,
    connections: 16,
    duration: seconds,
    requests: variant.churn === true
      ? [{ setupRequest: (request) => ({ ...request, path: nextChurnPath(variant.path) }) }]
      : undefined
  })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`variant ${variant.id}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  const cpu = await serverCpu(origin) - cpuBefore
  return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total }
}

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function benchPageSize (pageSize: number) {
  const { child, origin } = await startServer(pageSize)
  try {
    await checkBodies(origin)
    for (const variant of variants) await measure(origin, variant, 1)
    const samples: Record<string, Sample[]> = Object.fromEntries(variants.map((v) => [v.id, []]))
    for (let round = 0; round < rounds; round++) {
      // Each round starts at another variant, so no variant always runs first or last.
      for (let i = 0; i < variants.length; i++) {
        const variant = variants[(i + round) % variants.length]
        samples[variant.id].push(await measure(origin, variant, duration))
      }
      process.stderr.write(`page ${pageSize}: round ${round + 1}/${rounds} done\n`)
    }
    const medians = Object.fromEntries(variants.map((v) => [v.id, median(samples[v.id].map((s) => s.rps))]))
    // Requests per second of CPU: the inverse of the median CPU time per request.
    const perCore = Object.fromEntries(variants.map((v) => [v.id, 1e6 / median(samples[v.id].map((s) => s.cpuPerRequest))]))
    const computed = Object.fromEntries(ratios.map((r) => [r.name, medians[r.over] / medians[r.under]]))
    const computedPerCore = Object.fromEntries(ratios.map((r) => [r.name, perCore[r.over] / perCore[r.under]]))
    return { medians, perCore, samples, ratios: computed, ratiosPerCore: computedPerCore }
  } finally {
    child.kill()
  }
}

const results: Record<number, Awaited<ReturnType<typeof benchPageSize>>> = {}
for (const pageSize of pageSizes) results[pageSize] = await benchPageSize(pageSize)

const machine = { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${platform()} ${release()}` }
function verdict (ratio: typeof ratios[number], size: number, value: number): string {
  const applies = ratio.target !== null && (ratio.pageSizes === undefined || ratio.pageSizes.includes(size))
  return applies ? `${value.toFixed(2)} ${value >= ratio.target! ? '✓' : '✗'}` : value.toFixed(2)
}

const lines = [
  `Machine: ${machine.cpus} × ${machine.model}, Node ${machine.node}, ${machine.os}; ${rounds} rounds of ${duration} s per variant, 16 connections, medians${pinned ? '; load generator and server pinned to one core each' : ''}.`,
  'req/s: measured throughput. per core: 1 / (server CPU time per request), what one core would give.',
  '',
  `| variant | ${pageSizes.map((size) => `page ${size}: req/s | per core`).join(' | ')} |`,
  `|---|${pageSizes.map(() => '---:|---:').join('|')}|`,
  ...variants.map((v) => `| ${v.id}. ${v.title} | ${pageSizes.map((size) => `${Math.round(results[size].medians[v.id])} | ${Math.round(results[size].perCore[v.id])}`).join(' | ')} |`),
  '',
  `| ratio | target | ${pageSizes.map((size) => `page ${size}: req/s | per core`).join(' | ')} |`,
  `|---|---:|${pageSizes.map(() => '---:|---:').join('|')}|`,
  ...ratios.map((r) => `| ${r.name} | ${r.target === null ? '–' : `≥ ${r.target}`} | ${pageSizes.map((size) =>
    `${verdict(r, size, results[size].ratios[r.name])} | ${verdict(r, size, results[size].ratiosPerCore[r.name])}`).join(' | ')} |`)
]
console.log(lines.join('\n'))
writeFileSync(fileURLToPath(new URL('../../bench/results.json', import.meta.url)), JSON.stringify({
  date: new Date().toISOString(), machine, duration, rounds, variants, ratios, results, table: lines.join('\n')
}, null, 2) + '\n')
