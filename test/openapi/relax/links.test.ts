import { test } from 'tap'
import { hiddenTrie } from '../../../lib/hidden-paths.js'
import { relaxLinks } from '../../../lib/openapi/relax/links.js'
import type { Json, RecordsShape } from '../../../lib/openapi/types.js'

const hidden = hiddenTrie(['secret', 'owner.ssn', 'a/b'])
const link = (expression: unknown): Json => ({ operationId: 'next', parameters: { value: expression } })

test('a link that reads a hidden path of the body goes, wherever the records sit; links goes when none is left', async (t) => {
  const rows: Array<[string, unknown, RecordsShape, boolean]> = [
    ['a hidden field', '$response.body#/secret', { kind: 'object' }, false],
    ['a visible field', '$response.body#/id', { kind: 'object' }, true],
    ['a hidden path below a field', '$response.body#/owner/ssn', { kind: 'object' }, false],
    ['a visible path beside it', '$response.body#/owner/city', { kind: 'object' }, true],
    ['the field itself, whose hidden paths are below', '$response.body#/owner', { kind: 'object' }, true],
    ['an item of an array of records', '$response.body#/0/secret', { kind: 'array' }, false],
    ['a name with an escaped slash', '$response.body#/a~1b', { kind: 'object' }, false],
    ['a percent-encoded name', '$response.body#/s%65cret', { kind: 'object' }, false],
    ['a percent-encoded slash, which separates two names once decoded', '$response.body#/owner%2Fssn', { kind: 'object' }, false],
    ['a percent-encoded tilde, then a pointer escape', '$response.body#/a%7E1b', { kind: 'object' }, false],
    ['malformed percent-encoding, read as it stands', '$response.body#/secret%', { kind: 'object' }, true],
    ['the end of an array', '$response.body#/-/secret', { kind: 'array' }, false],
    ['an envelope\'s records', '$response.body#/results/2/owner/ssn', { kind: 'envelope', key: 'results' }, false],
    ['an envelope\'s own field of the same name', '$response.body#/secret', { kind: 'envelope', key: 'results' }, true],
    ['records found at run time, as the payload', '$response.body#/secret', { kind: 'auto', key: 'results' }, false],
    ['records found at run time, in an envelope', '$response.body#/results/secret', { kind: 'auto', key: 'results' }, false],
    ['an expression inside a string', 'id={$response.body#/secret}&x=1', { kind: 'object' }, false],
    ['in an object of a request body', { filter: ['$response.body#/owner/ssn'] }, { kind: 'object' }, false],
    ['in a key', { '$response.body#/secret': 1 }, { kind: 'object' }, false],
    ['the whole body', '$response.body', { kind: 'object' }, true],
    ['a header', '$response.header.secret', { kind: 'object' }, true],
    ['the request', '$request.body#/secret', { kind: 'object' }, true],
    ['no expression', 7, { kind: 'object' }, true]
  ]
  for (const [title, expression, shape, kept] of rows) {
    const response: Json = { description: 'd', links: { self: link('$response.body#/id'), next: link(expression) } }
    relaxLinks(response, shape, hidden)
    t.strictSame(Object.keys(response.links), kept ? ['self', 'next'] : ['self'], title)
  }
  const alone: Json = { description: 'd', links: { next: link('$response.body#/secret') } }
  relaxLinks(alone, { kind: 'object' }, hidden)
  t.strictSame(alone, { description: 'd' }, 'links goes when no link is left')
  const none: Json = { description: 'd' }
  relaxLinks(none, { kind: 'object' }, hidden)
  t.strictSame(none, { description: 'd' }, 'a response without links is left as it is')
})
