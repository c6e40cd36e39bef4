import { test } from 'tap'
import { BENCHES, chosenBenches, expectedMinutes, withProvenance } from '../../bench/benches.js'

const bench = (name: string, minutes = 1) => ({ name, file: `bench/${name}.json`, args: [`${name}.js`], minutes })

test('BENCH_ALL runs every bench, some of them, or all but some, and names the benches when it names none', async (t) => {
  const benches = [bench('a'), bench('b'), bench('c')]
  const names = (setting: string | undefined): string[] => chosenBenches(setting, benches).map((one) => one.name)
  t.strictSame(names(undefined), ['a', 'b', 'c'])
  t.strictSame(names(''), ['a', 'b', 'c'])
  t.strictSame(names('c, a'), ['a', 'c'], 'in the order of the list')
  t.strictSame(names('-b'), ['a', 'c'])
  t.throws(() => names('a,d'), { message: 'BENCH_ALL names no bench d; the benches are a, b, c' })
})

test('every committed results file is written by one bench of the list, under bench/', async (t) => {
  const files = BENCHES.map((one) => one.file)
  t.equal(new Set(files).size, files.length)
  t.ok(files.every((file) => /^bench\/[\w-]+\.json$/.test(file)))
  t.strictSame(chosenBenches(undefined).map((one) => one.name), BENCHES.map((one) => one.name))
})

test('a bench is expected to take what its file recorded, or the minutes of its line', async (t) => {
  t.equal(expectedMinutes(bench('a', 3), undefined), 3)
  t.equal(expectedMinutes(bench('a', 3), { date: 'x' }), 3)
  t.equal(expectedMinutes(bench('a', 3), { provenance: { seconds: 90 } }), 1.5)
})

test('a file is given its provenance, replacing the one it held, in the benches\' own layout', async (t) => {
  const provenance = { commit: 'abc', dirty: false, load: { before: [1, 2, 3], after: [2, 2, 3] }, seconds: 61.2 }
  const text = JSON.stringify({ date: 'd', provenance: { commit: 'old' } }, null, 2) + '\n'
  t.equal(withProvenance(text, provenance), JSON.stringify({ date: 'd', provenance }, null, 2) + '\n')
})
