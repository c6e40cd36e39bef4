/**
 * `npm run bench:readme`: writes the README's benchmark figures from the
 * committed bench/results.json and bench/micro.json (`npm run bench` and
 * `npm run bench:micro` do it after each run).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { updateReadme } from './readme.js'

// Compiled to dist/bench/, two levels below the project.
const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))

/** Rewrites README.md's benchmark figures from the results files. */
export function writeReadme (): void {
  const readme = readFileSync(projectFile('README.md'), 'utf8')
  const bench = JSON.parse(readFileSync(projectFile('bench/results.json'), 'utf8'))
  const micro = JSON.parse(readFileSync(projectFile('bench/micro.json'), 'utf8'))
  writeFileSync(projectFile('README.md'), updateReadme(readme, bench, micro))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReadme()
