import { test } from 'tap'
import { SLICE_MS, betweenSteps } from '../lib/slices.js'

/** Whether awaiting `turn()` lets the event loop turn: an immediate set before it runs only then. */
async function turns (turn: () => Promise<void>): Promise<boolean> {
  let turned = false
  setImmediate(() => { turned = true })
  await turn()
  return turned
}

test('between the steps of a long task the event loop turns once a slice has run its time, and not before', async (t) => {
  let now = 1000
  const turn = betweenSteps(() => now)
  t.equal(await turns(turn), false, 'a slice that has not run its time goes on without a turn')
  now += SLICE_MS
  t.equal(await turns(turn), false, `nor one that has run exactly ${SLICE_MS} ms`)
  now += 1
  t.equal(await turns(turn), true, `the loop turned once the slice had run more than ${SLICE_MS} ms`)
  t.equal(await turns(turn), false, 'and a new slice starts after the turn')
  now += SLICE_MS / 2
  t.equal(await turns(turn), false, 'it goes on without a turn while the new slice has time left')
  now += SLICE_MS
  t.equal(await turns(turn), true, 'and turns when it has run its time in its turn')
})

test('by default a slice is timed by performance.now', async (t) => {
  let now = 0
  t.intercept(performance, 'now', { value: () => now })
  const turn = betweenSteps()
  t.equal(await turns(turn), false, 'no time has passed')
  now += SLICE_MS + 1
  t.equal(await turns(turn), true, 'the clock moved on past the slice')
})
