import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import { TEST_CHARACTERS_PER_MS } from '../lib/compile.js'
import { variantValidatorMaker } from '../lib/fastify-compiler.js'
import type { VariantValidator } from '../lib/fastify-compiler.js'
import { variantChooserSchema } from '../lib/prune.js'
import { declaredResponse } from '../lib/schema/reader.js'
import type { JsonSchema } from '../lib/schema/tree.js'
import { VariantTester } from '../lib/variant-chooser.js'

const shared: Record<string, JsonSchema> = {
  thing: { $id: 'thing', type: 'object', required: ['x'], properties: { x: { type: 'integer' } } }
}

/** A level of three variants without a tag: the third takes any object whose `c` is an integer, or has none. */
const schema: JsonSchema = {
  type: 'array',
  items: {
    oneOf: [
      { type: 'object', required: ['a'], properties: { a: { type: 'string' }, when: { type: 'string', format: 'date-time' } } },
      { type: 'object', required: ['b'], properties: { b: { $ref: 'thing#' } } },
      { type: 'object', properties: { c: { type: 'integer' } } }
    ]
  }
}

function declared () {
  const response = declaredResponse(schema, 'results', 8, { root: schema, shared, unresolved: () => { throw new Error('unresolved') }, unreadable: () => { throw new Error('unreadable') } })!
  return { response, variants: response.tree.variants! }
}

/** fast-json-stringify's own validator, as the app's Fastify has it. */
async function validatorOf (t: Test): Promise<VariantValidator> {
  const app = Fastify()
  t.teardown(() => app.close())
  app.get('/', { schema: { response: { 200: { type: 'integer' } } } }, async () => 1)
  await app.ready()
  return variantValidatorMaker(app)!()
}

/** Counts what a validator is asked to add and compile. */
function counted (validator: VariantValidator): { validator: VariantValidator, added: string[], compiled: string[] } {
  const added: string[] = []
  const compiled: string[] = []
  return {
    added,
    compiled,
    validator: {
      addSchema: (schema, key) => { added.push(key); validator.addSchema(schema, key) },
      ajv: { getSchema: (key) => { compiled.push(key); return validator.ajv.getSchema(key) } }
    }
  }
}

test('a record\'s variant is the one fast-json-stringify\'s chain of the same tests chooses', async (t) => {
  const { response, variants } = declared()
  const tester = new VariantTester(await validatorOf(t), shared, response.localDefinitions)
  const chooser = tester.chooser(variants.tests, () => null)
  type Schema = Parameters<typeof fastJsonStringify>[0]
  const chain = fastJsonStringify(variantChooserSchema(response, variants) as Schema, { schema: shared as Record<string, Schema> })
  const records: Array<[Record<string, unknown>, number]> = [
    [{ a: 'text' }, 0],
    // fast-json-stringify's own reading: a string may be an object with a toJSON(), as a Date.
    [{ a: new Date(0), when: new Date(0) }, 0],
    [{ a: 1, c: 2 }, 2],
    [{ b: { x: 1 } }, 1],
    [{ b: { x: 'one' } }, 2],
    [{ b: { x: 'one' }, c: 'two' }, -1],
    [{}, 2]
  ]
  for (const [record, index] of records) {
    t.equal(chooser(record), index, JSON.stringify(record))
    t.equal(Number(chain(record)), index, `the chain: ${JSON.stringify(record)}`)
  }
})

test('tests are compiled one at a time, as records need them, and a shared schema once for every level of the route', async (t) => {
  const { response, variants } = declared()
  const { validator, added, compiled } = counted(await validatorOf(t))
  const tester = new VariantTester(validator, shared, response.localDefinitions)
  const chooser = tester.chooser(variants.tests, () => null)
  t.equal(chooser({ a: 'text' }), 0)
  t.equal(compiled.length, 1, 'only the first test')
  t.strictSame(added.filter((key) => key === 'thing'), [], 'the shared schema the second test reaches is not added yet')
  t.equal(chooser({ c: 1 }), 2)
  t.equal(compiled.length, 3)
  t.strictSame(added.filter((key) => key === 'thing'), ['thing'])
  // Another level whose tests reach the same shared schema: it is not added again.
  const other = [{ type: 'object', required: ['thing'], properties: { thing: { $ref: 'thing#' } } }, null]
  t.equal(tester.chooser(other, () => null)({ thing: { x: 1 } }), 0)
  t.equal(tester.chooser(other, () => null)({ thing: {} }), 1, 'a null test takes what no earlier one took')
  t.strictSame(added.filter((key) => key === 'thing'), ['thing'])
})

test('a test that does not compile alone leaves the level to the chooser compiled by the route\'s compiler', async (t) => {
  const { response, variants } = declared()
  const failing: VariantValidator = { addSchema: () => {}, ajv: { getSchema: () => { throw new Error('cannot') } } }
  let asked = 0
  const chooser = new VariantTester(failing, shared, response.localDefinitions).chooser(variants.tests, () => { asked++; return () => 1 })
  t.strictSame([chooser({ a: 'text' }), chooser({ c: 1 })], [1, 1])
  t.equal(asked, 1, 'asked once, then kept')
  const none = new VariantTester(failing, shared, response.localDefinitions).chooser(variants.tests, () => null)
  t.strictSame([none({ a: 'text' }), none({ a: 'text' })], [-1, -1], 'a record is of no variant when neither can tell')
})

test('testsCost: the tests not compiled yet and the shared schemas they reach that are not compiled yet, each once', async (t) => {
  const { response, variants } = declared()
  const tester = new VariantTester(await validatorOf(t), shared, response.localDefinitions)
  const text = variants.tests.reduce((sum, test) => sum + JSON.stringify(test).length, 0)
  t.equal(tester.testsCost(variants.tests), (text + JSON.stringify(shared.thing).length) / TEST_CHARACTERS_PER_MS)
  const other = [{ type: 'object', properties: { one: { $ref: 'thing#' }, two: { $ref: 'thing#' } } }, null]
  t.equal(tester.testsCost(other), (JSON.stringify(other[0]).length + JSON.stringify(shared.thing).length) / TEST_CHARACTERS_PER_MS)
  tester.prepare(variants.tests)
  t.equal(tester.testsCost(variants.tests), 0, 'nothing left once prepared')
  t.equal(tester.testsCost(other), JSON.stringify(other[0]).length / TEST_CHARACTERS_PER_MS, 'the shared schema is compiled already')
  t.equal(tester.chooser(variants.tests, () => null)({ b: { x: 1 } }), 1)
})
