import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { GAVE_UP } from '../../lib/write.js'

const record = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } }
}
const exactRecord = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
const nullableString = { type: ['string', 'null'] }

/** An envelope declaring `order`, with `required` and any other keywords, around `items`. */
function envelope (order: string[], required: string[], items: unknown, keywords: Record<string, unknown> = {}): Record<string, unknown> {
  const properties = Object.fromEntries(order.map((name) => [name, name === 'results' ? { type: 'array', items } : name === 'count' ? { type: 'integer' } : nullableString]))
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...keywords }
}

const records = [{ id: 1, name: 'Ada', email: 'ada@example.com' }, { id: 2, name: 'Alan', email: 'alan@example.com' }]
const payload = { results: records, next: '/users?page=2', count: 2, extra: 'x', previous: null }
const exactPayload = { ...payload, results: records.map(({ id, name }) => ({ id, name })) }

const envelopes: Array<{ title: string, order: string[], required: string[], keywords?: Record<string, unknown>, expected: string }> = [
  {
    title: 'required count and results: written count, results, next, previous',
    order: ['count', 'next', 'previous', 'results'],
    required: ['count', 'results'],
    expected: '{"count":2,"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}],"next":"/users?page=2","previous":null}'
  },
  {
    title: 'records declared first',
    order: ['results', 'count', 'next', 'previous'],
    required: [],
    expected: '{"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}],"count":2,"next":"/users?page=2","previous":null}'
  },
  {
    title: 'every key required, records last',
    order: ['count', 'next', 'previous', 'results'],
    required: ['count', 'next', 'previous', 'results'],
    expected: '{"count":2,"next":"/users?page=2","previous":null,"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}]}'
  },
  {
    title: 'records in between, with undeclared keys let through',
    order: ['count', 'results', 'next'],
    required: [],
    keywords: { additionalProperties: true },
    expected: '{"count":2,"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}],"next":"/users?page=2","extra":"x","previous":null}'
  },
  {
    title: 'records required alone, with pattern properties',
    order: ['count', 'next', 'results'],
    required: ['results'],
    keywords: { patternProperties: { '^ex': { type: 'string' } } },
    expected: '{"results":[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}],"count":2,"next":"/users?page=2","extra":"x"}'
  }
]

/** A Fastify instance whose log lines at debug level are kept in `lines`. */
async function logged (t: Test): Promise<{ app: ReturnType<typeof Fastify>, lines: Array<Record<string, unknown>> }> {
  const lines: Array<Record<string, unknown>> = []
  const app = Fastify({ logger: { level: 'debug', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } })
  await app.register(fastifyRestrictedFields)
  t.teardown(() => app.close())
  return { app, lines }
}

const fallbacks = (lines: Array<Record<string, unknown>>) => lines.filter((line) => String(line.msg).startsWith('fastify-restricted-fields: the route copies'))

test('every envelope is written as the exact route\'s own serializer writes it, and the writer never gives up on one', async (t) => {
  for (const { title, order, required, keywords, expected } of envelopes) {
    const { app, lines } = await logged(t)
    app.get('/written', { schema: { response: { 200: envelope(order, required, record, keywords) } }, restrictFields: { cacheSize: 0 } }, async () => payload)
    app.get('/compiled', { schema: { response: { 200: envelope(order, required, record, keywords) } }, restrictFields: true }, async () => payload)
    app.get('/exact', { schema: { response: { 200: envelope(order, required, exactRecord, keywords) } } }, async () => exactPayload)
    const exact = (await app.inject('/exact')).body
    t.equal(exact, expected, `${title}: the exact route`)
    for (let i = 0; i < 3; i++) {
      t.equal((await app.inject('/written?only=id,name')).body, exact, `${title}: written, request ${i + 1}`)
      t.equal((await app.inject('/compiled?only=id,name')).body, exact, `${title}: compiled, request ${i + 1}`)
    }
    t.strictSame(fallbacks(lines), [], `${title}: nothing copied`)
  }
})

test('a route that falls back to copying logs it once at debug level, with the reason', async (t) => {
  const { app, lines } = await logged(t)
  const documents = records.map((fields) => ({ ...fields, toJSON: () => fields }))
  app.get('/documents', { schema: { response: { 200: envelope(['count', 'next', 'previous', 'results'], ['count', 'results'], record) } }, restrictFields: { cacheSize: 0 } }, async () => ({ ...payload, results: documents }))
  app.get('/strings', { schema: { response: { 200: { type: 'array', items: record } } }, restrictFields: { cacheSize: 0 } }, async () => ['Ada'])
  for (let i = 0; i < 3; i++) {
    t.equal((await app.inject('/documents?only=name')).body, '{"count":2,"results":[{"name":"Ada"},{"name":"Alan"}],"next":"/users?page=2","previous":null}')
  }
  t.strictSame(fallbacks(lines).map(({ level, reason, msg }) => ({ level, reason, msg })), [{
    level: 20,
    reason: GAVE_UP.toJSON.reason,
    msg: 'fastify-restricted-fields: the route copies the kept fields where it cannot write them: an object has a toJSON method'
  }])
  const unrestricted = (await app.inject('/strings')).body
  for (let i = 0; i < 2; i++) t.equal((await app.inject('/strings?only=name')).body, unrestricted, 'a string for a record, sent as the route sends it')
  t.strictSame(fallbacks(lines).map(({ reason }) => reason), [GAVE_UP.toJSON.reason, GAVE_UP.record.reason], 'another route, another reason, logged once too')
})
