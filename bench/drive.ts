/**
 * How the in-process benchmarks drive an app: request loops through
 * `app.inject` that let the event loop turn between requests, as requests
 * over sockets do, timed per request, with the event loop's delay meanwhile;
 * latency summaries; the heap after garbage collection.
 */
import { spawn } from 'node:child_process'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { FastifyInstance } from 'fastify'

/** A latency summary, in milliseconds. */
export interface Latency { count: number, p50: number, p99: number, max: number }

export function latency (times: readonly number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number): number => sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 }
}

/**
 * Lets the event loop turn between two requests of a client, as requests that
 * come over sockets do; `app.inject` alone resolves in microtasks, and a loop
 * that never turns has no delay to measure.
 */
export const turn = async (): Promise<void> => await new Promise((resolve) => setImmediate(resolve))

/**
 * The heap in use after garbage collection (with `--expose-gc`). The event
 * loop turns first, so that the callbacks a tight loop of requests left
 * behind run and let go of what they hold; then two collections, the second
 * for what the first's finalizers released.
 */
export async function gcHeap (): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc
  for (let i = 0; i < 3; i++) await turn()
  gc?.()
  await turn()
  gc?.()
  return process.memoryUsage().heapUsed
}

export interface Driven { times: number[][], statuses: Record<string, number>, loopDelay: { max: number, p99: number } }

/** Runs `loops` request loops until `next` gives none, timing each request; also the event loop's longest delay and p99 meanwhile. */
export async function drive (app: FastifyInstance, loops: Array<() => string | null>): Promise<Driven> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  const statuses: Record<string, number> = {}
  const times = await Promise.all(loops.map(async (next) => {
    const own: number[] = []
    for (let url = next(); url !== null; url = next()) {
      // The clock starts before the event loop turns: a request that arrives while another's work blocks the loop waits for it.
      const start = performance.now()
      await turn()
      const response = await app.inject(url)
      own.push(performance.now() - start)
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1
    }
    return own
  }))
  histogram.disable()
  return { times, statuses, loopDelay: { max: histogram.max / 1e6, p99: histogram.percentile(99) / 1e6 } }
}

/** A loop's next URL, `total` times, then none. */
export function counted (total: number, url: () => string): () => string | null {
  let left = total
  return () => left-- > 0 ? url() : null
}

/** Runs `work` with the event loop's delay watched: its result, its time and the longest delay meanwhile, in milliseconds to a tenth. */
export async function watched<T> (work: () => Promise<T>): Promise<{ value: T, ms: number, loopDelayMaxMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  const started = performance.now()
  const value = await work()
  const ms = performance.now() - started
  histogram.disable()
  return { value, ms: Math.round(ms * 10) / 10, loopDelayMaxMs: Math.round(histogram.max / 1e5) / 10 }
}

/**
 * Runs `script` again in a child process of its own, with the garbage
 * collector exposed and `args` after it, and reads the JSON it writes to its
 * standard output; `name` says which app failed, if one does.
 */
export async function childResults<T> (script: string, args: readonly string[], name: string): Promise<T> {
  const child = spawn(process.execPath, ['--expose-gc', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout.on('data', (chunk) => { output += chunk })
  const code = await new Promise((resolve) => child.on('exit', resolve))
  if (code !== 0) throw new Error(`the ${name} app's process exited with ${String(code)}`)
  return JSON.parse(output)
}
