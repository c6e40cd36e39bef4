import { test } from 'tap'
import {
  EVERY_NAME, examplesMapNames, instanceNames, linkReads, patternCouldName, schemaPointerNames, segmentsInSchema, unknownContentNames
} from '../../../lib/openapi/check/naming.js'
import { hiddenTrie } from '../../../lib/hidden-paths.js'

test('a pattern over names names a field it spells or matches, with the u flag or without; one that compiles in neither form names every field', async (t) => {
  const rows: Array<[string, string, boolean]> = [
    ['^ssn$', 'ssn', true],
    ['^s.n$', 'ssn', true],
    ['ssn[', 'ssn', true],
    ['^s\\-?sn$', 'ssn', true],
    ['^[a-z]{2}$', 'ssn', false],
    ['^x', 'ssn', false],
    ['(', 'ssn', true],
    ['[', 'id', true]
  ]
  for (const [pattern, name, expected] of rows) t.equal(patternCouldName(pattern, name), expected, `${pattern} ${name}`)
})

test('a link\'s body pointer is read as written and as a URI fragment (RFC 6901, section 6, as hidden-paths.ts reads it); a malformed one as written', async (t) => {
  const hidden = hiddenTrie(['owner.ssn', 'body'])
  t.equal(linkReads({ parameters: { id: '$response.body#/owner/0/ssn' } }, hidden), true)
  t.equal(linkReads({ parameters: { id: '$response.body#/author_id', q: '$request.query.body' } }, hidden), false, 'an expression\'s own words name no field')
  t.equal(linkReads('{$response.body#/owner%2Fssn}', hidden), true)
})

test('an instance names a hidden path by its keys, not by its strings; below a field hidden whole, any key names one', async (t) => {
  const hidden = hiddenTrie(['ssn', 'profile.phone'])
  t.equal(instanceNames({ ssn: 1 }, hidden), true)
  t.equal(instanceNames('ssn', hidden), false)
  t.equal(instanceNames([{ id: 1 }, { profile: { phone: 1 } }], hidden), true)
  t.equal(instanceNames({ phone: 1 }, hidden), false, 'phone at the top level is another path')
  t.equal(instanceNames({ any: 1 }, EVERY_NAME), true)
  t.equal(instanceNames({}, EVERY_NAME), false)
  t.equal(instanceNames('text', EVERY_NAME), false)
  t.equal(examplesMapNames({ one: { summary: 's', value: { ssn: 1 } } }, hidden), true)
  t.equal(examplesMapNames({}, hidden), false)
  t.equal(examplesMapNames('x', hidden), false)
})

test('content of no known shape names a field of its level as a key or a string, at any depth, or its dotted path', async (t) => {
  const hidden = hiddenTrie(['ssn', 'profile.phone'])
  const rows: Array<[unknown, boolean]> = [
    [['id', 'ssn'], true],
    ['profile.phone', true],
    ['profile', false],
    ['the ssn of the party', false],
    [{ deep: { ssn: 1 } }, true],
    [{ profile: { phone: 1 } }, true],
    [{ profile: { city: 1 } }, false],
    [7, false],
    [null, false]
  ]
  for (const [value, expected] of rows) t.equal(unknownContentNames(value, hidden), expected, JSON.stringify(value))
  t.equal(unknownContentNames({ any: 1 }, EVERY_NAME), true)
  t.equal(unknownContentNames(['any'], EVERY_NAME), false, 'below a field hidden whole, strings are values')
})

test('a pointer into a schema names a property by the segment after properties and the other maps keyed by names, at its level', async (t) => {
  const hidden = hiddenTrie(['ssn', 'owner.pin', 'vault', 'tags.x'])
  const rows: Array<[string, boolean]> = [
    ['properties/ssn', true],
    ['properties/id', false],
    ['properties/owner/properties/pin', true],
    ['properties/owner/items/allOf/0/properties/pin', true],
    ['properties/owner/properties/ssn', false],
    ['properties/owner', false],
    ['properties/id/properties/ssn', false],
    ['dependentSchemas/ssn', true],
    ['dependentSchemas/id/properties/ssn', true],
    ['dependencies/id/0', false],
    ['dependentRequired/vault/0', true],
    ['patternProperties/^ss/type', true],
    ['patternProperties/^own/properties/pin', true],
    ['patternProperties/^(own|tag)/properties/x', true],
    ['patternProperties/^own/properties/city', false],
    ['patternProperties/^z/properties/pin', false],
    ['$defs/properties/properties/id', false],
    ['definitions/x/properties/ssn', true],
    ['additionalProperties/properties/ssn', false],
    ['unevaluatedProperties/properties/vault', false],
    ['properties', false],
    ['', false]
  ]
  for (const [pointer, expected] of rows) t.equal(schemaPointerNames(pointer.split('/'), hidden), expected, pointer)
  t.equal(schemaPointerNames(['properties', 'any'], EVERY_NAME), true)
  t.equal(schemaPointerNames(['patternProperties', '^a'], EVERY_NAME), true)
})

test('a pointer of the document goes inside a schema after a component\'s name, or after the schema of a response', async (t) => {
  const rows: Array<[string[], string[]]> = [
    [['components', 'schemas', 'user', 'properties', 'ssn'], ['properties', 'ssn']],
    [['components', 'schemas', 'user'], []],
    [['paths', '/users', 'get', 'responses', '200', 'content', 'application/json', 'schema', 'items'], ['items']],
    [['components', 'responses', 'user', 'content', 'application/json', 'schema', 'properties', 'a'], ['properties', 'a']],
    [['webhooks', 'user', 'post', 'requestBody', 'content', 'a/b', 'schema'], []],
    [['components', 'examples', 'ssn'], []],
    [['definitions', 'user', 'properties', 'ssn'], ['definitions', 'user', 'properties', 'ssn']],
    [['properties', 'ssn'], ['properties', 'ssn']]
  ]
  for (const [names, expected] of rows) t.strictSame(segmentsInSchema(names), expected, names.join('/'))
})
