/**
 * The benchmark's server, run in its own process: `node server.js PAGE_SIZE`.
 * Serves every variant on one port and prints `{ "port": N }` when ready.
 */
import Fastify from 'fastify'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import mask from 'json-mask'
import mercurius from 'mercurius'
import fastifyRestrictedFields from '../lib/index.js'
import { HIDDEN_BY_RULE, SEEN_AGAIN_CACHE_SIZE, SELECTED, allOfRecordSchema, makeRecords, oneOfRecordSchema, recordSchema, twoFieldSchema } from './data.js'

const pageSize = Number(process.argv[2] ?? 20)
const records = makeRecords(pageSize)
const twoFieldRecords = records.map((record) => Object.fromEntries(SELECTED.map((key) => [key, record[key]])))
const fullSchema = { response: { 200: { type: 'array', items: recordSchema } } }

function onlyFields (request: FastifyRequest): string[] | null {
  const only = (request.query as Record<string, string | string[] | undefined>).only
  if (only === undefined) return null
  return (Array.isArray(only) ? only : [only]).flatMap((value) => value.split(','))
}

function naiveCopy (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const fields = onlyFields(request)
  if (fields === null) {
    done(null, payload)
    return
  }
  done(null, (payload as Array<Record<string, unknown>>).map((record) => {
    const copy: Record<string, unknown> = {}
    for (const field of fields) copy[field] = record[field]
    return copy
  }))
}

function jsonMask (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const fields = onlyFields(request)
  done(null, fields === null ? payload : mask(payload, fields.join(',')))
}

async function withoutPlugin (app: FastifyInstance): Promise<void> {
  app.get('/base/records', { schema: fullSchema }, async () => records)
  app.get('/hand/records', { schema: { response: { 200: { type: 'array', items: twoFieldSchema } } } }, async () => twoFieldRecords)
  app.get('/hful/records', { schema: { response: { 200: { type: 'array', items: twoFieldSchema } } } }, async () => records)
  app.get('/mask/records', { schema: fullSchema, preSerialization: jsonMask }, async () => records)
  app.get('/copy/records', { schema: fullSchema, preSerialization: naiveCopy }, async () => records)
  app.get('/noop/records', {
    schema: fullSchema,
    preValidation: function noop (_request, _reply, done) { done() },
    preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) }
  }, async () => records)
  // The price Fastify itself charges for the one preSerialization hook an opted-in route has.
  app.get('/nop1/records', {
    schema: fullSchema,
    preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) }
  }, async () => records)
  // The limit of a restricted route: the hand-written route, with the one hook an opted-in route carries.
  app.get('/hnop/records', {
    schema: { response: { 200: { type: 'array', items: twoFieldSchema } } },
    preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) }
  }, async () => twoFieldRecords)
}

// The same records over GraphQL, as users would otherwise serve a client's choice of fields.
const graphQLSchema = `
  type Profile { city: String, phone: String, zip: String }
  type Tag { id: Int, label: String }
  type Record { id: Int, name: String, email: String, age: Int, active: Boolean, score: Float, created: String, role: String, profile: Profile, tags: [Tag] }
  type Query { records: [Record] }
`

async function withGraphQL (app: FastifyInstance, options: { jit: number }): Promise<void> {
  await app.register(mercurius, { schema: graphQLSchema, resolvers: { Query: { records: async () => records } }, jit: options.jit })
}

async function withPlugin (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields, { fieldSets: { summary: SELECTED } })
  app.get('/records', { schema: fullSchema, restrictFields: true }, async () => records)
}

// The route of the field sets seen again (bench/data.ts, seenAgainSelections): its cache size is
// written out, since which of the cycle's sets are compiled depends on it.
async function withCacheSize (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields, { cacheSize: SEEN_AGAIN_CACHE_SIZE })
  app.get('/records', { schema: fullSchema, restrictFields: true }, async () => records)
}

async function withAllOf (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/records', { schema: { response: { 200: { type: 'array', items: allOfRecordSchema } } }, restrictFields: true }, async () => records)
}

// Records of both variants, alternately: the second is chosen after the first is tested.
const variantRecords = records.map((record, i) => ({ kind: i % 2 === 0 ? 'a' : 'b', ...record }))

async function withOneOf (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/records', { schema: { response: { 200: { type: 'array', items: oneOfRecordSchema } } }, restrictFields: true }, async () => variantRecords)
}

// A route whose default fields are the selected ones: no parameters, the hand-written route's body.
async function withDefault (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/records', { schema: fullSchema, restrictFields: { defaultFields: SELECTED } }, async () => records)
}

// A per-request visibility rule at its cheapest: the same hidden field for every request.
function hideByRule (): readonly string[] {
  return HIDDEN_BY_RULE
}

async function withRule (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/records', { schema: fullSchema, restrictFields: { hiddenFields: hideByRule } }, async () => records)
}

// Each plugin route lives in its own encapsulated context, so the other routes
// never see the plugin, and the field sets cycled through /flux and /seen never
// evict what the fixed selections of /plug have compiled, nor each other's.
// Every path has the same length: routing cost is the same for all.
const app = Fastify({ logger: false })
// CPU time used by this process, read before and after each measurement: unlike
// throughput, it is not lowered when other processes take the machine's cores.
app.get('/cpu', async () => process.cpuUsage())
await app.register(withoutPlugin)
await app.register(withPlugin, { prefix: '/plug' })
await app.register(withPlugin, { prefix: '/flux' })
await app.register(withCacheSize, { prefix: '/seen' })
await app.register(withRule, { prefix: '/rule' })
await app.register(withAllOf, { prefix: '/comp' })
await app.register(withOneOf, { prefix: '/vars' })
await app.register(withDefault, { prefix: '/dflt' })
await app.register(withGraphQL, { prefix: '/gqlj', jit: 1 })
await app.register(withGraphQL, { prefix: '/gqln', jit: 0 })
await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port }) + '\n')

// A clean exit lets `node --cpu-prof` write its profile.
process.once('SIGTERM', () => { process.exit(0) })
