import { test } from 'tap'
import { hiddenTrie } from '../../../lib/hidden-paths.js'
import { LEAVE_OUT, relaxedKeyword, relaxedPatterns } from '../../../lib/openapi/relax/keywords.js'
import type { LevelMaps } from '../../../lib/openapi/relax/keywords.js'
import type { Json } from '../../../lib/openapi/types.js'
import type { PathTrie } from '../../../lib/hidden-paths.js'

const hidden = hiddenTrie(['ssn', 'owner.ssn'])
/** Maps that mark what they were given, so that a row shows which map a keyword used. */
const maps: LevelMaps = {
  sameLevel: (schema) => ({ same: schema }),
  below: (schema, below: PathTrie) => ({ below: [...below.children.keys()], schema }),
  reference: (ref) => `${ref}Visible`,
  names: (schema) => JSON.stringify(schema ?? null).includes('ssn'),
  resolve: (ref) => ref === '#/names' ? { enum: ['ssn'] } : undefined,
  contentsRef: (ref) => `${ref}Contentless`
}

const table: Array<{ keyword: string, value: unknown, level?: Json, hidden?: string[], expected: unknown }> = [
  { keyword: 'required', value: ['id', 'ssn'], expected: ['id'] },
  { keyword: 'required', value: ['ssn'], expected: LEAVE_OUT },
  { keyword: 'required', value: [], expected: [] },
  { keyword: 'required', value: 'ssn', expected: 'ssn' },
  { keyword: 'dependentRequired', value: { ssn: ['id'], id: ['ssn', 'owner'] }, expected: { id: ['owner'] } },
  { keyword: 'dependencies', value: { id: { required: ['ssn'] }, owner: ['ssn'] }, expected: { id: { same: { required: ['ssn'] } }, owner: [] } },
  { keyword: 'dependentSchemas', value: { ssn: {}, id: {} }, expected: { id: { same: {} } } },
  { keyword: 'dependentSchemas', value: true, expected: true },
  { keyword: 'dependentRequired', value: ['ssn'], expected: ['ssn'] },
  { keyword: 'discriminator', value: { propertyName: 'ssn', mapping: { a: 'a' } }, expected: LEAVE_OUT },
  { keyword: 'discriminator', value: { propertyName: 'kind', mapping: { a: '#/a', b: 7 } }, expected: { propertyName: 'kind', mapping: { a: '#/aVisible', b: 7 } } },
  { keyword: 'discriminator', value: { propertyName: 'kind' }, expected: { propertyName: 'kind' } },
  { keyword: 'discriminator', value: 'kind', expected: 'kind' },
  { keyword: 'discriminator', value: 'ssn', expected: LEAVE_OUT },
  { keyword: 'if', value: { required: ['ssn'] }, expected: LEAVE_OUT },
  { keyword: 'if', value: { required: ['id'] }, expected: { required: ['id'] } },
  { keyword: 'then', value: { required: ['id'] }, level: { if: { required: ['ssn'] } }, expected: LEAVE_OUT },
  { keyword: 'else', value: { required: ['ssn'] }, level: { if: { required: ['id'] } }, expected: { same: { required: ['ssn'] } } },
  { keyword: 'not', value: { required: ['ssn'] }, expected: LEAVE_OUT },
  { keyword: 'not', value: { required: ['id'] }, expected: { required: ['id'] } },
  { keyword: 'prefixItems', value: [{ a: 1 }, { b: 2 }], expected: [{ same: { a: 1 } }, { same: { b: 2 } }] },
  { keyword: 'contains', value: { c: 3 }, expected: { same: { c: 3 } } },
  { keyword: 'propertyNames', value: { enum: ['id', 'ssn'] }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { pattern: '^s' }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { const: 'id' }, expected: { const: 'id' } },
  { keyword: 'propertyNames', value: false, expected: false },
  { keyword: 'propertyNames', value: { not: { const: 'ssn' } }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { anyOf: [{ const: 'id' }, { const: 'ssn' }] }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { oneOf: [{ enum: ['id'] }, { allOf: [{ examples: ['ssn'] }] }] }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { $ref: '#/names' }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { $ref: '#/nothing' }, expected: { $ref: '#/nothing' } },
  { keyword: 'propertyNames', value: { pattern: '^s\\-?sn$' }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { allowedNames: ['ssn'] }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { 'x-flag': true, allowedNames: ['id'], anyOf: [{ const: 'id' }], pattern: 7 }, expected: { 'x-flag': true, allowedNames: ['id'], anyOf: [{ const: 'id' }], pattern: 7 } },
  { keyword: 'propertyNames', value: { 'x-names': 'id' }, expected: LEAVE_OUT },
  { keyword: 'propertyNames', value: { $comment: 'not ssn' }, expected: LEAVE_OUT },
  { keyword: 'x-order', value: ['id', 'ssn'], expected: LEAVE_OUT },
  { keyword: 'x-examples', value: { one: { id: 1 } }, expected: LEAVE_OUT },
  { keyword: '$comment', value: 'id', expected: LEAVE_OUT },
  { keyword: 'x-nullable', value: true, expected: true },
  { keyword: 'x-order', value: 2, expected: 2 },
  { keyword: 'x-internal', value: null, expected: null },
  { keyword: 'unknownKeyword', value: { ssn: 1 }, expected: { ssn: 1 } },
  { keyword: 'allOf', value: [{ required: ['ssn'] }], expected: [{ required: ['ssn'] }] },
  { keyword: 'additionalProperties', value: { type: 'object' }, expected: { below: ['ssn'], schema: { type: 'object' } } },
  // @fastify/swagger puts a pattern's schema there, and the pattern may match a declared name: what is hidden below it goes too.
  {
    keyword: 'additionalProperties',
    value: { type: 'object' },
    level: { properties: { owner: {} } },
    hidden: ['owner.ssn'],
    expected: { below: ['ssn'], schema: { type: 'object' } }
  },
  // A field hidden whole at the level: the schema of undeclared names may describe it
  // (@fastify/swagger puts a pattern's there), and keeps its structure alone.
  {
    keyword: 'additionalProperties',
    value: { type: 'object', properties: { pin: { type: 'string', enum: ['1'] } }, items: [{ const: 1 }], default: { pin: '1' }, examples: [{}], required: ['pin'], dependentSchemas: { pin: {} }, propertyNames: { enum: ['pin'] }, dependencies: { pin: ['puk'] }, 'x-order': ['pin'], $defs: { a: { const: 1 } } },
    hidden: ['ssn'],
    expected: { type: 'object', items: [{}] }
  },
  {
    keyword: 'additionalProperties',
    value: { type: 'object', additionalProperties: { $ref: '#/vault', discriminator: { propertyName: 'pin' } }, allOf: [{ $ref: 7 }, { type: 'object', 'x-order': ['pin'] }] },
    hidden: ['ssn'],
    expected: { type: 'object', additionalProperties: { $ref: '#/vaultContentless' }, allOf: [{ $ref: 7 }, { type: 'object' }] }
  },
  { keyword: 'additionalProperties', value: true, level: { properties: { owner: {} } }, hidden: ['ssn'], expected: true },
  { keyword: 'unevaluatedProperties', value: false, expected: { below: ['ssn'], schema: false } },
  { keyword: 'unevaluatedItems', value: { c: 3 }, expected: { same: { c: 3 } } },
  { keyword: 'contentSchema', value: { required: ['ssn'] }, expected: { required: ['ssn'] } },
  { keyword: 'example', value: { id: 1, ssn: 's', owner: { ssn: 't', city: 'c' } }, expected: { id: 1, owner: { city: 'c' } } },
  // @fastify/swagger's rewrite of a nested x-examples: a map of named examples, Example Objects or (Stoplight's) instances.
  { keyword: 'example', value: { staff: { summary: 's', value: { id: 1, ssn: 's' } }, other: { id: 2, ssn: 't' } }, expected: { staff: { summary: 's', value: { id: 1 } }, other: { id: 2 } } },
  { keyword: 'example', value: ['ssn', { ssn: 1 }], expected: ['ssn', {}] },
  { keyword: 'default', value: 'ssn', expected: 'ssn' },
  { keyword: 'const', value: [{ ssn: 's' }], expected: [{}] },
  { keyword: 'enum', value: [{ id: 1, ssn: 's' }, 'ssn'], expected: [{ id: 1 }, 'ssn'] },
  { keyword: 'examples', value: [{ ssn: 's' }], expected: [{}] },
  { keyword: 'examples', value: { one: { value: { ssn: 's' } } }, expected: { one: { value: { ssn: 's' } } } },
  { keyword: 'description', value: 'Keeps ssn out', expected: 'Keeps ssn out' }
]

test('each keyword of a level loses the names and values hidden at that level, or goes when leaving them out would change what it says', async (t) => {
  for (const row of table) {
    const { keyword, value, level, expected } = row
    const rowHidden = row.hidden === undefined ? hidden : hiddenTrie(row.hidden)
    t.strictSame(relaxedKeyword(keyword, value, level ?? {}, rowHidden, maps), expected, `${keyword}: ${JSON.stringify(value)}`)
  }
})

test('a pattern that names a hidden field goes, and what it allowed joins additionalProperties; a pattern over a field with hidden paths below loses them', async (t) => {
  const patterns = { '^ss': { type: 'string' }, '^own': { type: 'object' }, '^x': { type: 'integer' } }
  const rows: Array<[Json, Json]> = [
    [{ properties: {} }, { properties: {} }],
    [{ patternProperties: { '^x': {} } }, { patternProperties: { '^x': {} } }],
    [{ patternProperties: patterns }, { patternProperties: { '^own': { below: ['ssn'], schema: { type: 'object' } }, '^x': { type: 'integer' } } }],
    [{ patternProperties: patterns, additionalProperties: true }, { patternProperties: { '^own': { below: ['ssn'], schema: { type: 'object' } }, '^x': { type: 'integer' } }, additionalProperties: true }],
    [{ patternProperties: { 'ssn|x': {} }, additionalProperties: false }, { patternProperties: {}, additionalProperties: {} }],
    // A pattern that compiles in no form may match any name: it goes, its schema without what is hidden below the names it may match.
    [{ patternProperties: { '^s': { type: 'string' }, '[': {} }, additionalProperties: { type: 'integer' } },
      { patternProperties: {}, additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }, { below: ['ssn'], schema: {} }] } }],
    // One that compiles only without the u flag names what it matches so.
    [{ patternProperties: { '^s\\-?sn$': { type: 'string' }, '^x': {} }, additionalProperties: false }, { patternProperties: { '^x': {} }, additionalProperties: { type: 'string' } }]
  ]
  for (const [level, expected] of rows) t.strictSame(relaxedPatterns(level, hidden, maps), expected, JSON.stringify(level))
  const unchanged = { patternProperties: { '^x': {} } }
  t.equal(relaxedPatterns(unchanged, hidden, maps), unchanged, 'a level that loses nothing is returned as it is')
})
