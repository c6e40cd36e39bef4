/**
 * What a first sighting costs, and why, in one place: what a compile is
 * handed, what it is estimated to cost before it runs, and which compiles
 * are worth their cost on the request path. The admission cache
 * (lib/cache.ts) counts sightings; lib/serializer.ts asks this module
 * whether and how to compile.
 *
 * - A compile reads only the shared schemas its pruned schema reaches.
 *   Fastify's default serializer compiler hands fast-json-stringify every
 *   shared schema of the instance, and fast-json-stringify checks and
 *   indexes each of them on every compile, so a compile's cost would grow
 *   with the app rather than with the selection. Where the route uses that
 *   default compiler, the plugin makes that compiler anew from the app's
 *   own Fastify, with its `serializerOpts` and the reached schemas alone
 *   (lib/fastify-compiler.ts); a custom compiler is called as Fastify calls it.
 * - A compile is estimated before it runs, from the size of what it is
 *   handed: the pruned schema and the shared schemas it reaches (the
 *   compiler's work is about linear in them, and the chains of variants
 *   are written so that it stays so, see lib/prune.ts). A selection
 *   estimated above `MAX_COMPILE_COST` is never compiled on the request
 *   path: the writer serves it, at the cost of writing, with no pause.
 * - Compiles are rationed in cost, not in count: a compile spends one unit
 *   of the cache's ration per `COST_UNIT` of its estimate, so a client
 *   cannot buy many expensive compiles at the price of cheap ones.
 * - Compiles give way to other work: the process spends at most
 *   `COMPILE_MS_PER_SECOND` of each second compiling on the request path,
 *   measured around each compile (`CompileBudget`). A route's ration refills
 *   with its requests, not with time, so a flood of requests refills it as
 *   fast as it spends it, and forty routes have forty rations; the time
 *   budget bounds the sum, across every route and app of the process, so a
 *   steady client's requests meet a compile at most that share of the time.
 */
import { isRecord } from './json.js'
import { walkSchema } from './schema/walk.js'
import type { Reached } from './schema/walk.js'
import type { JsonSchema } from './schema/tree.js'

/**
 * The share of a status's recent lookups that a selection must make up to be
 * compiled. A compiled serializer outruns the writer only while it stays hot:
 * many of them in rotation, each called now and then, lose to the one writer
 * they would replace (docs/internals.md gives the rows that set it). So at
 * most some 32 selections are compiled at a time for their popularity; a new
 * route still compiles a selection on its second sighting, while it has
 * seen fewer than 64 lookups.
 */
export const COMPILE_SHARE = 1 / 32

/**
 * Characters of schema text (the pruned schema and the shared schemas it
 * reaches) that fast-json-stringify compiles in about a millisecond
 * (`npm run bench:compile`); the slowest kind of schema sets it, so that an
 * estimate errs on the side of cost.
 */
const CHARACTERS_PER_MS = 250

/**
 * Characters of variant tests that ajv compiles in about a millisecond: in a
 * selection's schema, each test with its shared schemas counted at every
 * reference (fast-json-stringify's ajv writes the code of a shared schema
 * without references of its own into each test that refers to it); in the
 * writer's tests (lib/variant-chooser.ts), each shared schema once. Set
 * below the slowest rate docs/internals.md reports, so that an estimate errs
 * on the side of cost.
 */
export const TEST_CHARACTERS_PER_MS = 20

/** The estimated cost, in milliseconds, above which a selection is not compiled on the request path but written. */
export const MAX_COMPILE_COST = 20

/**
 * The estimated cost that one unit of the compilation ration pays for: a
 * compile of a few fields, nested ones included, spends one, as it did when
 * the ration counted compiles; one near the limit spends ten.
 */
const COST_UNIT = 2

/**
 * The milliseconds of compiling a process may spend on the request path in
 * each second: one two-hundredth of its time. A request that arrives while a
 * compile runs waits for it, so at most that share of requests wait for one,
 * and a client's 99th percentile (one in a hundred) is left to its own work.
 */
export const COMPILE_MS_PER_SECOND = 5

/**
 * What a process may spend compiling at once, after a quiet spell: one
 * compile at the bound of its estimate, so that any selection worth
 * compiling can be, and no burst of them adds up to a pause.
 */
export const COMPILE_BURST_MS = MAX_COMPILE_COST

export interface CompileBudgetOptions {
  /** Milliseconds of compiling earned per second (default `COMPILE_MS_PER_SECOND`). */
  msPerSecond?: number
  /** The most that can be saved up, in milliseconds (default `COMPILE_BURST_MS`). */
  burstMs?: number
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number
}

/**
 * The compile time a process may spend on the request path: a bucket that
 * earns `msPerSecond` milliseconds a second, up to `burstMs`, and is charged
 * the measured time of each compile. A compile that can wait (a selection,
 * which the writer serves meanwhile) starts only while the balance is above
 * zero; one that cannot (a leaf or a variant test the writer needs) is
 * charged all the same, so the ones that can wait give way to it. A compile
 * may overdraw the balance, by one burst at most: nothing else starts until
 * time has paid it back.
 */
export class CompileBudget {
  #perMs = 0
  #burst = 0
  // Set by configure; a native function here, until then.
  #now: () => number = Date.now
  #balance = 0
  #at = 0

  constructor (options: CompileBudgetOptions = {}) {
    this.configure(options)
  }

  /**
   * Sets the budget anew, full. Tests that count compiles run with an
   * unbounded one (`{ msPerSecond: Infinity, burstMs: Infinity }`): what they
   * check must not hang on how busy the machine is.
   */
  configure (
    { msPerSecond = COMPILE_MS_PER_SECOND, burstMs = COMPILE_BURST_MS, now = () => performance.now() }: CompileBudgetOptions = {}
  ): void {
    this.#perMs = msPerSecond / 1000
    this.#burst = burstMs
    this.#now = now
    this.#balance = burstMs
    this.#at = now()
  }

  /** The milliseconds of compiling available now; below zero while an overdraft is paid back. */
  get balance (): number {
    const now = this.#now()
    // Nothing earned in no time, even at an unbounded rate (0 × Infinity is NaN).
    if (now > this.#at) this.#balance = Math.min(this.#burst, this.#balance + (now - this.#at) * this.#perMs)
    this.#at = now
    return this.#balance
  }

  /** Whether a compile that can wait may start now. */
  allows (): boolean {
    return this.balance > 0
  }

  /**
   * Charges `ms` of compiling done. The debt stops at one burst: a long
   * compile that could not wait (a level's variant tests, once) holds the
   * others back for a few seconds, not for minutes; the share of time spent
   * on those that can wait stays within `msPerSecond`.
   */
  charge (ms: number): void {
    this.#balance = Math.max(-this.#burst, this.balance - ms)
  }

  /** Runs a compile and charges its measured time, whether it returns or throws; nothing is earned while it runs. */
  timed<T> (compile: () => T): T {
    const balance = this.balance
    const started = this.#at
    try {
      return compile()
    } finally {
      this.#at = this.#now()
      this.#balance = Math.max(-this.#burst, balance - (this.#at - started))
    }
  }
}

/** The compile time of this process, shared by every route of every app in it. */
export const compileBudget = new CompileBudget()

/**
 * The shared schemas a schema reaches through its `$ref`s, and theirs, by id:
 * all a compile of it needs. Only schemas are walked, as the vocabulary says
 * where they sit: a property named `default` or `enum` is a schema like any
 * other, and an instance's keys are never taken for a schema's.
 */
export function reachedSchemas (schema: JsonSchema, shared: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const reached: Record<string, JsonSchema> = {}
  const reach = (ref: string): Reached | undefined => {
    const id = ref.split('#')[0]
    if (id === '' || !Object.hasOwn(shared, id) || Object.hasOwn(reached, id)) return undefined
    reached[id] = shared[id]
    return { schema: shared[id], base: id }
  }
  // A keyword of no dialect may still hold schemas that fast-json-stringify follows: it is read as one, or a list of them.
  walkSchema(schema, () => {}, { resolve: reach, unknownKeywords: 'schemas' })
  return reached
}

/**
 * What a compile of `schema` with the `reached` shared schemas is estimated
 * to cost, in milliseconds: fast-json-stringify's work on the text it is
 * handed, and ajv's on each variant test (an `if`), which it compiles by the
 * first record it writes.
 */
export function compileCost (schema: JsonSchema, reached: Readonly<Record<string, JsonSchema>>): number {
  let characters = JSON.stringify(schema).length
  for (const id in reached) characters += JSON.stringify(reached[id]).length
  // Past the bound, how much further does not matter: a shared schema that refers to itself expands without end.
  const limit = (MAX_COMPILE_COST + 1) * TEST_CHARACTERS_PER_MS
  let testCharacters = 0
  const pending: unknown[] = [schema]
  while (pending.length > 0 && testCharacters <= limit) {
    const value = pending.pop() as Record<string, unknown>
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'if' && isRecord(inner)) testCharacters += expandedCharacters(inner, reached, limit)
      else if (isRecord(inner)) pending.push(inner)
    }
  }
  return characters / CHARACTERS_PER_MS + testCharacters / TEST_CHARACTERS_PER_MS
}

/**
 * The heap a compiled serializer of this estimated cost keeps, in bytes: the
 * one size every cache charges for a compiled selection. Its generated code
 * and closures (some 12 KiB whatever the schema), and, for larger schemas and
 * schemas of variants, the code of their tests; docs/internals.md gives the
 * heap it was calibrated against.
 */
export function keptBytes (cost: number): number {
  return Math.ceil(12_288 + cost * CHARACTERS_PER_MS * 16)
}

/** The units of the compilation ration that a compile of this estimated cost spends: one at least. */
export function rationUnits (cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_UNIT))
}

/** The characters of a schema with the shared schemas it refers to counted where they are referred to, up to `limit`. */
export function expandedCharacters (schema: JsonSchema, shared: Readonly<Record<string, JsonSchema>>, limit: number): number {
  let characters = 0
  const pending: unknown[] = [schema]
  while (pending.length > 0 && characters <= limit) {
    const value = pending.pop()
    if (Array.isArray(value)) {
      pending.push(...value)
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        characters += key.length + 3
        pending.push(inner)
        const id = typeof inner === 'string' ? inner.split('#')[0] : undefined
        if (key === '$ref' && id !== undefined && Object.hasOwn(shared, id)) pending.push(shared[id])
      }
    } else {
      characters += String(value).length
    }
  }
  return characters
}
