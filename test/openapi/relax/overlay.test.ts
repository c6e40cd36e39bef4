import { test } from 'tap'
import { overlay } from '../../../lib/openapi/relax/overlay.js'
import type { Json } from '../../../lib/openapi/types.js'

const RELAXED = '#/components/schemas/userRestricted'
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

test('a complete schema is written as what it adds to its relaxed form, or whole where what differs reads its siblings', async (t) => {
  const table: Array<{ title: string, complete: Json, relaxed: Json, expected: Json | 'whole' }> = [
    {
      title: 'its required names and the fields whose complete forms differ; the title and note are the twin\'s',
      complete: { type: 'object', title: 'User', description: 'A user.', properties: { id: { type: 'integer' }, owner: ref('owner') }, required: ['id'] },
      relaxed: { type: 'object', title: 'UserRestricted', description: 'A user. Relaxed.', properties: { id: { type: 'integer' }, owner: ref('ownerRestricted') } },
      expected: { properties: { owner: ref('owner') }, required: ['id'], allOf: [{ $ref: RELAXED }] }
    },
    {
      title: 'nothing added: the relaxed form itself',
      complete: { type: 'object', properties: { id: { type: 'integer' } } },
      relaxed: { type: 'object', properties: { id: { type: 'integer' } }, description: 'Relaxed.' },
      expected: { $ref: RELAXED }
    },
    {
      title: 'its own allOf after the relaxed form, a oneOf beside the anyOf it became',
      complete: { allOf: [ref('base')], oneOf: [ref('a'), ref('b')] },
      relaxed: { allOf: [ref('baseRestricted')], anyOf: [ref('aRestricted'), ref('bRestricted')] },
      expected: { allOf: [{ $ref: RELAXED }, ref('base')], oneOf: [ref('a'), ref('b')] }
    },
    {
      title: 'a condition\'s branch with its condition',
      complete: { if: { properties: { kind: { const: 'a' } } }, then: { required: ['a'] } },
      relaxed: { if: { properties: { kind: { const: 'a' } } } },
      expected: { if: { properties: { kind: { const: 'a' } } }, then: { required: ['a'] }, allOf: [{ $ref: RELAXED }] }
    },
    {
      title: 'a branch without a condition stays as it is',
      complete: { then: { required: ['a'] } },
      relaxed: {},
      expected: { then: { required: ['a'] }, allOf: [{ $ref: RELAXED }] }
    },
    {
      title: 'items of their own',
      complete: { type: 'array', items: ref('user') },
      relaxed: { type: 'array', items: ref('userRestricted') },
      expected: { items: ref('user'), allOf: [{ $ref: RELAXED }] }
    },
    {
      title: 'additionalProperties, which reads its level\'s properties',
      complete: { type: 'object', properties: { id: {} }, additionalProperties: false },
      relaxed: { type: 'object', properties: { id: {} } },
      expected: 'whole'
    },
    {
      title: 'items after prefixItems',
      complete: { prefixItems: [{}], items: ref('user') },
      relaxed: { prefixItems: [{}], items: ref('userRestricted') },
      expected: 'whole'
    },
    {
      title: 'a list of items',
      complete: { items: [ref('user')] },
      relaxed: { items: [ref('userRestricted')] },
      expected: 'whole'
    },
    {
      title: 'a discriminator, which reads its level\'s alternatives',
      complete: { oneOf: [ref('a')], discriminator: { propertyName: 'kind' } },
      relaxed: { anyOf: [ref('aRestricted')] },
      expected: 'whole'
    },
    {
      title: 'a $ref, whose siblings OpenAPI 3.0 ignores',
      complete: ref('user'),
      relaxed: ref('userRestricted'),
      expected: 'whole'
    }
  ]
  for (const { title, complete, relaxed, expected } of table) {
    const result = overlay(complete, relaxed, RELAXED)
    if (expected === 'whole') t.equal(result, complete, title)
    else t.strictSame(result, expected, title)
  }
})
