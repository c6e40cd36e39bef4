import { test } from 'tap'
import { COMPILE_BURST_MS, COMPILE_MS_PER_SECOND, CompileBudget, MAX_COMPILE_COST, TEST_CHARACTERS_PER_MS, compileCost, expandedCharacters, rationUnits, reachedSchemas } from '../lib/compile.js'
import type { JsonSchema } from '../lib/schema/tree.js'

const shared: Record<string, JsonSchema> = {
  user: { $id: 'user', type: 'object', properties: { org: { $ref: 'org#/definitions/ref' }, self: { $ref: '#' } } },
  org: { $id: 'org', definitions: { ref: { type: 'object', properties: { owner: { $ref: 'user#' } } } } },
  tag: { $id: 'tag', type: 'string' },
  unrelated: { $id: 'unrelated', type: 'integer' }
}

test('reachedSchemas: the shared schemas a schema reaches through its $refs, and theirs, each once', async (t) => {
  const cases: Array<{ title: string, schema: JsonSchema, reached: string[] }> = [
    { title: 'no $ref', schema: { type: 'object', properties: { a: { type: 'string' } } }, reached: [] },
    { title: 'local refs and unknown ids', schema: { $ref: '#/definitions/a', definitions: { a: { $ref: 'urn:elsewhere#/x' } } }, reached: [] },
    { title: 'a ref in an array, and the refs of what it reaches, through cycles', schema: { anyOf: [{ $ref: 'user#' }] }, reached: ['user', 'org'] },
    { title: 'values that are data, not schemas', schema: { const: { $ref: 'tag#' }, enum: [{ $ref: 'tag#' }], default: { $ref: 'tag#' }, examples: [{ $ref: 'tag#' }] }, reached: [] },
    { title: 'a property named $ref is a schema', schema: { properties: { $ref: { $ref: 'tag' } } }, reached: ['tag'] },
    { title: 'properties named like the keywords of instances are schemas', schema: { properties: { default: { $ref: 'tag' }, enum: { $ref: 'user' } } }, reached: ['tag', 'user', 'org'] },
    { title: 'a property named const or examples, in patternProperties and $defs too', schema: { patternProperties: { const: { $ref: 'tag' } }, $defs: { examples: { $ref: 'unrelated' } } }, reached: ['tag', 'unrelated'] },
    { title: 'dependencies hold schemas or names', schema: { dependencies: { a: ['tag'], b: { $ref: 'tag' } }, items: [{ $ref: 'unrelated' }] }, reached: ['tag', 'unrelated'] },
    { title: 'annotations and extensions hold no schema', schema: { 'x-ref': { $ref: 'tag' }, discriminator: { mapping: { a: 'tag' } }, xml: { $ref: 'tag' } }, reached: [] },
    { title: 'a keyword of no dialect is read as a schema or a list of them', schema: { myKeyword: [{ $ref: 'tag' }], other: { $ref: 'unrelated' }, plain: 1 }, reached: ['tag', 'unrelated'] }
  ]
  for (const { title, schema, reached } of cases) {
    t.strictSame(Object.keys(reachedSchemas(schema, shared)).sort(), reached.sort(), title)
  }
})

test('compileCost grows with what a compile is handed; rationUnits spends one unit at least', async (t) => {
  const small = { type: 'object', properties: { id: { type: 'integer' } } }
  t.ok(compileCost(small, {}) < compileCost(small, { user: shared.user }), 'the shared schemas reached count')
  t.ok(compileCost(small, {}) < 1, 'a selection of one field costs well under a millisecond')
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`field${i}`, { type: 'string', description: 'a field' }])) }
  t.ok(compileCost(wide, {}) > MAX_COMPILE_COST, 'a thousand fields are past the request path\'s limit')
  t.strictSame([0, 0.2, 2, 2.5, 7, 20].map(rationUnits), [1, 1, 1, 2, 4, 10])
})

test('expandedCharacters counts a shared schema at every reference to it, and stops past its limit', async (t) => {
  const sharedSchemas: Record<string, JsonSchema> = { name: { type: 'string' }, loop: { items: { $ref: 'loop#' } } }
  // "type" (4 + 3) and "string" (6): 13 characters for the shared schema, 7 for each "$ref" key, and its value.
  t.equal(expandedCharacters({ $ref: 'name#' }, sharedSchemas, Infinity), 7 + 'name#'.length + 13)
  t.equal(expandedCharacters({ anyOf: [{ $ref: 'name#' }, { $ref: 'name#' }] }, sharedSchemas, Infinity), 8 + 2 * (7 + 'name#'.length + 13))
  t.equal(expandedCharacters({ enum: ['a', 1, null] }, {}, Infinity), 7 + 1 + 1 + 4)
  t.equal(expandedCharacters({ $ref: 'elsewhere#' }, sharedSchemas, Infinity), 7 + 'elsewhere#'.length, 'an id that is not shared is not followed')
  const endless = expandedCharacters({ $ref: 'loop#' }, sharedSchemas, 1000)
  t.ok(endless > 1000 && endless < 1100, 'a shared schema that refers to itself is counted up to the limit')
})

test('compileCost counts the variant tests of a selection\'s chain as ajv compiles them, each shared schema at every reference', async (t) => {
  const plain = { type: 'object', properties: { id: { type: 'integer' } } }
  const test = { type: 'object', required: ['user'], properties: { user: { $ref: 'user#' }, owner: { $ref: 'user#' } } }
  const chain = { if: test, then: plain, else: { $ref: '#/$defs/next' }, $defs: { next: { if: test, then: plain } } }
  const reached = { user: shared.user }
  const text = JSON.stringify(chain).length + JSON.stringify(shared.user).length
  t.equal(compileCost(chain, reached), text / 250 + 2 * expandedCharacters(test, reached, Infinity) / TEST_CHARACTERS_PER_MS)
  t.equal(compileCost(plain, {}), JSON.stringify(plain).length / 250, 'a schema without tests costs its text')
  const selfReferring = { loop: { type: 'object', properties: { next: { $ref: 'loop#' } } } }
  t.ok(compileCost({ if: { $ref: 'loop#' }, then: plain }, selfReferring) > MAX_COMPILE_COST, 'a test of a schema that refers to itself is past the bound, and counted in bounded time')
})

test('CompileBudget: compiles that can wait start while time has paid for the compiles before them', async (t) => {
  let now = 1000
  const budget = new CompileBudget({ msPerSecond: 5, burstMs: 20, now: () => now })
  const cases: Array<{ title: string, advance: number, compile: number | null, allows: boolean, balance: number }> = [
    { title: 'a fresh budget holds its burst', advance: 0, compile: null, allows: true, balance: 20 },
    { title: 'it never saves up more than its burst', advance: 60_000, compile: null, allows: true, balance: 20 },
    { title: 'a compile is charged its measured time', advance: 0, compile: 12, allows: true, balance: 8 },
    { title: 'one compile may overdraw it', advance: 0, compile: 18, allows: false, balance: -10 },
    { title: 'time pays an overdraft back at msPerSecond: 1 ms after 200 ms', advance: 200, compile: null, allows: false, balance: -9 },
    { title: 'a compile that cannot wait is charged all the same', advance: 0, compile: 1, allows: false, balance: -10 },
    { title: 'two seconds later, the overdraft is paid and nothing more', advance: 2000, compile: null, allows: false, balance: 0 },
    { title: 'then compiles may start again', advance: 1, compile: null, allows: true, balance: 0.005 },
    { title: 'a long compile leaves a debt of one burst at most', advance: 0, compile: 1000, allows: false, balance: -20 },
    { title: 'which four seconds pay back', advance: 4001, compile: null, allows: true, balance: 0.005 }
  ]
  for (const { title, advance, compile, allows, balance } of cases) {
    now += advance
    if (compile !== null) t.equal(budget.timed(() => { now += compile; return 'compiled' }), 'compiled', `${title}: the compile's value`)
    t.strictSame([budget.allows(), Number(budget.balance.toFixed(6))], [allows, balance], title)
  }
})

test('CompileBudget: a compile that throws is charged too; an unbounded budget always allows', async (t) => {
  let now = 0
  const budget = new CompileBudget({ msPerSecond: 5, burstMs: 20, now: () => now })
  t.throws(() => budget.timed(() => { now += 30; throw new Error('refused') }), { message: 'refused' })
  t.equal(budget.balance, -10)
  budget.charge(100)
  t.equal(budget.balance, -20, 'a charge leaves a debt of one burst at most')
  budget.configure({ msPerSecond: Infinity, burstMs: Infinity, now: () => now })
  budget.charge(1000)
  t.equal(budget.allows(), true, 'with no time passed')
  now += 1
  t.equal(budget.allows(), true, 'with time passed')
  budget.configure()
  t.equal(budget.balance, COMPILE_BURST_MS, 'the defaults: a full burst')
  t.equal(COMPILE_MS_PER_SECOND, 5)
})
