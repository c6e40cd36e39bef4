import { test } from 'tap'
import { Worker } from 'node:worker_threads'
import type { PathTrie } from '../../lib/hidden-paths.js'
import { answer } from '../../lib/openapi/document-worker.js'
import { restrictedDocument } from '../../lib/openapi/document.js'
import { buildDocument, DocumentBuilder, IN_THREAD_BELOW } from '../../lib/openapi/document-builder.js'
import type { RestrictedRoute } from '../../lib/openapi/types.js'
import { toYaml } from '../../lib/openapi/yaml.js'

const route: RestrictedRoute & { loads: unknown[] } = {
  method: 'GET',
  url: '/users',
  statusKey: '200',
  shape: { kind: 'array' },
  maxDepth: 8,
  maxListedFields: 100,
  onlyParam: 'only',
  deferParam: 'defer',
  paths: ['id', 'email'],
  fieldSets: { contact: ['email'] },
  hiddenFrom: async () => null,
  // Functions a route's options carry, which cannot cross to the thread.
  loads: [{ check: () => {} }, () => {}]
}
const routes = new Map([['1', route]])
const users = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, email: { type: 'string' } } } }

function sourceOf (description: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Users', version: '1.0.0', description },
    paths: { '/users': { get: { 'x-restricted-fields': '1', responses: { 200: { description: 'ok', content: { 'application/json': { schema: users } } } } } } }
  }
}
const trie = (paths: Record<string, PathTrie>): PathTrie =>
  ({ whole: Object.keys(paths).length === 0, children: new Map(Object.entries(paths)) })
const hideEmail = new Map([['1', trie({ email: trie({}) })]])
// A shared example the plugin does not copy: the last check finds the hidden name in it.
const refused = {
  ...sourceOf('x'.repeat(IN_THREAD_BELOW)),
  paths: { '/users': { get: { 'x-restricted-fields': '1', responses: { 200: { description: 'ok', content: { 'application/json': { schema: users, examples: { shared: { $ref: '#/components/examples/user' } } } } } } } } },
  components: { examples: { user: { value: [{ id: 1, email: 'e' }] } } }
}

test('a large document is built by the thread as on the event loop, its YAML too; a small one on the event loop', async (t) => {
  const failures: Error[] = []
  const builder = new DocumentBuilder(routes, (error) => failures.push(error))
  t.teardown(() => builder.close())
  const large = sourceOf('x'.repeat(IN_THREAD_BELOW))
  const built = await builder.build(large, hideEmail)
  t.equal(builder.offThread, true)
  t.notOk('document' in built, 'no object is made on the event loop')
  const { document: here } = restrictedDocument(large, routes, hideEmail) as { document: unknown }
  t.equal('json' in built && built.json.text, JSON.stringify(here))
  t.notMatch('json' in built && built.json.text, /email/)
  if (!('json' in built)) return
  t.equal(await builder.yaml(built.json, async () => here), toYaml(here), 'YAML written by the thread')
  t.equal(await builder.yaml({ text: '{', pieces: [] }, async () => ({ a: 1 })), 'a: 1\n', 'a YAML the thread fails to write is written here')
  t.strictSame(await builder.build(refused, hideEmail), { refused: { route: 'GET /users', pointer: '/paths/~1users/get/responses/200/content/application~1json/examples/shared/value', reason: 'hidden name', position: 'instance key' } })
  await t.rejects(builder.build(large, new Map([['1', { whole: false } as PathTrie]])), TypeError, 'a build that fails in the thread fails here, with its own error')
  t.strictSame(failures, [])
  const small = await builder.build(sourceOf('small'), hideEmail)
  t.ok('document' in small, 'a small document is built here')
})

test('once the thread is stopped, documents are built on the event loop', async (t) => {
  const builder = new DocumentBuilder(routes, () => t.fail('a close is no failure'))
  const large = sourceOf('x'.repeat(IN_THREAD_BELOW))
  t.ok('json' in await builder.build(large, hideEmail))
  await builder.close()
  await builder.close()
  t.equal(builder.offThread, false)
  const built = await builder.build(large, hideEmail)
  if (!('json' in built)) return t.fail('built')
  t.ok('document' in built, 'built here')
  t.equal(await builder.yaml(built.json, async () => built.document), toYaml(built.document))
  const later = new DocumentBuilder(routes, () => {})
  await later.close()
  t.ok('document' in await later.build(large, hideEmail), 'a builder closed before its first build builds here')
})

test('the thread answers each request by its id', async (t) => {
  const source = { document: null as unknown, routes: new Map<string, RestrictedRoute>() }
  t.equal(answer(source, { kind: 'source', text: JSON.stringify(sourceOf('d')) }), null)
  t.equal(answer(source, { kind: 'route', id: '1', route: { ...route, hiddenFrom: undefined, loads: [] } as RestrictedRoute }), null)
  const built = answer(source, { kind: 'build', id: 1, hidden: hideEmail })
  t.strictSame(built, { id: 1, built: { json: (buildDocument(sourceOf('d'), routes, hideEmail) as { json: unknown }).json } }, 'the event loop\'s build, without the object')
  answer(source, { kind: 'source', text: JSON.stringify(refused) })
  answer(source, { kind: 'route', id: '1', route: { ...route, hiddenFrom: undefined, loads: [] } as RestrictedRoute })
  t.strictSame(answer(source, { kind: 'build', id: 4, hidden: hideEmail }), { id: 4, built: buildDocument(refused, routes, hideEmail) }, 'a refusal is answered as a value')
  t.strictSame(answer(source, { kind: 'yaml', id: 2, text: '{"a":1}' }), { id: 2, yaml: 'a: 1\n' })
  t.strictSame(answer(source, { kind: 'yaml', id: 3, text: '{' }), { id: 3, failed: true })
})

test('when the thread stops while it writes a YAML text, the text is written on the event loop', async (t) => {
  const failures: Error[] = []
  const builder = new DocumentBuilder(routes, (error) => failures.push(error))
  t.teardown(() => builder.close())
  const built = await builder.build(sourceOf('x'.repeat(IN_THREAD_BELOW)), hideEmail)
  const post = Worker.prototype.postMessage
  // What the thread is asked next is text it cannot read: it stops.
  Worker.prototype.postMessage = function postBroken (this: Worker) {
    post.call(this, { kind: 'source', text: '{' })
  }
  t.teardown(() => { Worker.prototype.postMessage = post })
  if (!('json' in built)) return t.fail('built off the thread')
  const document = JSON.parse(built.json.text)
  t.equal(await builder.yaml(built.json, async () => document), toYaml(document))
  t.equal(failures.length, 1)
  t.equal(builder.offThread, false)
})
