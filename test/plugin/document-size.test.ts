import { test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import { parameterChoices } from '../helpers.js'

type Json = Record<string, any>

const openapi30 = { openapi: { openapi: '3.0.3', info: { title: 'size', version: '1.0.0' } } }

/** An app whose rule hides `hidden` from a caller without `x-staff`, with a route serving that caller's document. */
async function appHiding (hidden: (url: string) => string[]): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(swagger, openapi30)
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request: FastifyRequest, route) => request.headers['x-staff'] === 'yes' ? [] : hidden(route.url)
  })
  app.get('/doc', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  return app
}

const secretOnly = { type: 'object', properties: { secret: { type: 'string' } } }

test('a caller who sees none of a route\'s fields is documented no defer, and only offers `*` alone', async (t) => {
  const app = await appHiding(() => ['secret'])
  t.teardown(() => app.close())
  app.get('/secrets', { restrictFields: true, schema: { response: { 200: secretOnly } } }, async () => ({ secret: 's' }))
  await app.ready()
  const document = (await app.inject('/doc')).json()
  const parameters = document.paths['/secrets'].get.parameters
  t.strictSame(parameters.map((parameter: Json) => [parameter.name, parameterChoices(document, parameter)]), [['only', ['*']]])
  t.equal((await app.inject('/secrets?defer=secret')).statusCode, 400, 'a defer of the hidden field is refused as unknown')
})

test('an app\'s own only and defer left without a choice keep their type, without an empty enum', async (t) => {
  const app = await appHiding(() => ['secret'])
  t.teardown(() => app.close())
  const schema = { querystring: { type: 'object', properties: { page: { type: 'integer' } } }, response: { 200: secretOnly } }
  app.get('/secrets', { restrictFields: true, schema }, async () => ({ secret: 's' }))
  await app.ready()
  const document = (await app.inject('/doc')).json()
  const parameters = document.paths['/secrets'].get.parameters.filter((parameter: Json) => parameter.name !== 'page')
  const choices = (parameter: Json): unknown => parameter.schema.items.enum ?? parameterChoices(document, parameter)
  t.strictSame(parameters.map((parameter: Json) => [parameter.name, choices(parameter)]), [
    ['only', ['*']], ['defer', undefined]
  ])
  t.strictSame(parameters[1].schema.items, { type: 'string' })
})

test('routes that return the same record share one list of choices; a route with its own hidden set gets its own', async (t) => {
  const app = await appHiding((url) => url === '/mine' ? ['name'] : [])
  t.teardown(() => app.close())
  const user = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
  for (const url of ['/a', '/b', '/mine']) {
    app.get(url, { restrictFields: true, schema: { response: { 200: user } } }, async () => ({ id: 1 }))
  }
  await app.ready()
  const document = (await app.inject('/doc')).json()
  const lists = Object.keys(document.components.schemas).filter((name) => name.startsWith('Fields-'))
  t.equal(lists.length, 2)
  const ref = (url: string, index: number): string => document.paths[url].get.parameters[index].schema.items.$ref
  t.strictSame([ref('/a', 0), ref('/a', 1), ref('/b', 0), ref('/b', 1)], Array(4).fill(ref('/a', 0)))
  const offered = (url: string): unknown => parameterChoices(document, document.paths[url].get.parameters[0])
  t.strictSame([offered('/a'), offered('/mine')],
    [['id', 'name', '*'], ['id', '*']])
})

test('twins equal in content are one component, and an original nothing refers to is not kept beside its twin', async (t) => {
  const app = await appHiding((url) => url === '/pets' ? ['lives'] : [])
  t.teardown(() => app.close())
  app.addSchema({ $id: 'dog', type: 'object', required: ['barks'], properties: { barks: { type: 'boolean' } } })
  app.addSchema({ $id: 'cat', type: 'object', required: ['lives'], properties: { lives: { type: 'integer' } } })
  app.addSchema({ $id: 'page', type: 'object', required: ['results'], properties: { results: { type: 'array', items: { $ref: 'dog#' } } } })
  const pets = { type: 'array', items: { anyOf: [{ $ref: 'dog#' }, { $ref: 'cat#' }] } }
  app.get('/pets', { restrictFields: true, schema: { response: { 200: pets } } }, async () => [])
  app.get('/dogs', { restrictFields: true, schema: { response: { 200: { $ref: 'page#' } } } }, async () => ({ results: [] }))
  await app.ready()
  const names = (document: Json): string[] => Object.keys(document.components.schemas).sort()
  const anonymous = (await app.inject('/doc')).json()
  const lists = names(anonymous).filter((name) => name.startsWith('Fields-'))
  const twins = ['def-0Restricted', 'def-1Restricted', 'def-2Restricted']
  t.strictSame(names(anonymous), ['RestrictedFieldsError', 'def-0', ...twins, 'getPetsRecord', ...lists].sort(),
    'the dog relaxed for a caller from whom a cat\'s field is hidden is the dog relaxed for every caller; its complete record is the dog')
  const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
  // Without its hidden field the cat requires nothing: its complete form is its relaxed one, not a copy of it.
  t.strictSame(anonymous.components.schemas.getPetsRecord, { anyOf: [ref('def-0'), ref('def-1Restricted')] })
  t.strictSame(anonymous.paths['/pets'].get.responses[200].content['application/json'].schema.items,
    { anyOf: [{ $ref: '#/components/schemas/def-0Restricted' }, { $ref: '#/components/schemas/def-1Restricted' }] })
  t.strictSame(anonymous.components.schemas['def-2Restricted'].properties.results.items, { $ref: '#/components/schemas/def-0Restricted' })
  const staff = (await app.inject({ url: '/doc', headers: { 'x-staff': 'yes' } })).json()
  t.notOk(Object.hasOwn(staff.components.schemas, 'def-2'), 'the envelope, which only its twin replaced, is left out')
  t.ok(Object.hasOwn(staff.components.schemas, 'def-0'), 'the record, which the complete description refers to, stays')
})
