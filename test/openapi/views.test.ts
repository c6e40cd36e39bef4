import { test } from 'tap'
import { drain, writePieces } from '../../lib/openapi/json-pieces.js'
import { DocumentView, ViewCache } from '../../lib/openapi/views.js'
import type { ViewAnswer } from '../../lib/openapi/views.js'

/** A view of a document of `characters` characters of text, with its object or without. */
function viewOf (characters: number, withObject: boolean, grown?: () => void): DocumentView {
  const document = { text: 'x'.repeat(characters - 11) }
  return new DocumentView(drain(writePieces(document)), withObject ? document : undefined, async () => 'yaml: text\n', grown)
}

test('a view counts its text, then its object, YAML and bytes as they are made', async (t) => {
  const view = viewOf(1000, false)
  t.equal(view.bytes, 1000)
  const shared = await view.shared()
  t.equal(await view.shared(), shared, 'one object')
  t.not(await view.fresh(), shared, 'a new one')
  t.strictSame(await view.fresh(), shared)
  t.equal(view.bytes, 2000)
  t.equal(await view.yaml(), 'yaml: text\n')
  await view.yaml()
  t.equal(view.bytes, 2011)
  t.equal(view.body.toString(), view.json.text)
  t.equal(view.body, view.body, 'encoded once')
  t.equal(view.bytes, 3011, 'the bytes of the text count')
  const made = viewOf(1000, true)
  await made.shared()
  t.equal(made.bytes, 2000, 'an object built in the thread counts at once')
  const wide = new DocumentView(drain(writePieces({ a: 'ü€' })), undefined, async () => '')
  t.equal(wide.bytes, 2 * '{"a":"ü€"}'.length, 'a text of characters past one byte counts two bytes each')
})

test('concurrent first requests of a view share one build; a failed build is not kept, a refusal is', async (t) => {
  const cache = new ViewCache(10_000)
  let builds = 0
  const build = (answer: () => ViewAnswer) => async (): Promise<ViewAnswer> => {
    builds++
    await new Promise((resolve) => setImmediate(resolve))
    return answer()
  }
  const view = viewOf(100, true)
  const [a, b] = await Promise.all([cache.view('a', build(() => view)), cache.view('a', build(() => view))])
  t.strictSame([a === view, b === view, builds], [true, true, 1])
  const failing = build(() => { throw new Error('broken') })
  await t.rejects(Promise.all([cache.view('b', failing), cache.view('b', failing)]), { message: 'broken' })
  t.equal(builds, 2, 'one failed build for both')
  await t.rejects(cache.view('b', failing), { message: 'broken' }, 'tried again')
  t.equal(builds, 3)
  const refusal = { refused: { route: 'GET /a', pointer: '/paths', reason: 'hidden name' as const } }
  t.equal(await cache.view('c', build(() => refusal)), refusal)
  t.equal(await cache.view('c', build(() => view)), refusal, 'the refusal is kept')
  t.equal(builds, 4)
})

test('views are kept within the bound, the least recently used going first, and one larger than the bound not at all', async (t) => {
  const cache = new ViewCache(2500)
  let builds = 0
  const get = async (key: string, characters = 1000): Promise<unknown> => await cache.view(key, async (grown) => {
    builds++
    return viewOf(characters, false, grown)
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
  t.equal(builds, 6, 'a view larger than the bound is built each time')
  await get('a')
  await get('b')
  t.equal(builds, 6, 'and pushes no other out')
  const view = await get('a') as DocumentView
  await view.shared()
  // The object of a doubles its bytes: the least recently used goes.
  await new Promise((resolve) => setImmediate(resolve))
  await get('a')
  await get('b')
  t.equal(builds, 7, 'b went when a grew')
})

test('a view being built is never evicted to make room', async (t) => {
  const cache = new ViewCache(1500)
  let finish: (view: DocumentView) => void = () => {}
  const slow = cache.view('slow', async () => await new Promise<DocumentView>((resolve) => { finish = resolve }))
  await cache.view('a', async () => viewOf(1000, false))
  await cache.view('b', async () => viewOf(1000, false))
  let builds = 0
  await cache.view('a', async () => { builds++; return viewOf(1000, false) })
  t.equal(builds, 1, 'a went for b, the view being built stayed')
  const view = viewOf(100, false)
  finish(view)
  t.equal(await slow, view)
  t.equal(await cache.view('slow', async () => { builds++; return viewOf(100, false) }), view, 'and is kept once built')
  t.equal(builds, 1)
})
