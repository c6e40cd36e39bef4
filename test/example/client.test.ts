import { readFileSync } from 'node:fs'
import { test } from 'tap'
import { buildApp } from '../../example/app.js'
import { exampleClient, tour } from '../../example/client.js'
import { clientTypes } from '../../example/client-types.js'
import { generateUsers } from '../../example/generate-users.js'
import { memoryStore } from '../../example/store.js'
import type { FetchClient } from '../../lib/client/index.js'

type Json = Record<string, any>

test('the example client\'s generated types are those of the document an anonymous caller is served', async (t) => {
  const app = await buildApp({ store: memoryStore([]), pageSize: 10 })
  t.teardown(() => app.close())
  const files = await clientTypes((await app.inject('/documentation/json')).json())
  for (const [name, text] of Object.entries(files)) {
    t.equal(readFileSync(new URL(`../../example/${name}`, import.meta.url), 'utf8'), text, `example/${name} is up to date (npm run example:client-types)`)
  }
})

test('the example client gets, for each call, exactly the keys its narrowed type allows, and sends the literal it was typed by', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(25)), pageSize: 10 })
  t.teardown(() => app.close())
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const document = (await app.inject('/documentation/json')).json()
  const client = exampleClient(address)
  const sent: Json[] = []
  const recording: FetchClient = {
    async GET (path: string, init?: Json) {
      sent.push(init?.params?.query ?? {})
      return client.GET(path, init)
    }
  }
  const calls = await tour(recording, 7)
  t.strictSame(calls.map((call) => call.path), ['/api/users/7', '/api/users/', '/api/users/7'])
  t.strictSame(sent, [{ only: ['id', 'email'] }, { only: ['@summary'], page: '1' }, { defer: ['email'] }])
  for (const [index, call] of calls.entries()) {
    // The keys the literal names, resolved as the document says: its sets' members, every field without only, less defer.
    const described = document.paths[call.path === '/api/users/' ? '/api/users/' : '/api/users/{id}'].get['x-restricted-fields']
    const every = Object.keys(document.components.schemas[described.statuses['200'].record.$ref.split('/').pop()].properties)
    const only: string[] | undefined = sent[index].only
    const named = only === undefined ? every : only.flatMap((name) => name.startsWith('@') ? described.sets[name.slice(1)] : [name])
    const expected = named.filter((name) => !(sent[index].defer ?? []).includes(name))
    t.strictSame([...call.keys].sort(), [...expected].sort(), `${call.path} ${JSON.stringify(sent[index])}: the type's keys are the literal's`)
    t.ok(call.records.length > 0, 'records were sent')
    for (const record of call.records) t.strictSame(Object.keys(record as Json).sort(), [...call.keys].sort(), `${call.path}: the reply's keys are the type's`)
  }
  t.strictSame(calls[0].data, { id: 7, email: generateUsers(7)[6].email })
  t.match(calls[1].data, { count: 25, next: `${address}/api/users/?only=%40summary&page=2`, previous: null })
})

test('a call that the server refuses resolves with its error body, and the example client says so', async (t) => {
  const app = await buildApp({ store: memoryStore(generateUsers(3)), pageSize: 10 })
  t.teardown(() => app.close())
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const client = exampleClient(address)
  const failing = (path: string): FetchClient => ({ GET: async (at: string, init?: Json) => client.GET(at === path ? '/api/users/{id}' : at, at === path ? { params: { path: { id: 99 } } } : init) })
  await t.rejects(tour(client, 99), { message: 'GET /api/users/99: {"statusCode":404,"error":"Not Found","message":"User 99 not found"}' })
  await t.rejects(tour(failing('/api/users/'), 1), { message: 'GET /api/users/: {"statusCode":404,"error":"Not Found","message":"User 99 not found"}' })
  let first = true
  const laterFailing: FetchClient = { GET: async (at: string, init?: Json) => { const answer = client.GET(at, first ? init : { params: { path: { id: 99 } } }); first = at !== '/api/users/' && first; return answer } }
  await t.rejects(tour(laterFailing, 1), { message: 'GET /api/users/1: {"statusCode":404,"error":"Not Found","message":"User 99 not found"}' })
})
