/**
 * Long work done in slices: a task that walks a large API (a caller's
 * document read back, a view's tools, a search index) awaits `turn()`
 * between its steps, and the event loop turns once a slice has run
 * `SLICE_MS`, so other requests are served meanwhile.
 */

/** The longest a slice runs before the event loop may turn. */
export const SLICE_MS = 10

/**
 * A function to await between steps of a long task: it lets the event loop
 * turn once a slice has run `SLICE_MS` by `now`, in milliseconds (default
 * `performance.now`), e.g. `const turn = betweenSteps(); for (const route of
 * routes) { await turn(); visit(route) }`.
 */
export function betweenSteps (now: () => number = () => performance.now()): () => Promise<void> {
  let sliceStart = now()
  return async function turnWhenLong () {
    if (now() - sliceStart <= SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    sliceStart = now()
  }
}
