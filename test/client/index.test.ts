import { test } from 'tap'
import { restrictedClient } from '../../lib/client/index.js'
import type { FetchClient } from '../../lib/client/index.js'

type Json = Record<string, any>

test('each method passes its path and options to the same method of the client, which answers the call', async (t) => {
  const sent: unknown[][] = []
  const client = {
    prefix: 'answered',
    // A method that reads the client it belongs to.
    async GET (this: { prefix: string }, path: string, init?: Json) { sent.push(['GET', path, init]); return { data: `${this.prefix} GET` } },
    POST: async (path: string, init?: Json) => { sent.push(['POST', path, init]); return { data: 'POST' } },
    PUT: async (path: string, init?: Json) => { sent.push(['PUT', path, init]); return { data: 'PUT' } },
    PATCH: async (path: string, init?: Json) => { sent.push(['PATCH', path, init]); return { data: 'PATCH' } },
    DELETE: async (path: string, ...init: Json[]) => { sent.push(['DELETE', path, ...init]); return { data: 'DELETE' } }
  }
  const api = restrictedClient<any>(client) as unknown as Record<string, (path: string, ...init: unknown[]) => Promise<Json>>
  const table: Array<[string, unknown[], string]> = [
    ['GET', [{ params: { query: { only: ['id'] } } }], 'answered GET'],
    ['POST', [{ body: { name: 'Ada' }, params: { query: { only: ['id'] } } }], 'POST'],
    ['PUT', [{ params: { path: { id: 1 } }, body: {} }], 'PUT'],
    ['PATCH', [{ params: { path: { id: 1 }, query: { defer: ['email'] } } }], 'PATCH'],
    ['DELETE', [], 'DELETE']
  ]
  for (const [method, init, answer] of table) {
    t.strictSame(await api[method]('/users', ...init), { data: answer }, method)
    t.strictSame(sent.pop(), [method, '/users', ...init], `${method} sends the options as they are`)
  }
})

test('a method the client lacks is refused when it is called', async (t) => {
  const client: FetchClient = { GET: async () => ({ data: 1 }) }
  const api = restrictedClient<any>(client) as unknown as Record<string, (path: string) => Promise<unknown>>
  t.strictSame(await api.GET('/users'), { data: 1 })
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    await t.rejects(api[method]('/users'), { name: 'TypeError', message: `restrictedClient: the client it was given has no ${method} method` }, method)
  }
})
