import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test } from 'tap'
import type { Test } from 'tap'
import SwaggerParser from '@apidevtools/swagger-parser'
import { OpenAPIBackend } from 'openapi-backend'
import ts from 'typescript'
import { parse } from 'yaml'
import { buildApp } from '../../example/app.js'
import { clientTypes } from '../../example/client-types.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'
import { isClientBlock, readmeBlocks } from '../readme.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const STAFF_TOKEN = 'staff-secret'
const STAFF = { authorization: `Bearer ${STAFF_TOKEN}` }
/** What anonymous requests see of a user: everything but last_login and a profile's phone. */
const anonymous = ({ last_login: _lastLogin, profile, ...rest }: ReturnType<typeof generateUsers>[number]) => ({
  ...rest,
  profile: profile === null ? null : { city: profile.city }
})
const ALLOWED = 'allowed fields: id, name, email, is_staff, profile, posts'

async function example (t: Test): ReturnType<typeof buildApp> {
  const app = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10, staffToken: STAFF_TOKEN })
  t.teardown(() => app.close())
  return app
}

test('the complete document is valid, names its components, and is what staff are served', async (t) => {
  const app = await example(t)
  await app.ready()
  const document = JSON.parse(JSON.stringify(app.swagger()))
  await SwaggerParser.validate(structuredClone(document))
  t.strictSame((await app.inject({ url: '/documentation/json', headers: STAFF })).json(), document, 'staff see every field')
  t.strictSame(parse((await app.inject({ url: '/documentation/yaml', headers: STAFF })).body), document, 'the YAML document is the same')
  t.strictSame(document.servers, [{ url: '/', description: 'The server of this document' }])
  t.strictSame(document.tags, [{ name: 'users', description: 'The users of the example' }])
  const operations = [document.paths['/api/users/'].get, document.paths['/api/users/{id}'].get]
  const summary = (operation: Json) => [operation.operationId, operation.summary, operation.tags, Object.keys(operation.responses)]
  t.strictSame(operations.map(summary), [
    ['listUsers', 'List the users, a page at a time', ['users'], ['200', '400', '401', '404']],
    ['getUser', 'Get one user', ['users'], ['200', '400', '401', '404']]
  ])
  t.strictSame(Object.keys(document.components.schemas).filter((name) => !name.startsWith('Fields-')), ['user', 'error', 'userRestricted', 'RestrictedFieldsError'])
  t.strictSame(document.components.schemas.user.required, ['id', 'name', 'email', 'is_staff', 'profile', 'posts'], 'the declared user stays as declared')
  t.strictSame(Object.keys(document.components.schemas.userRestricted.properties.profile.properties), ['city', 'phone'])
  t.equal(document.components.schemas.userRestricted.required, undefined)
  t.strictSame(operations.map((operation: Json) => operation.responses['400'].content['application/json'].schema), Array(2).fill({
    anyOf: [{ $ref: '#/components/schemas/error' }, { $ref: '#/components/schemas/RestrictedFieldsError' }]
  }))
})

test('an anonymous caller is served a document that never names a field hidden from it', async (t) => {
  const app = await example(t)
  const response = await app.inject('/documentation/json')
  const document = response.json()
  await SwaggerParser.validate(structuredClone(document))
  t.notMatch(response.body, /last_login|phone/, 'not in the parameters, the schemas, or a description')
  const yaml = (await app.inject('/documentation/yaml')).body
  t.notMatch(yaml, /last_login|phone/)
  t.strictSame(parse(yaml), document, 'the YAML document is the same')
  const list = Object.keys(document.components.schemas).find((name) => name.startsWith('Fields-'))
  t.strictSame(Object.keys(document.components.schemas), ['error', 'userRestricted', 'userVisible', 'RestrictedFieldsError', String(list)], 'the declared user, which names it, is left out')
  t.strictSame(document.components.schemas.userVisible.required, ['id', 'name', 'email', 'is_staff', 'profile', 'posts'], 'the complete user this caller may see keeps its required fields')
  t.strictSame(Object.keys(document.components.schemas.userRestricted.properties), ['id', 'name', 'email', 'is_staff', 'profile', 'posts'])
  t.strictSame(Object.keys(document.components.schemas.userRestricted.properties.profile.properties), ['city'])
  const only = document.paths['/api/users/'].get.parameters.find((parameter: Json) => parameter.name === 'only')
  t.strictSame(only.schema.items, { $ref: `#/components/schemas/${String(list)}` }, 'the choices are a list shared among the components')
  t.strictSame(parameterChoices(document, only), ['id', 'name', 'email', 'is_staff', 'profile', 'profile.city', 'posts', 'posts.id', 'posts.title', '*', '@summary'])
  t.strictSame((await app.inject({ url: '/documentation/json', headers: { authorization: 'Bearer wrong' } })).statusCode, 401, 'a wrong token gets no document')
})

const requests: Array<[string, number, unknown, Record<string, string>?]> = [
  ['/api/users/?page=3', 200, { count: 25, next: null, previous: 'http://localhost/api/users/?page=2', results: generateUsers(25).slice(20).map(anonymous) }],
  ['/api/users/?page=3', 200, { count: 25, next: null, previous: 'http://localhost/api/users/?page=2', results: generateUsers(25).slice(20) }, STAFF],
  ['/api/users/?only=id,last_login&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=id,last_login&page=2',
    results: generateUsers(25).slice(20).map(({ id, last_login: lastLogin }) => ({ id, last_login: lastLogin }))
  }, STAFF],
  ['/api/users/7', 200, generateUsers(7)[6], STAFF],
  ['/api/users/7?defer=last_login,email,posts', 200, { id: 7, name: 'Frances Liskov', is_staff: false, profile: { city: 'Geneva', phone: '+44 20 7946 0007' } }, STAFF],
  ['/api/users/?only=profile.phone&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=profile.phone&page=2',
    results: generateUsers(25).slice(20).map(({ profile }) => ({ profile: profile === null ? null : { phone: profile.phone } }))
  }, STAFF],
  ['/api/users/?only=last_login', 400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: `Unknown field 'last_login' in query parameter 'only'; ${ALLOWED}`
  }],
  ['/api/users/?only=profile.phone', 400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: "Unknown field 'profile.phone' in query parameter 'only'; allowed fields of 'profile': city"
  }],
  ['/api/users/?only=id', 401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid bearer token' }, { authorization: 'Bearer wrong' }],
  ['/api/users/7', 401, { statusCode: 401, error: 'Unauthorized', message: "The Authorization header must be 'Bearer <token>'" }, { authorization: 'Basic c3RhZmY6c2VjcmV0' }],
  ['/api/users/?only=id&only=name&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=id&only=name&page=2',
    results: generateUsers(25).slice(20).map(({ id, name }) => ({ id, name }))
  }],
  ['/api/users/?only=id,email&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=id,email&page=2',
    results: generateUsers(25).slice(20).map(({ id, email }) => ({ id, email }))
  }],
  ['/api/users/?only[]=is_staff&page=last', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only[]=is_staff&page=2',
    results: generateUsers(25).slice(20).map(({ is_staff: staff }) => ({ is_staff: staff }))
  }],
  ['/api/users/?defer=email&defer=is_staff&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?defer=email&defer=is_staff&page=2',
    results: generateUsers(25).slice(20).map(anonymous).map(({ email: _email, is_staff: _staff, ...rest }) => rest)
  }],
  ['/api/users/?only=id,name&defer=name&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=id,name&defer=name&page=2',
    results: generateUsers(25).slice(20).map(({ id }) => ({ id }))
  }],
  ['/api/users/?only=name,profile.city&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=name,profile.city&page=2',
    results: generateUsers(25).slice(20).map(({ name, profile }) => ({ name, profile: profile === null ? null : { city: profile.city } }))
  }],
  ['/api/users/?only=id,posts.title&defer=profile&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?only=id,posts.title&defer=profile&page=2',
    results: generateUsers(25).slice(20).map(({ id, posts }) => ({ id, posts: posts.map(({ title }) => ({ title })) }))
  }],
  ['/api/users/?defer=profile.city,posts.title&only=profile,posts&page=3', 200, {
    count: 25,
    next: null,
    previous: 'http://localhost/api/users/?defer=profile.city,posts.title&only=profile,posts&page=2',
    results: generateUsers(25).slice(20).map(({ profile, posts }) => ({
      profile: profile === null ? null : {},
      posts: posts.map(({ id }) => ({ id }))
    }))
  }],
  ['/api/users/?only=&page=3', 200, { count: 25, next: null, previous: 'http://localhost/api/users/?only=&page=2', results: [{}, {}, {}, {}, {}] }],
  ['/api/users/7?defer=email', 200, { id: 7, name: 'Frances Liskov', is_staff: false, profile: { city: 'Geneva' }, posts: [{ id: 7, title: 'Notes on frequency hopping' }, { id: 8, title: 'More on hypertext' }] }],
  ['/api/users/7?only=', 200, {}],
  ['/api/users/?only=password', 400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: `Unknown field 'password' in query parameter 'only'; ${ALLOWED}`
  }],
  ['/api/users/7?defer=nope', 400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: `Unknown field 'nope' in query parameter 'defer'; ${ALLOWED}`
  }],
  ['/api/users/?page=two', 400, { statusCode: 400, error: 'Bad Request', message: "Invalid page 'two': page must be an integer from 1 to 999999999, or 'last'" }],
  ['/api/users/0', 400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'params/id must be >= 1' }],
  ['/api/users/?page=4', 404, { statusCode: 404, error: 'Not Found', message: 'Page 4 does not exist: there are 3 pages' }],
  ['/api/users/999?only=id', 404, { statusCode: 404, error: 'Not Found', message: 'User 999 not found' }]
]

test('every response of the example, restricted or an error, matches the document, as an independent validator reads it', async (t) => {
  const app = await example(t)
  // Each caller is checked against the document it is served. The trailing slash of /api/users/ is part of the route.
  const apis = new Map<string | undefined, OpenAPIBackend>()
  for (const headers of [{}, STAFF]) {
    const api = new OpenAPIBackend({ definition: (await app.inject({ url: '/documentation/json', headers })).json(), strict: true, ignoreTrailingSlashes: false })
    await api.init()
    apis.set((headers as Record<string, string>).authorization, api)
  }
  for (const [url, status, body, headers = {}] of requests) {
    // A wrong token gets no document of its own: its 401 is checked against the anonymous one.
    const api = apis.get(headers.authorization) ?? apis.get(undefined)!
    const response = await app.inject({ url, headers })
    const who = headers.authorization ?? 'anonymous'
    t.strictSame([response.statusCode, response.json()], [status, body], `${who} ${url}`)
    const [path, query] = url.split('?')
    const operation = api.matchOperation({ method: 'get', path, query, headers })
    t.ok(operation?.responses?.[status], `${who} ${url}: ${status} is documented`)
    t.strictSame(api.validateResponse(response.json(), operation as any, status).errors ?? [], [], `${who} ${url}: the body matches the document`)
  }
  t.strictSame(apis.get(undefined)!.validateRequest({ method: 'get', path: '/api/users/', query: 'only=id&only=name&defer=name&page=2', headers: {} }).errors ?? [], [],
    'the repeated form is what the document describes')
})

test('client types generated from the document let a restricted user lack any field, type the plugin\'s 400 codes, and type the README\'s client exactly', async (t) => {
  const app = await example(t)
  await app.ready()
  // Clients are generated from the complete document.
  const files = await clientTypes(JSON.parse(JSON.stringify(app.swagger())))
  // The README's client blocks, as pasted; inside the project, so that openapi-fetch resolves, and with the client
  // subpath pointed at its source.
  const blocks = readmeBlocks().filter(isClientBlock)
  t.equal(blocks.length, 2)
  const root = fileURLToPath(new URL('../..', import.meta.url))
  mkdirSync(join(root, 'dist'), { recursive: true })
  const directory = mkdtempSync(join(root, 'dist', 'restricted-fields-types-'))
  t.teardown(() => rmSync(directory, { recursive: true, force: true }))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text)
  for (const [index, block] of blocks.entries()) {
    writeFileSync(join(directory, `check${index}.ts`), block.code.replaceAll("'fastify-restricted-fields/client'", `'${join(root, 'lib/client/index.js')}'`))
  }
  const program = ts.createProgram(blocks.map((_block, index) => join(directory, `check${index}.ts`)), {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], skipLibCheck: true
  })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  t.strictSame(diagnostics, [])
  const types = files['api.ts']
  t.match(types, /userRestricted: \{\n\s+\/\*\* @description Unique, from 1\. \*\/\n\s+id\?: number;/, 'the twin\'s fields are optional')
  t.ok(types.includes('components["schemas"]["error"] | components["schemas"]["RestrictedFieldsError"]'), 'docs/openapi.md names the 400 body as it is generated')
})

test('a client generated from the staff document, or from app.swagger(), is typed with every field staff may select, exactly', async (t) => {
  const app = await example(t)
  await app.ready()
  const check = `
    import type { RestrictedData } from '${join(process.cwd(), 'lib/client/index.js')}'
    import type { RestrictedRoutes } from './restricted.js'
    type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
    type One = RestrictedRoutes['/api/users/{id}']['get']
    type List = RestrictedRoutes['/api/users/']['get']
    export const login: Equal<RestrictedData<One, { params: { query: { only: readonly ['id', 'last_login'] } } }>, { id: number, last_login?: string | null }> = true
    export const page: Equal<RestrictedData<List, { params: { query: { only: readonly ['@summary'], defer: readonly ['name'] } } }>,
      { count: number, next: string | null, previous: string | null, results: Array<{ id: number }> }> = true
    export const every: Equal<keyof RestrictedData<One, {}>, 'id' | 'name' | 'email' | 'is_staff' | 'profile' | 'posts' | 'last_login'> = true
  `
  const documents = { staff: (await app.inject({ url: '/documentation/json', headers: STAFF })).json(), swagger: JSON.parse(JSON.stringify(app.swagger())) }
  for (const [name, document] of Object.entries(documents)) {
    const directory = mkdtempSync(join(tmpdir(), 'restricted-fields-client-'))
    t.teardown(() => rmSync(directory, { recursive: true, force: true }))
    for (const [file, text] of Object.entries(await clientTypes(document))) writeFileSync(join(directory, file), text)
    writeFileSync(join(directory, 'check.ts'), check)
    const program = ts.createProgram([join(directory, 'check.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true
    })
    t.strictSame(ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.start}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`), [], name)
  }
})
