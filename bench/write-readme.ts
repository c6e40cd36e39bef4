/**
 * `npm run bench:readme`: writes the benchmark figures of README.md,
 * docs/benchmarks.md, docs/agents.md and docs/internals.md from the committed
 * bench files: the tables of bench/results.json, bench/micro.json and
 * bench/scale.json, and every single figure marked as read from a file
 * (bench/figures.ts). `npm run bench:all` runs it last.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { FIGURE_PAGES, updateFigures } from './figures.js'
import { updateBenchmarksPage, updateReadme, updateScaleSection } from './readme.js'

// Compiled to dist/bench/, two levels below the project.
const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))
const readJson = (name: string): unknown => JSON.parse(readFileSync(projectFile(name), 'utf8'))

/** Rewrites the benchmark figures of the documentation from the results files. */
export function writeReadme (): void {
  const bench = readJson('bench/results.json') as Parameters<typeof updateReadme>[1]
  const micro = readJson('bench/micro.json') as Parameters<typeof updateBenchmarksPage>[2]
  writeFileSync(projectFile('README.md'), updateReadme(readFileSync(projectFile('README.md'), 'utf8'), bench))
  const scale = readJson('bench/scale.json') as Parameters<typeof updateScaleSection>[1]
  const page = updateBenchmarksPage(readFileSync(projectFile('docs/benchmarks.md'), 'utf8'), bench, micro)
  writeFileSync(projectFile('docs/benchmarks.md'), updateScaleSection(page, scale))
  for (const name of FIGURE_PAGES) writeFileSync(projectFile(name), updateFigures(readFileSync(projectFile(name), 'utf8'), readJson))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReadme()
