/**
 * `npm run bench:all`: runs the benches of bench/benches.ts one after
 * another, each alone, gives each file its provenance, then writes the
 * documentation's figures from the files.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { chosenBenches, expectedMinutes, withProvenance } from './benches.js'
import { writeReadme } from './write-readme.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const projectFile = (name: string): string => root + name
const readJson = (file: string): unknown => existsSync(projectFile(file)) ? JSON.parse(readFileSync(projectFile(file), 'utf8')) : undefined
const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()
const minutesText = (minutes: number): string => `${Math.floor(minutes)} min ${Math.round((minutes % 1) * 60)} s`

function run (args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(result.status)}`)
}

function main (): void {
  const benches = chosenBenches(process.env.BENCH_ALL)
  const estimate = benches.reduce((sum, bench) => sum + expectedMinutes(bench, readJson(bench.file)), 0)
  console.log(`bench:all: ${benches.map((bench) => bench.name).join(', ')}; about ${minutesText(estimate)} from their last runs`)
  const commit = git('rev-parse', 'HEAD')
  const dirty = git('status', '--porcelain').length > 0
  const started = Date.now()
  for (const bench of benches) {
    console.log(`\nbench:all: ${bench.name}, expected ${minutesText(expectedMinutes(bench, readJson(bench.file)))}`)
    const before = loadavg()
    const benchStarted = Date.now()
    run([`dist/bench/${bench.args[0]}`, ...bench.args.slice(1)])
    const seconds = Math.round((Date.now() - benchStarted) / 100) / 10
    const text = readFileSync(projectFile(bench.file), 'utf8')
    writeFileSync(projectFile(bench.file), withProvenance(text, { commit, dirty, load: { before, after: loadavg() }, seconds }))
    console.log(`bench:all: ${bench.name} took ${minutesText(seconds / 60)}`)
  }
  writeReadme()
  const took = minutesText((Date.now() - started) / 60_000)
  console.log(`\nbench:all: ${took} in all (estimated ${minutesText(estimate)}); the docs are written from the files.`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
