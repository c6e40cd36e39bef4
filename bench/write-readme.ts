/**
 * `npm run bench:readme`: writes the benchmark figures of README.md and
 * docs/benchmarks.md from the committed bench/results.json,
 * bench/micro.json and bench/scale.json (`npm run bench:record` and `npm run bench:micro` do it
 * after each run).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { updateBenchmarksPage, updateReadme, updateScaleSection } from './readme.js'

// Compiled to dist/bench/, two levels below the project.
const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))

/** Rewrites the benchmark figures of README.md and docs/benchmarks.md from the results files. */
export function writeReadme (): void {
  const bench = JSON.parse(readFileSync(projectFile('bench/results.json'), 'utf8'))
  const micro = JSON.parse(readFileSync(projectFile('bench/micro.json'), 'utf8'))
  writeFileSync(projectFile('README.md'), updateReadme(readFileSync(projectFile('README.md'), 'utf8'), bench))
  const scale = JSON.parse(readFileSync(projectFile('bench/scale.json'), 'utf8'))
  const page = updateBenchmarksPage(readFileSync(projectFile('docs/benchmarks.md'), 'utf8'), bench, micro)
  writeFileSync(projectFile('docs/benchmarks.md'), updateScaleSection(page, scale))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReadme()
