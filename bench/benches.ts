/**
 * The benches of `npm run bench:all` (bench/all.ts): every bench that writes a committed file under
 * `bench/`, one after another, each alone on the machine, then the figures of
 * the documentation written again from those files (bench/write-readme.ts).
 * The build runs once, before it (the package's, which the types bench
 * reads, and the benches'); nothing else runs beside a bench.
 * After each, its file is given the commit it measured, whether the tree was
 * dirty, the machine's load averages before and after, and how long it took;
 * the next run's estimate is read from those durations.
 *
 * A new bench is one line of `BENCHES`. `BENCH_ALL=flood,heap` runs some of
 * them; `BENCH_ALL=-results` all but some.
 */

export interface Bench {
  /** What `BENCH_ALL` calls it. */
  name: string
  /** The file it writes, from the project's root. */
  file: string
  /** The compiled script under dist/bench/ and its arguments. */
  args: string[]
  /**
   * Minutes it took when last measured outside this command (its file's `minutes`, the docs' figures, or a guess from its
   * settings where neither says): the estimate until its file records a run of its own.
   */
  minutes: number
}

/** Every bench whose file is committed, in the order they run. */
export const BENCHES: Bench[] = [
  { name: 'results', file: 'bench/results.json', args: ['run.js', '--write'], minutes: 11.5 },
  { name: 'micro', file: 'bench/micro.json', args: ['micro.js'], minutes: 1 },
  { name: 'database', file: 'bench/database.json', args: ['database.js', '--write'], minutes: 3 },
  { name: 'tokens', file: 'bench/tokens.json', args: ['tokens.js'], minutes: 8 },
  { name: 'scale', file: 'bench/scale.json', args: ['scale.js'], minutes: 2.7 },
  { name: 'flood', file: 'bench/flood.json', args: ['flood.js'], minutes: 4 },
  { name: 'heap', file: 'bench/heap.json', args: ['heap.js'], minutes: 0.6 },
  { name: 'heap-routes', file: 'bench/heap-routes.json', args: ['heap-routes.js'], minutes: 4 },
  { name: 'search', file: 'bench/search.json', args: ['search.js'], minutes: 1 },
  { name: 'browse', file: 'bench/browse.json', args: ['browse.js'], minutes: 2 },
  { name: 'refusals', file: 'bench/refusals.json', args: ['refusals.js'], minutes: 5 },
  { name: 'documents', file: 'bench/documents.json', args: ['documents.js'], minutes: 2 },
  { name: 'document-size', file: 'bench/document-size.json', args: ['document-size.js', '--write'], minutes: 6 },
  { name: 'types', file: 'bench/types.json', args: ['types.js'], minutes: 3 }
]

/** What each bench's file is given about the run that wrote it. */
export interface Provenance {
  commit: string
  /** Whether the tree held changes not committed when the run started (the bench files written by this run excepted). */
  dirty: boolean
  /** The machine's load averages (1, 5, 15 minutes) before and after the bench. */
  load: { before: number[], after: number[] }
  seconds: number
}

/** The benches `BENCH_ALL` names: all of them when unset, some (`flood,heap`), or all but some (`-results`). */
export function chosenBenches (setting: string | undefined, benches: readonly Bench[] = BENCHES): Bench[] {
  const names = (setting ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '')
  if (names.length === 0) return [...benches]
  const unknown = names.map((name) => name.replace(/^-/, '')).filter((name) => !benches.some((bench) => bench.name === name))
  if (unknown.length > 0) {
    throw new Error(`BENCH_ALL names no bench ${unknown.join(', ')}; the benches are ${benches.map((bench) => bench.name).join(', ')}`)
  }
  const dropped = names.filter((name) => name.startsWith('-')).map((name) => name.slice(1))
  if (dropped.length > 0) return benches.filter((bench) => !dropped.includes(bench.name))
  return benches.filter((bench) => names.includes(bench.name))
}

/** The minutes a bench is expected to take: its last recorded run's, or the figure of its line. */
export function expectedMinutes (bench: Bench, written: unknown): number {
  const seconds = (written as { provenance?: Partial<Provenance> } | undefined)?.provenance?.seconds
  return typeof seconds === 'number' ? seconds / 60 : bench.minutes
}

/** A results file with its provenance set, written as the benches write theirs. */
export function withProvenance (text: string, provenance: Provenance): string {
  return JSON.stringify({ ...JSON.parse(text), provenance }, null, 2) + '\n'
}
