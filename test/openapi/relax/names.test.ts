import { test } from 'tap'
import { hiddenTrie } from '../../../lib/hidden-paths.js'
import { belowEveryName, belowNames, namesPathOf } from '../../../lib/openapi/relax/names.js'

const hidden = hiddenTrie(['ssn', 'owner.ssn', 'meta.secret'])
const components: Record<string, unknown> = {
  person: { properties: { ssn: {} } },
  plain: { properties: { id: {} } },
  looped: { properties: { next: { $ref: 'looped' } } },
  names: { enum: ['ssn'] },
  loopedNames: { anyOf: [{ const: 'id' }, { $ref: 'loopedNames' }] }
}
const resolve = (ref: string): unknown => components[ref]

test('namesPathOf finds a hidden path wherever the vocabulary says a schema names one, and not elsewhere', async (t) => {
  const rows: Array<[unknown, boolean]> = [
    [{ properties: { ssn: {} } }, true],
    [{ properties: { id: {}, owner: { properties: { ssn: {} } } } }, true],
    [{ properties: { id: {}, owner: { properties: { city: {} } } } }, false],
    [{ properties: { default: {}, enum: {} } }, false],
    [{ required: ['ssn'] }, true],
    [{ required: 'ssn' }, false],
    [{ dependentRequired: { id: ['ssn'] } }, true],
    [{ dependentRequired: { ssn: [] } }, true],
    [{ dependencies: { id: { required: ['ssn'] } } }, true],
    [{ dependencies: { id: ['owner'] } }, false],
    [{ dependentSchemas: { ssn: {} } }, true],
    [{ dependentSchemas: { id: {} } }, false],
    [{ discriminator: 'ssn' }, true],
    [{ discriminator: { propertyName: 'ssn' } }, true],
    [{ discriminator: { propertyName: 'kind', mapping: { b: 7, a: 'person' } } }, true],
    [{ discriminator: { propertyName: 'kind', mapping: { a: 'plain' } } }, false],
    [{ discriminator: { propertyName: 'kind' } }, false],
    [{ $ref: 'person' }, true],
    [{ $ref: 'looped' }, false],
    [{ allOf: [{ $ref: 'plain' }, { $ref: 'plain' }] }, false],
    [{ $ref: 7 }, false],
    [{ const: { ssn: 1 } }, true],
    [{ enum: [{ id: 1 }, { ssn: 1 }] }, true],
    [{ enum: 'ssn' }, false],
    [{ patternProperties: { '^s\\-?sn$': {} } }, true],
    [{ patternProperties: { '^me': { properties: { secret: {} } } } }, true],
    [{ patternProperties: { '^me': { properties: { other: {} } } } }, false],
    [{ additionalProperties: { properties: { secret: {} } } }, true],
    // @fastify/swagger writes a pattern's schema there, which may describe a declared name and what is hidden below it.
    [{ properties: { meta: {}, owner: {} }, additionalProperties: { properties: { secret: {}, ssn: {} } } }, true],
    [{ properties: { meta: {}, owner: {} }, additionalProperties: { properties: { city: {}, id: {} } } }, false],
    [{ propertyNames: { $ref: 'names' } }, true],
    [{ propertyNames: { const: 'id' } }, false],
    [{ propertyNames: { $ref: 'loopedNames' } }, false],
    [{ items: [{ required: ['ssn'] }] }, true],
    [{ not: { anyOf: [{ required: ['id'] }, { if: { required: ['ssn'] } }] } }, true],
    [{ contentSchema: { required: ['ssn'] }, $defs: { a: { required: ['ssn'] } } }, false],
    [{ description: 'ssn', 'x-flag': true }, false],
    // What an extension or a comment holds is for tools no vocabulary describes: it may name anything.
    [{ 'x-ssn': 'id' }, true],
    [{ propertyNames: { $comment: 'id' } }, true],
    [true, false]
  ]
  for (const [schema, expected] of rows) t.equal(namesPathOf(schema, hidden, resolve), expected, JSON.stringify(schema))
  t.equal(namesPathOf({ required: ['ssn'] }, hiddenTrie([]), resolve), false, 'nothing hidden')
})

test('the hidden paths below the names a schema of several names describes', async (t) => {
  t.strictSame(belowNames(hidden, () => true), hiddenTrie(['ssn', 'secret']), 'below owner and meta, merged')
  t.strictSame(belowNames(hiddenTrie(['a.x.y', 'b.x.z', 'b.w']), () => true), hiddenTrie(['x.y', 'x.z', 'w']), 'the paths below two names, one name below both merged')
  t.equal(belowNames(hidden, (name) => name === 'ssn'), null, 'a name hidden whole has nothing below')
  t.strictSame(belowEveryName(hidden), hiddenTrie(['ssn', 'secret']), 'below every name, declared or not')
  t.equal(belowEveryName(hiddenTrie(['ssn', 'id'])), null, 'only names hidden whole')
})
