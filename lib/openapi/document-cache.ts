/**
 * Callers' documents, kept by view (what each route hides from the caller)
 * within a bound in bytes, least recently used first out. A view's document
 * is built once: concurrent first requests of a view wait for the same build. A
 * refusal (the last check's) is kept as the view's answer too: the build is a
 * function of the generated document, the routes and the view, so it would
 * refuse again. Any other failure is not kept.
 */
import type { DocumentLeak } from './document.js'
import { readPieces, sliced } from './json-pieces.js'
import type { PiecedJson } from './json-pieces.js'
import { SentText } from './sent-text.js'

/** Heap bytes a string takes: one a character while every character fits in a byte, else two. */
function stringBytes (text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length
}

/**
 * One view's document: its JSON text, made at once, sent as it is; the
 * object, made from the text's pieces a slice at a time when first asked
 * for, and kept; the YAML text when first asked for, and kept.
 */
export class CachedDocument {
  readonly json: PiecedJson
  #shared: Promise<unknown> | undefined
  #yaml: Promise<SentText> | undefined
  readonly #sentJson: SentText
  #bytes: number
  readonly #writeYaml: (cached: CachedDocument) => Promise<string>
  readonly #grown: () => void

  /** `document` is the object the text was written from, when the build left one in this thread. */
  constructor (json: PiecedJson, document: unknown, writeYaml: (cached: CachedDocument) => Promise<string>, grown: () => void = () => {}) {
    this.json = json
    this.#sentJson = new SentText(json.text)
    this.#writeYaml = writeYaml
    this.#grown = grown
    this.#bytes = stringBytes(json.text)
    // A parsed document takes about as many heap bytes as its text has characters (GitHub's: 0.73).
    if (document !== undefined) this.#shared = this.#hold(Promise.resolve(document), json.text.length)
  }

  /** The estimated heap bytes the document keeps. */
  get bytes (): number {
    return this.#bytes
  }

  #hold<T> (made: Promise<T>, bytes: (value: T) => number): Promise<T>
  #hold<T> (made: Promise<T>, bytes: number): Promise<T>
  #hold<T> (made: Promise<T>, bytes: number | ((value: T) => number)): Promise<T> {
    return made.then((value) => {
      this.#bytes += typeof bytes === 'number' ? bytes : bytes(value)
      this.#grown()
      return value
    })
  }

  /** The JSON text as a reply sends it. */
  get sentJson (): SentText {
    return this.#sentJson
  }

  /** The one object every caller of the view reads, made once: never modify it. */
  async shared (): Promise<unknown> {
    this.#shared ??= this.#hold(sliced(readPieces(this.json)), this.json.text.length)
    return await this.#shared
  }

  /** A new object of the document, the caller's to change. */
  async fresh (): Promise<unknown> {
    return await sliced(readPieces(this.json))
  }

  /** The YAML text of the document as a reply sends it, made once. */
  async sentYaml (): Promise<SentText> {
    this.#yaml ??= this.#hold(this.#writeYaml(this).then((text) => new SentText(text)), (sent) => stringBytes(sent.text))
    return await this.#yaml
  }

  /** The YAML text of the document, made once. */
  async yaml (): Promise<string> {
    return (await this.sentYaml()).text
  }
}

/** What a build of a view's document gives: the document, or the last check's refusal and where it found the leak. */
export type CachedAnswer = CachedDocument | { refused: DocumentLeak }

/** What each refusal is counted at: its place and reason, beside the key. */
const REFUSAL_BYTES = 256

interface Entry { readonly answer: Promise<CachedAnswer>, value?: CachedAnswer, bytes: number }

/** The views' documents of one generated document, by view key, least recently used first. */
export class DocumentCache {
  readonly maxBytes: number
  #entries = new Map<string, Entry>()
  #bytes = 0

  constructor (maxBytes: number) {
    this.maxBytes = maxBytes
  }

  /**
   * The document of the view `key`: kept, being built, or built now by `build` (which is
   * handed a function to call when the document grows, as its object or YAML is made).
   */
  async document (key: string, build: (grown: () => void) => Promise<CachedAnswer>): Promise<CachedAnswer> {
    const kept = this.#entries.get(key)
    if (kept !== undefined) {
      // Used last, evicted last.
      this.#entries.delete(key)
      this.#entries.set(key, kept)
      return await kept.answer
    }
    const entry: Entry = { answer: build(() => this.#resize(key, entry)), bytes: 0 }
    this.#entries.set(key, entry)
    try {
      entry.value = await entry.answer
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key)
      throw error
    }
    this.#resize(key, entry)
    return entry.value
  }

  #resize (key: string, entry: Entry): void {
    // Evicted meanwhile, or not built yet: its bytes are counted when it is.
    if (entry.value === undefined || this.#entries.get(key) !== entry) return
    const bytes = entry.value instanceof CachedDocument ? entry.value.bytes : REFUSAL_BYTES + key.length
    this.#bytes += bytes - entry.bytes
    entry.bytes = bytes
    // A document larger than the bound is not kept, and pushes no other out.
    if (bytes > this.maxBytes) {
      this.#entries.delete(key)
      this.#bytes -= bytes
    }
    this.#evict()
  }

  /** Drops the least recently used documents, those being built aside, until the rest fit. */
  #evict (): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return
      if (entry.bytes === 0) continue
      this.#entries.delete(key)
      this.#bytes -= entry.bytes
    }
  }
}
