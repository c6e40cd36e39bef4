import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { parse } from 'yaml'
import fastifyRestrictedFields from '../../lib/index.js'
import type { HiddenFieldsRule } from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const user = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, last_login: { type: 'string' }, meta: { type: 'object', additionalProperties: true } }
}
const ada = { id: 1, name: 'Ada', last_login: '2026-11-01', meta: { plan: 'pro' } }

declare module 'fastify' {
  interface FastifyContextConfig {
    staffOnly?: string[]
  }
}

/** An app documenting two routes with one rule, served through swagger-ui and through an app route. */
async function documentedApp (t: Test, rule: HiddenFieldsRule) {
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(swagger, { openapi: { info: { title: 'test', version: '1.0.0' } } })
  await app.register(fastifyRestrictedFields, { hiddenFields: rule })
  await app.register(swaggerUi, { routePrefix: '/documentation', ...app.restrictedFieldsSwaggerUi() })
  // Options a route may set over the server's, which a rule reading request.routeOptions sees.
  const own = { bodyLimit: 1000, handlerTimeout: 5000, exposeHeadRoute: true, prefixTrailingSlash: 'slash' as const }
  app.get('/users/:id', { restrictFields: true, config: { staffOnly: ['last_login'] }, schema: { response: { 200: user } }, ...own }, async () => ada)
  app.get('/names/:id', { restrictFields: true, schema: { response: { 200: user } } }, async () => ada)
  app.get('/docs', async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  return app
}

/** The names the `only` parameter of a GET operation offers, in a document. */
function offered (document: Json, path: string): string[] {
  return parameterChoices(document, document.paths[path].get.parameters.find((parameter: Json) => parameter.name === 'only')) as string[]
}

test('a caller\'s document checks a rule\'s answer as the route does: a typo is the same 500, never a document that names the field', async (t) => {
  const answers: Record<string, string[]> = { typo: ['last_logn'], space: [' last_login'], dot: ['last_login.'], inside: ['meta.'] }
  const app = await documentedApp(t, (request) => answers[String(request.headers['x-answer'])] ?? [])
  const reasons: Record<string, string> = {
    typo: "returned 'last_logn', which no route with restrictFields declares",
    space: "returned ' last_login', which no route with restrictFields declares",
    dot: "returned 'last_login.', but 'last_login' holds no fields",
    inside: "returned 'meta.', which is not a well-formed path inside the value of 'meta'"
  }
  for (const [answer, reason] of Object.entries(reasons)) {
    const expected = { statusCode: 500, code: 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS', error: 'Internal Server Error', message: `Route GET /users/:id: the hiddenFields rule ${reason}` }
    const route = await app.inject({ url: '/users/1', headers: { 'x-answer': answer } })
    t.strictSame([route.statusCode, route.json()], [500, expected], `${answer}: the route`)
    for (const url of ['/documentation/json', '/documentation/yaml', '/docs']) {
      const document = await app.inject({ url, headers: { 'x-answer': answer } })
      t.strictSame([document.statusCode, document.json()], [500, expected], `${answer}: ${url}`)
    }
  }
  t.strictSame(offered((await app.inject('/docs')).json(), '/users/{id}'), ['id', 'name', 'last_login', 'meta', '*'], 'an answer that hides nothing keeps every name')
})

/** In every form of the anonymous document, /users/{id} offers no last_login; in the staff one, and for /names/{id}, it does. */
async function staffOnlyIsHiddenFromAnonymousDocuments (t: Test, app: Awaited<ReturnType<typeof documentedApp>>): Promise<void> {
  for (const url of ['/documentation/json', '/docs']) {
    const anonymous = (await app.inject(url)).json()
    t.strictSame([offered(anonymous, '/users/{id}'), offered(anonymous, '/names/{id}')], [['id', 'name', 'meta', '*'], ['id', 'name', 'last_login', 'meta', '*']], url)
    const staff = (await app.inject({ url, headers: { authorization: 'staff' } })).json()
    t.strictSame(offered(staff, '/users/{id}'), ['id', 'name', 'last_login', 'meta', '*'], `${url}, staff`)
  }
  t.strictSame(offered(parse((await app.inject('/documentation/yaml')).body), '/users/{id}'), ['id', 'name', 'meta', '*'], 'YAML')
}

test('a rule that reads request.routeOptions sees the documented route in a caller\'s document, and the caller\'s request otherwise', async (t) => {
  const seen: string[] = []
  const options: Array<Record<string, unknown>> = []
  const app = await documentedApp(t, (request) => {
    const { method, url, config } = request.routeOptions
    seen.push(`${String(method)} ${String(url)} ${String(config.url)} ${String(config.method)}`)
    if (url === '/users/:id' && method === 'GET') options.push({ ...request.routeOptions, handler: typeof request.routeOptions.handler })
    return request.headers.authorization === 'staff' ? [] : config.staffOnly ?? []
  })
  t.strictSame((await app.inject('/users/1')).json(), { id: 1, name: 'Ada', meta: { plan: 'pro' } })
  seen.length = 0
  await staffOnlyIsHiddenFromAnonymousDocuments(t, app)
  t.ok(seen.includes('GET /users/:id /users/:id GET'), 'the document\'s rule saw the documented route as Fastify shows it to its requests')
  t.notOk(seen.some((line) => line.includes('/documentation') || line.includes('/docs')), 'never the document\'s own route')
  t.strictSame(options.slice(1), options.slice(1).map(() => options[0]), 'the same routeOptions as the route\'s own requests get')
})

test('a rule is told which route it is asked about, on requests and in each caller\'s document alike', async (t) => {
  const asked: string[] = []
  const app = await documentedApp(t, (request, route) => {
    asked.push(`${String(route.method)} ${route.url}`)
    return request.headers.authorization === 'staff' ? [] : route.config.staffOnly ?? []
  })
  t.strictSame((await app.inject('/users/1')).json(), { id: 1, name: 'Ada', meta: { plan: 'pro' } })
  t.strictSame((await app.inject('/names/1')).json(), ada, 'the other route hides nothing')
  t.strictSame(asked, ['GET /users/:id', 'GET /names/:id'])
  await staffOnlyIsHiddenFromAnonymousDocuments(t, app)
  t.ok(asked.includes('HEAD /users/:id'), 'automatic HEAD routes are asked about as themselves')
})
