// Compiled by `npm run test:types`: every line must type-check, and each line
// marked as an expected error must really be one, or the compilation fails.
import Fastify from 'fastify'
import fastifyRestrictedFields, { fastifyRestrictedFields as named } from '../../lib/index.js'
import type { RestrictFieldsRouteOptions, RestrictedFieldsOptions } from '../../lib/index.js'

const app = Fastify()

await app.register(fastifyRestrictedFields)
await app.register(named, { onlyParam: 'fields', unknownFields: 'ignore', cacheSize: 0, cacheBytes: 1_048_576 })
// @ts-expect-error cacheBytes is a number
await app.register(fastifyRestrictedFields, { cacheBytes: '1MB' })
// @ts-expect-error unknownFields is 'reject' or 'ignore'
await app.register(fastifyRestrictedFields, { unknownFields: 'warn' })
// @ts-expect-error maxDepth is a number
await app.register(fastifyRestrictedFields, { maxDepth: '3' })
await app.register(fastifyRestrictedFields, { maxListedFields: 500 })
// @ts-expect-error maxListedFields is a number
await app.register(fastifyRestrictedFields, { maxListedFields: 'all' })

const handler = async (): Promise<object> => ({})
app.get('/a', { restrictFields: true }, handler)
app.get('/b', { restrictFields: false }, handler)
app.get('/c', { restrictFields: { fields: ['id', 'profile.city'], deferParam: 'omit' } }, handler)
app.get('/d', { config: { restrictFields: true } }, handler)
app.route({ method: 'GET', url: '/e', restrictFields: true, handler })
app.post('/f', { restrictFields: { unknownFields: 'ignore' } }, handler)
app.get('/f2', { restrictFields: { maxListedFields: 20 } }, handler)
// @ts-expect-error restrictFields is a boolean or an options object
app.get('/g', { restrictFields: 'yes' }, handler)
// @ts-expect-error fields is a list of strings
app.get('/h', { restrictFields: { fields: 'id' } }, handler)
// @ts-expect-error unknown route option key
app.get('/i', { restrictFields: { field: ['id'] } }, handler)

await app.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === undefined ? ['email'] : [] })
app.get('/j', { restrictFields: { hiddenFields: async (request) => request.ip === '127.0.0.1' ? [] : ['email', 'profile.phone'] } }, handler)
// @ts-expect-error hiddenFields returns field names
app.get('/k', { restrictFields: { hiddenFields: () => 'email' } }, handler)
// The rule is told which route it is asked about, with the route's own config.
app.get('/l', { restrictFields: { hiddenFields: (_request, route) => route.method === 'GET' && route.url === '/l' ? route.config.staffOnly ?? [] : [] } }, handler)
// @ts-expect-error the route it is told of cannot be changed
app.get('/m', { restrictFields: { hiddenFields: (_request, route) => { route.url = '/x'; return [] } } }, handler)

await app.register(fastifyRestrictedFields, { fieldSets: { summary: ['id', 'name'] } })
app.get('/l', { restrictFields: { defaultFields: ['id', 'profile.city'], fieldSets: { contact: ['email'] } } }, handler)
// @ts-expect-error a field set is a list of field names
app.get('/m', { restrictFields: { fieldSets: { contact: 'email' } } }, handler)
// @ts-expect-error defaultFields is a route option
await app.register(fastifyRestrictedFields, { defaultFields: ['id'] })

await app.register(fastifyRestrictedFields, { global: true })
// @ts-expect-error global is a boolean
await app.register(fastifyRestrictedFields, { global: 'all' })
// @ts-expect-error global is a plugin option
app.get('/n', { restrictFields: { global: true } }, handler)

const seen: Array<boolean | RestrictFieldsRouteOptions | undefined> = []
app.addHook('onRoute', (route) => { seen.push(route.restrictFields) })

const global: RestrictedFieldsOptions = { resultsKey: 'items', maxFields: 10 }
export { global, seen }
