import { test } from 'tap'
import { PIECE_DEPTH, drain, readPieces, sliced, writePieces } from '../../lib/openapi/json-pieces.js'
import { SLICE_MS } from '../../lib/slices.js'

const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: { c: [1, { d: 2 }] } })

const values: Array<[string, unknown]> = [
  ['a document', { openapi: '3.0.3', paths: { '/users/{id}': { get: { responses: { 200: { description: 'ok' } } }, parameters: [] } }, components: { schemas: { User: { type: 'object', properties: { id: { type: 'integer' } } } } } }],
  ['keys JSON leaves out', { a: undefined, b: () => 1, c: Symbol('c'), d: 1, e: { f: undefined }, g: [undefined, () => 1] }],
  ['only keys JSON leaves out', { a: { b: undefined } }],
  ['empty levels', { a: {}, b: { c: {} }, d: [] }],
  ['an object without a prototype', { x: nullPrototype }],
  ['values with a toJSON', { at: new Date(0), level: { toJSON: () => 'written', a: 1 } }],
  ['quoted keys', { 'a"b': { '\u2028': 1, '': 2, 7: 3 } }],
  ['a key __proto__', JSON.parse('{"a":{"__proto__":{"polluted":true},"b":1}}')],
  ['deeper than the pieces', { a: { b: { c: { d: { e: 1 } } } } }],
  ['a list', [{ a: 1 }, 2]],
  ['a string', 'text'],
  ['null', null]
]

test('a pieced text is the text JSON.stringify writes, and reads back as JSON.parse reads it', async (t) => {
  for (const [name, value] of values) {
    const json = drain(writePieces(value))
    t.equal(json.text, JSON.stringify(value), name)
    const read = drain(readPieces(json))
    t.strictSame(read, JSON.parse(json.text), `${name}: read back`)
    t.equal(JSON.stringify(read), json.text, `${name}: in the same order`)
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'a key __proto__ is a key, not the prototype')
})

test('each level of objects above the depth is a piece of its own, every value below it one piece', async (t) => {
  const json = drain(writePieces({ paths: { '/a': { get: { x: { y: 1 } }, put: 2 } }, info: 'i' }))
  t.strictSame(json.pieces.map(({ path, start }) => [path.join('/'), start < 0 ? 'object' : json.text.slice(start, json.pieces.find((piece) => piece.path === path)?.end)]), [
    ['', 'object'],
    ['paths', 'object'],
    ['paths//a', 'object'],
    ['paths//a/get', '{"x":{"y":1}}'],
    ['paths//a/put', '2'],
    ['info', '"i"']
  ])
  t.equal(PIECE_DEPTH, 3)
  t.strictSame(drain(writePieces({ a: { b: 1 } }, 1)).pieces.map(({ path }) => path), [[], ['a']])
})

test('a sliced task lets the event loop turn once a slice has run its time, and not before', async (t) => {
  let now = 0
  // After each step, whether the loop turned: an immediate set in the step has run.
  const turned: boolean[] = []
  /** Steps that each take `ms` by the clock. */
  function * timed (steps: number, ms: number): Generator<void, number> {
    for (let step = 0; step < steps; step++) {
      now += ms
      let turn = false
      setImmediate(() => { turn = true })
      yield
      turned.push(turn)
    }
    return steps
  }
  t.equal(await sliced(timed(100, 0), () => now), 100)
  t.notOk(turned.includes(true), 'no turn while the steps take no time')
  turned.length = 0
  t.equal(await sliced(timed(4, SLICE_MS / 2 + 1), () => now), 4)
  t.strictSame(turned, [false, true, false, true], 'a turn each time the steps have run past a slice, and a new slice from there')
  turned.length = 0
  t.equal(await sliced(timed(3, SLICE_MS + 1), () => now), 3)
  t.strictSame(turned, [true, true, true], 'a turn after each step longer than a slice')
})
