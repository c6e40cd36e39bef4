import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { FIGURE_PAGES, figureValue, formatFigure, updateFigures, valueAt } from '../../bench/figures.js'

const file = (name: string): string => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')

test('every figure of the documentation marked as read from a bench file is that file\'s', async (t) => {
  for (const page of FIGURE_PAGES) {
    const text = file(page)
    const written = updateFigures(text, (name) => JSON.parse(file(name)))
    t.equal(written, text, `${page}: npm run bench:readme writes its figures from the committed files`)
  }
  t.ok(FIGURE_PAGES.slice(1).every((page) => file(page).includes('<!-- figure bench/')), 'each docs page holds figures read from a file')
})

test('a figure is written in the format its marker names', async (t) => {
  const cases = [
    { value: 1.23456, format: '2', expected: '1.23' },
    { value: 0.9, format: '0', expected: '1' },
    { value: 1234567.8, format: '0,', expected: '1,234,568' },
    { value: 1234.5, format: '1,', expected: '1,234.5' },
    { value: 3.5 * 2 ** 20, format: 'MiB1', expected: '3.5' },
    { value: 0.0456, format: '%1', expected: '4.6' },
    { value: 'v20.20.2', format: 'text', expected: 'v20.20.2' },
    { value: 7, format: 'text', expected: '7' }
  ]
  for (const { value, format, expected } of cases) t.equal(formatFigure(value, format, 'f x'), expected, `${String(value)} as ${format}`)
  t.throws(() => formatFigure('7', '2', 'f x'), { message: 'f x is not a number' })
  t.throws(() => formatFigure(7, 'kB', 'f x'), { message: 'f x: unknown format kB' })
})

test('a figure is found by keys and indices, and a missing one names its file and path', async (t) => {
  const data = { cases: [{ ratio: 1.5 }], empty: null }
  t.equal(valueAt(data, 'cases.0.ratio', 'f.json'), 1.5)
  t.throws(() => valueAt(data, 'cases.1.ratio', 'f.json'), { message: 'f.json has no cases.1.ratio' })
  t.throws(() => valueAt(data, 'empty.x', 'f.json'), { message: 'f.json has no empty.x' })
  t.throws(() => valueAt(data, 'cases.0.ratio.toFixed', 'f.json'), { message: 'f.json has no cases.0.ratio.toFixed' })
})

test('each file is read once, and every marker of the page is rewritten', async (t) => {
  const reads: string[] = []
  const page = 'a <!-- figure b.json x 1 -->9.9<!-- /figure --> and <!-- figure b.json y.0 0, -->0<!-- /figure --> <!-- figure c.json z text --><!-- /figure -->.'
  const written = updateFigures(page, (name) => { reads.push(name); return name === 'b.json' ? { x: 2.25, y: [12345] } : { z: 'ok' } })
  t.equal(written, 'a <!-- figure b.json x 1 -->2.3<!-- /figure --> and <!-- figure b.json y.0 0, -->12,345<!-- /figure --> <!-- figure c.json z text -->ok<!-- /figure -->.')
  t.strictSame(reads, ['b.json', 'c.json'])
})

test('a figure may reduce every item a path reaches, and be the difference or ratio of two terms', async (t) => {
  const pairs = [{ p99: 3, at: { x: 1 } }, { p99: 1, at: { x: 5 } }, { p99: 2, at: { x: 9 } }]
  const data = { pairs, even: [1, 2, 3, 4], a: 6, b: 4, label: 'x' }
  const cases = [
    { expression: 'median:pairs.*.p99', expected: 2 },
    { expression: 'min:pairs.*.at.x', expected: 1 },
    { expression: 'max:pairs.*.at.x', expected: 9 },
    { expression: 'median:even.*', expected: 2.5 },
    { expression: 'a-b', expected: 2 },
    { expression: 'a/b', expected: 1.5 },
    { expression: 'median:pairs.*.p99/b', expected: 0.5 },
    { expression: 'label', expected: 'x' }
  ]
  for (const { expression, expected } of cases) t.equal(figureValue(data, expression, 'f.json'), expected, expression)
  t.throws(() => figureValue(data, 'median:a.*', 'f.json'), { message: 'f.json has no list at a.*' })
  t.throws(() => figureValue({ list: [] }, 'median:list.*', 'f.json'), { message: 'f.json list.* holds no numbers only' })
  t.throws(() => figureValue(data, 'median:pairs.*.at', 'f.json'), { message: 'f.json pairs.*.at holds no numbers only' })
  t.throws(() => figureValue(data, 'label-a', 'f.json'), { message: 'f.json label-a is not between numbers' })
  t.equal(figureValue([1, 3], 'median:*', 'f.json'), 2, 'a file that is a list')
})
