/**
 * Which components a caller's document writes: the app's own, a relaxed twin
 * where a restricted reply breaks what the original requires, and, for a
 * route whose rule hides a path, a copy of each component on the way to it
 * alone, whose complete form (the record a client types) repeats only what
 * it adds to its relaxed one.
 */
import { test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'

type Json = Record<string, any>

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
const RELAXED = 'As restricted responses send it: any field may be left out.'
const COMPLETE = 'As this caller is sent it.'
const VISIBLE = 'As this caller is sent it, complete: the record that a restricted response narrows.'
const text = { type: 'string' }
const integer = { type: 'integer' }

/** The app's schemas, each `$ref` written by `to`: as declared (`address#`) or as the document writes it. */
function schemas (to: (name: string) => Json): Record<string, Json> {
  return {
    address: { type: 'object', properties: { city: text, street: text }, required: ['city', 'street'] },
    customer: { type: 'object', properties: { name: text, address: to('address') }, required: ['name'] },
    item: { type: 'object', properties: { sku: text }, required: ['sku'] },
    order: { type: 'object', properties: { id: integer, customer: to('customer'), items: { type: 'array', items: to('item') } }, required: ['id', 'customer'] },
    node: { type: 'object', properties: { id: integer, secret: text, children: { type: 'array', items: to('node') } }, required: ['id'] }
  }
}
const declared = schemas(ref)

/** `/orders` hides `customer.address.city` and `/tree` `children.secret` from a caller without `x-staff`; `/all-orders` hides nothing. */
async function ordersApp (): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } }, refResolver: { buildLocalReference: (json) => String(json.$id) } })
  await app.register(fastifyRestrictedFields, {
    hiddenFields: (request, route) => request.headers['x-staff'] === 'yes'
      ? []
      : route.url === '/orders' ? ['customer.address.city'] : route.url === '/tree' ? ['children.secret'] : []
  })
  for (const [name, schema] of Object.entries(schemas((name) => ({ $ref: `${name}#` })))) app.addSchema({ $id: name, ...schema })
  app.get('/orders', { restrictFields: true, schema: { response: { 200: { $ref: 'order#' } } } }, async () => ({ id: 1, customer: { name: 'n', address: { street: 's' } } }))
  app.get('/all-orders', { restrictFields: true, schema: { response: { 200: { $ref: 'order#' } } } }, async () => ({ id: 1 }))
  app.get('/tree', { restrictFields: true, schema: { response: { 200: { $ref: 'node#' } } } }, async () => ({ id: 1 }))
  app.get('/doc', { schema: { hide: true } }, async (request) => app.restrictedFieldsDocument(request))
  await app.ready()
  return app
}

/** The record components of a document, without the plugin's error and lists of choices. */
function records (document: Json): Json {
  return Object.fromEntries(Object.entries(document.components.schemas).filter(([name]) => name !== 'RestrictedFieldsError' && !name.startsWith('Fields-')))
}

/** Each route's response schema and complete record. */
function routes (document: Json): Json {
  return Object.fromEntries(['/orders', '/all-orders', '/tree'].map((path) => {
    const operation = document.paths[path].get
    return [path, [operation.responses['200'].content['application/json'].schema, operation['x-restricted-fields'].statuses['200'].record]]
  }))
}

test('with nothing hidden, a twin is written for each component whose required names a restricted reply may leave out', async (t) => {
  const app = await ordersApp()
  t.teardown(() => app.close())
  const document = (await app.inject({ url: '/doc', headers: { 'x-staff': 'yes' } })).json()
  t.strictSame(records(document), {
    ...declared,
    orderRestricted: { type: 'object', properties: { id: integer, customer: ref('customerRestricted'), items: { type: 'array', items: ref('itemRestricted') } }, description: RELAXED },
    customerRestricted: { type: 'object', properties: { name: text, address: ref('addressRestricted') }, description: RELAXED },
    addressRestricted: { type: 'object', properties: { city: text, street: text }, description: RELAXED },
    itemRestricted: { type: 'object', properties: { sku: text }, description: RELAXED },
    nodeRestricted: { type: 'object', properties: { id: integer, secret: text, children: { type: 'array', items: ref('nodeRestricted') } }, description: RELAXED }
  })
  t.strictSame(routes(document), {
    '/orders': [ref('orderRestricted'), ref('order')],
    '/all-orders': [ref('orderRestricted'), ref('order')],
    '/tree': [ref('nodeRestricted'), ref('node')]
  }, 'the declared components are the complete records')
})

test('a route that hides one deep path copies the components on the way to it alone; its complete record repeats only what it adds', async (t) => {
  const app = await ordersApp()
  t.teardown(() => app.close())
  const document = (await app.inject('/doc')).json()
  t.strictSame(records(document), {
    ...declared,
    // The way to customer.address.city on /orders: order, customer and address, each changed only where it leads there.
    orderRestricted: { type: 'object', properties: { id: integer, customer: ref('customerRestricted'), items: { type: 'array', items: ref('itemRestricted') } }, description: RELAXED },
    customerRestricted: { type: 'object', properties: { name: text, address: ref('addressRestricted') }, description: RELAXED },
    addressRestricted: { type: 'object', properties: { street: text }, description: RELAXED },
    // Off the way: the item's twin, shared with the route that hides nothing.
    itemRestricted: { type: 'object', properties: { sku: text }, description: RELAXED },
    // The complete record: the declared item, and over the relaxed copies, the names they require.
    orderVisible: { type: 'object', properties: { id: integer, customer: ref('customerRestricted2'), items: { type: 'array', items: ref('item') } }, required: ['id', 'customer'], description: VISIBLE },
    customerRestricted2: { properties: { address: ref('addressRestricted2') }, required: ['name'], allOf: [ref('customerRestricted')], description: COMPLETE },
    addressRestricted2: { required: ['street'], allOf: [ref('addressRestricted')], description: COMPLETE },
    // /all-orders hides nothing: every caller's twins.
    orderRestricted2: { type: 'object', properties: { id: integer, customer: ref('customerRestricted3'), items: { type: 'array', items: ref('itemRestricted') } }, description: RELAXED },
    customerRestricted3: { type: 'object', properties: { name: text, address: ref('addressRestricted3') }, description: RELAXED },
    addressRestricted3: { type: 'object', properties: { city: text, street: text }, description: RELAXED },
    // A recursive schema: the levels on the way to children.secret, then the twin that refers to itself.
    nodeRestricted: { type: 'object', properties: { id: integer, secret: text, children: { type: 'array', items: ref('nodeRestricted2') } }, description: RELAXED },
    nodeRestricted2: { type: 'object', properties: { id: integer, children: { type: 'array', items: ref('nodeRestricted3') } }, description: RELAXED },
    nodeRestricted3: { type: 'object', properties: { id: integer, secret: text, children: { type: 'array', items: ref('nodeRestricted3') } }, description: RELAXED },
    nodeVisible: { type: 'object', properties: { id: integer, secret: text, children: { type: 'array', items: ref('nodeRestricted4') } }, required: ['id'], description: VISIBLE },
    nodeRestricted4: { properties: { children: { type: 'array', items: ref('node') } }, required: ['id'], allOf: [ref('nodeRestricted2')], description: COMPLETE }
  })
  t.strictSame(routes(document), {
    '/orders': [ref('orderRestricted'), ref('orderVisible')],
    '/all-orders': [ref('orderRestricted2'), ref('order')],
    '/tree': [ref('nodeRestricted'), ref('nodeVisible')]
  })
  t.equal((await app.inject('/orders')).body, '{"id":1,"customer":{"name":"n","address":{"street":"s"}}}')
})
