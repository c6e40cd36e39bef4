/**
 * `npm run bench`: measures the plugin against a baseline and against the
 * alternatives, with autocannon on 127.0.0.1 against a server in its own
 * process that holds every variant (one server per page size).
 *
 * On a shared machine a route measured against itself moves by several
 * percent from one slice of time to the next, so medians taken minutes apart
 * cannot resolve a few percent. Every ratio A/B is therefore measured in
 * pairs: a slice of A and a slice of B back to back (B then A in every other
 * pair), and each pair gives its own ratio. The report is the median of the
 * per-pair ratios with their interquartile range. A calibration pair, the
 * baseline route against itself, is measured the same way: its spread is
 * what noise alone does, the yardstick for every other gap. One round takes
 * one pair of every ratio, starting at another ratio each round, so slow
 * drift touches every ratio alike.
 *
 * Each slice also records the server's CPU time per request, read from the
 * server process itself; 1 / (CPU time per request) is the throughput one
 * core would give ("per core"), a second view of every ratio that is not
 * lowered merely because other processes take turns on the server's core
 * (it still moves with what they do to caches and clock speed).
 *
 * Settings, from the environment:
 * - BENCH_SLICE_SECONDS: length of one slice (default 1);
 * - BENCH_PAIRS: pairs per ratio and page size (default 7);
 * - BENCH_PAGE_SIZES: records per page (default "20,100"; "1,20,100" adds
 *   the page of one record at which the no-parameter ratios are also judged);
 * - BENCH_VARIANTS: "3,5" keeps only those variants, "-9" drops variant 9;
 *   a ratio runs when both its variants are kept. The calibration pair
 *   (variant 1 against itself) always runs;
 * - BENCH_HEAP: "0" leaves out the heap after 60,000 never-seen selections;
 * - BENCH_CONNECTIONS: connections of the load generator (default 16).
 * The run prints its tables and ends with one line saying which targets
 * hold. It leaves the tree alone unless given `--write` (`npm run
 * bench:record`): then the results go to bench/results.json, with the date,
 * the machine and the calibration's spread, and the benchmark figures of
 * README.md and docs/benchmarks.md are written from them (bench/readme.ts).
 */
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { cpus, platform, release } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import {
  HIDDEN_BY_RULE, SEEN_AGAIN_CACHE_SIZE, SELECTED, TOP_LEVEL_FIELDS, WIDE_FIELDS, WIDE_SELECTED,
  churnSelections, nestedUserLists, neverSeenLists, seenAgainSelections, userLists, wideLists
} from './data.js'
import { CALIBRATION } from './readme.js'
import { writeReadme } from './write-readme.js'

/** Field sets that a variant sends in turn, one per request, as `?only=`. */
const cycles = {
  /** 165 sets of two and three fields (bench/data.ts, churnSelections). */
  churn: churnSelections(),
  /** 512 sets, each back every 512 requests (bench/data.ts, seenAgainSelections). */
  seenAgain: seenAgainSelections(),
  /** The users' 512 lists, `id` and each subset of the nine other fields, as one comma list (bench/data.ts, userLists). */
  users: userLists(),
  /** 512 lists of the users with and without `address.city` and `tags.label` (bench/data.ts, nestedUserLists). */
  nested: nestedUserLists(),
  /** 512 lists of the wide record's top-level fields (bench/data.ts, wideLists). */
  wide: wideLists()
}

interface Variant {
  id: string
  title: string
  path: string
  /**
   * The field sets sent in turn, one per request, appended to the path as
   * `?only=`. Each variant goes through the cycle from its own position, so
   * that its route sees the sets in the cycle's order and nothing else.
   */
  cycle?: keyof typeof cycles
  /** The variant whose body this one must send, byte for byte (for each set of its cycle). */
  sameAs?: string
  /** For a GraphQL variant: the variant whose body its `data.records` must be, byte for byte once written as JSON. */
  sameRecordsAs?: string
}

interface Ratio {
  name: string
  title: string
  over: string
  under: string
  target: number | null
  /** Page sizes the ratio is measured at; all when absent. */
  pages?: number[]
  /** Page sizes the target applies to; all measured ones when absent. */
  targetPages?: number[]
}

const graphQL = (prefix: string, selection: string): string => `${prefix}/graphql?query=${encodeURIComponent(`{records{${selection}}}`)}`
const nested = 'only=id&only=profile.city'

const deferOthers = TOP_LEVEL_FIELDS.filter((field) => !SELECTED.includes(field)).map((field) => `defer=${field}`).join('&')
const only = SELECTED.map((field) => `only=${field}`).join('&')

const allVariants: Variant[] = [
  { id: '1', title: 'baseline: plugin not registered, full page', path: '/base/records' },
  { id: '1h', title: 'baseline with two no-op route hooks (preValidation and preSerialization)', path: '/noop/records', sameAs: '1' },
  { id: '1p', title: 'baseline with one no-op preSerialization hook', path: '/nop1/records', sameAs: '1' },
  { id: '2', title: 'opted-in route, no parameters', path: '/plug/records', sameAs: '1' },
  { id: '3', title: `${only} through the plugin`, path: `/plug/records?${only}`, sameAs: '5' },
  { id: '4', title: 'defer of the other 8 fields through the plugin', path: `/plug/records?${deferOthers}`, sameAs: '5' },
  // Sent the same URL as variant 3, as a client would call it: Fastify parses the query string for both.
  { id: '5', title: `limit: hand-written route, exact two-field schema, sent ${only} (which it ignores)`, path: `/hand/records?${only}` },
  // The same schema over the same records as the plugin's routes: what is left of the gap to 5 once the inputs are alike.
  { id: '5f', title: `hand-written route, exact two-field schema, returning the full records, sent ${only}`, path: `/hful/records?${only}`, sameAs: '5' },
  { id: '6', title: `json-mask in a preSerialization hook, ${only}`, path: `/mask/records?${only}`, sameAs: '5' },
  { id: '7c', title: 'naive object copy in a preSerialization hook, the churned field sets', path: '/copy/records', cycle: 'churn' },
  { id: '8', title: 'churn: 165 field sets of two and three fields in turn, through the plugin', path: '/flux/records', cycle: 'churn', sameAs: '7c' },
  { id: '7r', title: 'naive object copy in a preSerialization hook, the 512 field sets seen again', path: '/copy/records', cycle: 'seenAgain' },
  {
    id: '8r',
    title: `seen again: 512 field sets in turn, each back every 512 requests, through the plugin (cacheSize: ${SEEN_AGAIN_CACHE_SIZE})`,
    path: '/seen/records',
    cycle: 'seenAgain',
    sameAs: '7r'
  },
  { id: '9', title: `visibility rule hiding ${HIDDEN_BY_RULE.join(', ')} (not selected), ${only}`, path: `/rule/records?${only}`, sameAs: '3' },
  { id: '10', title: `allOf record (two halves), ${only} through the plugin`, path: `/comp/records?${only}`, sameAs: '5' },
  { id: '11', title: `oneOf record (two variants told apart by kind), ${only} through the plugin`, path: `/vars/records?${only}`, sameAs: '5' },
  { id: '12', title: `only=@summary, a field set of ${SELECTED.join(', ')}, through the plugin`, path: '/plug/records?only=@summary', sameAs: '5' },
  { id: '13', title: `route with default fields ${SELECTED.join(', ')}, no parameters`, path: '/dflt/records', sameAs: '5' },
  { id: '5p', title: 'limit with the product card\'s hook: hand-written route, exact two-field schema, one no-op preSerialization hook', path: `/hnop/records?${only}`, sameAs: '5' },
  { id: '3n', title: `${nested}, a nested selection, through the plugin`, path: `/plug/records?${nested}` },
  { id: 'ne4', title: 'naive copy, users in an envelope requiring count, next, previous, results; the 512 lists', path: '/ne4s/records', cycle: 'users' },
  { id: 'ue4', title: 'plugin, the same envelope and lists', path: '/pe4s/records', cycle: 'users', sameAs: 'ne4' },
  { id: 'ne2', title: 'naive copy, users in an envelope requiring count and results; the 512 lists', path: '/ne2s/records', cycle: 'users' },
  { id: 'ue2', title: 'plugin, the same envelope and lists', path: '/pe2s/records', cycle: 'users', sameAs: 'ne2' },
  { id: 'nej', title: 'naive copy, users with a toJSON() in the envelope requiring count and results; the 512 lists', path: '/nejs/records', cycle: 'users' },
  { id: 'uej', title: 'plugin, the same documents, envelope and lists: the copy path', path: '/pejs/records', cycle: 'users', sameAs: 'nej' },
  { id: 'nar', title: 'naive copy, users in a plain array; the 512 lists', path: '/nars/records', cycle: 'users' },
  { id: 'uar', title: 'plugin, the same array and lists', path: '/pars/records', cycle: 'users', sameAs: 'nar' },
  { id: 'nen', title: 'naive copy, users in the envelope requiring count and results; 512 lists with and without address.city and tags.label', path: '/ne2s/records', cycle: 'nested' },
  { id: 'uen', title: 'plugin, the same envelope and nested lists', path: '/pens/records', cycle: 'nested', sameAs: 'nen' },
  { id: '7j', title: 'naive copy, today\'s records with a toJSON(), the 512 field sets seen again', path: '/cpyj/records', cycle: 'seenAgain' },
  { id: '8j', title: `plugin, the same documents and field sets (cacheSize: ${SEEN_AGAIN_CACHE_SIZE}): the copy path`, path: '/seej/records', cycle: 'seenAgain', sameAs: '7j' },
  { id: 'wp', title: 'wide record, route without the option, one no-op preSerialization hook', path: '/wnop/records' },
  { id: 'w0', title: 'wide record, opted-in route, no parameters', path: '/wide/records', sameAs: 'wp' },
  { id: 'wh', title: `wide record, hand-written route, exact schema of ${WIDE_SELECTED.join(', ')}, one no-op hook`, path: `/hwid/records?only=${WIDE_SELECTED.join(',')}` },
  { id: 'wc', title: `wide record, only=${WIDE_SELECTED.join(',')}, compiled`, path: `/wide/records?only=${WIDE_SELECTED.join(',')}`, sameAs: 'wh' },
  {
    id: 'whf',
    title: `wide record, hand-written route, exact schema of ${WIDE_SELECTED.join(', ')} over the full 60-field records, one no-op hook`,
    path: `/hwif/records?only=${WIDE_SELECTED.join(',')}`,
    sameAs: 'wh'
  },
  { id: 'wn', title: 'wide record, naive copy, 512 lists of its top-level fields', path: '/nwid/records', cycle: 'wide' },
  { id: 'ww', title: 'wide record, plugin, the same lists: written', path: '/wflx/records', cycle: 'wide', sameAs: 'wn' },
  { id: 'wnj', title: 'wide record with a toJSON(), naive copy, the same lists', path: '/nwij/records', cycle: 'wide' },
  { id: 'wj', title: 'wide record with a toJSON(), plugin, the same lists: the copy path', path: '/wdoc/records', cycle: 'wide', sameAs: 'wnj' },
  { id: 'gj', title: 'GraphQL: mercurius with its JIT, { records { id name } } by GET', path: graphQL('/gqlj', 'id name'), sameRecordsAs: '5' },
  { id: 'gn', title: 'GraphQL: mercurius without its JIT, { records { id name } } by GET', path: graphQL('/gqln', 'id name'), sameRecordsAs: '5' },
  { id: 'gjn', title: 'GraphQL: mercurius with its JIT, { records { id profile { city } } } by GET', path: graphQL('/gqlj', 'id profile{city}'), sameRecordsAs: '3n' }
]

const allRatios: Ratio[] = [
  { name: '1/1', title: 'calibration: baseline against itself', over: '1', under: '1', target: null },
  { name: '8/7c', title: 'churn, 165 field sets in turn: plugin / naive copy', over: '8', under: '7c', target: 0.95 },
  { name: '8r/7r', title: '512 field sets in turn, each seen again every 512 requests, on a cache of 100: plugin / naive copy', over: '8r', under: '7r', target: 0.95 },
  { name: '3/5p', title: `${only}, compiled / hand-written route with one no-op hook`, over: '3', under: '5p', target: 0.97 },
  { name: '4/5p', title: 'defer of the other 8, compiled / hand-written route with one no-op hook', over: '4', under: '5p', target: 0.95 },
  { name: '3/5', title: `${only}, compiled / hand-written route without hooks`, over: '3', under: '5', target: null },
  { name: '2/1', title: 'opted-in route, no parameters / route without the option', over: '2', under: '1', target: 0.98 },
  { name: '2/1h', title: 'opted-in route, no parameters / two no-op hooks', over: '2', under: '1h', target: null },
  { name: '2/1p', title: 'opted-in route, no parameters / one no-op preSerialization hook', over: '2', under: '1p', target: 0.98 },
  { name: '12/5p', title: 'only=@summary / hand-written route with one no-op hook', over: '12', under: '5p', target: 0.97 },
  { name: '13/5p', title: 'route default, no parameters / hand-written route with one no-op hook', over: '13', under: '5p', target: 0.97 },
  { name: '9/3', title: 'per-request visibility rule / no rule, same request', over: '9', under: '3', target: 0.95, pages: [20] },
  { name: '3/6', title: `${only}, compiled / json-mask`, over: '3', under: '6', target: 1.15, targetPages: [100] },
  { name: '10/5p', title: `allOf record, ${only}, compiled / hand-written route with one no-op hook`, over: '10', under: '5p', target: 0.97 },
  { name: '11/5p', title: `oneOf record of two variants, ${only}, compiled / hand-written route with one no-op hook`, over: '11', under: '5p', target: 0.97 },
  { name: 'ue4/ne4', title: 'users, envelope requiring count, next, previous, results, 512 lists in turn: plugin / naive copy', over: 'ue4', under: 'ne4', target: 0.95 },
  { name: 'ue2/ne2', title: 'users, envelope requiring count and results, 512 lists in turn: plugin / naive copy', over: 'ue2', under: 'ne2', target: 0.95 },
  { name: 'uej/nej', title: 'the same with records that have a toJSON(), the copy path: plugin / naive copy', over: 'uej', under: 'nej', target: 0.95 },
  { name: 'uar/nar', title: 'users, plain array, 512 lists in turn: plugin / naive copy', over: 'uar', under: 'nar', target: 0.95 },
  { name: 'uen/nen', title: 'users, envelope requiring count and results, 512 nested lists in turn: plugin / naive copy', over: 'uen', under: 'nen', target: 0.95 },
  { name: '8j/7j', title: 'today\'s records with a toJSON(), 512 field sets seen again, the copy path: plugin / naive copy', over: '8j', under: '7j', target: 0.95 },
  { name: 'w0/wp', title: 'wide record, no parameters / one no-op preSerialization hook', over: 'w0', under: 'wp', target: 0.98 },
  { name: 'wc/wh', title: 'wide record, compiled / hand-written route with one no-op hook', over: 'wc', under: 'wh', target: 0.97 },
  {
    name: 'wc/whf',
    title: 'wide record, compiled / hand-written schema with one no-op hook over the same full records',
    over: 'wc',
    under: 'whf',
    target: null
  },
  {
    name: 'whf/wh',
    title: 'wide record, hand-written: the full records / the records of the selected fields alone',
    over: 'whf',
    under: 'wh',
    target: null
  },
  { name: 'ww/wn', title: 'wide record, 512 lists in turn, written: plugin / naive copy', over: 'ww', under: 'wn', target: 0.95 },
  { name: 'wj/wnj', title: 'wide record with a toJSON(), 512 lists in turn, the copy path: plugin / naive copy', over: 'wj', under: 'wnj', target: 0.95 },
  { name: '3/gj', title: `${only} through the plugin / GraphQL, mercurius with its JIT`, over: '3', under: 'gj', target: null },
  { name: '3/gn', title: `${only} through the plugin / GraphQL, mercurius without its JIT`, over: '3', under: 'gn', target: null },
  { name: '3n/gjn', title: `${nested} through the plugin / GraphQL, mercurius with its JIT, the same nested selection`, over: '3n', under: 'gjn', target: null },
  { name: '3/5f', title: `${only}, compiled / hand-written schema over the same full records`, over: '3', under: '5f', target: null },
  { name: '12/5f', title: 'only=@summary / hand-written schema over the same full records', over: '12', under: '5f', target: null }
]

function fail (message: string): never {
  throw new Error(message)
}

function badSetting (message: string): never {
  console.error(`bench: ${message}`)
  process.exit(1)
}

function numberSetting (name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name]
  const value = raw === undefined || raw.trim() === '' ? fallback : Number(raw)
  if (!(value > 0) || (integer && !Number.isInteger(value))) badSetting(`${name} should be a positive ${integer ? 'integer' : 'number'}, instead got '${raw}'`)
  return value
}

function chooseVariants (spec: string | undefined): Variant[] {
  const ids = (spec ?? '').split(',').map((id) => id.trim()).filter((id) => id !== '')
  const unknown = ids.map((id) => id.replace(/^-/, '')).filter((id) => !allVariants.some((v) => v.id === id))
  if (unknown.length > 0) badSetting(`BENCH_VARIANTS: unknown variant ${unknown.join(', ')}; the variants are ${allVariants.map((v) => v.id).join(', ')}`)
  const kept = ids.filter((id) => !id.startsWith('-'))
  const dropped = ids.filter((id) => id.startsWith('-')).map((id) => id.slice(1))
  // Variant 1 always runs: without the calibration pair, no other gap can be judged.
  return allVariants.filter((v) => v.id === '1' || ((kept.length === 0 || kept.includes(v.id)) && !dropped.includes(v.id)))
}

const sliceSeconds = numberSetting('BENCH_SLICE_SECONDS', 1, false)
const pairCount = numberSetting('BENCH_PAIRS', 7, true)
const pageSizes = (process.env.BENCH_PAGE_SIZES ?? '20,100').split(',').map(Number)
if (!pageSizes.every((size) => Number.isInteger(size) && size > 0)) badSetting(`BENCH_PAGE_SIZES should list positive integers, instead got '${process.env.BENCH_PAGE_SIZES}'`)
const variants = chooseVariants(process.env.BENCH_VARIANTS)
const measureHeap = process.env.BENCH_HEAP !== '0'
const measuredAt = (ratio: Ratio, size: number): boolean => ratio.pages === undefined || ratio.pages.includes(size)
const ratios = allRatios.filter((r) => variants.some((v) => v.id === r.over) && variants.some((v) => v.id === r.under) &&
  pageSizes.some((size) => measuredAt(r, size)))
if (ratios.length === 0) badSetting('no ratio to measure: BENCH_VARIANTS must keep both variants of a ratio measured at one of BENCH_PAGE_SIZES')

const CONNECTIONS = numberSetting('BENCH_CONNECTIONS', 16, true)
const WARM_UP_SECONDS = 1
/**
 * A variant with a cycle is warmed up with this many passes through it instead:
 * its route's memo of parses fills in the first passes, and every set must
 * have been written often enough for the JIT to settle (bench/data.ts).
 */
const WARM_UP_PASSES = 50
const variantById = (id: string): Variant => allVariants.find((v) => v.id === id)!
const involves = (ratio: Ratio, variant: Variant): boolean => ratio.over === variant.id || ratio.under === variant.id
const ratiosAt = (size: number): Ratio[] => ratios.filter((r) => measuredAt(r, size))
const variantsAt = (size: number): Variant[] => variants.filter((v) => ratiosAt(size).some((r) => involves(r, v)))
const measuredVariants = variants.filter((v) => ratios.some((r) => involves(r, v)))
const targetAt = (ratio: Ratio, size: number): boolean =>
  ratio.target !== null && measuredAt(ratio, size) && (ratio.targetPages === undefined || ratio.targetPages.includes(size))

// The load generator on core 0, the server on core 1 (where taskset exists): neither takes the other's core.
const pinned = existsSync('/usr/bin/taskset')
if (pinned) spawnSync('/usr/bin/taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' })

/** How far each variant with a cycle has gone through it. */
const cyclePositions = new Map<string, number>()

function nextCyclePath (variant: Variant): string {
  const sets = cycles[variant.cycle!]
  const position = cyclePositions.get(variant.id) ?? 0
  cyclePositions.set(variant.id, position + 1)
  return `${variant.path}?only=${sets[position % sets.length]}`
}

interface Server { child: ChildProcess, origin: string }

async function startServer (pageSize: number): Promise<Server> {
  const script = fileURLToPath(new URL('./server.js', import.meta.url))
  const command = pinned ? ['/usr/bin/taskset', '-c', '1', process.execPath] : [process.execPath]
  // --expose-gc: the heap is read once garbage is collected.
  const child = spawn(command[0], [...command.slice(1), '--expose-gc', script, String(pageSize)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk) => resolve(String(chunk)))
    child.once('exit', (code) => reject(new Error(`the benchmark server exited with code ${code} before listening`)))
  })
  const { port } = JSON.parse(line)
  return { child, origin: `http://127.0.0.1:${port}` }
}

async function fetchBody (url: string): Promise<string> {
  const response = await fetch(url)
  if (response.status !== 200) fail(`${url} answered ${response.status}`)
  return response.text()
}

/**
 * Every variant must be served, and send the bytes it is compared with, before
 * it is timed: a variant with a cycle, for every set of it, in the cycle's order.
 */
async function checkVariants ({ origin }: Server, used: Variant[]): Promise<void> {
  for (const variant of used) {
    if (variant.sameRecordsAs !== undefined) {
      const [body, expected] = await Promise.all([
        fetchBody(origin + variant.path),
        fetchBody(origin + variantById(variant.sameRecordsAs).path)
      ])
      if (JSON.stringify(JSON.parse(body).data?.records) !== expected) fail(`variant ${variant.id} answers other records than variant ${variant.sameRecordsAs}`)
    }
    if (variant.sameAs === undefined) continue
    const queries = variant.cycle === undefined ? [''] : cycles[variant.cycle].map((set) => `?only=${set}`)
    for (const query of queries) {
      const [body, expected] = await Promise.all([
        fetchBody(origin + variant.path + query),
        fetchBody(origin + variantById(variant.sameAs).path + query)
      ])
      if (body !== expected) fail(`variant ${variant.id} sends other bytes than variant ${variant.sameAs}${query === '' ? '' : ` for ${query}`}`)
    }
  }
}

interface Slice { rps: number, cpuPerRequest: number }

async function serverCpu (origin: string): Promise<number> {
  const { user, system } = await (await fetch(`${origin}/cpu`)).json() as { user: number, system: number }
  return user + system
}

/** One slice of `seconds`, or of `amount` requests when given. */
async function measure (origin: string, variant: Variant, seconds: number, amount?: number): Promise<Slice> {
  const cpuBefore = await serverCpu(origin)
  const result = await autocannon({
    url: origin + variant.path,
    connections: CONNECTIONS,
    duration: seconds,
    amount,
    // autocannon stops at a sample tick: ticks every 100 ms keep a slice close to its length.
    sampleInt: 100,
    requests: variant.cycle === undefined
      ? undefined
      : [{ setupRequest: (request) => ({ ...request, path: nextCyclePath(variant) }) }]
  })
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    fail(`variant ${variant.id}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  const cpu = await serverCpu(origin) - cpuBefore
  // result.duration is rounded to 10 ms, half a percent of a 1 s slice: the dates are exact to the millisecond.
  const elapsed = (result.finish.getTime() - result.start.getTime()) / 1000
  return { rps: result.requests.total / elapsed, cpuPerRequest: cpu / result.requests.total }
}

/** The never-seen selections sent to each record's fresh route: as many query strings, none sent twice. */
const NEVER_SEEN = 60_000

async function heapUsed (origin: string): Promise<number> {
  return (await (await fetch(`${origin}/heap`)).json() as { heapUsed: number }).heapUsed
}

/**
 * The heap in use (after garbage collection) before and after NEVER_SEEN
 * selections never sent before, on a route that served nothing else: what a
 * stream of new field sets leaves behind.
 */
async function heapAfterNeverSeen (
  origin: string, path: string, fields: readonly string[], nested: readonly string[]
): Promise<{ before: number, after: number }> {
  const lists = neverSeenLists(fields, nested, NEVER_SEEN)
  let position = 0
  const before = await heapUsed(origin)
  const result = await autocannon({
    url: origin + path,
    connections: CONNECTIONS,
    amount: NEVER_SEEN,
    requests: [{ setupRequest: (request) => ({ ...request, path: `${path}?only=${lists[position++ % lists.length]}` }) }]
  })
  if (result.non2xx > 0 || result.errors > 0) fail(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors while sending never-seen selections`)
  return { before, after: await heapUsed(origin) }
}

/** The q-quantile of sorted values, interpolated between neighbours. */
function quantile (sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  return sorted[low] + (sorted[Math.ceil(position)] - sorted[low]) * (position - low)
}

interface Spread { median: number, q1: number, q3: number, min: number, max: number }

function spread (values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    median: quantile(sorted, 0.5), q1: quantile(sorted, 0.25), q3: quantile(sorted, 0.75), min: sorted[0], max: sorted[sorted.length - 1]
  }
}

interface Pair { overFirst: boolean, over: Slice, under: Slice }

async function benchPageSize (pageSize: number) {
  const active = ratiosAt(pageSize)
  const used = variantsAt(pageSize)
  const server = await startServer(pageSize)
  try {
    await checkVariants(server, used)
    // Compiled serializers, memoized selections and the JIT are warm before anything counts.
    for (const variant of used) {
      const passes = variant.cycle === undefined ? undefined : WARM_UP_PASSES * cycles[variant.cycle].length
      await measure(server.origin, variant, WARM_UP_SECONDS, passes)
    }
    const pairs: Record<string, Pair[]> = Object.fromEntries(active.map((r) => [r.name, []]))
    const slices: Record<string, Slice[]> = Object.fromEntries(used.map((v) => [v.id, []]))
    for (let round = 0; round < pairCount; round++) {
      const overFirst = round % 2 === 0
      for (let i = 0; i < active.length; i++) {
        const ratio = active[(i + round) % active.length]
        const [firstId, secondId] = overFirst ? [ratio.over, ratio.under] : [ratio.under, ratio.over]
        const first = await measure(server.origin, variantById(firstId), sliceSeconds)
        const second = await measure(server.origin, variantById(secondId), sliceSeconds)
        slices[firstId].push(first)
        slices[secondId].push(second)
        pairs[ratio.name].push(overFirst ? { overFirst, over: first, under: second } : { overFirst, over: second, under: first })
      }
      process.stderr.write(`page ${pageSize}: round ${round + 1}/${pairCount} done\n`)
    }
    // Once, at the first page size: the heap depends on the selections, not on the page.
    const heap = pageSize !== pageSizes[0] || !measureHeap
      ? undefined
      : {
          selections: NEVER_SEEN,
          records: await heapAfterNeverSeen(server.origin, '/hpu/records', TOP_LEVEL_FIELDS, ['profile.city', 'profile.zip', 'tags.label', 'tags.id']),
          wide: await heapAfterNeverSeen(server.origin, '/hpw/records', WIDE_FIELDS, ['profile.p0', 'profile.geo.g1', 'orders.o2', 'orders.item.i0', 'sessions.s1'])
        }
    return {
      heap,
      variants: Object.fromEntries(used.map((v) => [v.id, {
        rps: spread(slices[v.id].map((s) => s.rps)).median,
        perCore: 1e6 / spread(slices[v.id].map((s) => s.cpuPerRequest)).median,
        slices: slices[v.id].length
      }])),
      ratios: Object.fromEntries(active.map((r) => [r.name, {
        rps: spread(pairs[r.name].map((p) => p.over.rps / p.under.rps)),
        // Per core is the inverse of CPU time per request, so the ratio turns over.
        perCore: spread(pairs[r.name].map((p) => p.under.cpuPerRequest / p.over.cpuPerRequest)),
        pairs: pairs[r.name]
      }]))
    }
  } finally {
    server.child.kill()
  }
}

type PageResult = Awaited<ReturnType<typeof benchPageSize>>

/** One line: which ratios with a target meet it, in measured throughput, at the page sizes they are judged at. */
function verdict (results: Record<number, PageResult>, seconds: number): string {
  const resultAtTarget = (ratio: Ratio, size: number): boolean => targetAt(ratio, size) && results[size].ratios[ratio.name] !== undefined
  const judged = ratios.filter((ratio) =>
    ratio.target !== null && ratio.over !== ratio.under && pageSizes.some((size) => resultAtTarget(ratio, size)))
  const missed = judged.filter((ratio) =>
    pageSizes.some((size) => resultAtTarget(ratio, size) && results[size].ratios[ratio.name].rps.median < ratio.target!))
  const took = `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
  return missed.length === 0
    ? `Targets: all ${judged.length} met (${took}).`
    : `Targets: ${judged.length - missed.length} of ${judged.length} met; missed: ${missed.map((ratio) => ratio.name).join(', ')} (${took}).`
}

const megabytes = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)

/** The heap before and after the never-seen selections, when measured. */
function heapLines (results: Record<number, PageResult>): string[] {
  const heap = results[pageSizes[0]].heap
  if (heap === undefined) return []
  return [
    `Heap in use after garbage collection, before and after ${NEVER_SEEN.toLocaleString('en')} never-seen selections on a fresh route:`,
    '',
    '| record | before (MB) | after (MB) |',
    '|---|---:|---:|',
    `| today's record | ${megabytes(heap.records.before)} | ${megabytes(heap.records.after)} |`,
    `| wide record | ${megabytes(heap.wide.before)} | ${megabytes(heap.wide.after)} |`,
    ''
  ]
}

function report (results: Record<number, PageResult>): string[] {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${platform()} ${release()}`
  const ratioCell = (ratio: Ratio, size: number, view: 'rps' | 'perCore'): string => {
    const measured = results[size].ratios[ratio.name]?.[view]
    return measured === undefined ? '–' : `${measured.median.toFixed(2)} [${measured.q1.toFixed(2)}–${measured.q3.toFixed(2)}]`
  }
  const met = (ratio: Ratio, view: 'rps' | 'perCore'): string => {
    const judged = pageSizes.filter((size) => targetAt(ratio, size))
    if (judged.length === 0) return '–'
    const missed = judged.filter((size) => results[size].ratios[ratio.name][view].median < ratio.target!)
    return missed.length === 0 ? '✓' : `✗ (page ${missed.join(', ')})`
  }
  const target = (ratio: Ratio): string => {
    if (ratio.over === ratio.under) return 'noise'
    if (ratio.target === null) return '–'
    return ratio.targetPages === undefined ? `≥ ${ratio.target}` : `≥ ${ratio.target} (page ${ratio.targetPages.join(', ')})`
  }
  const table = (view: 'rps' | 'perCore', heading: string): string[] => [
    heading,
    '',
    `| ratio | target | ${pageSizes.map((size) => `page ${size}`).join(' | ')} | met |`,
    `|---|---:|${pageSizes.map(() => '---:').join('|')}|:---:|`,
    ...ratios.map((r) => `| ${r.name} ${r.title} | ${target(r)} | ${pageSizes.map((size) => ratioCell(r, size, view)).join(' | ')} | ${met(r, view)} |`)
  ]
  const variantCell = (id: string, size: number): string => {
    const measured = results[size].variants[id]
    return measured === undefined ? '– | –' : `${Math.round(measured.rps)} | ${Math.round(measured.perCore)}`
  }
  return [
    `Machine: ${machine}. Each ratio: ${pairCount} pairs of back-to-back ${sliceSeconds} s slices per page size, order alternating, ` +
      `${CONNECTIONS} connections${pinned ? ', load generator and server pinned to one core each' : ''}.`,
    'Cells: median of the per-pair ratios [interquartile range]. The calibration 1/1 is one route against itself: gaps inside its range are noise.',
    '',
    ...table('rps', 'req/s, measured throughput:'),
    '',
    ...table('perCore', 'per core, 1 / (server CPU time per request):'),
    '',
    ...heapLines(results),
    'Variants, median over every slice (req/s | per core):',
    '',
    `| variant | ${pageSizes.map((size) => `page ${size}: req/s | per core`).join(' | ')} |`,
    `|---|${pageSizes.map(() => '---:|---:').join('|')}|`,
    ...measuredVariants.map((v) => `| ${v.id}. ${v.title} | ${pageSizes.map((size) => variantCell(v.id, size)).join(' | ')} |`)
  ]
}

try {
  const estimate = pageSizes.reduce((sum, size) =>
    sum + ratiosAt(size).length * pairCount * 2 * (sliceSeconds + 0.1) + variantsAt(size).length * WARM_UP_SECONDS, 0)
  process.stderr.write(`${ratios.length} ratios, ${pairCount} pairs of ${sliceSeconds} s slices each: about ${Math.ceil(estimate / 60)} min\n`)
  const started = process.hrtime.bigint()
  const results: Record<number, PageResult> = {}
  for (const pageSize of pageSizes) results[pageSize] = await benchPageSize(pageSize)
  const lines = report(results)
  console.log(lines.join('\n'))
  console.log(verdict(results, Number(process.hrtime.bigint() - started) / 1e9))
  // The committed results and the documentation's figures change only when asked: a run to look at the numbers leaves the tree alone.
  if (process.argv.includes('--write')) {
    writeFileSync(fileURLToPath(new URL('../../bench/results.json', import.meta.url)), JSON.stringify({
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, os: `${platform()} ${release()}` },
      settings: { sliceSeconds, pairs: pairCount, pageSizes, connections: CONNECTIONS, pinned },
      variants: measuredVariants,
      ratios,
      // The spread of the baseline against itself, per page size: what noise alone does in this run.
      calibration: Object.fromEntries(pageSizes.map((size) => [size, results[size].ratios[CALIBRATION].rps])),
      results,
      table: lines.join('\n')
    }, null, 2) + '\n')
    writeReadme()
  }
} catch (error) {
  console.error(`bench: ${(error as Error).message}`)
  process.exitCode = 1
}
