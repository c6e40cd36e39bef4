import { test } from 'tap'
import { hiddenTrie } from '../../../lib/hidden-paths.js'
import { Components } from '../../../lib/openapi/components.js'
import { Relaxation } from '../../../lib/openapi/relax/relaxation.js'
import type { Json } from '../../../lib/openapi/types.js'

test('beside a field hidden whole, the schema of undeclared names refers to a twin of its component with its types alone, and to another document as it is', async (t) => {
  const document: Json = { openapi: '3.1.0', components: { schemas: { vault: { type: 'object', properties: { pin: { type: 'string' } }, default: { pin: '1' } } } } }
  const components = new Components(document, '3')
  const relaxation = new Relaxation(components)
  const schema = {
    type: 'object',
    properties: { id: { type: 'integer' }, vault: { $ref: '#/components/schemas/vault' } },
    additionalProperties: { anyOf: [{ $ref: '#/components/schemas/vault' }, { $ref: 'other.json#/vault' }] }
  }
  t.strictSame(relaxation.relaxRecords(schema, 0, hiddenTrie(['vault'])), {
    type: 'object',
    properties: { id: { type: 'integer' } },
    additionalProperties: { anyOf: [{ $ref: '#/components/schemas/vaultRestricted' }, { $ref: 'other.json#/vault' }] }
  })
  t.strictSame(components.schemas.vaultRestricted, { type: 'object', description: 'As this caller is sent it where it may describe a field hidden from it: its type alone.' })
  t.strictSame(components.schemas.vault, { type: 'object', properties: { pin: { type: 'string' } }, default: { pin: '1' } }, 'the original stays as it is')
})
