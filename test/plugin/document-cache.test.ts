import { test } from 'tap'
import type { Test } from 'tap'
import { Writable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { parse } from 'yaml'
import fastifyRestrictedFields from '../../lib/index.js'
import type { RestrictedFieldsOptions } from '../../lib/index.js'
import { IN_THREAD_BELOW } from '../../lib/openapi/document-builder.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } } }
const REFUSED = {
  statusCode: 500,
  code: 'FST_RESTRICTED_FIELDS_DOCUMENT_LEAK',
  error: 'Internal Server Error',
  message: "The caller's OpenAPI document would describe a field hidden from this caller, so it is refused (the server's log says where)"
}

interface DocumentedApp {
  app: ReturnType<typeof Fastify>
  /** The log lines of each document build, and those at warning level and above. */
  builds: Json[]
  errors: Json[]
  get: (url: string, caller?: string) => Promise<{ statusCode: number, body: string }>
}

/**
 * An app whose rule hides `email` from anonymous callers, `name` from
 * partners and nothing from staff, its documents served through
 * swagger-ui and through an app route.
 */
async function documentedApp (t: Test, { routes = 2, description = '', options = {}, examples = false }: { routes?: number, description?: string, options?: RestrictedFieldsOptions, examples?: boolean } = {}): Promise<DocumentedApp> {
  const builds: Json[] = []
  const errors: Json[] = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      const line = JSON.parse(String(chunk))
      if (line.documentBuild !== undefined) builds.push(line.documentBuild)
      if (line.level >= 40) errors.push(line)
      done()
    }
  })
  const app = Fastify({ logger: { level: 'debug', stream } })
  t.teardown(() => app.close())
  await app.register(swagger, {
    openapi: { info: { title: 'Users', version: '1.0.0', description } },
    // A shared example the plugin does not copy: the last check finds the hidden name in it, and refuses.
    ...examples
      ? {
          transformObject: (documentObject: Json) => {
            const { openapiObject } = documentObject
            openapiObject.components.examples = { user: { value: { id: 1, email: 'e' } } }
            openapiObject.paths['/users0'].get.responses['200'].content['application/json'].examples = { shared: { $ref: '#/components/examples/user' } }
            return openapiObject
          }
        }
      : {}
  })
  const hidden: Record<string, string[]> = { staff: [], partner: ['name'] }
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => hidden[String(request.headers.authorization)] ?? ['email'], ...options })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  for (let route = 0; route < routes; route++) {
    app.get(`/users${route}`, { restrictFields: true, schema: { response: { 200: { type: 'array', items: user } } } }, async () => [{ id: 1, name: 'Ada', email: 'ada@example.com' }])
  }
  app.get('/docs', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  app.get('/shared', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request, { shared: true }))
  app.get('/same', { schema: { hide: true } }, async (request) => {
    const [shared, again, fresh, another] = await Promise.all([
      app.restrictedFieldsDocument(request, { shared: true }), app.restrictedFieldsDocument(request, { shared: true }),
      app.restrictedFieldsDocument(request), app.restrictedFieldsDocument(request)
    ])
    return {
      shared: shared === again,
      fresh: fresh === another,
      equal: JSON.stringify([shared, fresh]) === JSON.stringify([another, again])
    }
  })
  await app.ready()
  const get = async (url: string, caller?: string): Promise<{ statusCode: number, body: string }> => {
    const { statusCode, body } = await app.inject({ url, headers: caller === undefined ? {} : { authorization: caller } })
    return { statusCode, body }
  }
  return { app, builds, errors, get }
}

/** The names a document's `only` parameter offers on the first route. */
function offered (document: Json): string[] {
  return parameterChoices(document, document.paths['/users0'].get.parameters.find((parameter: Json) => parameter.name === 'only')) as string[]
}

test('a caller\'s document is built once per view: repeated requests get the same text, and two views never each other\'s', async (t) => {
  const { builds, get } = await documentedApp(t)
  const anonymous = await get('/documentation/json')
  const staff = await get('/documentation/json', 'staff')
  t.strictSame([offered(JSON.parse(anonymous.body)), offered(JSON.parse(staff.body))], [['id', 'name', '*'], ['id', 'name', 'email', '*']])
  for (let again = 0; again < 3; again++) {
    t.strictSame(await get('/documentation/json'), anonymous, 'anonymous again')
    t.strictSame(await get('/documentation/json', 'staff'), staff, 'staff again')
  }
  t.strictSame((await get('/docs')).body, anonymous.body, 'the document of restrictedFieldsDocument is the same')
  t.strictSame((await get('/docs', 'staff')).body, staff.body, 'and the staff one')
  t.strictSame(parse((await get('/documentation/yaml')).body), JSON.parse(anonymous.body), 'the YAML document is the same')
  t.strictSame(builds.map(({ refused }) => refused), [false, false], 'one build per view')
})

test('restrictedFieldsDocument gives a new object each time, and with shared the one object of the view', async (t) => {
  const { get } = await documentedApp(t)
  t.strictSame(JSON.parse((await get('/same')).body), { shared: true, fresh: false, equal: true })
})

test('concurrent first requests of a view share one build', async (t) => {
  const { builds, get } = await documentedApp(t)
  const responses = await Promise.all([...Array.from({ length: 5 }, async () => await get('/documentation/json')), get('/docs'), get('/documentation/yaml')])
  t.strictSame(new Set(responses.map(({ statusCode }) => statusCode)), new Set([200]))
  t.equal(new Set(responses.slice(0, 5).map(({ body }) => body)).size, 1, 'the same text for each')
  t.equal(builds.length, 1, 'one build')
})

test('the views kept are bounded by documentCacheBytes: the least recently used goes first', async (t) => {
  const bounded = async (documentCacheBytes: number): Promise<number> => {
    const { builds, get } = await documentedApp(t, { options: { documentCacheBytes } })
    for (const caller of [undefined, 'staff', 'partner', undefined, 'staff']) t.equal((await get('/documentation/json', caller)).statusCode, 200)
    return builds.length
  }
  const one = (await get1View(t)).length
  t.equal(await bounded(64 * 1024 * 1024), 3, 'all three views kept')
  t.equal(await bounded(Math.ceil(one * 2.5)), 5, 'two views kept: each comes back after the other two, and is built again')
  t.equal(await bounded(0), 5, 'none kept')
})

/** The text of the anonymous view of the default app. */
async function get1View (t: Test): Promise<string> {
  const { get } = await documentedApp(t)
  return (await get('/documentation/json')).body
}

test('a document the last check refuses stays refused, for every form, and each refusal is logged', async (t) => {
  const { builds, errors, get } = await documentedApp(t, { examples: true })
  for (const url of ['/documentation/json', '/documentation/yaml', '/docs', '/documentation/json']) {
    const response = await get(url)
    t.strictSame([response.statusCode, JSON.parse(response.body)], [500, REFUSED], url)
  }
  t.equal(errors.filter((line) => line.reason === 'hidden name').length, 4, 'each refusal says where, in the log')
  t.strictSame(builds.map(({ refused }) => refused), [true], 'built once')
  const staff = await get('/documentation/json', 'staff')
  t.strictSame([staff.statusCode, JSON.parse(staff.body).info.title], [200, 'Users'], 'a view that hides nothing is served')
})

test('a large document is built off the event loop, the same as on it, and no form names a hidden field', async (t) => {
  const large = 'x'.repeat(IN_THREAD_BELOW)
  const { app, builds, get } = await documentedApp(t, { description: large, routes: 3 })
  // The thread's first build is held back until another request has been served: the event loop is free meanwhile.
  const post = Worker.prototype.postMessage
  const held: Array<() => void> = []
  // Every other message goes on as it was sent, with its transfer list: a module loader's thread is a Worker too.
  Worker.prototype.postMessage = function postHeld (this: Worker, message: Json, ...rest: [never?]) {
    if (message?.kind === 'build' && held.length === 0) held.push(() => post.call(this, message))
    else post.call(this, message, ...rest)
  }
  t.teardown(() => { Worker.prototype.postMessage = post })
  let sent = false
  const all = Promise.all([get('/documentation/json'), get('/documentation/yaml'), get('/docs'), get('/shared'), get('/documentation/json', 'staff')])
    .finally(() => { sent = true })
  while (held.length === 0) await new Promise((resolve) => setImmediate(resolve))
  t.equal((await app.inject('/users0')).statusCode, 200, 'another request is served while the thread builds')
  t.equal(sent, false, 'and the documents wait for the thread')
  held[0]()
  const [json, yaml, docs, shared, staff] = await all
  t.strictSame(builds.map(({ offThread }) => offThread), [true, true], 'both views were built by the thread')
  const document = JSON.parse(json.body)
  t.strictSame([document.info.description, offered(document)], [large, ['id', 'name', '*']])
  t.strictSame(parse(yaml.body), document, 'YAML')
  t.strictSame(JSON.parse(docs.body), document, 'restrictedFieldsDocument')
  t.strictSame(JSON.parse(shared.body), document, 'the shared object')
  for (const text of [json.body, yaml.body, docs.body, shared.body]) t.notMatch(text.replace(large, ''), /email/)
  t.strictSame(offered(JSON.parse(staff.body)), ['id', 'name', 'email', '*'])
  t.strictSame(await get('/documentation/json'), json, 'again, the same text')
  const { get: getHere } = await documentedApp(t, { routes: 3 })
  const here = JSON.parse((await getHere('/documentation/json')).body)
  t.strictSame({ ...document, info: { ...document.info, description: '' } }, here, 'the document built on the event loop, but for the description')
})

test('a large document the last check refuses is refused as on the event loop', async (t) => {
  const { builds, get } = await documentedApp(t, { description: 'x'.repeat(IN_THREAD_BELOW), examples: true })
  for (const url of ['/documentation/json', '/documentation/yaml']) {
    const response = await get(url)
    t.strictSame([response.statusCode, JSON.parse(response.body)], [500, REFUSED], url)
  }
  t.strictSame(builds, [{ ms: builds[0].ms, offThread: true, refused: true }])
})

test('when the document thread fails, documents are built on the event loop, the same, and the log says so once', async (t) => {
  const post = Worker.prototype.postMessage
  // The thread is handed text it cannot read: it stops, as on any failure of its own.
  // Every other message goes on as it was sent, with its transfer list: a module loader's thread is a Worker too.
  Worker.prototype.postMessage = function postBroken (this: Worker, message: Json, ...rest: [never?]) {
    post.call(this, message?.kind === 'source' ? { ...message, text: '{' } : message, ...rest)
  }
  t.teardown(() => { Worker.prototype.postMessage = post })
  const { builds, errors, get } = await documentedApp(t, { description: 'x'.repeat(IN_THREAD_BELOW) })
  const [json, staff] = await Promise.all([get('/documentation/json'), get('/documentation/json', 'staff')])
  const yaml = await get('/documentation/yaml')
  t.strictSame([json.statusCode, staff.statusCode, yaml.statusCode], [200, 200, 200])
  t.strictSame(parse(yaml.body), JSON.parse(json.body))
  t.strictSame([offered(JSON.parse(json.body)), offered(JSON.parse(staff.body))], [['id', 'name', '*'], ['id', 'name', 'email', '*']])
  t.strictSame(builds.map(({ offThread }) => offThread), [false, false])
  t.strictSame(errors.map(({ level, msg }) => [level, msg]), [[40, "The thread that builds callers' OpenAPI documents failed; they are built on the event loop"]])
})

test('two callers hidden the same paths share one view, though one rule names a path below a field it hides whole', async (t) => {
  const builds: Json[] = []
  const stream = new Writable({
    write (chunk, _encoding, done) {
      const line = JSON.parse(String(chunk))
      if (line.documentBuild !== undefined) builds.push(line.documentBuild)
      done()
    }
  })
  const app = Fastify({ logger: { level: 'debug', stream } })
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'Repos', version: '1.0.0' } } })
  const hidden: Record<string, string[]> = { a: ['owner', 'id'], b: ['id', 'owner.email', 'owner'] }
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => hidden[String(request.headers.authorization)] })
  const owner = { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } }
  const repo = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, owner } }
  app.get('/repos', { restrictFields: true, schema: { response: { 200: { type: 'array', items: repo } } } }, async () => [])
  app.get('/docs', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  const a = await app.inject({ url: '/docs', headers: { authorization: 'a' } })
  const b = await app.inject({ url: '/docs', headers: { authorization: 'b' } })
  t.equal(a.statusCode, 200)
  t.equal(b.body, a.body)
  t.strictSame(builds.map(({ refused }) => refused), [false], 'one build for both')
})
