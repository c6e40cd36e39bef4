import { test } from 'tap'
import type { JsonSchema } from '../../lib/schema/tree.js'
import { declaredResponse } from '../../lib/schema/reader.js'
import { declaredPaths } from '../../lib/schema/paths.js'
import { context, tagSchema, treeOf, userSchema } from '../fixtures.js'

const shared: Record<string, JsonSchema> = {
  tag: { $id: 'tag', ...tagSchema },
  user: {
    $id: 'user',
    type: 'object',
    properties: { id: { type: 'integer' }, home: { $ref: '#/definitions/address' }, since: { $ref: '#/definitions/date' } },
    definitions: { address: { type: 'object', properties: { city: { type: 'string' } } }, date: { type: 'string', format: 'date' } }
  },
  node: { $id: 'node', type: 'object', properties: { name: { type: 'string' }, child: { $ref: 'node#' } } }
}

const cases: Array<{ title: string, schema: JsonSchema, paths: string[], maxDepth?: number }> = [
  {
    title: 'an object schema declares its properties at every depth, in declared order',
    schema: userSchema,
    paths: ['id', 'name', 'email', 'role', 'profile', 'profile.city', 'profile.phone', 'tags', 'tags.id', 'tags.label']
  },
  {
    title: 'an array schema declares the fields of its items',
    schema: { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } },
    paths: ['a']
  },
  {
    title: 'an envelope declares the fields of its results, not its own keys',
    schema: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: 'tag#' } } } },
    paths: ['id', 'label']
  },
  {
    title: 'a results key that is not an array of objects is an ordinary field',
    schema: { type: 'object', properties: { results: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } } },
    paths: ['results', 'n']
  },
  {
    title: 'a $ref to a shared schema, and relative refs inside it, are followed',
    schema: { $ref: 'user#' },
    paths: ['id', 'home', 'home.city', 'since']
  },
  {
    title: 'anyOf and oneOf with null unwrap to the object they allow',
    schema: {
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'null' }, { type: 'object', properties: { x: { type: 'string' } } }] },
        b: { oneOf: [{ type: 'object', properties: { y: { type: 'string' } } }, { type: 'null' }] },
        c: { anyOf: [{ type: 'string' }, { type: 'integer' }] }
      }
    },
    paths: ['a', 'a.x', 'b', 'b.y', 'c']
  },
  {
    title: 'a local $ref into definitions of the route schema is followed',
    schema: { type: 'object', properties: { t: { type: 'array', items: { $ref: '#/definitions/t' } } }, definitions: { t: tagSchema } },
    paths: ['t', 't.id', 't.label']
  },
  {
    title: 'a recursive schema is read down to maxDepth only',
    schema: { $ref: 'node#' },
    paths: ['name', 'child', 'child.name', 'child.child'],
    maxDepth: 2
  },
  {
    title: 'properties that are not schemas are skipped',
    schema: { type: 'object', properties: { a: true, b: { type: 'string' } } },
    paths: ['b']
  }
]

test('declaredResponse reads the declared paths of a schema', async (t) => {
  for (const { title, schema, paths, maxDepth } of cases) {
    t.strictSame(declaredPaths(treeOf(schema, shared, maxDepth)), paths, title)
  }
})

test('declaredResponse reports where the records sit', async (t) => {
  const shapeOf = (schema: JsonSchema): unknown => declaredResponse(schema, 'items', 8, context({}, schema))?.shape
  t.strictSame(shapeOf({ type: 'object', properties: { a: {} } }), { kind: 'object' })
  t.strictSame(shapeOf({ type: 'array', items: tagSchema }), { kind: 'array' })
  t.strictSame(shapeOf({ type: 'object', properties: { items: { type: 'array', items: tagSchema } } }), { kind: 'envelope', key: 'items' })
})

test('declaredResponse returns null for a schema without object fields', async (t) => {
  for (const schema of [{ type: 'string' }, { type: 'array', items: { type: 'integer' } }, { type: 'array', items: [tagSchema] }, { type: 'array' }]) {
    t.equal(declaredResponse(schema, 'results', 8, context({}, schema)), null, JSON.stringify(schema))
  }
})

test('declaredResponse keeps the local definitions of the route schema for leaf refs', async (t) => {
  const schema = { type: 'object', properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } }, definitions: { n: { type: 'number' } } }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))
  t.strictSame(declared?.localDefinitions, { $defs: schema.$defs, definitions: schema.definitions })
})

test('declaredResponse reads field details: nullable, defaults, absolute leaf refs', async (t) => {
  const tree = treeOf({ $ref: 'user#' }, shared)
  const since = tree.byName.get('since')
  t.strictSame(since?.schema, { $ref: 'user#/definitions/date' }, 'a relative ref inside a shared schema becomes absolute')
  const local = treeOf({ type: 'object', properties: { s: { $ref: '#/definitions/s' } }, definitions: { s: { type: 'string', default: 'x' } } })
  const s = local.byName.get('s')
  t.strictSame([s?.schema, s?.hasDefault, s?.defaultValue], [{ $ref: '#/definitions/s' }, true, 'x'], 'a default behind a ref is found, the ref stays relative in the route schema')
  const users = treeOf(userSchema)
  t.strictSame(['email', 'role', 'profile', 'tags'].map((name) => [users.byName.get(name)?.nullable, users.byName.get(name)?.hasDefault]),
    [[true, false], [false, true], [true, false], [false, false]])
  t.equal(users.byName.get('tags')?.isArray, true)
})

test('declaredResponse merges an envelope declared by several members, a key declared twice included', async (t) => {
  const schema = {
    allOf: [
      { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
      { type: 'object', properties: { count: { minimum: 0 }, results: { type: 'array', items: tagSchema } } }
    ]
  }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))
  t.strictSame(declared?.envelope, {
    type: 'object',
    properties: { count: { allOf: [{ type: 'integer' }, { minimum: 0 }] }, results: { type: 'array', items: tagSchema } },
    required: ['count']
  })
})
