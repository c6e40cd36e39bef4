/*
 * The reference test: for every shape of schema the plugin reads, in JSON
 * Schema, TypeBox and Zod where each applies, every selection's response
 * must equal the reference projection of the route's own unrestricted
 * response, on the compiled, written and copied paths.
 */
import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { Type as Type034 } from '@sinclair/typebox'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import fastifyRestrictedFields from '../../lib/index.js'
import { project, trieOf } from '../oracle.js'

type Json = Record<string, any>

interface Shape {
  title: string
  /** The schema of one record (JSON Schema, TypeBox or Zod). */
  record: unknown
  shared?: Json[]
  records: unknown[]
  selections: string[]
  maxDepth?: number
  zod?: boolean
  /** The record schema refers to the response's root (`$ref: '#'`): only routes that send one record apply. */
  rootOnly?: boolean
  /**
   * The route chooses a variant by validating the record itself: one with a
   * toJSON method fails there without restriction, so such records are copied
   * only inside an envelope the writer leaves to the copy.
   */
  variants?: boolean
}

function reference (body: unknown, query: string): unknown {
  const params = new URLSearchParams(query)
  const only = params.has('only') ? trieOf((params.get('only') as string).split(',').filter((path) => path !== '')) : null
  const defer = params.has('defer') ? trieOf((params.get('defer') as string).split(',')) : null
  return project(body, only, defer)
}

const base = { $id: 'base', type: 'object', required: ['id'], properties: { id: { type: 'integer' }, createdBy: { type: 'string' } } }
const profile = { $id: 'profile', type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } }
const extra = { $id: 'extra', type: 'object', properties: { tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, rank: { type: 'integer' } } } } } }

const cat = { type: 'object', required: ['kind', 'name'], properties: { kind: { const: 'cat' }, name: { type: 'string' }, lives: { type: 'integer' } } }
const dog = {
  type: 'object',
  required: ['kind', 'name'],
  properties: { kind: { const: 'dog' }, name: { type: 'string' }, barks: { type: 'boolean' }, owner: { type: 'object', properties: { name: { type: 'string' }, city: { type: 'string' } } } }
}
const pets = [
  { kind: 'cat', name: 'Tom', lives: 9, barks: true, secret: 1 },
  { kind: 'dog', name: 'Rex', barks: true, lives: 3, owner: { name: 'Ann', city: 'Oslo', pin: 1 } }
]

const people = [
  { id: 1, createdBy: 'x', name: 'Ada', profile: { city: 'London', zip: 'N1', secret: 's' }, password: 'p' },
  { id: 2, name: 'Alan', profile: null }
]

const tree = { id: 1, label: 'a', children: [{ id: 2, label: 'b', children: [{ id: 3, label: 'c', children: [{ id: 4, label: 'd', children: [] }] }] }] }

const ZodCat = z.object({ kind: z.literal('cat'), name: z.string(), lives: z.int() })
const ZodDog = z.object({ kind: z.literal('dog'), name: z.string(), barks: z.boolean(), owner: z.object({ name: z.string(), city: z.string() }).optional() })
interface TreeNode { id: number, label: string, children: TreeNode[] }
const ZodNode: z.ZodType<TreeNode> = z.object({ id: z.int(), label: z.string(), get children () { return z.array(ZodNode) } })

const shapes: Shape[] = [
  {
    title: 'allOf with $ref members, and a field written { allOf: [$ref], description }',
    shared: [base, profile],
    record: {
      allOf: [
        { $ref: 'base#' },
        { type: 'object', required: ['name'], properties: { name: { type: 'string' }, profile: { allOf: [{ $ref: 'profile#' }], description: 'Where they live', nullable: true } } }
      ]
    },
    records: people,
    selections: ['', 'only=id', 'only=profile.city', 'defer=name', 'defer=profile.zip', 'only=name,createdBy', 'only=']
  },
  {
    title: 'properties beside allOf',
    shared: [extra],
    record: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } }, allOf: [{ $ref: 'extra#' }] },
    records: [{ id: 1, name: 'a', tags: [{ label: 'x', rank: 1, no: 1 }] }, { id: 2, tags: [] }],
    selections: ['', 'defer=name', 'only=tags.label', 'only=id,tags', 'defer=tags.rank']
  },
  {
    title: 'TypeBox Intersect',
    record: Type.Intersect([
      Type.Object({ id: Type.Integer(), name: Type.String() }),
      Type.Object({ email: Type.Union([Type.String(), Type.Null()]) })
    ]),
    records: [{ id: 1, name: 'a', email: null }, { id: 2, name: 'b', email: 'b@x' }],
    selections: ['', 'only=email', 'defer=id', 'only=name,email']
  },
  {
    title: 'TypeBox 0.34 Intersect',
    record: Type034.Intersect([
      Type034.Object({ id: Type034.Integer(), name: Type034.String() }),
      Type034.Object({ email: Type034.Union([Type034.String(), Type034.Null()]) })
    ]),
    records: [{ id: 1, name: 'a', email: null }, { id: 2, name: 'b', email: 'b@x' }],
    selections: ['', 'only=email', 'defer=id', 'only=name,email']
  },
  {
    title: 'oneOf with a discriminator: each record keeps the names of its own variant',
    record: { oneOf: [cat, dog], discriminator: { propertyName: 'kind' } },
    records: pets,
    variants: true,
    selections: ['', 'only=kind', 'only=lives', 'only=barks', 'only=owner.city', 'defer=name', 'defer=owner', 'only=name,lives,barks']
  },
  {
    title: 'anyOf of objects without a discriminator',
    record: {
      anyOf: [
        { type: 'object', required: ['a'], properties: { a: { type: 'string' }, shared: { type: 'integer' } } },
        { type: 'object', required: ['b'], properties: { b: { type: 'integer' }, shared: { type: 'string' } } }
      ]
    },
    records: [{ a: 'x', shared: 1, b: 2 }, { b: 3, shared: 'y' }],
    variants: true,
    selections: ['', 'only=shared', 'only=b', 'defer=a', 'only=a,b']
  },
  {
    title: 'TypeBox Union of objects',
    record: Type.Union([Type.Object({ kind: Type.Literal('a'), a: Type.String() }), Type.Object({ kind: Type.Literal('b'), b: Type.Integer() })]),
    records: [{ kind: 'a', a: 'x', b: 1 }, { kind: 'b', b: 2 }],
    variants: true,
    selections: ['', 'only=kind', 'only=b', 'defer=kind']
  },
  {
    title: 'TypeBox 0.34 Union of objects',
    record: Type034.Union([Type034.Object({ kind: Type034.Literal('a'), a: Type034.String() }), Type034.Object({ kind: Type034.Literal('b'), b: Type034.Integer() })]),
    records: [{ kind: 'a', a: 'x', b: 1 }, { kind: 'b', b: 2 }],
    variants: true,
    selections: ['', 'only=kind', 'only=b', 'defer=kind']
  },
  {
    title: 'Zod discriminatedUnion',
    record: z.discriminatedUnion('kind', [ZodCat, ZodDog]),
    records: pets.map(({ secret: _secret, ...pet }) => pet.kind === 'cat' ? { kind: 'cat', name: pet.name, lives: pet.lives } : pet),
    selections: ['', 'only=kind', 'only=lives', 'only=owner.city', 'defer=name'],
    zod: true
  },
  {
    title: 'a nullable record and nullable items (type with null, nullable, anyOf with null)',
    record: { anyOf: [{ type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: 'string' }, friend: { type: 'object', nullable: true, properties: { id: { type: 'integer' } } } } }, { type: 'null' }] },
    records: [null, { id: 1, name: 'a', friend: null }, { id: 2, friend: { id: 1 } }],
    selections: ['', 'only=id', 'defer=name', 'only=friend.id', 'only=']
  },
  {
    title: 'a Zod nullable record',
    record: z.object({ id: z.int(), name: z.string() }).nullable(),
    records: [null, { id: 1, name: 'a' }],
    selections: ['', 'only=id', 'defer=id'],
    zod: true
  },
  {
    title: 'if/then/else: the fields of both branches',
    record: {
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string' }, common: { type: 'integer' } },
      if: { type: 'object', properties: { kind: { const: 'a' } } },
      then: { properties: { x: { type: 'string' } } },
      else: { properties: { y: { type: 'string' } } }
    },
    records: [{ kind: 'a', common: 1, x: 'x', y: 'y' }, { kind: 'b', x: 'x', y: 'y' }],
    variants: true,
    selections: ['', 'defer=kind', 'only=x', 'only=y', 'only=kind,y']
  },
  {
    title: "recursion through $ref: '#' deeper than maxDepth",
    record: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } },
    records: [tree],
    maxDepth: 2,
    rootOnly: true,
    selections: ['', 'only=id,children', 'only=children.id', 'defer=label', 'defer=children.label', 'only=children.children']
  },
  {
    title: 'Zod recursion (z.lazy through a getter), deeper than maxDepth',
    record: ZodNode,
    records: [tree],
    maxDepth: 2,
    selections: ['', 'only=id,children', 'only=children.id', 'defer=label', 'defer=children.label'],
    zod: true
  },
  {
    title: 'TypeBox Cyclic (1.x)',
    record: Type.Cyclic({ Node: Type.Object({ id: Type.Integer(), label: Type.String(), children: Type.Array(Type.Ref('Node')) }) }, 'Node'),
    records: [tree],
    maxDepth: 2,
    selections: ['', 'only=id,children', 'only=children.id', 'defer=label', 'defer=children.label']
  },
  {
    title: 'TypeBox Recursive (0.34), its $id inside the schema',
    record: Type034.Recursive((This) => Type034.Object({ id: Type034.Integer(), label: Type034.String(), children: Type034.Array(This) })),
    records: [tree],
    maxDepth: 2,
    selections: ['', 'only=id,children', 'only=children.id', 'defer=label', 'defer=children.children']
  },
  {
    title: "a fragment id ($ref: '#node' to $id: '#node')",
    record: {
      type: 'object',
      properties: { name: { type: 'string' }, node: { $ref: '#node' } },
      definitions: { node: { $id: '#node', type: 'object', properties: { v: { type: 'integer' }, w: { type: 'integer' }, next: { $ref: '#node' } } } }
    },
    records: [{ name: 'n', node: { v: 1, w: 2, next: { v: 3, w: 4, next: { v: 5, w: 6 } } } }],
    maxDepth: 2,
    selections: ['', 'only=node.v', 'defer=node.w', 'only=node.next', 'defer=name']
  },
  {
    title: 'Zod dates and codecs are leaves written as the route writes them',
    record: z.object({
      id: z.int(),
      createdAt: z.date(),
      updatedAt: z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() }).optional()
    }),
    records: [{ id: 1, createdAt: new Date(0) }, { id: 2, createdAt: new Date(1e12) }],
    selections: ['', 'only=createdAt', 'defer=id'],
    zod: true
  },
  {
    title: 'a Zod codec a handler returns decoded',
    record: z.object({
      id: z.int(),
      at: z.codec(z.iso.datetime(), z.date(), { decode: (text) => new Date(text), encode: (date) => date.toISOString() })
    }),
    records: [{ id: 1, at: new Date(0) }],
    selections: ['', 'only=at', 'defer=at'],
    zod: true
  }
]

const withDefaults = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', default: 'anonymous' },
    profile: {
      type: 'object',
      properties: {
        city: { type: 'string', default: 'Oslo' },
        phone: { type: 'string' },
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, default: { street: 'Main', zip: '0150' } }
      },
      default: { city: 'Nowhere', phone: '555-0100', address: { street: 'Side', zip: '9999' } }
    },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, internal: { type: 'boolean', default: false } } }, default: [{ label: 'new', internal: true }] },
    meta: { type: 'object', additionalProperties: true, default: { source: 'import', note: { text: 'n' } } }
  }
}
const defaultRecords = [{ id: 1 }, { id: 2, profile: { phone: '1' }, tags: [{ label: 'x' }] }, { id: 3, name: 'n', profile: { city: 'Rome', address: { zip: '1' } }, meta: { a: 1 } }]
const defaultSelections = [
  '', 'only=id', 'only=profile.city', 'defer=profile.phone', 'only=profile.address.zip', 'defer=profile.address.street',
  'only=tags.label', 'defer=tags.internal', 'only=meta,name', 'only=profile', 'defer=id,profile.address', 'only='
]

shapes.push(
  {
    title: 'defaults at every level: a leaf, an object, an object inside it, an array of objects and a free-form value',
    record: withDefaults,
    records: defaultRecords,
    selections: defaultSelections
  },
  {
    title: 'TypeBox defaults at every level',
    record: Type.Object({
      id: Type.Integer(),
      name: Type.Optional(Type.String({ default: 'anonymous' })),
      profile: Type.Optional(Type.Object({
        city: Type.Optional(Type.String({ default: 'Oslo' })),
        phone: Type.Optional(Type.String()),
        address: Type.Optional(Type.Object({ street: Type.Optional(Type.String()), zip: Type.Optional(Type.String()) }, { default: { street: 'Main', zip: '0150' } }))
      }, { default: { city: 'Nowhere', phone: '555-0100', address: { street: 'Side', zip: '9999' } } })),
      tags: Type.Optional(Type.Array(Type.Object({ label: Type.String(), internal: Type.Optional(Type.Boolean({ default: false })) }), { default: [{ label: 'new', internal: true }] })),
      meta: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { default: { source: 'import', note: { text: 'n' } } }))
    }),
    records: defaultRecords,
    selections: defaultSelections
  }
)

/** The array and envelope schemas of a shape's records, as its library writes them. */
function schemasOf (shape: Shape): { one: unknown, array: unknown, envelope: unknown } {
  if (shape.zod === true) {
    const record = shape.record as z.ZodType
    return { one: record, array: z.array(record), envelope: z.object({ results: z.array(record), count: z.int() }) }
  }
  // Records declared first: the writer leaves such an envelope to the copy.
  return {
    one: shape.record,
    array: { type: 'array', items: shape.record },
    envelope: { type: 'object', properties: { results: { type: 'array', items: shape.record }, count: { type: 'integer' } } }
  }
}

/** A record the writer leaves to the copy: one with a toJSON method, which both serializers apply. */
function opaque (record: unknown): unknown {
  return record === null ? null : { toJSON: () => record }
}

async function appFor (shape: Shape): Promise<FastifyInstance> {
  const app = Fastify()
  if (shape.zod === true) {
    app.setValidatorCompiler(validatorCompiler)
    app.setSerializerCompiler(serializerCompiler)
  }
  for (const schema of shape.shared ?? []) app.addSchema(schema)
  await app.register(fastifyRestrictedFields, { maxDepth: shape.maxDepth ?? 8 })
  const { one, array, envelope } = schemasOf(shape)
  const page = { results: shape.records, count: shape.records.length }
  const record = (request: { params: unknown }): unknown => shape.records[Number((request.params as { i: string }).i)]
  app.get('/plain-one/:i', { schema: { response: { 200: one } } }, async (request) => record(request))
  app.get('/compiled-one/:i', { restrictFields: true, schema: { response: { 200: one } } }, async (request) => record(request))
  app.get('/written-one/:i', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: one } } }, async (request) => record(request))
  if (shape.zod !== true && shape.variants !== true) {
    app.get('/plain-copied-one/:i', { schema: { response: { 200: one } } }, async (request) => opaque(record(request)))
    app.get('/copied-one/:i', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: one } } }, async (request) => opaque(record(request)))
  }
  if (shape.rootOnly !== true) {
    app.get('/plain', { schema: { response: { 200: array } } }, async () => shape.records)
    app.get('/plain-page', { schema: { response: { 200: envelope } } }, async () => page)
    app.get('/compiled', { restrictFields: true, schema: { response: { 200: array } } }, async () => shape.records)
    app.get('/written', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: array } } }, async () => shape.records)
    app.get('/copied', { restrictFields: { cacheSize: 0 }, schema: { response: { 200: envelope } } }, async () => page)
    app.get('/compiled-page', { restrictFields: true, schema: { response: { 200: envelope } } }, async () => page)
  }
  await app.ready()
  return app
}

/** Asserts that each restricted route sends, for each selection, the reference projection of what `plain` sends. */
async function compare (t: Test, app: FastifyInstance, shape: Shape, plain: string, routes: string[], results: boolean): Promise<void> {
  const unrestricted = await app.inject(plain)
  t.equal(unrestricted.statusCode, 200, `${plain} ${unrestricted.body}`)
  for (const query of shape.selections) {
    const body = unrestricted.json()
    const expected = query === ''
      ? unrestricted.body
      : JSON.stringify(results ? { ...body, results: reference(body.results, query) } : reference(body, query))
    const suffix = query === '' ? '' : `?${query}`
    for (const route of routes) {
      const response = await app.inject(route + suffix)
      t.strictSame([response.statusCode, response.body], [200, expected], `${route}${suffix}`)
    }
  }
}

for (const shape of shapes) {
  test(`${shape.title}: every selection sends the reference projection of the route's own response`, async (t) => {
    const app = await appFor(shape)
    t.teardown(() => app.close())
    for (let i = 0; i < shape.records.length; i++) {
      // The second request of a selection is served by its compiled serializer.
      await compare(t, app, shape, `/plain-one/${i}`, [`/compiled-one/${i}`, `/compiled-one/${i}`, `/written-one/${i}`], false)
      if (shape.zod !== true && shape.variants !== true) await compare(t, app, shape, `/plain-copied-one/${i}`, [`/copied-one/${i}`], false)
    }
    if (shape.rootOnly !== true) {
      await compare(t, app, shape, '/plain', ['/compiled', '/compiled', '/written'], false)
      await compare(t, app, shape, '/plain-page', ['/copied', '/compiled-page', '/compiled-page'], true)
    }
  })
}
