/**
 * The benchmark figures of the documentation, written from the committed
 * results: the claim's range (in the README's opening and at the top of
 * docs/benchmarks.md), the tables of `npm run bench` (bench/results.json)
 * and the table of `npm run bench:micro` (bench/micro.json), in
 * docs/benchmarks.md. Each sits between a pair of markers;
 * `npm run bench:readme` rewrites them, and test/bench/readme.test.ts fails
 * when they disagree with the files.
 */

interface Spread { median: number, q1: number, q3: number, min: number, max: number }

/** The heap in use after garbage collection, in bytes, before and after a stream of never-seen selections on a fresh route. */
interface HeapUse { before: number, after: number }

/** What one page size's run holds: every variant's medians, every ratio's spreads in both views, and (at the first page size) the heap. */
interface PageResults {
  /** Per variant: median req/s, and per core (1 / median server CPU time per request), absent from runs made before it was measured. */
  variants: Record<string, { rps: number, perCore?: number }>
  /** Per ratio: the spread of its per-pair values in req/s, and per core. */
  ratios: Record<string, { rps: Spread, perCore?: Spread }>
  /** The heap after `selections` never-seen selections on a fresh route of each record; absent when not measured. */
  heap?: { selections: number, records: HeapUse, wide: HeapUse }
}

/** What bench/results.json holds, as far as the documentation reads it. */
export interface BenchResults {
  date: string
  machine: { cpus: number, model: string, node: string, os: string }
  settings: { sliceSeconds: number, pairs: number, pageSizes: number[], connections: number, pinned: boolean }
  variants: Array<{ id: string, title: string }>
  ratios: Array<{ name: string, title: string, over: string, under: string, target: number | null, targetPages?: number[] }>
  /** Per page size: the medians of every variant, and the spread of every ratio's per-pair values, in both views. */
  results: Record<string, PageResults>
}

/** What bench/micro.json holds. */
export interface MicroResults {
  date: string
  machine: { cpus: number, model: string, node: string }
  rows: Array<{ operation: string, ns: number }>
}

/** The ratio that measures the baseline against itself: what noise alone does. */
export const CALIBRATION = '1/1'
/** The ratios of the opening claim: compiled selections against the hand-written route, with the one hook an opted-in route has. */
export const CLAIM_RATIOS = ['3/5p', '4/5p']
/** The ratios of the opening claim against GraphQL: the same selections, flat and nested, answered by mercurius with its JIT. */
export const GRAPHQL_RATIOS = ['3/gj', '3n/gjn']

/** Fewer pairs than this make a short run, said so under the table. */
export const SHORT_RUN_PAIRS = 5

const two = (value: number): string => value.toFixed(2)
const day = (date: string): string => date.slice(0, 10)

/** The lowest and highest medians of some ratios over every page size, as "0.91 to 0.96" (one figure when they are equal). */
export function claimRange (bench: BenchResults, names: readonly string[] = CLAIM_RATIOS): string {
  const medians = Object.values(bench.results).flatMap((page) =>
    names.filter((name) => page.ratios[name] !== undefined).map((name) => page.ratios[name].rps.median))
  if (medians.length === 0) throw new Error(`bench/results.json measures none of the ratios ${names.join(', ')}`)
  const low = two(Math.min(...medians))
  const high = two(Math.max(...medians))
  return low === high ? low : `${low} to ${high}`
}

const megabytes = (bytes: number): string => (bytes / 2 ** 20).toFixed(1)

/** The heap table of a run, from the first page size that measured it; none when no page size did. */
function heapLines (bench: BenchResults): string[] {
  const heap = bench.settings.pageSizes.map((size) => bench.results[size].heap).find((measured) => measured !== undefined)
  if (heap === undefined) return []
  return [
    '',
    `Heap in use after garbage collection, before and after ${heap.selections.toLocaleString('en')} never-seen selections on a fresh route:`,
    '',
    '| record | before (MB) | after (MB) |',
    '|---|---:|---:|',
    `| today's record | ${megabytes(heap.records.before)} | ${megabytes(heap.records.after)} |`,
    `| wide record | ${megabytes(heap.wide.before)} | ${megabytes(heap.wide.after)} |`
  ]
}

/**
 * The Benchmarks section's figures: the run's settings, the ratio table in
 * both views (req/s, and per core: 1 / the server's CPU time per request),
 * the calibration's spread, the heap, and the variants' medians.
 */
export function benchSection (bench: BenchResults): string {
  const sizes = bench.settings.pageSizes
  const views = (size: number): string => `page ${size}: req/s | page ${size}: per core`
  const cell = (spread: Spread | undefined): string => spread === undefined ? '–' : `${two(spread.median)} [${two(spread.q1)}–${two(spread.q3)}]`
  const cells = (name: string, size: number): string => {
    const measured = bench.results[size].ratios[name]
    return `${cell(measured?.rps)} | ${cell(measured?.perCore)}`
  }
  const target = (ratio: BenchResults['ratios'][number]): string => {
    if (ratio.over === ratio.under) return 'noise'
    if (ratio.target === null) return '–'
    return ratio.targetPages === undefined ? `≥ ${ratio.target}` : `≥ ${ratio.target} at page ${ratio.targetPages.join(', ')}`
  }
  const calibrated = sizes.filter((size) => bench.results[size].ratios[CALIBRATION] !== undefined)
  if (calibrated.length === 0) throw new Error(`bench/results.json has no calibration pair (${CALIBRATION})`)
  const calibration = calibrated.map((size) => {
    const { q1, q3, min, max } = bench.results[size].ratios[CALIBRATION].rps
    return `${Math.round((q3 - q1) * 100)}% at page ${size} (its pairs ranged from ${two(min)} to ${two(max)})`
  })
  const perCore = calibrated.filter((size) => bench.results[size].ratios[CALIBRATION].perCore !== undefined).map((size) => {
    const { q1, q3 } = bench.results[size].ratios[CALIBRATION].perCore!
    return `${Math.round((q3 - q1) * 100)}% at page ${size}`
  })
  const { settings, machine } = bench
  return [
    `The committed run, \`bench/results.json\`, of ${day(bench.date)}: ${machine.cpus} cores (${machine.model}), Node ${machine.node}, ${machine.os}; ` +
      `${settings.pairs} ${settings.pairs === 1 ? 'pair' : 'pairs'} of back-to-back ${settings.sliceSeconds} s slices per ratio and page size, order alternating, ` +
      `${settings.connections} connections${settings.pinned ? ', load generator and server pinned to one core each' : ''}. ` +
      'Each ratio in two views: measured requests per second, and per core (1 / the server\'s CPU time per request, which other processes on the machine do not lower).',
    '',
    `| ratio | what it compares | target | ${sizes.map(views).join(' | ')} |`,
    `|---|---|---:|${sizes.map(() => '---:|---:').join('|')}|`,
    ...bench.ratios.map((ratio) => `| ${ratio.name} | ${ratio.title} | ${target(ratio)} | ${sizes.map((size) => cells(ratio.name, size)).join(' | ')} |`),
    '',
    `**How far to trust it.** The calibration pair (${CALIBRATION}), the baseline against itself, shows what noise alone does in that run: ` +
      `in requests per second, its interquartile range spans ${calibration.join(' and ')}` +
      (perCore.length === 0 ? '' : `; per core, ${perCore.join(' and ')}`) + '. A gap inside that range is not a gap.' +
      (settings.pairs < SHORT_RUN_PAIRS ? ` With ${settings.pairs} ${settings.pairs === 1 ? 'pair' : 'pairs'} per ratio, quartiles say little: this is a short run, which shows that every variant runs, not how they compare.` : ''),
    ...heapLines(bench),
    '',
    `| variant | ${sizes.map(views).join(' | ')} |`,
    `|---|${sizes.map(() => '---:|---:').join('|')}|`,
    ...bench.variants.map((variant) => `| ${variant.id}. ${variant.title} | ${sizes.map((size) => {
      const measured = bench.results[size].variants[variant.id]
      if (measured === undefined) return '– | –'
      return `${Math.round(measured.rps)} | ${measured.perCore === undefined ? '–' : Math.round(measured.perCore)}`
    }).join(' | ')} |`)
  ].join('\n')
}

/** The microbenchmark's table, with the run it comes from. */
export function microSection (micro: MicroResults): string {
  return [
    `The committed run, \`bench/micro.json\`, of ${day(micro.date)}: ${micro.machine.cpus} cores (${micro.machine.model}), Node ${micro.machine.node}.`,
    '',
    '| operation | ns per call (median of 5) |',
    '|---|---:|',
    ...micro.rows.map((row) => `| ${row.operation} | ${Math.round(row.ns)} |`)
  ].join('\n')
}

/**
 * Replaces what lies between `<!-- name -->` and `<!-- /name -->` in a file's text; throws, naming the
 * file, when the markers are missing.
 */
function between (text: string, file: string, name: string, content: string, block: boolean): string {
  const open = `<!-- ${name} -->`
  const close = `<!-- /${name} -->`
  const start = text.indexOf(open)
  const end = text.indexOf(close)
  if (start === -1 || end < start) throw new Error(`${file} has no ${open} … ${close} markers`)
  const inner = block ? `\n${content}\n` : content
  return text.slice(0, start + open.length) + inner + text.slice(end)
}

/** A page with the claim's two ranges written from the results: against the hand-written route, and against GraphQL. */
export function updateClaims (text: string, file: string, bench: BenchResults): string {
  const claimed = between(text, file, 'bench:claim', claimRange(bench), false)
  return between(claimed, file, 'bench:graphql', claimRange(bench, GRAPHQL_RATIOS), false)
}

/** The README with its opening claim written from the results. */
export function updateReadme (readme: string, bench: BenchResults): string {
  return updateClaims(readme, 'README.md', bench)
}

/** docs/benchmarks.md with its claim, its tables and its microbenchmark table written from the results. */
export function updateBenchmarksPage (page: string, bench: BenchResults, micro: MicroResults): string {
  const claimed = updateClaims(page, 'docs/benchmarks.md', bench)
  const tabled = between(claimed, 'docs/benchmarks.md', 'bench:results', benchSection(bench), true)
  return between(tabled, 'docs/benchmarks.md', 'bench:micro', microSection(micro), true)
}

/** Request times in milliseconds. */
export interface Latency { count: number, p50: number, p99: number, max: number }

/** What one app of `npm run bench:scale` measured: with the plugin on every GET route, or without it. */
export interface ScaleApp {
  plugin: boolean
  routes: number
  /** Routes whose restricted requests were measured: declared with the plugin, their records with fields. */
  restricted: number
  /** Routes the plugin refused at declaration, declared without it. */
  refused: number
  sharedSchemas: number
  declareMs: number
  readyMs: number
  /** The heap in use after garbage collection, in bytes: before the app, after `ready()`, after the flood. */
  heap: { start: number, ready: number, afterFlood: number }
  plainStatuses: Record<string, number>
  firstSighting: { routes: number, first: Latency, second: Latency, statuses: Record<string, number>, loopDelayMax: number }
  mixed: { routes: number, latency: Latency, loopDelay: { max: number, p99: number }, statuses: Record<string, number> }
  quiet: { latency: Latency, loopDelay: { max: number, p99: number } }
  flood: {
    route: string,
    widestUnion: number,
    selections: number,
    seconds: number,
    flooded: Latency,
    others: Latency,
    loopDelay: { max: number, p99: number },
    statuses: Record<string, number>
  }
}

/** What bench/scale.json holds. */
export interface ScaleResults {
  date: string
  machine: { cpus: number, model: string, node: string, os: string }
  /** The machine's load averages (1, 5, 15 minutes) before and after the run. */
  load: { before: number[], after: number[] }
  minutes: number
  description: { title: string, version: string, file: string, routes: number, skipped: number, shared: number }
  settings: {
    seed: number,
    concurrency: number,
    mixedRequests: number,
    quietRequests: number,
    floodSelections: number,
    floodSeconds: number,
    firstSightingSeconds: number
  }
  refused: string[]
  apps: { plugin: ScaleApp, plain: ScaleApp }
}

const ms = (value: number): string => value < 10 ? value.toFixed(2) : value.toFixed(0)
const spreadOf = (measured: Latency): string => `${ms(measured.p50)} / ${ms(measured.p99)} / ${ms(measured.max)}`
/** Counts of answers by status, several phases' summed: "1,200 × 200, 3 × 400". */
function statusesOf (phases: Array<Record<string, number>>): string {
  const counts = new Map<string, number>()
  for (const phase of phases) for (const [status, count] of Object.entries(phase)) counts.set(status, (counts.get(status) ?? 0) + count)
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([status, count]) => `${count.toLocaleString('en')} × ${status}`).join(', ')
}

/** The scale benchmark's table: each measure with the plugin and without it, side by side. */
export function scaleSection (scale: ScaleResults): string {
  const { plugin, plain } = scale.apps
  const row = (title: string, cell: (app: ScaleApp) => string): string => `| ${title} | ${cell(plugin)} | ${cell(plain)} |`
  const { flood, mixed } = plugin
  const load = (averages: number[]): string => averages.map((average) => average.toFixed(1)).join(', ')
  return [
    `The committed run, \`bench/scale.json\`, of ${day(scale.date)}: ${scale.machine.cpus} cores (${scale.machine.model}), Node ${scale.machine.node}, ${scale.machine.os}; ` +
      `load averages ${load(scale.load.before)} before and ${load(scale.load.after)} after, ${scale.minutes.toFixed(0)} minutes in all. ` +
      `${scale.description.title} ${scale.description.version}: ${scale.description.shared} shared schemas, ${scale.description.routes} GET routes with a JSON response ` +
      `(${scale.description.skipped} without one left out). The plugin refused ${scale.refused.length === 0 ? 'no route' : `${scale.refused.length}, declared without it: ${scale.refused.join(', ')}`}. ` +
      'Times in milliseconds, as p50 / p99 / max.',
    '',
    '| measure | with the plugin | without it |',
    '|---|---:|---:|',
    row('declaring the shared schemas and routes', (app) => ms(app.declareMs)),
    row('`ready()`', (app) => ms(app.readyMs)),
    row('heap after `ready()` (MB)', (app) => megabytes(app.heap.ready)),
    row(`first restricted request of each route, a selection never seen (${plugin.firstSighting.routes} routes)`, (app) => spreadOf(app.firstSighting.first)),
    row('the same selection again, when one seen twice is compiled', (app) => spreadOf(app.firstSighting.second)),
    row('event loop\'s longest delay over those requests', (app) => ms(app.firstSighting.loopDelayMax)),
    row(`mixed traffic, ${mixed.latency.count.toLocaleString('en')} requests over ${mixed.routes} routes, ${scale.settings.concurrency} at a time`, (app) => spreadOf(app.mixed.latency)),
    row('its event loop delay, longest / p99', (app) => `${ms(app.mixed.loopDelay.max)} / ${ms(app.mixed.loopDelay.p99)}`),
    row('other routes alone, usual selections', (app) => spreadOf(app.quiet.latency)),
    row(`the flood: ${flood.selections} new selections on \`${flood.route}\` (a union of ${flood.widestUnion}), each sent twice`, (app) => spreadOf(app.flood.flooded)),
    row('other routes beside the flood', (app) => spreadOf(app.flood.others)),
    row('event loop delay during the flood, longest / p99', (app) => `${ms(app.flood.loopDelay.max)} / ${ms(app.flood.loopDelay.p99)}`),
    row('the flood\'s length (s)', (app) => app.flood.seconds.toFixed(1)),
    row('heap after the flood (MB)', (app) => megabytes(app.heap.afterFlood)),
    row('answers, by status', (app) => statusesOf([app.plainStatuses, app.firstSighting.statuses, app.mixed.statuses, app.flood.statuses]))
  ].join('\n')
}

/** docs/benchmarks.md with the scale benchmark's table written from its results. */
export function updateScaleSection (page: string, scale: ScaleResults): string {
  return between(page, 'docs/benchmarks.md', 'bench:scale', scaleSection(scale), true)
}
