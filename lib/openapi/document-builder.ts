/**
 * Builds callers' documents without holding the event loop: a large
 * generated document is handed once to a worker thread (document-worker.ts),
 * which builds each view with the same function as this thread, `buildDocument`, and answers
 * its JSON text in pieces that this thread reads back a slice at a time.
 * A small document is built here: under `IN_THREAD_BELOW` characters of
 * JSON, a build takes a few milliseconds, less than a thread's start.
 *
 * Should the thread fail to start, or stop, each build falls back to this
 * thread, as before there was one: slower for the event loop, the same document.
 * The thread never keeps the process alive when it has nothing to do.
 */
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { isRecord } from '../json.js'
import type { PathTrie } from '../hidden-paths.js'
import { restrictedDocument } from './document.js'
import type { DocumentLeak } from './document.js'
import { betweenSteps } from '../slices.js'
import { drain, sliced, writePieces } from './json-pieces.js'
import type { PiecedJson } from './json-pieces.js'
import type { RestrictedRoute } from './types.js'
import { toYaml } from './yaml.js'

/** What the server's thread asks the thread that builds documents (document-worker.ts). */
export type WorkerRequest =
  | { kind: 'source', text: string }
  | { kind: 'route', id: string, route: RestrictedRoute }
  | { kind: 'build', id: number, hidden: Map<string, PathTrie> }
  | { kind: 'yaml', id: number, text: string }
  | { kind: 'close' }

/** What the thread answers, by the request's id. */
export type WorkerAnswer =
  | { id: number, built: { json: PiecedJson } | { refused: DocumentLeak } }
  | { id: number, yaml: string }
  | { id: number, failed: true }

/** Characters of generated JSON below which a document is built in this thread (GitHub's is 5.7 million). */
export const IN_THREAD_BELOW = 128 * 1024

/** The thread's file, beside this one and of its kind: `.js` in the package, `.ts` under a TypeScript loader. */
const WORKER_FILE = new URL(`./document-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url)

/** What a build answers: the document's pieced text (and the object, when built here), or the refusal. */
export type BuildAnswer = { json: PiecedJson, document?: unknown } | { refused: DocumentLeak }

/** A route's data for the thread: its functions (the rule, loaders) are not what a document reads, and cannot cross. */
function withoutFunctions (value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((member) => typeof member !== 'function').map(withoutFunctions)
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value)
    .filter(([, member]) => typeof member !== 'function')
    .map(([key, member]) => [key, withoutFunctions(member)]))
}

/** Builds a caller's document, in whichever thread calls it: the document and its pieced text, or the refusal. */
export function buildDocument (
  source: unknown, routes: ReadonlyMap<string, RestrictedRoute>, hidden: ReadonlyMap<string, PathTrie>
): BuildAnswer {
  const answer = restrictedDocument(source, routes, hidden)
  return 'refused' in answer ? answer : { json: drain(writePieces(answer.document)), document: answer.document }
}

export class DocumentBuilder {
  readonly #routes: ReadonlyMap<string, RestrictedRoute>
  #worker: Worker | null = null
  #exited: Promise<unknown> = Promise.resolve()
  /** Set once the thread failed: every later build is made here. */
  #broken = false
  readonly #pending = new Map<number, { resolve: (answer: WorkerAnswer) => void, reject: (error: Error) => void }>()
  #nextId = 0
  /** The generated document the thread was last handed, and whether it is handed (false: it is built here). */
  #source: unknown
  #handed: Promise<boolean> | undefined
  /** Called when the thread fails, with why. */
  readonly #onFailure: (error: Error) => void

  constructor (routes: ReadonlyMap<string, RestrictedRoute>, onFailure: (error: Error) => void) {
    this.#routes = routes
    this.#onFailure = onFailure
  }

  /** Whether a thread builds the documents now. */
  get offThread (): boolean {
    return this.#worker !== null && !this.#broken
  }

  /** The document of `source` that hides `hidden`, built in the thread when the document is large. */
  async build (source: unknown, hidden: ReadonlyMap<string, PathTrie>): Promise<BuildAnswer> {
    if (await this.#hand(source)) {
      try {
        const answer = await this.#ask({ kind: 'build', id: 0, hidden: hidden as Map<string, PathTrie> })
        if ('built' in answer) return answer.built
        // A failure of the build itself is made again here, where its error is the one the caller gets.
      } catch {
        // The thread stopped: built here below.
      }
    }
    return buildDocument(source, this.#routes, hidden)
  }

  /** The YAML text of a document whose JSON text is `json`, written in the thread when it builds. */
  async yaml (json: PiecedJson, document: () => Promise<unknown>): Promise<string> {
    if (this.offThread) {
      try {
        const answer = await this.#ask({ kind: 'yaml', id: 0, text: json.text })
        if ('yaml' in answer) return answer.yaml
      } catch {
        // The thread stopped: written here below.
      }
    }
    return toYaml(await document())
  }

  /** Stops the thread once it has answered what it was asked; later builds are made here. */
  async close (): Promise<void> {
    this.#broken = true
    // Kept alive until it has stopped, so that a close awaited last is not cut short.
    this.#worker?.ref()
    this.#worker?.postMessage({ kind: 'close' } satisfies WorkerRequest)
    await this.#exited
  }

  /** Hands the thread the text of `source` once, when it is large; whether the thread builds from it. */
  async #hand (source: unknown): Promise<boolean> {
    if (source !== this.#source || this.#handed === undefined) {
      this.#source = source
      this.#handed = this.#handOver(source)
    }
    return await this.#handed
  }

  async #handOver (source: unknown): Promise<boolean> {
    if (this.#broken) return false
    const { text } = await sliced(writePieces(source))
    if (text.length < IN_THREAD_BELOW || this.#broken) return false
    const worker = this.#start()
    worker.postMessage({ kind: 'source', text } satisfies WorkerRequest)
    // Each route by itself, the event loop turning between them: hundreds of routes, each with its declared paths.
    const turn = betweenSteps()
    for (const [id, route] of this.#routes) {
      await turn()
      worker.postMessage({ kind: 'route', id, route: withoutFunctions(route) as RestrictedRoute } satisfies WorkerRequest)
    }
    return true
  }

  #start (): Worker {
    if (this.#worker !== null) return this.#worker
    const worker = new Worker(WORKER_FILE)
    this.#exited = new Promise((resolve) => worker.once('exit', resolve))
    worker.unref()
    worker.on('message', (answer: WorkerAnswer) => {
      const pending = this.#pending.get(answer.id) as { resolve: (answer: WorkerAnswer) => void }
      this.#pending.delete(answer.id)
      if (this.#pending.size === 0) worker.unref()
      pending.resolve(answer)
    })
    const fail = (error: Error): void => {
      if (this.#broken) return
      this.#broken = true
      this.#onFailure(error)
      for (const { reject } of this.#pending.values()) reject(error)
      this.#pending.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`The document thread stopped with exit code ${code}`)))
    this.#worker = worker
    return worker
  }

  /** Sends a request to the thread; its answer comes by id. The thread keeps the process alive only while it owes answers. */
  async #ask (request: Extract<WorkerRequest, { id: number }>): Promise<WorkerAnswer> {
    const worker = this.#worker as Worker
    const id = ++this.#nextId
    return await new Promise<WorkerAnswer>((resolve, reject) => {
      if (this.#broken) {
        reject(new Error('The document thread has stopped'))
        return
      }
      this.#pending.set(id, { resolve, reject })
      worker.ref()
      worker.postMessage({ ...request, id })
    })
  }
}
