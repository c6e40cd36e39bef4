/**
 * The benchmark's server, run in its own process: `node server.js PAGE_SIZE`.
 * Serves every variant on one port and prints `{ "port": N }` when ready.
 */
import Fastify from 'fastify'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import mask from 'json-mask'
import mercurius from 'mercurius'
import fastifyRestrictedFields from '../lib/index.js'
import {
  HIDDEN_BY_RULE, SEEN_AGAIN_CACHE_SIZE, SELECTED, WIDE_SELECTED, allOfRecordSchema, asDocuments, envelopeSchema, makeRecords, makeUsers,
  makeWideRecords, oneOfRecordSchema, recordSchema, twoFieldSchema, userSchema, wideSchema, withoutRequired
} from './data.js'

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

/** A record with only the named fields; `a.b` keeps `b` of the object, or of each object of the array, `a`. */
function copyFields (record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const field of fields) {
    const dot = field.indexOf('.')
    if (dot === -1) {
      copy[field] = record[field]
      continue
    }
    const [name, inner] = [field.slice(0, dot), field.slice(dot + 1)]
    const value = record[name]
    copy[name] = Array.isArray(value)
      ? value.map((item) => ({ [inner]: item[inner] }))
      : { [inner]: (value as Record<string, unknown>)[inner] }
  }
  return copy
}

/** The naive copy of a page envelope: its records copied as copyFields does, the rest as it is. */
function naiveEnvelopeCopy (
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void
): void {
  const fields = onlyFields(request)
  if (fields === null) {
    done(null, payload)
    return
  }
  const page = payload as { results: Array<Record<string, unknown>> }
  done(null, { ...page, results: page.results.map((record) => copyFields(record, fields)) })
}

function naiveArrayCopy (
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void
): void {
  const fields = onlyFields(request)
  done(null, fields === null ? payload : (payload as Array<Record<string, unknown>>).map((record) => copyFields(record, fields)))
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

// The users, in pages of the envelope workloads; the documents are the same users with a toJSON().
const users = makeUsers(pageSize)
const page = (results: unknown[]) => ({ count: 1000, next: '/users?page=3', previous: null, results })
const userPage = page(users)
const documentPage = page(asDocuments(users))
const FOUR_REQUIRED = ['count', 'next', 'previous', 'results']
const TWO_REQUIRED = ['count', 'results']
// The naive copy's route declares the same envelope, its records without `required`, so that it writes a copy of some fields.
const naiveEnvelope = (required: string[]) => ({ response: { 200: envelopeSchema(withoutRequired(userSchema), required) } })

async function userWorkloads (app: FastifyInstance): Promise<void> {
  app.get('/ne4s/records', { schema: naiveEnvelope(FOUR_REQUIRED), preSerialization: naiveEnvelopeCopy }, async () => userPage)
  app.get('/ne2s/records', { schema: naiveEnvelope(TWO_REQUIRED), preSerialization: naiveEnvelopeCopy }, async () => userPage)
  app.get('/nejs/records', { schema: naiveEnvelope(TWO_REQUIRED), preSerialization: naiveEnvelopeCopy }, async () => documentPage)
  app.get('/nars/records', { schema: { response: { 200: { type: 'array', items: withoutRequired(userSchema) } } }, preSerialization: naiveArrayCopy }, async () => users)
}

async function withUsers (app: FastifyInstance, options: { required?: string[], documents?: boolean }): Promise<void> {
  await app.register(fastifyRestrictedFields)
  const schema = options.required === undefined ? { type: 'array', items: userSchema } : envelopeSchema(userSchema, options.required)
  const payload = options.required === undefined ? users : options.documents === true ? documentPage : userPage
  app.get('/records', { schema: { response: { 200: schema } }, restrictFields: true }, async () => payload)
}

// The wide record: about 60 fields over three levels, with arrays of objects.
const wideRecords = makeWideRecords(pageSize)
const wideDocuments = asDocuments(wideRecords)
const wideFull = { response: { 200: { type: 'array', items: wideSchema } } }
const wideNaive = { response: { 200: { type: 'array', items: withoutRequired(wideSchema) } } }
const wideExact = { response: { 200: { type: 'array', items: { type: 'object', properties: Object.fromEntries(WIDE_SELECTED.map((name) => [name, (wideSchema.properties as Record<string, unknown>)[name]])) } } } }
const wideExactRecords = wideRecords.map((record) => Object.fromEntries(WIDE_SELECTED.map((key) => [key, record[key]])))

async function wideWorkloads (app: FastifyInstance): Promise<void> {
  app.get('/nwid/records', { schema: wideNaive, preSerialization: naiveArrayCopy }, async () => wideRecords)
  app.get('/nwij/records', { schema: wideNaive, preSerialization: naiveArrayCopy }, async () => wideDocuments)
  app.get('/hwid/records', { schema: wideExact, preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) } }, async () => wideExactRecords)
  // The same schema over the full records: what reading five fields out of sixty costs, apart from the plugin.
  app.get('/hwif/records', {
    schema: wideExact,
    preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) }
  }, async () => wideRecords)
  app.get('/wnop/records', { schema: wideFull, preSerialization: function noop (_request, _reply, payload, done) { done(null, payload) } }, async () => wideRecords)
}

async function withWide (app: FastifyInstance, options: { documents?: boolean }): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/records', { schema: wideFull, restrictFields: true }, async () => options.documents === true ? wideDocuments : wideRecords)
}

// Today's records with a toJSON(), through the plugin and through the naive copy.
const documents = asDocuments(records)

async function withDocuments (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields, { cacheSize: SEEN_AGAIN_CACHE_SIZE })
  app.get('/records', { schema: fullSchema, restrictFields: true }, async () => documents)
}

// The heap after never-seen selections: each of these routes gets only those.
async function withFreshRoutes (app: FastifyInstance): Promise<void> {
  await app.register(fastifyRestrictedFields)
  app.get('/hpu/records', { schema: fullSchema, restrictFields: true }, async () => records)
  app.get('/hpw/records', { schema: wideFull, restrictFields: true }, async () => wideRecords)
}

// Each plugin route lives in its own encapsulated context, so the other routes
// never see the plugin, and the field sets cycled through /flux and /seen never
// evict what the fixed selections of /plug have compiled, nor each other's.
// Every path has the same length: routing cost is the same for all.
const app = Fastify({ logger: false })
// CPU time used by this process, read before and after each measurement: unlike
// throughput, it is not lowered when other processes take the machine's cores.
app.get('/cpu', async () => process.cpuUsage())
// The heap in use once garbage is collected (the server runs with --expose-gc).
app.get('/heap', async () => {
  (globalThis as { gc?: () => void }).gc?.()
  return { heapUsed: process.memoryUsage().heapUsed }
})
await app.register(withoutPlugin)
await app.register(withPlugin, { prefix: '/plug' })
await app.register(withPlugin, { prefix: '/flux' })
await app.register(withCacheSize, { prefix: '/seen' })
await app.register(withRule, { prefix: '/rule' })
await app.register(withAllOf, { prefix: '/comp' })
await app.register(withOneOf, { prefix: '/vars' })
await app.register(withDefault, { prefix: '/dflt' })
await app.register(userWorkloads)
await app.register(withUsers, { prefix: '/pe4s', required: FOUR_REQUIRED })
await app.register(withUsers, { prefix: '/pe2s', required: TWO_REQUIRED })
await app.register(withUsers, { prefix: '/pejs', required: TWO_REQUIRED, documents: true })
await app.register(withUsers, { prefix: '/pars' })
await app.register(withUsers, { prefix: '/pens', required: TWO_REQUIRED })
await app.register(wideWorkloads)
await app.register(withWide, { prefix: '/wide' })
await app.register(withWide, { prefix: '/wflx' })
await app.register(withWide, { prefix: '/wdoc', documents: true })
await app.register(withDocuments, { prefix: '/seej' })
app.get('/cpyj/records', { schema: fullSchema, preSerialization: naiveCopy }, async () => documents)
await app.register(withFreshRoutes)
await app.register(withGraphQL, { prefix: '/gqlj', jit: 1 })
await app.register(withGraphQL, { prefix: '/gqln', jit: 0 })
await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port }) + '\n')

// A clean exit lets `node --cpu-prof` write its profile.
process.once('SIGTERM', () => { process.exit(0) })
