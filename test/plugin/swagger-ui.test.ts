import { test } from 'tap'
import type { Test } from 'tap'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { runInNewContext } from 'node:vm'
import { gunzipSync } from 'node:zlib'
import Fastify from 'fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import compress from '@fastify/compress'
import etag from '@fastify/etag'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyRestrictedFields from '../../lib/index.js'
import type { SwaggerUiOptions } from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const user = { type: 'object', properties: { id: { type: 'integer' }, last_login: { type: 'string' } } }

/** The credentials a request carries, as the example's authentication reads them: any scheme Swagger UI can authorize. */
function isStaff (request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown>
  return request.headers.authorization === 'Bearer s3cret' ||
    request.headers.authorization === `Basic ${Buffer.from('staff:pw').toString('base64')}` ||
    request.headers['x-api-key'] === 'k3y' || query.api_key === 'k3y'
}

async function appWith (t: Test, options: SwaggerUiOptions | ((app: any) => Json) = {}) {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, {
    openapi: {
      info: { title: 'test', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          basic: { type: 'http', scheme: 'basic' },
          header: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          query: { type: 'apiKey', in: 'query', name: 'api_key' }
        }
      }
    }
  })
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => isStaff(request) ? [] : ['last_login'] })
  const uiOptions = typeof options === 'function' ? options(app) : app.restrictedFieldsSwaggerUi(options)
  await app.register(swaggerUi, { routePrefix: '/documentation', ...uiOptions })
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 1, last_login: '2026-11-01' }))
  await app.ready()
  return app
}

function offered (document: Json): string[] {
  return parameterChoices(document, document.paths['/users/{id}'].get.parameters.find((parameter: Json) => parameter.name === 'only')) as string[]
}

test('the document answers each credential Swagger UI can authorize with that caller\'s document, marked private', async (t) => {
  const app = await appWith(t)
  const requests: Array<[string, Json, string[]]> = [
    ['/documentation/json', {}, ['id', '*']],
    ['/documentation/json', { authorization: 'Bearer s3cret' }, ['id', 'last_login', '*']],
    ['/documentation/json', { authorization: `Basic ${Buffer.from('staff:pw').toString('base64')}` }, ['id', 'last_login', '*']],
    ['/documentation/json', { 'x-api-key': 'k3y' }, ['id', 'last_login', '*']],
    ['/documentation/json?api_key=k3y', {}, ['id', 'last_login', '*']],
    ['/documentation/json', { authorization: 'Bearer wrong' }, ['id', '*']]
  ]
  for (const [url, headers, names] of requests) {
    const response = await app.inject({ url, headers })
    t.strictSame([response.statusCode, response.headers['cache-control'], offered(response.json())], [200, 'private', names], `${url} ${JSON.stringify(headers)}`)
  }
  const yaml = await app.inject('/documentation/yaml')
  t.strictSame([yaml.statusCode, yaml.headers['cache-control']], [200, 'private'])
})

test('an app-wide public Cache-Control is made private on the documents; a private one of the app is kept', async (t) => {
  const app = await appWith(t, (app) => {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', request.headers['x-private'] === 'yes' ? 'private, max-age=60' : 'public, max-age=600')
    })
    return app.restrictedFieldsSwaggerUi()
  })
  t.equal((await app.inject('/documentation/json')).headers['cache-control'], 'private')
  t.equal((await app.inject({ url: '/documentation/yaml', headers: { 'x-private': 'yes' } })).headers['cache-control'], 'private, max-age=60')
})

test('the page re-fetches the document on Authorize and Logout, with the credentials entered, keeping the app\'s own configuration', async (t) => {
  const theirs = function appInterceptor (request: Json) { request.headers['x-app'] = '1'; return request }
  const app = await appWith(t, { uiConfig: { deepLinking: true, requestInterceptor: theirs } })
  const initializer = (await app.inject('/documentation/static/swagger-initializer.js')).body
  t.match(initializer, /"deepLinking":true/, 'the app\'s configuration is kept')
  t.match(initializer, /"plugins":\[SwaggerUIBundle\.plugins\.DownloadUrl,function restrictedFieldsRefetchOnAuthorize/)
  const config = /const config = (\{.*?\})\n {4}const resConfig/s.exec(initializer)![1]

  // Runs the page's configuration against a stand-in for Swagger UI's system.
  const downloads: number[] = []
  let authorized: Json = {}
  const system = {
    specActions: { download: () => downloads.push(1) },
    authSelectors: { authorized: () => ({ toJS: () => authorized }) }
  }
  const window = { location: { href: 'http://127.0.0.1/documentation/' } } as Json
  const page = runInNewContext(`(${config})`, { window, URL, btoa, SwaggerUIBundle: { plugins: { DownloadUrl: 'download-url' } } })
  t.equal(page.plugins[0], 'download-url')
  const wrapped = page.plugins[1](system).statePlugins.auth.wrapActions
  t.strictSame(Object.keys(wrapped), ['authorize', 'logout', 'restoreAuthorization'])
  for (const action of Object.keys(wrapped)) t.equal(wrapped[action]((payload: unknown) => payload)('p'), 'p', `${action} still does what it did`)
  t.equal(downloads.length, 3, 'and the document is fetched again after each')

  const intercept = (auth: Json, request: Json = { loadSpec: true, url: '/documentation/json', headers: {} }): Json => {
    authorized = auth
    return page.requestInterceptor(request)
  }
  const schemes: Array<[Json, Json, string]> = [
    [{}, {}, 'http://127.0.0.1/documentation/json'],
    [{ bearer: { schema: { type: 'http', scheme: 'bearer' }, value: 's3cret' } }, { Authorization: 'Bearer s3cret' }, 'http://127.0.0.1/documentation/json'],
    [{ basic: { schema: { type: 'http', scheme: 'basic' }, value: { username: 'staff', password: 'pw' } } }, { Authorization: 'Basic c3RhZmY6cHc=' }, 'http://127.0.0.1/documentation/json'],
    [{ basic: { schema: { type: 'basic' }, value: { username: 'staff', password: 'pw' } } }, { Authorization: 'Basic c3RhZmY6cHc=' }, 'http://127.0.0.1/documentation/json'],
    [{ header: { schema: { type: 'apiKey', in: 'header', name: 'x-api-key' }, value: 'k3y' } }, { 'x-api-key': 'k3y' }, 'http://127.0.0.1/documentation/json'],
    [{ query: { schema: { type: 'apiKey', in: 'query', name: 'api_key' }, value: 'k3y' } }, {}, 'http://127.0.0.1/documentation/json?api_key=k3y'],
    [{ oauth: { schema: { type: 'oauth2' }, token: { access_token: 't0k' } } }, { Authorization: 'Bearer t0k' }, 'http://127.0.0.1/documentation/json'],
    [{ cookie: { schema: { type: 'apiKey', in: 'cookie', name: 'sid' }, value: 'c' }, empty: { schema: { type: 'http', scheme: 'bearer' }, value: '' } }, {}, 'http://127.0.0.1/documentation/json']
  ]
  for (const [auth, headers, url] of schemes) {
    const request = intercept(auth)
    t.strictSame([request.headers, request.url], [{ ...headers, 'x-app': '1' }, url], JSON.stringify(auth))
  }
  const tryItOut = intercept(schemes[1][0], { url: '/users/1', headers: {} })
  t.strictSame(tryItOut, { url: '/users/1', headers: { 'x-app': '1' } }, 'Try it out requests are Swagger UI\'s own business')
  window.restrictedFieldsSwaggerUiSystem = undefined
  t.strictSame(intercept(schemes[1][0], { loadSpec: true, url: '/documentation/json', headers: {} }), { loadSpec: true, url: '/documentation/json', headers: { 'x-app': '1' } }, 'before the plugin has started')

  const plain = await appWith(t, { uiConfig: { plugins: [] } })
  const plainInitializer = (await plain.inject('/documentation/static/swagger-initializer.js')).body
  t.match(plainInitializer, /"plugins":\[function restrictedFieldsRefetchOnAuthorize/, 'an app\'s own plugins replace Swagger UI\'s defaults, as without this plugin')
  t.match(plainInitializer, /"requestInterceptor":function restrictedFieldsSendCredentials/)
})

test('the app\'s own documentation hooks run first when passed in; a preHandler that replaces the plugin\'s makes the document refuse', async (t) => {
  const seen: string[] = []
  const app = await appWith(t, {
    uiHooks: {
      onRequest: async (request) => { seen.push(`onRequest ${request.url}`) },
      preHandler: (request, reply, done) => {
        seen.push(`preHandler ${request.url}`)
        if (request.headers['x-deny'] === 'yes') {
          reply.code(403).send({ denied: true })
          return
        }
        done(request.headers['x-fail'] === 'yes' ? new Error('hook failed') : undefined)
      }
    }
  })
  t.strictSame(offered((await app.inject('/documentation/json')).json()), ['id', '*'])
  t.strictSame(seen, ['onRequest /documentation/json', 'preHandler /documentation/json'])
  const denied = await app.inject({ url: '/documentation/json', headers: { 'x-deny': 'yes' } })
  t.strictSame([denied.statusCode, denied.json()], [403, { denied: true }])
  t.equal((await app.inject({ url: '/documentation/json', headers: { 'x-fail': 'yes' } })).statusCode, 500)
  t.equal((await app.inject('/documentation/static/swagger-initializer.js')).statusCode, 200, 'other documentation routes run the app\'s hook only')

  const asyncHook = await appWith(t, { uiHooks: { preHandler: async (request: FastifyRequest) => { seen.push(`async ${request.url}`) } } })
  t.strictSame(offered((await asyncHook.inject('/documentation/json')).json()), ['id', '*'])
  t.equal(seen.at(-1), 'async /documentation/json')

  const replaced = await appWith(t, (app) => ({ ...app.restrictedFieldsSwaggerUi(), uiHooks: { preHandler: async () => {} } }))
  for (const url of ['/documentation/json', '/documentation/yaml']) {
    const response = await replaced.inject({ url, headers: { authorization: 'Bearer s3cret' } })
    t.strictSame([response.statusCode, response.json().code], [500, 'FST_RESTRICTED_FIELDS_DOCUMENT_NOT_MADE'], url)
    t.notMatch(response.body, /last_login/)
  }
})

test('a rule-shaped reply under an app-wide public Cache-Control keeps it, and the app is warned once per route', async (t) => {
  const lines: Json[] = []
  const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  t.teardown(() => app.close())
  app.addHook('onRequest', async (request, reply) => { if (request.headers['x-cache'] !== 'none') reply.header('cache-control', 'public, max-age=600') })
  await app.register(fastifyRestrictedFields, { hiddenFields: () => ['last_login'] })
  app.get('/a', { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 1, last_login: 'x' }))
  app.get('/b', { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 2, last_login: 'x' }))
  for (const url of ['/a', '/a', '/b', '/a']) t.equal((await app.inject(url)).headers['cache-control'], 'public, max-age=600')
  t.equal((await app.inject({ url: '/a', headers: { 'x-cache': 'none' } })).headers['cache-control'], 'private')
  const warnings = lines.filter((line) => line.level === 40).map((line) => line.msg)
  t.strictSame(warnings, ['/a', '/b'].map((url) => `fastify-restricted-fields: route GET ${url} has a hiddenFields rule, so its replies depend on who asks, but an earlier hook set 'Cache-Control: public, max-age=600'; a shared cache may give one caller's reply to another. Set 'private', or add Vary on what the rule reads.`))
})

test('a caller\'s document goes out as a stream of pieces, with its length and tag: @fastify/etag answers 304 on it, @fastify/compress compresses it', async (t) => {
  const sent: unknown[] = []
  const app = await appWith(t, (app) => {
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.url.startsWith('/documentation/')) sent.push(payload instanceof Readable)
    })
    return app.restrictedFieldsSwaggerUi()
  })
  for (const [url, type] of [['/documentation/json', 'application/json; charset=utf-8'], ['/documentation/yaml', 'application/x-yaml']]) {
    const response = await app.inject(url)
    const tag = `"${createHash('sha1').update(response.rawPayload).digest('base64')}"`
    t.strictSame([response.statusCode, response.headers['content-type'], Number(response.headers['content-length']), response.headers.etag],
      [200, type, response.rawPayload.length, tag], url)
    t.notMatch(response.body, /last_login/)
  }
  t.strictSame(sent, [true, true], 'streams, not whole bodies')
  const head = await app.inject({ method: 'HEAD', url: '/documentation/json' })
  const get = await app.inject('/documentation/json')
  t.strictSame([head.statusCode, head.headers['content-length'], head.headers.etag, head.body], [200, get.headers['content-length'], get.headers.etag, ''], 'HEAD')

  const neighbours = Fastify()
  t.teardown(() => neighbours.close())
  await neighbours.register(swagger, { openapi: { info: { title: 'test', version: '1.0.0' } } })
  await neighbours.register(etag)
  await neighbours.register(compress, { threshold: 0 })
  await neighbours.register(fastifyRestrictedFields, { hiddenFields: () => ['last_login'] })
  await neighbours.register(swaggerUi, { routePrefix: '/documentation', ...neighbours.restrictedFieldsSwaggerUi() })
  neighbours.get('/users/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 1, last_login: 'x' }))
  const plain = await neighbours.inject('/documentation/json')
  const again = await neighbours.inject({ url: '/documentation/json', headers: { 'if-none-match': String(plain.headers.etag) } })
  t.strictSame([again.statusCode, again.body], [304, ''], 'not modified')
  const zipped = await neighbours.inject({ url: '/documentation/json', headers: { 'accept-encoding': 'gzip' } })
  t.strictSame([zipped.headers['content-encoding'], zipped.headers['content-length']], ['gzip', undefined])
  t.equal(gunzipSync(zipped.rawPayload).toString(), plain.body, 'the same document, compressed')
  t.strictSame(offered(plain.json()), ['id', '*'])
})

test('@fastify/swagger\'s document is generated while the app is made ready when callers\' documents are served, and only then', async (t) => {
  async function generations (
    perCaller: boolean,
    rule: boolean,
    failing = false
  ): Promise<{ app: ReturnType<typeof Fastify>, calls: () => number }> {
    let calls = 0
    const app = Fastify()
    t.teardown(() => app.close())
    await app.register(swagger, {
      openapi: { info: { title: 'test', version: '1.0.0' } },
      transform: ({ schema, url }) => {
        calls++
        if (failing) throw new Error('transform failed')
        return { schema, url }
      }
    })
    await app.register(fastifyRestrictedFields, rule ? { hiddenFields: () => ['last_login'] } : {})
    if (perCaller) await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
    app.get('/users/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 1, last_login: 'x' }))
    await app.ready()
    return { app, calls: () => calls }
  }
  const served = await generations(true, false)
  const atReady = served.calls()
  t.ok(atReady > 0, 'generated at ready for @fastify/swagger-ui per caller')
  t.equal((await served.app.inject('/documentation/json')).statusCode, 200)
  t.equal(served.calls(), atReady, 'the first request generates nothing')
  t.ok((await generations(false, true)).calls() > 0, 'generated at ready for a rule')
  t.equal((await generations(false, false)).calls(), 0, 'not generated when every caller gets @fastify/swagger\'s one document')
  const failing = await generations(true, true, true)
  t.ok(failing.calls() > 0, 'a generation that fails at ready leaves the app ready')
  const response = await failing.app.inject('/documentation/json')
  t.strictSame([response.statusCode, response.json().message], [500, 'transform failed'], 'the request meets the error, as before')
})

test('with global, a caller\'s document names no hidden field on a route that sends the record without saying restrictFields, whatever its method', async (t) => {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { global: true, hiddenFields: (request) => isStaff(request) ? [] : ['last_login'] })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  app.addSchema({ $id: 'user', ...user })
  app.get('/users/:id', { restrictFields: true, schema: { response: { 200: { $ref: 'user#' } } } }, async () => ({ id: 1, last_login: '2026-11-01' }))
  app.post('/users/:id/login', { schema: { response: { 200: { $ref: 'user#' } } } }, async () => ({ id: 1, last_login: '2026-11-01' }))
  app.route({ method: 'GET', url: '/documents/mine', handler: async (request) => await app.restrictedFieldsDocument(request) })
  await app.ready()
  for (const url of ['/documentation/json', '/documents/mine']) {
    const anonymous = await app.inject(url)
    t.equal(anonymous.statusCode, 200, url)
    t.notMatch(anonymous.body, /last_login/, `${url}: anonymous`)
    const operation = anonymous.json().paths['/users/{id}/login'].post
    t.strictSame(operation.parameters.map((parameter: Json) => parameter.name), ['only', 'defer', 'id'], `${url}: the POST takes only and defer`)
    t.match((await app.inject({ url, headers: { authorization: 'Bearer s3cret' } })).body, /last_login/, `${url}: staff`)
  }
})
