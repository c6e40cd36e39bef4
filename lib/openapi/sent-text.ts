/**
 * A document's text as a reply sends it: a stream of pieces of bounded size,
 * the event loop turning between two pieces, so that a large document, or
 * eight sent at once, never holds the loop for the whole body. Its length in
 * bytes and its entity tag are made once, the tag a piece at a time too, so
 * that `content-length` is kept, and `If-None-Match` answered by
 * @fastify/etag, which tags only bodies it is handed whole.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { betweenSteps } from '../slices.js'

/** Characters of text encoded and sent between two turns of the event loop. */
export const SENT_PIECE = 64 * 1024

/** The pieces of `text`, each at most `size` characters, none ending between the two halves of a surrogate pair. */
export function * textPieces (text: string, size = SENT_PIECE): Generator<string> {
  let start = 0
  while (start < text.length) {
    let end = Math.min(start + size, text.length)
    const last = text.charCodeAt(end - 1)
    // A pair's halves stay in one piece, or each would be encoded as a replacement character.
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += end - start > 1 ? -1 : 1
    yield text.slice(start, end)
    start = end
  }
}

/** Awaits `turn` between two pieces, so that the event loop runs between them. */
export async function * turningBetween (pieces: Iterable<string>, turn: () => Promise<void>): AsyncGenerator<Buffer> {
  let first = true
  for (const piece of pieces) {
    if (!first) await turn()
    first = false
    yield Buffer.from(piece)
  }
}

async function nextTurn (): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
}

/** A text kept for sending: its bytes in pieces, each time anew, and its length and tag, made once. */
export class SentText {
  readonly text: string
  #length: number | undefined
  #tag: Promise<string> | undefined

  constructor (text: string) {
    this.text = text
  }

  /** Its length in UTF-8 bytes, for `content-length`. */
  get length (): number {
    this.#length ??= Buffer.byteLength(this.text)
    return this.#length
  }

  /** Its strong entity tag: the SHA-1 of its bytes in base64, quoted, as @fastify/etag writes by default. */
  async tag (): Promise<string> {
    this.#tag ??= (async () => {
      const hash = createHash('sha1')
      const turn = betweenSteps()
      for (const piece of textPieces(this.text)) {
        hash.update(piece)
        await turn()
      }
      return `"${hash.digest('base64')}"`
    })()
    return await this.#tag
  }

  /** A new stream of its bytes, a piece at a time. */
  stream (): Readable {
    return Readable.from(turningBetween(textPieces(this.text), nextTurn), { objectMode: false })
  }
}
