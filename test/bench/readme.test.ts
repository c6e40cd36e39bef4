import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { benchSection, claimRange, microSection, scaleSection, updateBenchmarksPage, updateReadme, updateScaleSection } from '../../bench/readme.js'
import type { BenchResults, MicroResults, ScaleApp, ScaleResults } from '../../bench/readme.js'

const file = (name: string): string => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')

test('the README\'s opening claim and the figures of docs/benchmarks.md are those of the committed bench/results.json and bench/micro.json', async (t) => {
  const bench = JSON.parse(file('bench/results.json'))
  const readme = file('README.md')
  const page = file('docs/benchmarks.md')
  t.equal(updateReadme(readme, bench), readme, 'npm run bench:readme writes the claim from the committed file')
  t.equal(updateBenchmarksPage(page, bench, JSON.parse(file('bench/micro.json'))), page, 'npm run bench:readme writes the page\'s figures from the committed files')
  t.match(page, /<!-- bench:results -->\nThe committed run, `bench\/results\.json`/, 'the tables are on the page')
  t.notMatch(readme, /bench:results|bench:micro/, 'and not in the README')
  t.equal(updateScaleSection(page, JSON.parse(file('bench/scale.json'))), page, 'and the scale table is written from bench/scale.json')
})

const spread = (median: number, q1 = median, q3 = median, min = q1, max = q3) => ({ median, q1, q3, min, max })

/** A run of two ratios at two page sizes, the second ratio measured at page 20 only; the heap measured at page 20. */
function run (pairs: number, pinned: boolean): BenchResults {
  return {
    date: '2026-11-23T10:00:00.000Z',
    machine: { cpus: 4, model: 'Test CPU', node: 'v20.19.0', os: 'linux 6' },
    settings: { sliceSeconds: 1, pairs, pageSizes: [20, 100], connections: 16, pinned },
    variants: [{ id: '1', title: 'baseline' }, { id: '3', title: 'only' }, { id: '5', title: 'hand-written' }],
    ratios: [
      { name: '1/1', title: 'calibration', over: '1', under: '1', target: null },
      { name: '3/5p', title: 'compiled', over: '3', under: '5', target: 0.95, targetPages: [20] },
      { name: '3/1', title: 'against the baseline', over: '3', under: '1', target: 1.5 }
    ],
    results: {
      20: {
        variants: { 1: { rps: 1000.4, perCore: 1500.6 }, 3: { rps: 2000.6, perCore: 2900 }, 5: { rps: 2100, perCore: 3000.2 } },
        ratios: {
          '1/1': { rps: spread(1, 0.98, 1.03, 0.9, 1.1), perCore: spread(1, 0.99, 1.01) },
          '3/5p': { rps: spread(0.951), perCore: spread(0.962, 0.95, 0.97) },
          '3/1': { rps: spread(2), perCore: spread(1.93) }
        },
        heap: {
          selections: 60000,
          records: { before: 12.34 * 2 ** 20, after: 12.96 * 2 ** 20 },
          wide: { before: 13 * 2 ** 20, after: 14.06 * 2 ** 20 }
        }
      },
      100: {
        variants: { 1: { rps: 400, perCore: 600 }, 5: { rps: 1000, perCore: 1200 } },
        ratios: { '1/1': { rps: spread(1.01, 0.99, 1.05), perCore: spread(1, 0.98, 1.02) } }
      }
    }
  }
}

const settingsLine = (pairs: string, extra: string): string =>
  `The committed run, \`bench/results.json\`, of 2026-11-23: 4 cores (Test CPU), Node v20.19.0, linux 6; ${pairs} of back-to-back 1 s slices per ratio and page size, ` +
  `order alternating, 16 connections${extra}. Each ratio in two views: measured requests per second, and per core (1 / the server's CPU time per request, which other processes on the machine do not lower).`

test('the section gives the run\'s settings, every ratio at every page size in both views, the calibration\'s spread, the heap and the variants\' medians', async (t) => {
  t.equal(benchSection(run(9, true)), [
    settingsLine('9 pairs', ', load generator and server pinned to one core each'),
    '',
    '| ratio | what it compares | target | page 20: req/s | page 20: per core | page 100: req/s | page 100: per core |',
    '|---|---|---:|---:|---:|---:|---:|',
    '| 1/1 | calibration | noise | 1.00 [0.98–1.03] | 1.00 [0.99–1.01] | 1.01 [0.99–1.05] | 1.00 [0.98–1.02] |',
    '| 3/5p | compiled | ≥ 0.95 at page 20 | 0.95 [0.95–0.95] | 0.96 [0.95–0.97] | – | – |',
    '| 3/1 | against the baseline | ≥ 1.5 | 2.00 [2.00–2.00] | 1.93 [1.93–1.93] | – | – |',
    '',
    '**How far to trust it.** The calibration pair (1/1), the baseline against itself, shows what noise alone does in that run: ' +
      'in requests per second, its interquartile range spans 5% at page 20 (its pairs ranged from 0.90 to 1.10) and 6% at page 100 (its pairs ranged from 0.99 to 1.05); ' +
      'per core, 2% at page 20 and 4% at page 100. A gap inside that range is not a gap.',
    '',
    'Heap in use after garbage collection, before and after 60,000 never-seen selections on a fresh route:',
    '',
    '| record | before (MB) | after (MB) |',
    '|---|---:|---:|',
    '| today\'s record | 12.3 | 13.0 |',
    '| wide record | 13.0 | 14.1 |',
    '',
    '| variant | page 20: req/s | page 20: per core | page 100: req/s | page 100: per core |',
    '|---|---:|---:|---:|---:|',
    '| 1. baseline | 1000 | 1501 | 400 | 600 |',
    '| 3. only | 2001 | 2900 | – | – |',
    '| 5. hand-written | 2100 | 3000 | 1000 | 1200 |'
  ].join('\n'))
})

test('a run made before the per-core view and the heap were measured shows its req/s, with a dash for what it lacks', async (t) => {
  const older = run(9, true)
  for (const page of Object.values(older.results)) {
    delete page.heap
    for (const variant of Object.values(page.variants)) delete variant.perCore
    for (const ratio of Object.values(page.ratios)) delete ratio.perCore
  }
  const lines = benchSection(older).split('\n')
  t.equal(lines[4], '| 1/1 | calibration | noise | 1.00 [0.98–1.03] | – | 1.01 [0.99–1.05] | – |')
  t.match(lines[8], /spans 5% at page 20 \(its pairs ranged from 0\.90 to 1\.10\) and 6% at page 100 \(its pairs ranged from 0\.99 to 1\.05\)\. A gap inside/)
  t.notMatch(benchSection(older), /Heap/, 'no heap table')
  t.equal(lines[lines.length - 3], '| 1. baseline | 1000 | – | 400 | – |')
})

test('a short run says so, and an unpinned one does not claim pinning', async (t) => {
  const [settings, , , , , , , , trust] = benchSection(run(1, false)).split('\n')
  t.equal(settings, settingsLine('1 pair', ''))
  t.match(trust, / A gap inside that range is not a gap\. With 1 pair per ratio, quartiles say little: this is a short run, which shows that every variant runs, not how they compare\.$/)
  t.match(benchSection(run(3, true)).split('\n')[8], / With 3 pairs per ratio, quartiles say little/)
})

test('the claim quotes the lowest and highest medians of the compiled ratios, one figure when they are equal', async (t) => {
  t.equal(claimRange(run(9, true)), '0.95')
  const wider = run(9, true)
  wider.results[100].ratios['4/5p'] = { rps: spread(0.914) }
  wider.results[100].ratios['3/5p'] = { rps: spread(0.957) }
  t.equal(claimRange(wider), '0.91 to 0.96')
})

test('a run without the claim\'s ratios or without the calibration cannot be written', async (t) => {
  const bare = run(9, true)
  delete bare.results[20].ratios['3/5p']
  t.throws(() => claimRange(bare), { message: 'bench/results.json measures none of the ratios 3/5p, 4/5p' })
  delete bare.results[20].ratios['1/1']
  delete bare.results[100].ratios['1/1']
  t.throws(() => benchSection(bare), { message: 'bench/results.json has no calibration pair (1/1)' })
})

const micro: MicroResults = {
  date: '2026-11-23T11:00:00.000Z',
  machine: { cpus: 2, model: 'Test CPU', node: 'v20.19.0' },
  rows: [{ operation: 'parse', ns: 761.4 }, { operation: 'lookup', ns: 70.5 }]
}

test('the microbenchmark table gives the run and each operation in whole nanoseconds', async (t) => {
  t.equal(microSection(micro), [
    'The committed run, `bench/micro.json`, of 2026-11-23: 2 cores (Test CPU), Node v20.19.0.',
    '',
    '| operation | ns per call (median of 5) |',
    '|---|---:|',
    '| parse | 761 |',
    '| lookup | 71 |'
  ].join('\n'))
})

test('the README and the benchmarks page are written between their markers, and markers missing or out of order are an error', async (t) => {
  const claim = 'claim: <!-- bench:claim -->old<!-- /bench:claim -->, <!-- bench:graphql -->old<!-- /bench:graphql -->.\n'
  const page = claim + '<!-- bench:results -->\nold\n<!-- /bench:results -->\n<!-- bench:micro -->\n<!-- /bench:micro -->\n'
  const withGraphQL = run(9, true)
  withGraphQL.results[20].ratios['3/gj'] = { rps: spread(1.32) }
  withGraphQL.results[100].ratios['3n/gjn'] = { rps: spread(1.574) }
  const claimed = 'claim: <!-- bench:claim -->0.95<!-- /bench:claim -->, <!-- bench:graphql -->1.32 to 1.57<!-- /bench:graphql -->.\n'
  t.equal(updateReadme(claim, withGraphQL), claimed)
  const written = updateBenchmarksPage(page, withGraphQL, micro)
  t.ok(written.startsWith(claimed + '<!-- bench:results -->\nThe committed run, `bench/results.json`'))
  t.ok(written.endsWith('| 5. hand-written | 2100 | 3000 | 1000 | 1200 |\n<!-- /bench:results -->\n<!-- bench:micro -->\nThe committed run, `bench/micro.json`, of 2026-11-23: 2 cores (Test CPU), Node v20.19.0.\n\n| operation | ns per call (median of 5) |\n|---|---:|\n| parse | 761 |\n| lookup | 71 |\n<!-- /bench:micro -->\n'))
  t.equal(updateBenchmarksPage(written, withGraphQL, micro), written, 'writing twice changes nothing')
  t.equal(updateReadme(claimed, withGraphQL), claimed, 'writing the claim twice changes nothing')
  t.throws(() => updateReadme('no markers', run(9, true)), { message: 'README.md has no <!-- bench:claim --> … <!-- /bench:claim --> markers' })
  t.throws(() => updateReadme('<!-- /bench:claim --><!-- bench:claim -->', run(9, true)), { message: 'README.md has no <!-- bench:claim --> … <!-- /bench:claim --> markers' })
  t.throws(() => updateBenchmarksPage(claim, withGraphQL, micro), { message: 'docs/benchmarks.md has no <!-- bench:results --> … <!-- /bench:results --> markers' })
})

const latency = (p50: number, p99: number, max: number) => ({ count: 100, p50, p99, max })

function scaleApp (plugin: boolean, slow: number): ScaleApp {
  return {
    plugin,
    routes: 420,
    restricted: 410,
    refused: plugin ? 2 : 0,
    sharedSchemas: 582,
    declareMs: 1234.5 * slow,
    readyMs: 8.25 * slow,
    heap: { start: 10 * 2 ** 20, ready: 120.44 * 2 ** 20, afterFlood: 130 * 2 ** 20 * slow },
    plainStatuses: { 200: 420 },
    firstSighting: {
      routes: 410,
      first: latency(0.5 * slow, 3, 12),
      second: latency(1, 150 * slow, 1200),
      statuses: { 200: 818, 500: 2 },
      loopDelayMax: 1201
    },
    mixed: { routes: 40, latency: latency(0.2, 1.5 * slow, 30), loopDelay: { max: 31, p99: 2 }, statuses: { 200: 8000 } },
    quiet: { latency: latency(0.2, 1, 4), loopDelay: { max: 5, p99: 1.25 } },
    flood: { route: '/timeline', widestUnion: 20, selections: 100, seconds: 12.34, flooded: latency(0.3, 900, 1100), others: latency(0.2, 40, 1000), loopDelay: { max: 1100, p99: 800 }, statuses: { 200: 1200 } }
  }
}

test('the scale table gives each measure with the plugin and without it, side by side, with the run, the load and the routes the plugin refused', async (t) => {
  const scale: ScaleResults = {
    date: '2026-11-26T12:00:00.000Z',
    machine: { cpus: 2, model: 'Test CPU', node: 'v20.20.2', os: 'linux 6' },
    load: { before: [4.04, 3, 2.5], after: [6, 5, 4] },
    minutes: 12.4,
    description: { title: 'An API', version: '1.0', file: 'api.json', routes: 420, skipped: 24, shared: 582 },
    settings: {
      seed: 41,
      concurrency: 8,
      mixedRequests: 8000,
      quietRequests: 2000,
      floodSelections: 100,
      floodSeconds: 120,
      firstSightingSeconds: 300
    },
    refused: ['/a (CODE_A)', '/b (CODE_B)'],
    apps: { plugin: scaleApp(true, 2), plain: scaleApp(false, 1) }
  }
  t.equal(scaleSection(scale), [
    'The committed run, `bench/scale.json`, of 2026-11-26: 2 cores (Test CPU), Node v20.20.2, linux 6; load averages 4.0, 3.0, 2.5 before and 6.0, 5.0, 4.0 after, 12 minutes in all. ' +
      'An API 1.0: 582 shared schemas, 420 GET routes with a JSON response (24 without one left out). The plugin refused 2, declared without it: /a (CODE_A), /b (CODE_B). Times in milliseconds, as p50 / p99 / max.',
    '',
    '| measure | with the plugin | without it |',
    '|---|---:|---:|',
    '| declaring the shared schemas and routes | 2469 | 1235 |',
    '| `ready()` | 17 | 8.25 |',
    '| heap after `ready()` (MB) | 120.4 | 120.4 |',
    '| first restricted request of each route, a selection never seen (410 routes) | 1.00 / 3.00 / 12 | 0.50 / 3.00 / 12 |',
    '| the same selection again, when one seen twice is compiled | 1.00 / 300 / 1200 | 1.00 / 150 / 1200 |',
    '| event loop\'s longest delay over those requests | 1201 | 1201 |',
    '| mixed traffic, 100 requests over 40 routes, 8 at a time | 0.20 / 3.00 / 30 | 0.20 / 1.50 / 30 |',
    '| its event loop delay, longest / p99 | 31 / 2.00 | 31 / 2.00 |',
    '| other routes alone, usual selections | 0.20 / 1.00 / 4.00 | 0.20 / 1.00 / 4.00 |',
    '| the flood: 100 new selections on `/timeline` (a union of 20), each sent twice | 0.30 / 900 / 1100 | 0.30 / 900 / 1100 |',
    '| other routes beside the flood | 0.20 / 40 / 1000 | 0.20 / 40 / 1000 |',
    '| event loop delay during the flood, longest / p99 | 1100 / 800 | 1100 / 800 |',
    '| the flood\'s length (s) | 12.3 | 12.3 |',
    '| heap after the flood (MB) | 260.0 | 130.0 |',
    '| answers, by status | 10,438 × 200, 2 × 500 | 10,438 × 200, 2 × 500 |'
  ].join('\n'))
  t.match(scaleSection({ ...scale, refused: [] }), /The plugin refused no route\. /)
  t.throws(() => updateScaleSection('no markers', scale), { message: 'docs/benchmarks.md has no <!-- bench:scale --> … <!-- /bench:scale --> markers' })
})
