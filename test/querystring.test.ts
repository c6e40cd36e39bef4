import { test } from 'tap'
import { deferDescription, onlyDescription, withRestrictionParameters } from '../lib/querystring.js'

const paths = ['id', 'name']
const only = {
  type: 'array',
  items: { type: 'string', enum: [...paths, '*'] },
  description: 'Keep only these fields in every returned object. Repeat the parameter for several fields (only=a&only=b); a comma-separated list (only=a,b) and only[]=a are accepted too. Dotted paths reach nested fields (a.b). only=* keeps every field.'
}
const defer = {
  type: 'array',
  items: { type: 'string', enum: paths },
  description: 'Remove these fields from every returned object, after only. Repeat the parameter for several fields (defer=a&defer=b); a comma-separated list (defer=a,b) and defer[]=a are accepted too. It takes field names only: `*` and the field sets are for only.'
}

test('withRestrictionParameters adds only and defer, keeping the route\'s own parameters', async (t) => {
  t.strictSame(withRestrictionParameters(undefined, 'only', 'defer', paths), { type: 'object', properties: { only, defer } })
  const own = { type: 'object', properties: { page: { type: 'integer' }, only: { type: 'string' } }, additionalProperties: false, required: ['page'] }
  t.strictSame(withRestrictionParameters(own, 'only', 'defer', paths), {
    type: 'object',
    properties: { only: { type: 'string' }, defer, page: { type: 'integer' } },
    additionalProperties: false,
    required: ['page']
  }, 'a parameter the route declares itself wins')
  t.strictSame(withRestrictionParameters({ properties: { q: {} } }, 'fields', 'omit', paths)?.properties.omit.description,
    deferDescription('fields', 'omit'), 'the descriptions use the configured names')
})

test('the descriptions name the repeated form first, then the comma and bracket forms, with the configured names', async (t) => {
  t.equal(onlyDescription('fields'),
    'Keep only these fields in every returned object. Repeat the parameter for several fields (fields=a&fields=b); a comma-separated list (fields=a,b) and fields[]=a are accepted too. Dotted paths reach nested fields (a.b). fields=* keeps every field.')
  t.equal(deferDescription('fields', 'omit'),
    'Remove these fields from every returned object, after fields. Repeat the parameter for several fields (omit=a&omit=b); a comma-separated list (omit=a,b) and omit[]=a are accepted too. It takes field names only: `*` and the field sets are for fields.')
})

test('withRestrictionParameters leaves a schema it cannot extend safely as it is', async (t) => {
  for (const schema of [{ $ref: 'q#' }, { anyOf: [] }, { oneOf: [] }, { allOf: [] }]) {
    t.equal(withRestrictionParameters(schema, 'only', 'defer', paths), schema, JSON.stringify(schema))
  }
})

test('only also accepts *, @default where the route has default fields, and each preset, whose fields its description lists', async (t) => {
  const sets = { defaultFields: ['id', 'profile.city'], fieldSets: { summary: ['id', 'name'], contact: ['email'] } }
  const schema = withRestrictionParameters(undefined, 'only', 'defer', ['id', 'name', 'email', 'profile', 'profile.city'], sets)
  t.strictSame(schema?.properties.only.items.enum, ['id', 'name', 'email', 'profile', 'profile.city', '*', '@default', '@summary', '@contact'])
  t.strictSame(schema?.properties.defer.items.enum, ['id', 'name', 'email', 'profile', 'profile.city'], 'defer takes names only')
  t.equal(schema?.properties.only.description, onlyDescription('only').replace(' only=* keeps every field.', '') +
    ' Field sets mix with names (only=@name,a): * is every field; @default, sent without only, is id, profile.city; @summary is id, name; @contact is email.')
  t.equal(onlyDescription('only', { fieldSets: { summary: ['id', 'email'] } }, (path) => path !== 'email'),
    onlyDescription('only').replace(' only=* keeps every field.', '') + ' Field sets mix with names (only=@name,a): * is every field; @summary is id.', 'hidden fields are left out')
})
