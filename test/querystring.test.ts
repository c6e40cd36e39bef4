import { test } from 'tap'
import { deferDescription, onlyDescription, withRestrictionParameters } from '../lib/querystring.js'

const paths = ['id', 'name']
const only = {
  type: 'array',
  items: { type: 'string', enum: paths },
  description: 'Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b).'
}
const defer = {
  type: 'array',
  items: { type: 'string', enum: paths },
  description: 'Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too.'
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
  t.same(withRestrictionParameters({ properties: { q: {} } }, 'fields', 'omit', paths)?.properties.omit.description,
    deferDescription('fields', 'omit'), 'the descriptions use the configured names')
})

test('the descriptions name the repeated form first, then the comma and bracket forms, with the configured names', async (t) => {
  t.equal(onlyDescription('fields'),
    'Keep only these fields in every returned object. Repeat the parameter for several fields (fields=a&fields=b); a comma-separated list (fields=a,b) and fields[]=a are accepted too. Dotted paths reach nested fields (a.b).')
  t.equal(deferDescription('fields', 'omit'),
    'Remove these fields from every returned object, after fields. Repeat the parameter for several fields (omit=a&omit=b); a comma-separated list (omit=a,b) and omit[]=a are accepted too.')
})

test('withRestrictionParameters leaves a schema it cannot extend safely as it is', async (t) => {
  for (const schema of [{ $ref: 'q#' }, { anyOf: [] }, { oneOf: [] }, { allOf: [] }]) {
    t.equal(withRestrictionParameters(schema, 'only', 'defer', paths), schema, JSON.stringify(schema))
  }
})
