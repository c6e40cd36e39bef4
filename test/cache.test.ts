import { test } from 'tap'
import { AdmissionCache, FrequencySketch } from '../lib/cache.js'

/** Replays keys the way the plugin does: get, and on a miss, admit then set. Returns the number of values set. */
function replay (cache: AdmissionCache<number>, keys: string[]): number {
  let admitted = 0
  for (const key of keys) {
    if (cache.get(key) === undefined && cache.admit(key)) {
      cache.set(key, 1)
      admitted++
    }
  }
  return admitted
}

const cycle = (length: number, distinct: number): string[] => Array.from({ length }, (_, i) => `k${i % distinct}`)

test('a key is admitted on its second sighting while the cache has room', async (t) => {
  const cache = new AdmissionCache<string>(2)
  t.equal(cache.get('a'), undefined)
  t.equal(cache.admit('a'), false, 'first sighting')
  t.equal(cache.get('a'), undefined)
  t.equal(cache.admit('a'), true, 'second sighting')
  cache.set('a', 'A')
  t.equal(cache.get('a'), 'A')
})

test('stored values are evicted least recently used first', async (t) => {
  const cache = new AdmissionCache<string>(2)
  cache.set('a', 'A')
  cache.set('b', 'B')
  t.equal(cache.get('a'), 'A', 'reading a makes b the oldest')
  cache.set('c', 'C')
  t.strictSame([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], ['A', undefined, 'C', 2])
})

test('cycling through more keys than the cache holds compiles little more than the fill', async (t) => {
  for (const distinct of [101, 150, 199, 250, 1000]) {
    const admitted = replay(new AdmissionCache(100), cycle(100_000, distinct))
    t.ok(admitted >= 100 && admitted <= 105, `a cycle of ${distinct} keys: ${admitted} admissions over 100,000 lookups`)
  }
})

test('with a share of 1/32, keys of a cycle of more than 32 are admitted only in the first 64 lookups, before shares mean anything', async (t) => {
  for (const [distinct, admitted] of [[10, 10], [30, 30], [35, 29], [50, 14], [101, 0], [165, 0], [512, 0]]) {
    const cache = new AdmissionCache<number>(100, { share: 1 / 32 })
    const when: number[] = []
    cycle(100_000, distinct).forEach((key, i) => {
      if (cache.get(key) === undefined && cache.admit(key)) {
        cache.set(key, 1)
        when.push(i)
      }
    })
    t.equal(when.length, admitted, `a cycle of ${distinct} keys: ${when.length} admissions over 100,000 lookups`)
    if (distinct > 32) t.ok(when.every((i) => i < 64), `a cycle of ${distinct} keys: admitted at ${when.join(', ') || 'none'}`)
  }
})

test('lookups answered elsewhere count in the shares, and age the counts, so that a popular newcomer still gets in', async (t) => {
  const cache = new AdmissionCache<number>(100, { share: 1 / 32 })
  for (let i = 0; i < 100_000; i++) cache.countLookup()
  let admittedAt = -1
  for (let i = 0; i < 10_000 && admittedAt === -1; i++) {
    if (i % 20 === 0 && cache.get('b') === undefined && cache.admit('b')) admittedAt = i
    else cache.countLookup()
  }
  t.ok(admittedAt > 0 && admittedAt < 2000, `a key making up 1/20 of the lookups, admitted after ${admittedAt} lookups`)
  const rare = new AdmissionCache<number>(100, { share: 1 / 32 })
  for (let i = 0; i < 100; i++) rare.countLookup()
  let rareAdmitted = false
  for (let i = 0; i < 10_000; i++) {
    if (i % 50 === 0) rareAdmitted ||= rare.get('r') === undefined && rare.admit('r')
    else rare.countLookup()
  }
  t.notOk(rareAdmitted, 'a key making up 1/50 of the lookups is not')
})

test('the frequency sketch\'s total ages with its counts', async (t) => {
  const sketch = new FrequencySketch(1)
  for (let i = 0; i < 9; i++) sketch.increment(`k${i % 3}`)
  t.equal(sketch.total, 9)
  sketch.increment('k0')
  t.equal(sketch.total, 5, 'the tenth increment halved 10 to 5')
  for (let i = 0; i < 10; i++) sketch.increment('k0')
  t.equal(sketch.total, 7.5, '(5 + 10) / 2: the total a key\'s count is a share of')
})

test('admission goes by the sightings of the key last looked up, and no other', async (t) => {
  const cache = new AdmissionCache<string>(2)
  cache.get('a')
  cache.get('a')
  cache.get('b')
  t.equal(cache.admit('a'), false, 'a was not the last key looked up')
  cache.get('a')
  t.equal(cache.admit('a'), true)
})

test('random keys are rationed to one admission per 64 lookups once the budget is spent', async (t) => {
  let seed = 1
  const random = (): number => { seed = (seed * 48271) % 2147483647; return seed / 2147483647 }
  const keys = Array.from({ length: 64_000 }, () => `k${Math.floor(random() * 1000)}`)
  const admitted = replay(new AdmissionCache(100), keys)
  t.ok(admitted <= 100 + 64_000 / 64, `${admitted} admissions`)
})

test('keys admitted on first use spend the same budget, each time they return after an eviction', async (t) => {
  const cache = new AdmissionCache<number>(2)
  const admissions: boolean[] = []
  for (let i = 0; i < 640; i++) {
    const key = `named${i % 4}`
    if (cache.get(key) !== undefined) continue
    const admitted = cache.admitOnFirstUse()
    admissions.push(admitted)
    if (admitted) cache.set(key, i)
  }
  t.strictSame(admissions.slice(0, 3), [true, true, false], 'the first two fill the budget of two, the third finds none')
  const admitted = admissions.filter(Boolean).length
  t.ok(admitted >= 640 / 64 && admitted <= 2 + 640 / 64, `then one per 64 lookups, however often each key returns: ${admitted} in 640`)
  t.equal(new AdmissionCache<number>(0).admitOnFirstUse(), false, 'a capacity of 0 admits nothing on first use either')
})

test('a newly popular key displaces the least recently used entry', async (t) => {
  const cache = new AdmissionCache<number>(10)
  replay(cache, cycle(1000, 10))
  let after = -1
  for (let i = 0; i < 100 && after === -1; i++) {
    if (replay(cache, ['hot']) === 1) after = i
    replay(cache, [`k${i % 10}`])
  }
  t.ok(after > 0 && after < 20, `admitted after ${after} sightings`)
  t.equal(cache.get('hot'), 1)
})

test('a stored null is a value like any other', async (t) => {
  const cache = new AdmissionCache<string | null>(2)
  cache.set('refused', null)
  cache.set('a', 'A')
  t.equal(cache.get('refused'), null, 'found, and now the most recently used')
  cache.set('b', 'B')
  t.strictSame([cache.get('a'), cache.get('refused')], [undefined, null])
})

test('a capacity of 0 admits nothing', async (t) => {
  const cache = new AdmissionCache<string>(0)
  t.strictSame([cache.get('a'), cache.admit('a'), cache.get('a'), cache.admit('a')], [undefined, false, undefined, false])
})

test('the frequency sketch counts, saturates at 255 and halves its counts as they age', async (t) => {
  const sketch = new FrequencySketch(1)
  t.strictSame([sketch.increment('a'), sketch.increment('a'), sketch.estimate('a'), sketch.estimate('b')], [1, 2, 2, 0])
  for (let i = 0; i < 8; i++) sketch.increment('a')
  t.equal(sketch.estimate('a'), 5, 'the tenth increment halved 10 to 5')
  const saturated = new FrequencySketch(100)
  for (let i = 0; i < 400; i++) saturated.increment('x')
  t.equal(saturated.estimate('x'), 255)
})

test('without recency, entries are evicted in the order they were stored, and the frequency rule still protects popular ones', async (t) => {
  const cache = new AdmissionCache<string>(2, { recency: false })
  for (const key of ['a', 'b']) {
    cache.get(key)
    cache.get(key)
    t.ok(cache.admit(key))
    cache.set(key, key.toUpperCase())
  }
  for (let i = 0; i < 5; i++) t.equal(cache.get('a'), 'A')
  cache.set('c', 'C')
  t.strictSame([cache.get('a'), cache.get('b'), cache.get('c')], [undefined, 'B', 'C'], 'a was stored first, so it goes first despite its hits')
  const fresh = new AdmissionCache<string>(1, { recency: false })
  fresh.get('x')
  fresh.get('x')
  fresh.admit('x')
  fresh.set('x', 'X')
  for (let i = 0; i < 5; i++) fresh.get('x')
  fresh.get('y')
  fresh.get('y')
  t.notOk(fresh.admit('y'), 'a newcomer seen twice does not displace an entry seen seven times')
})

test('an admission that costs more spends more of the budget, which refills by one every 64 lookups', async (t) => {
  const cache = new AdmissionCache<string>(4)
  t.equal(cache.admitOnFirstUse(), true)
  cache.spend(5)
  // 4 - 1 - 5 = -2: three units short of the next admission, 192 lookups.
  for (let i = 0; i < 191; i++) cache.get(`k${i}`)
  t.equal(cache.admitOnFirstUse(), false, 'not yet refilled')
  cache.get('one more')
  t.equal(cache.admitOnFirstUse(), true, 'refilled after 192 lookups')
})

test('with a bound on weight, the least recently used entries are evicted until a new one fits', async (t) => {
  const cache = new AdmissionCache<string>(10, { maxWeight: 10 })
  cache.set('a', 'A', 4)
  cache.set('b', 'B', 4)
  cache.set('free', 'F')
  t.equal(cache.get('a'), 'A', 'a is now the most recently used')
  cache.set('c', 'C', 5)
  t.strictSame([cache.get('b'), cache.get('free'), cache.get('a'), cache.get('c'), cache.weight], [undefined, 'F', 'A', 'C', 9])
  cache.set('a', 'A again', 1)
  t.strictSame([cache.get('a'), cache.weight, cache.size, cache.evictions], ['A again', 6, 3, 1], 'storing a key again replaces its weight')
})
