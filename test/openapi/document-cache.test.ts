import { test } from 'tap'
import { drain, writePieces } from '../../lib/openapi/json-pieces.js'
import { CachedDocument, DocumentCache } from '../../lib/openapi/document-cache.js'
import type { CachedAnswer } from '../../lib/openapi/document-cache.js'

/** A cached document of `characters` characters of text, with its object or without. */
function cachedOf (characters: number, withObject: boolean, grown?: () => void): CachedDocument {
  const document = { text: 'x'.repeat(characters - 11) }
  return new CachedDocument(drain(writePieces(document)), withObject ? document : undefined, async () => 'yaml: text\n', grown)
}

test('a cached document counts its text, then its object and YAML as they are made', async (t) => {
  const cached = cachedOf(1000, false)
  t.equal(cached.bytes, 1000)
  const shared = await cached.shared()
  t.equal(await cached.shared(), shared, 'one object')
  t.not(await cached.fresh(), shared, 'a new one')
  t.strictSame(await cached.fresh(), shared)
  t.equal(cached.bytes, 2000)
  t.equal(await cached.yaml(), 'yaml: text\n')
  await cached.yaml()
  t.equal(cached.bytes, 2011)
  t.equal(cached.sentJson.text, cached.json.text, 'the JSON text is sent as it is')
  t.equal(cached.sentJson, cached.sentJson)
  t.equal(await cached.sentYaml(), await cached.sentYaml(), 'the YAML text is kept for sending')
  t.equal(cached.bytes, 2011, 'sending keeps no copy')
  const made = cachedOf(1000, true)
  await made.shared()
  t.equal(made.bytes, 2000, 'an object built in the thread counts at once')
  const wide = new CachedDocument(drain(writePieces({ a: 'ü€' })), undefined, async () => '')
  t.equal(wide.bytes, 2 * '{"a":"ü€"}'.length, 'a text of characters past one byte counts two bytes each')
})

test('concurrent first requests of a view share one build; a failed build is not kept, a refusal is', async (t) => {
  const cache = new DocumentCache(10_000)
  let builds = 0
  const build = (answer: () => CachedAnswer) => async (): Promise<CachedAnswer> => {
    builds++
    await new Promise((resolve) => setImmediate(resolve))
    return answer()
  }
  const cached = cachedOf(100, true)
  const [a, b] = await Promise.all([cache.document('a', build(() => cached)), cache.document('a', build(() => cached))])
  t.strictSame([a === cached, b === cached, builds], [true, true, 1])
  const failing = build(() => { throw new Error('broken') })
  await t.rejects(Promise.all([cache.document('b', failing), cache.document('b', failing)]), { message: 'broken' })
  t.equal(builds, 2, 'one failed build for both')
  await t.rejects(cache.document('b', failing), { message: 'broken' }, 'tried again')
  t.equal(builds, 3)
  const refusal = { refused: { route: 'GET /a', pointer: '/paths', reason: 'hidden name' as const } }
  t.equal(await cache.document('c', build(() => refusal)), refusal)
  t.equal(await cache.document('c', build(() => cached)), refusal, 'the refusal is kept')
  t.equal(builds, 4)
})

test('views\' documents are kept within the bound, the least recently used going first, and one larger than the bound not at all', async (t) => {
  const cache = new DocumentCache(2500)
  let builds = 0
  const get = async (key: string, characters = 1000): Promise<unknown> => await cache.document(key, async (grown) => {
    builds++
    return cachedOf(characters, false, grown)
  })
  await get('a')
  await get('b')
  await get('a')
  t.equal(builds, 2, 'both fit')
  await get('c')
  t.equal(builds, 3)
  await get('a')
  t.equal(builds, 3, 'a was used last but one, it stays')
  await get('b')
  t.equal(builds, 4, 'b was used least recently, it went')
  await get('huge', 3000)
  await get('huge', 3000)
  t.equal(builds, 6, 'a document larger than the bound is built each time')
  await get('a')
  await get('b')
  t.equal(builds, 6, 'and pushes no other out')
  const cached = await get('a') as CachedDocument
  await cached.shared()
  // The object of a doubles its bytes: the least recently used goes.
  await new Promise((resolve) => setImmediate(resolve))
  await get('a')
  await get('b')
  t.equal(builds, 7, 'b went when a grew')
})

test('a document being built is never evicted to make room', async (t) => {
  const cache = new DocumentCache(1500)
  let finish: (cached: CachedDocument) => void = () => {}
  const slow = cache.document('slow', async () => await new Promise<CachedDocument>((resolve) => { finish = resolve }))
  await cache.document('a', async () => cachedOf(1000, false))
  await cache.document('b', async () => cachedOf(1000, false))
  let builds = 0
  await cache.document('a', async () => { builds++; return cachedOf(1000, false) })
  t.equal(builds, 1, 'a went for b, the document being built stayed')
  const cached = cachedOf(100, false)
  finish(cached)
  t.equal(await slow, cached)
  t.equal(await cache.document('slow', async () => { builds++; return cachedOf(100, false) }), cached, 'and is kept once built')
  t.equal(builds, 1)
})
