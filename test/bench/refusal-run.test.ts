import { test } from 'tap'
import { describes } from '../../bench/refusal-run.js'

test('a response schema describes a dotted path through references, compositions and items, and no other', async (t) => {
  const document = {
    components: {
      schemas: {
        owner: { type: 'object', properties: { ssn: { type: 'string' }, self: { $ref: '#/components/schemas/owner' } } },
        'a/b': { type: 'object', properties: { tilde: { type: 'string' } } }
      }
    }
  }
  const schema = {
    type: 'array',
    items: {
      allOf: [{ type: 'object', properties: { owner: { $ref: '#/components/schemas/owner' } } }],
      oneOf: [{ type: 'object', properties: { slashed: { $ref: '#/components/schemas/a~1b' } } }],
      properties: { id: { type: 'integer' }, open: true }
    }
  }
  const cases: Array<[string, boolean]> = [
    ['id', true],
    ['owner', true],
    ['owner.ssn', true],
    ['owner.self.ssn', true],
    ['slashed.tilde', true],
    ['name', false],
    ['owner.name', false],
    ['id.more', false],
    ['open.any', false]
  ]
  for (const [path, expected] of cases) t.equal(describes(document, schema, path), expected, path)
})
