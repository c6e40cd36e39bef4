/**
 * A document's JSON text written, and read back, in pieces: each piece is
 * small, so that a large document crosses between threads, or is made an
 * object again, a slice at a time, the event loop turning between slices.
 *
 * The text is the one `JSON.stringify` writes; each piece is where, in it,
 * the value at a path sits. The levels of plain objects above `depth` are
 * pieces of their own (an object whose keys follow), so a document's paths,
 * operations and components are each read on their own.
 */
import { betweenSteps } from '../slices.js'

/** Where a value sits in a document and in its text: `start` is -1 for an object whose keys are the next pieces. */
export interface Piece { readonly path: readonly string[], readonly start: number, readonly end: number }

/** A document's JSON text and where its pieces sit in it. */
export interface PiecedJson { readonly text: string, readonly pieces: readonly Piece[] }

/** Down to operations (`paths`, a path, a method) and components (`components`, `schemas`, a schema). */
export const PIECE_DEPTH = 3

function isPlainObject (value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  // An object with a toJSON writes what it returns, which only JSON.stringify knows.
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
}

/** What JSON.stringify leaves out of an object. */
function omitted (value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

/**
 * Writes `value` as JSON.stringify does, one piece at a time: it yields after
 * each piece it writes, for the caller to let the event loop turn, and
 * returns the text and its pieces.
 */
export function * writePieces (value: unknown, depth = PIECE_DEPTH): Generator<void, PiecedJson> {
  const parts: string[] = []
  const pieces: Piece[] = []
  let length = 0
  const push = (text: string): void => {
    parts.push(text)
    length += text.length
  }
  function * write (inner: unknown, path: readonly string[], below: number): Generator<void> {
    if (below === 0 || !isPlainObject(inner)) {
      const text = JSON.stringify(inner)
      pieces.push({ path, start: length, end: length + text.length })
      push(text)
      yield
      return
    }
    pieces.push({ path, start: -1, end: -1 })
    push('{')
    let first = true
    for (const key of Object.keys(inner)) {
      if (omitted(inner[key])) continue
      push(`${first ? '' : ','}${JSON.stringify(key)}:`)
      first = false
      yield * write(inner[key], [...path, key], below - 1)
    }
    push('}')
  }
  yield * write(value, [], depth)
  return { text: parts.join(''), pieces }
}

/**
 * Reads a pieced text back into a new object, one piece at a time (it yields
 * after each). Keys are defined as own properties, so a key such as
 * `__proto__` is a key, as JSON.parse makes it.
 */
export function * readPieces ({ text, pieces }: PiecedJson): Generator<void, unknown> {
  let root: unknown
  for (const { path, start, end } of pieces) {
    const value = start < 0 ? {} : JSON.parse(text.slice(start, end))
    if (path.length === 0) {
      root = value
    } else {
      let parent = root as Record<string, unknown>
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>
      Object.defineProperty(parent, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true })
    }
    yield
  }
  return root
}

/** Runs a generator to its end at once. */
export function drain<T> (steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/** Runs a generator in slices of about `SLICE_MS` by `now` (default `performance.now`), letting the event loop turn between them. */
export async function sliced<T> (steps: Generator<void, T>, now?: () => number): Promise<T> {
  const turn = betweenSteps(now)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
    await turn()
  }
}
