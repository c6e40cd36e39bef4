import { test } from 'tap'
import type { JsonSchema } from '../lib/schema/tree.js'
import { variantTag } from '../lib/schema/variant-tests.js'
import { declaredResponse } from '../lib/schema/reader.js'
import { pruneSchema, pruneSharedVariants, variantChooserSchema } from '../lib/prune.js'
import { parseSelection } from '../lib/selection.js'
import { context, rulesWith, userSchema } from './fixtures.js'

const rules = rulesWith()

function prune (schema: JsonSchema, query: Record<string, unknown>, defaults = true, shared: Record<string, JsonSchema> = {}): JsonSchema {
  const declared = declaredResponse(schema, 'results', 8, context(shared, schema))!
  const selection = parseSelection(query, declared.tree, rules)!
  return pruneSchema(declared, selection.projection, { defaults, variants: 'choose' })
}

const closed = (properties: JsonSchema): JsonSchema => ({ type: 'object', properties, additionalProperties: false })

test('pruneSchema keeps the projected properties, closed, without required', async (t) => {
  t.strictSame(prune(userSchema, { only: 'name,id' }), closed({ id: { type: 'integer' }, name: { type: 'string' } }))
})

test('pruneSchema keeps defaults of kept fields unless told not to', async (t) => {
  t.strictSame(prune(userSchema, { only: 'role' }), closed({ role: { type: 'string', default: 'member' } }))
  t.strictSame(prune(userSchema, { only: 'role' }, false), closed({ role: { type: 'string' } }))
})

test('pruneSchema rebuilds nested objects and arrays from their declared fields', async (t) => {
  t.strictSame(prune(userSchema, { only: 'profile,tags.label' }), closed({
    profile: { ...closed({ city: { type: 'string' }, phone: { type: 'string' } }), nullable: true },
    tags: { type: 'array', items: closed({ label: { type: 'string' } }) }
  }))
})

test('pruneSchema keeps nested object defaults', async (t) => {
  const schema = { type: 'object', properties: { p: { type: 'object', default: {}, properties: { a: { type: 'string' } } } } }
  t.strictSame(prune(schema, { only: 'p' }), closed({ p: { ...closed({ a: { type: 'string' } }), default: {} } }))
  t.strictSame(prune(schema, { only: 'p' }, false), closed({ p: closed({ a: { type: 'string' } }) }))
})

test('pruneSchema drops patternProperties and additionalProperties of the original', async (t) => {
  const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, patternProperties: { '^x': { type: 'string' } }, additionalProperties: true }
  t.strictSame(prune(schema, { only: 'a' }), closed({ a: { type: 'string' } }))
})

test('pruneSchema wraps arrays and envelopes the way the route declared them', async (t) => {
  t.strictSame(prune({ type: 'array', items: userSchema }, { only: 'id' }), { type: 'array', items: closed({ id: { type: 'integer' } }) })
  const envelope = {
    $id: 'page',
    type: 'object',
    required: ['count', 'results'],
    properties: { count: { type: 'integer' }, results: { type: 'array', items: userSchema } }
  }
  t.strictSame(prune(envelope, { only: 'id' }), {
    type: 'object',
    required: ['count', 'results'],
    properties: { count: { type: 'integer' }, results: { type: 'array', items: closed({ id: { type: 'integer' } }) } }
  }, 'the envelope keeps its keys and loses its $id')
})

test('pruneSchema carries the route schema definitions that leaf refs point into', async (t) => {
  const schema = { type: 'object', properties: { a: { $ref: '#/definitions/s' }, b: {} }, definitions: { s: { type: 'string' } } }
  t.strictSame(prune(schema, { only: 'a' }), { definitions: schema.definitions, ...closed({ a: { $ref: '#/definitions/s' } }) })
})

test('pruneSchema keeps a field named __proto__ as a property', async (t) => {
  const schema = { type: 'object', properties: JSON.parse('{"__proto__": {"type": "string"}, "b": {}}') }
  const pruned = prune(schema, { only: '__proto__' })
  t.strictSame(Object.keys(pruned.properties), ['__proto__'])
})

test('pruneSharedVariants: one schema for tagged variants that keep the same fields, their tag written as a string', async (t) => {
  const variant = (kind: JsonSchema, extra: JsonSchema): JsonSchema => ({ type: 'object', required: ['kind'], properties: { kind, id: { type: 'integer' }, ...extra } })
  const pets = { oneOf: [variant({ const: 'cat' }, { lives: { type: 'integer' } }), variant({ type: 'string', const: 'dog' }, { barks: { type: 'boolean' } })] }
  const shared = (schema: JsonSchema, only: string): JsonSchema | null => {
    const declared = declaredResponse(schema, 'results', 8, context({}, schema))!
    const tag = variantTag(declared.tree.variants!)!
    return pruneSharedVariants(declared, parseSelection({ only }, declared.tree, rules)!.projection, tag)
  }
  const cases: Array<[string, JsonSchema, string, JsonSchema | null]> = [
    ['fields every variant keeps alike', pets, 'id', closed({ id: { type: 'integer' } })],
    ['the tag, a constant in each', pets, 'kind,id', closed({ kind: { type: 'string' }, id: { type: 'integer' } })],
    ['a field one variant has', pets, 'id,lives', null],
    ['records in an array', { type: 'array', items: pets }, 'id', { type: 'array', items: closed({ id: { type: 'integer' } }) }],
    ['nullable records', { type: 'array', items: { anyOf: [...pets.oneOf, { type: 'null' }] } }, 'id', { type: 'array', items: { ...closed({ id: { type: 'integer' } }), nullable: true } }],
    ['records in an envelope', { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: pets } } }, 'id', {
      type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: closed({ id: { type: 'integer' } }) } }
    }],
    ['a tag declared otherwise in one variant', { oneOf: [variant({ const: 'cat' }, {}), variant({ enum: ['dog'] }, {})] }, 'kind', null],
    ['a tag that is no string', { oneOf: [variant({ const: 1 }, {}), variant({ const: 2 }, {})] }, 'kind', null]
  ]
  for (const [title, schema, only, expected] of cases) t.strictSame(shared(schema, only), expected, title)
  const declared = declaredResponse(userSchema, 'results', 8, context({}, userSchema))!
  t.equal(pruneSharedVariants(declared, parseSelection({ only: 'id' }, declared.tree, rules)!.projection, { name: 'kind', values: ['a'] }), null, 'records without variants')
})

test('variantChooserSchema ends the chain of an if/then/else level with its else, which has no test of its own', async (t) => {
  const schema: JsonSchema = {
    type: 'object',
    properties: { kind: { type: 'string' } },
    if: { properties: { kind: { const: 'a' } } },
    then: { properties: { a: { type: 'string' } } },
    else: { properties: { b: { type: 'string' } } }
  }
  const declared = declaredResponse(schema, 'results', 8, context({}, schema))!
  t.strictSame(variantChooserSchema(declared, declared.tree.variants!), {
    if: { anyOf: [{ not: { type: 'object' } }, { properties: { kind: { const: 'a' } }, type: 'object' }] },
    then: { const: 0 },
    else: { const: 1 }
  })
})
