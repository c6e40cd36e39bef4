import { test } from 'tap'
import { z } from 'zod'
import { Type } from 'typebox'
import { foreignSchema, isStandardSchema, standardOutputSchema, usesStandardSchemas } from '../lib/standard-schema.js'

const zodUser = z.object({ id: z.int(), name: z.string().optional() })

test('isStandardSchema tells Standard Schemas from JSON Schema objects', async (t) => {
  const rows: Array<[unknown, boolean]> = [
    [zodUser, true],
    [Object.assign(() => {}, { '~standard': { validate: () => ({ value: 1 }) } }), true],
    [{ type: 'object' }, false],
    [Type.Object({ id: Type.Integer() }), false],
    [{ '~standard': null }, false],
    [{ '~standard': { validate: 'no' } }, false],
    [null, false],
    ['string', false]
  ]
  for (const [schema, expected] of rows) t.equal(isStandardSchema(schema), expected, String(schema))
})

test('standardOutputSchema gives draft-07 JSON Schema of the output, or says what is wrong', async (t) => {
  t.strictSame(standardOutputSchema(zodUser as never), {
    type: 'object',
    properties: { id: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, name: { type: 'string' } },
    required: ['id'],
    additionalProperties: false
  })
  t.strictSame(standardOutputSchema(z.object({ at: z.date() }) as never), { type: 'object', properties: { at: {} }, required: ['at'], additionalProperties: false }, 'a date is a leaf that allows any value')
  const throwing = { '~standard': { vendor: 'x', validate: () => ({ value: 1 }), jsonSchema: { output: () => { throw new Error('no') } } } }
  t.equal(standardOutputSchema(throwing), "a Standard Schema from 'x' whose JSON Schema cannot be generated (no)")
  t.equal(standardOutputSchema({ '~standard': { vendor: 'arktype', validate: () => ({ value: 1 }) } }), "a Standard Schema from 'arktype' that does not implement Standard JSON Schema (~standard.jsonSchema)")
})

test('foreignSchema names class instances and accepts plain objects', async (t) => {
  class Joi {}
  t.equal(foreignSchema(new Joi()), 'an instance of Joi, not a JSON Schema object')
  t.equal(foreignSchema({ type: 'object' }), null)
  t.equal(foreignSchema(Object.create(null)), null)
  t.equal(foreignSchema(Type.String()), null, 'TypeBox schemas are plain objects')
})

test('usesStandardSchemas looks at every part of a route schema', async (t) => {
  const rows: Array<[Record<string, unknown> | undefined, boolean]> = [
    [undefined, false],
    [{}, false],
    [{ querystring: { type: 'object' }, response: { 200: { type: 'object' } } }, false],
    [{ response: null }, false],
    [{ querystring: zodUser }, true],
    [{ body: zodUser }, true],
    [{ params: zodUser }, true],
    [{ headers: zodUser }, true],
    [{ response: { 200: zodUser } }, true],
    [{ response: { 200: { content: { 'application/json': { schema: zodUser } } } } }, true]
  ]
  for (const [schema, expected] of rows) t.equal(usesStandardSchemas(schema), expected, JSON.stringify(Object.keys(schema ?? {})))
})
