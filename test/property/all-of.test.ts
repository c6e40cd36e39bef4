import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { project, trieOf } from '../oracle.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

// Each run builds one app and sends some ten requests. PROPERTY_RUNS changes the count.
const numRuns = Math.ceil(Number(process.env.PROPERTY_RUNS ?? 1000) / 8)

type Schema = Record<string, any>

/*
 * Object schemas composed with `allOf` as API descriptions write them: members
 * that declare the same property (an object, or an array of objects) with
 * nested fields of their own, `required` beside or inside `allOf` (names
 * declared elsewhere in the merge included), nested `allOf`, members that are
 * `$ref`s to shared schemas, with or without keywords beside the `$ref`.
 * Each name has one kind wherever it is declared, so that members never
 * disagree on a type.
 */
const LEAVES = ['a', 'b', 'c']
const NAMES = [...LEAVES, 'o', 'l']

interface Node {
  properties: Array<[string, Node | null]>
  required: string[]
  allOf: Node[]
  /** Moved to a shared schema and referred to; `beside` keeps its own properties beside the `$ref`. */
  shared: 'no' | 'ref' | 'beside'
}

function node (depth: number, members: number, minLength = 0): fc.Arbitrary<Node> {
  const value: fc.Arbitrary<Node | null> = depth === 0 ? fc.constant(null) : node(depth - 1, 1)
  return fc.record({
    properties: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength, maxLength: 3 }).chain((names) =>
      fc.tuple(...names.map((name) => LEAVES.includes(name) ? fc.constant(null) : value))
        .map((values) => names.map((name, i): [string, Node | null] => [name, values[i]]))),
    required: fc.subarray(NAMES, { maxLength: 2 }),
    allOf: members === 0 ? fc.constant([]) : fc.array(node(depth, members - 1), { maxLength: 3 }),
    shared: fc.constantFrom<Node['shared']>('no', 'no', 'ref', 'beside')
  })
}

/**
 * The JSON Schema of a node at a path, its shared parts added to `shared`
 * under ids of their own. Of the declarations of one property, one at most is
 * a `$ref`: fast-json-stringify drops a `$ref` that declarations disagree on,
 * and writes the value whole.
 */
function schemaOf (tree: Node, shared: Schema[], path = '', referred = new Set<string>(), member = false): Schema {
  const properties: Schema = {}
  for (const [name, value] of tree.properties) {
    if (value === null) properties[name] = { type: 'string' }
    else if (name === 'o') properties[name] = schemaOf(value, shared, `${path}.o`, referred)
    else properties[name] = { type: 'array', items: schemaOf(value, shared, `${path}.l`, referred) }
  }
  const own: Schema = { type: 'object' }
  if (tree.properties.length > 0) own.properties = properties
  if (tree.required.length > 0) own.required = tree.required
  // Members are merged, their `$ref`s followed one by one.
  if (tree.allOf.length > 0) own.allOf = tree.allOf.map((each) => schemaOf(each, shared, path, referred, true))
  if (tree.shared === 'no' || (!member && (path === '' || referred.has(path)))) return own
  if (!member) referred.add(path)
  const $id = `s${shared.length}`
  if (tree.shared === 'ref') {
    shared.push({ $id, ...own })
    return { $ref: `${$id}#` }
  }
  const { properties: beside, ...rest } = own
  shared.push({ $id, ...rest })
  return beside === undefined ? { $ref: `${$id}#` } : { $ref: `${$id}#`, properties: beside }
}

/** A record that holds every name at every level: the route writes those its schema declares. */
function recordOf (depth: number, seed: number): Record<string, unknown> {
  const record: Record<string, unknown> = { secret: 'leak' }
  for (const name of LEAVES) record[name] = `${name}${seed}`
  if (depth > 0) {
    record.o = recordOf(depth - 1, seed + 1)
    record.l = [recordOf(depth - 1, seed + 2), recordOf(depth - 1, seed + 3)]
  }
  return record
}

/** Every dotted path of a body's objects, parents before children, each once. */
function pathsOf (value: unknown, prefix = '', paths = new Set<string>()): string[] {
  if (Array.isArray(value)) {
    for (const item of value) pathsOf(item, prefix, paths)
  } else if (value !== null && typeof value === 'object') {
    for (const [name, field] of Object.entries(value)) {
      paths.add(prefix + name)
      pathsOf(field, `${prefix}${name}.`, paths)
    }
  }
  return [...paths]
}

const allOfCase = fc.record({
  // The record's own schema declares a field of its own, so that the route restricts fields.
  tree: node(2, 2, 1),
  only: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), { nil: null }),
  defer: fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 2 }), { nil: null })
})

test('allOf schemas: every path sends the unrestricted body with fields taken out, in its order', async (t) => {
  let checked = 0
  await fc.assert(fc.asyncProperty(allOfCase, async ({ tree, only, defer }) => {
    const shared: Schema[] = []
    const schema = schemaOf(tree, shared)
    const record = recordOf(3, 0)
    const app = Fastify()
    for (const each of shared) app.addSchema(each)
    await app.register(fastifyRestrictedFields)
    const response = { response: { 200: schema } }
    app.get('/plain', { schema: response }, async () => record)
    app.get('/compiled', { restrictFields: true, schema: response }, async () => record)
    app.get('/written', { restrictFields: { cacheSize: 0 }, schema: response }, async () => record)
    // A record with toJSON is left to the copy.
    app.get('/copied', { restrictFields: { cacheSize: 0 }, schema: response }, async () => ({ toJSON: () => record }))
    try {
      await app.ready()
      const plain = await app.inject('/plain')
      if (plain.statusCode !== 200) throw new Error(`the unrestricted route answered ${plain.statusCode}: ${plain.body}`)
      const paths = pathsOf(plain.json())
      if (paths.length === 0) return
      const pick = (indexes: number[] | null): string[] | null =>
        indexes === null ? null : [...new Set(indexes.map((index) => paths[index % paths.length]))]
      const kept = pick(only)
      const dropped = pick(defer)
      const expected = kept === null && dropped === null
        ? plain.body
        : JSON.stringify(project(plain.json(), kept === null ? null : trieOf(kept), dropped === null ? null : trieOf(dropped)))
      const query = [kept === null ? '' : `only=${kept.join(',')}`, dropped === null ? '' : `defer=${dropped.join(',')}`].filter((part) => part !== '').join('&')
      const suffix = query === '' ? '' : `?${query}`
      for (const path of ['/compiled', '/compiled', '/written', '/copied']) {
        const restricted = await app.inject(path + suffix)
        if (restricted.statusCode !== 200 || restricted.body !== expected) {
          throw new Error(`${path}${suffix}: expected ${expected}, got ${restricted.statusCode} ${restricted.body}`)
        }
      }
      checked++
    } finally {
      await app.close()
    }
  }), { numRuns })
  t.ok(checked > numRuns / 2, `${checked} of ${numRuns} generated allOf cases declared fields and were checked`)
})
