import { test } from 'tap'
import { withRestrictionParameters } from '../lib/querystring.js'

const paths = ['id', 'name']
const only = {
  type: 'array',
  items: { type: 'string', enum: paths },
  description: 'Keep only these fields in every returned object. Repeat the parameter (only=a&only=b), separate names with commas (only=a,b) or use only[]=a; dotted paths reach nested fields.'
}
const defer = {
  type: 'array',
  items: { type: 'string', enum: paths },
  description: 'Remove these fields from every returned object, after only; same forms as only.'
}

test('withRestrictionParameters adds only and defer, keeping the route\'s own parameters', async (t) => {
  t.same(withRestrictionParameters(undefined, 'only', 'defer', paths), { type: 'object', properties: { only, defer } })
  const own = { type: 'object', properties: { page: { type: 'integer' }, only: { type: 'string' } }, additionalProperties: false, required: ['page'] }
  t.same(withRestrictionParameters(own, 'only', 'defer', paths), {
    type: 'object',
    properties: { only: { type: 'string' }, defer, page: { type: 'integer' } },
    additionalProperties: false,
    required: ['page']
  }, 'a parameter the route declares itself wins')
  t.same(withRestrictionParameters({ properties: { q: {} } }, 'fields', 'omit', paths)?.properties.fields.description,
    'Keep only these fields in every returned object. Repeat the parameter (fields=a&fields=b), separate names with commas (fields=a,b) or use fields[]=a; dotted paths reach nested fields.')
})

test('withRestrictionParameters leaves a schema it cannot extend safely as it is', async (t) => {
  for (const schema of [{ $ref: 'q#' }, { anyOf: [] }, { oneOf: [] }, { allOf: [] }]) {
    t.equal(withRestrictionParameters(schema, 'only', 'defer', paths), schema, JSON.stringify(schema))
  }
})
