import { test } from 'tap'
import { createHash } from 'node:crypto'
import { SENT_PIECE, SentText, textPieces, turningBetween } from '../../lib/openapi/sent-text.js'

const smile = '\u{1F600}'

test('a text is cut into pieces of at most the size, never between the halves of a surrogate pair', async (t) => {
  const rows: Array<{ text: string, size: number, expected: string[] }> = [
    { text: '', size: 4, expected: [] },
    { text: 'abc', size: 4, expected: ['abc'] },
    { text: 'abcd', size: 4, expected: ['abcd'] },
    { text: 'abcdefghij', size: 4, expected: ['abcd', 'efgh', 'ij'] },
    { text: `abc${smile}d`, size: 4, expected: ['abc', `${smile}d`] },
    { text: `ab${smile}d`, size: 4, expected: [`ab${smile}`, 'd'] },
    { text: `${smile}${smile}`, size: 1, expected: [smile, smile] },
    { text: 'aü€b', size: 2, expected: ['aü', '€b'] }
  ]
  for (const { text, size, expected } of rows) {
    t.strictSame([...textPieces(text, size)], expected, `${JSON.stringify(text)} by ${size}`)
  }
  t.strictSame([...textPieces('x'.repeat(SENT_PIECE + 1))].map((piece) => piece.length), [SENT_PIECE, 1], 'the default size')
})

test('the pieces are encoded one at a time, with a turn awaited between two and none before the first or after the last', async (t) => {
  const events: string[] = []
  const pieces = turningBetween(['a', 'b', 'ü'], async () => { events.push('turn') })
  for await (const piece of pieces) events.push(piece.toString('hex'))
  t.strictSame(events, ['61', 'turn', '62', 'turn', 'c3bc'])
  const one: string[] = []
  for await (const piece of turningBetween(['only'], async () => { one.push('turn') })) one.push(piece.toString())
  t.strictSame(one, ['only'], 'a text of one piece awaits no turn')
})

test('a sent text streams its UTF-8 bytes, and gives their length and the tag @fastify/etag would give them', async (t) => {
  const text = `{"name":"${'ü'.repeat(SENT_PIECE)}${smile}"}`
  const sent = new SentText(text)
  const bytes = Buffer.from(text)
  t.equal(sent.length, bytes.length)
  t.equal(sent.length, sent.length)
  const tag = `"${createHash('sha1').update(bytes).digest('base64')}"`
  t.equal(await sent.tag(), tag)
  t.equal(await sent.tag(), tag, 'made once')
  for (let again = 0; again < 2; again++) {
    const chunks: Buffer[] = []
    for await (const chunk of sent.stream()) chunks.push(chunk)
    t.ok(Buffer.concat(chunks).equals(bytes), 'the same bytes each time')
  }
})
