/**
 * `npm run test:slowest`: the slowest test files of the last tap run, with
 * their times, read from what tap keeps of each file's run
 * (`.tap/test-results/`). `npm run test:slowest -- 40` lists forty.
 * A file run alone later replaces its own figure, so read it after a whole run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const RESULTS = '.tap/test-results'
const count = Number(process.argv[2] ?? 20)

/** Every file under a folder. */
function filesUnder (folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)])
}

const timed = filesUnder(RESULTS).flatMap((file) => {
  // The file's own time is the last unindented `# time=` line; subtests' are indented.
  const time = [...readFileSync(file, 'utf8').matchAll(/^# time=([\d.]+)ms$/gm)].at(-1)
  if (time === undefined) return []
  return [{ file: relative(RESULTS, file).replace(/\.tap$/, ''), ms: Number(time[1]), at: statSync(file).mtime }]
})
timed.sort((a, b) => b.ms - a.ms)
const total = timed.reduce((sum, one) => sum + one.ms, 0)
console.log(`${timed.length} files, ${(total / 1000).toFixed(0)} s in all (summed; tap runs several at a time)`)
for (const { file, ms, at } of timed.slice(0, count)) {
  console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${file}  (run ${at.toISOString().slice(0, 16).replace('T', ' ')})`)
}
