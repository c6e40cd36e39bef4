import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fastifyRestrictedFields from '../../lib/index.js'
import restrictedFieldsMcp from '../../lib/mcp/index.js'
import { composedCase } from './generators.js'
import type { Schema } from './generators.js'

// More runs when asked for: FST_DEEP=1 npx tap test/property/tool-results.test.ts
const numRuns = process.env.FST_DEEP === undefined ? 12 : 200

/**
 * The record-level keywords the outside probe put beside a composition:
 * `additionalProperties` closed or a schema, which fast-json-stringify reads
 * after merging the composition's members and a JSON Schema validator reads
 * against the record's own `properties` alone.
 */
const beside: fc.Arbitrary<Schema> = fc.constantFrom({}, { additionalProperties: false }, { additionalProperties: true }, { additionalProperties: { type: 'string' } }, { type: 'object', additionalProperties: false })

test('every tool result validates against its own output schema, as the MCP SDK\'s client checks it', async (t) => {
  let checked = 0
  let refused = 0
  await fc.assert(fc.asyncProperty(composedCase, beside, fc.constantFrom('3.0.3', '3.1.0'), fc.boolean(), fc.boolean(), async (c, extra, openapi, list, hide) => {
    const record = { ...c.schema, ...extra }
    const app = Fastify()
    await app.register(swagger, { openapi: { openapi, info: { title: 'things', version: '1' } } })
    // A caller hidden a field sees a relaxed schema, a staff caller the whole one.
    // Not a name the variants' tags (`a`, `b`) spell as values, which the document's last check reads as names (issue 50's first point).
    const hideable = c.paths.filter((path) => !['a', 'b', 'kind'].includes(path.split('.').at(-1) as string))
    const hidden = hide && hideable.length > 0 ? [hideable[hideable.length - 1]] : []
    await app.register(fastifyRestrictedFields, { hiddenFields: () => hidden })
    await app.register(restrictedFieldsMcp, { mode: 'routes' })
    app.get('/things', { restrictFields: true, schema: { operationId: 'getThings', response: { 200: list ? { type: 'array', items: record } : record } } }, async () => list ? c.records : c.records[0])
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
    } catch (error) {
      // A schema that fast-json-stringify itself refuses (a default that fits no member) makes no route to call.
      if ((error as { code?: string }).code !== 'FST_ERR_SCH_SERIALIZATION_BUILD') throw error
      refused++
      return
    }
    const client = new Client({ name: 'property', version: '1.0.0' })
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', app.listeningOrigin)))
      await client.listTools()
      // A path below a hidden one is hidden too: the caller may not name it, as a field that does not exist.
      const visible = (path: string): boolean => !hidden.some((gone) => path === gone || path.startsWith(`${gone}.`))
      const args = {
        ...c.only === null ? {} : { only: c.only.filter(visible) },
        ...c.defer === null ? {} : { defer: c.defer.filter(visible) }
      }
      // The SDK's client validates structuredContent against the listed output schema and throws -32602 when it fails.
      const result = await client.callTool({ name: 'getThings', arguments: args })
      if (result.isError === true) throw new Error(`the call failed: ${JSON.stringify(result.content)}`)
      checked++
    } finally {
      await client.close()
      await app.close()
    }
  }), { numRuns })
  t.equal(checked + refused, numRuns)
  t.ok(checked > refused, `${checked} checked, ${refused} routes refused by Fastify`)
})
