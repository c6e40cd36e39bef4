import { test } from 'tap'
import { SLICE_MS, betweenSteps } from '../lib/slices.js'

test('between the steps of a long task the event loop turns once a slice has run its time, and not before', async (t) => {
  const turn = betweenSteps()
  let turned = false
  setImmediate(() => { turned = true })
  await turn()
  t.equal(turned, false, 'a slice that has not run its time goes on without a turn')
  const until = performance.now() + SLICE_MS + 1
  while (performance.now() < until);
  await turn()
  t.equal(turned, true, `the loop turned once the slice had run ${SLICE_MS} ms`)
  turned = false
  setImmediate(() => { turned = true })
  await turn()
  t.equal(turned, false, 'and a new slice starts after the turn')
})
