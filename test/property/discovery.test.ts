import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'

// More runs when asked for: FST_DEEP=1 npx tap test/property/discovery.test.ts
const numRuns = process.env.FST_DEEP === undefined ? 12 : 200

/** A record whose field names are all different, none a part of another, so that a name in a text is that field. */
const object = (properties: Record<string, unknown>): unknown => ({ type: 'object', properties })
const record = object({
  zqid: { type: 'integer' },
  zqtitle: { type: 'string' },
  zqlogin: { type: 'string' },
  zquser: object({ zqhandle: { type: 'string' }, zqplan: object({ zqtier: { type: 'string' }, zqseats: { type: 'integer' } }), zqemail: { type: 'string' } }),
  zqlabels: { type: 'array', items: object({ zqcolor: { type: 'string' }, zqinternal: { type: 'boolean' } }) },
  zqsecret: { type: 'string' }
})
const paths = ['zqid', 'zqtitle', 'zqlogin', 'zquser', 'zquser.zqhandle', 'zquser.zqplan', 'zquser.zqplan.zqtier', 'zquser.zqplan.zqseats', 'zquser.zqemail', 'zqlabels', 'zqlabels.zqcolor', 'zqlabels.zqinternal', 'zqsecret']

test('no search result, description or field list of the discovery mode names a field hidden from its caller', async (t) => {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 'Issues', version: '1' } } })
  // The caller says which fields its rule hides, so that one app serves every generated caller.
  // Room for a few views' documents (each some 10,000 characters, its text and its object), not for all of them.
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => String(request.headers['x-hide'] ?? '').split(',').filter((path) => path !== ''), documentCacheBytes: 100_000 })
  await app.register(restrictedFieldsMcp, { mode: 'discovery' })
  const schema = (operationId: string, summary: string): Record<string, unknown> => ({ operationId, summary, tags: ['issues'], response: { 200: { type: 'array', items: record } } })
  app.get('/issues', { restrictFields: { fieldSets: { card: ['zqid', 'zqtitle', 'zquser.zqhandle', 'zqsecret'] }, defaultFields: ['zqid', 'zqsecret'] }, schema: schema('listIssues', 'List issues') }, async () => [])
  app.get('/issues/:id', { restrictFields: true, schema: schema('getIssue', 'Get an issue') }, async () => [])
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())

  const hiddenSet = fc.subarray(paths, { minLength: 1 })
  const query = fc.oneof(fc.constantFrom(...paths, 'issues', 'list', ''), fc.string({ maxLength: 12 }))
  const prefix = fc.option(fc.oneof(fc.constantFrom(...paths), fc.string({ maxLength: 12 })), { nil: undefined })
  let checked = 0
  await fc.assert(fc.asyncProperty(hiddenSet, query, prefix, fc.constantFrom('listIssues', 'getIssue'), async (hidden, words, fields, operation) => {
    const client = new Client({ name: 'property', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin), { requestInit: { headers: { 'x-hide': hidden.join(',') } } }))
    try {
      const texts = [JSON.stringify((await client.listTools()).tools)]
      for (const [name, args] of [
        ['find_operations', { query: words }],
        ['describe_operation', { operation }],
        ['describe_operation', { operation, fields }],
        ['describe_operation', { operation, fields: 'zquser' }],
        ['describe_operation', { operation, fields: 'zquser.zqplan' }],
        ['describe_operation', { operation, fields: 'zqlabels' }],
        ['list_operations', {}],
        ['list_operations', { area: 'issues' }]
      ] as const) {
        const result = await client.callTool({ name, arguments: args }) as { content: Array<{ text: string }> }
        texts.push(result.content[0].text)
      }
      // A hidden field's name, and the names under it, appear nowhere.
      const unseen = paths.filter((path) => hidden.some((gone) => path === gone || path.startsWith(`${gone}.`))).map((path) => path.split('.').at(-1) as string)
      for (const text of texts) {
        for (const name of unseen) {
          if (text.includes(name)) throw new Error(`${name} (hidden: ${hidden.join(',')}) named in ${text}`)
        }
      }
      // And every visible top-level field is listed.
      const visibleTop = paths.filter((path) => !path.includes('.') && !unseen.includes(path))
      for (const name of visibleTop) if (!texts[2].includes(name)) throw new Error(`${name} missing from ${texts[2]}`)
      checked++
    } finally {
      await client.close()
    }
  }), { numRuns })
  t.equal(checked, numRuns)

  // Each view's document is made once and shared, those used last kept within documentCacheBytes.
  const view = async (hidden: string): Promise<unknown> => await app.restrictedFieldsDocument({ headers: { 'x-hide': hidden }, log: app.log } as never, { shared: true })
  const first = await view('zqid')
  t.equal(await view('zqid'), first, 'the same view, the same document')
  t.not(await view('zqtitle'), first, 'another view, another document')
  for (const path of paths) await view(path)
  for (const path of ['zqid,zqtitle', 'zqid,zqlogin', 'zqid,zqsecret', 'zqtitle,zqsecret']) await view(path)
  t.not(await view('zqid'), first, 'a view used least recently is made again')
  t.equal(await view('zqtitle,zqsecret'), await view('zqtitle,zqsecret'))
})
