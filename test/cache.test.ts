import { test } from 'tap'
import { SecondSightCache } from '../lib/cache.js'

test('a key is admitted on its second sighting only', async (t) => {
  const cache = new SecondSightCache<string>(2)
  t.equal(cache.get('a'), undefined)
  t.equal(cache.admit('a'), false, 'first sighting')
  t.equal(cache.admit('a'), true, 'second sighting')
  t.equal(cache.admit('a'), false, 'admission is used up')
})

test('stored values are evicted least recently used first', async (t) => {
  const cache = new SecondSightCache<string>(2)
  cache.set('a', 'A')
  cache.set('b', 'B')
  t.equal(cache.get('a'), 'A', 'reading a makes b the oldest')
  cache.set('c', 'C')
  t.same([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], ['A', undefined, 'C', 2])
})

test('keys seen once are bounded: the oldest is forgotten', async (t) => {
  const cache = new SecondSightCache<string>(2)
  cache.admit('a')
  cache.admit('b')
  cache.admit('c')
  t.equal(cache.admit('a'), false, 'a was forgotten')
  t.equal(cache.admit('c'), true, 'c was remembered')
})

test('a capacity of 0 admits nothing', async (t) => {
  const cache = new SecondSightCache<string>(0)
  t.equal(cache.admit('a'), false)
  t.equal(cache.admit('a'), false)
})
