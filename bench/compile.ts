/**
 * `npm run bench:compile`: what a first sighting costs, on synthetic schemas.
 *
 * - Shared schemas: the request that compiles `only=id,name` on a route of
 *   ten fields, with 0 to 1,000 unrelated shared schemas declared beside it,
 *   against fast-json-stringify compiling the hand-written schema of the same fields.
 * - Variants: the compiling request of a selection on a level with 20
 *   variants (tagged and untagged), against the route compiled whole
 *   without the plugin; the heap each compiled selection keeps.
 * - Flood: never-seen selections on that route, each sent twice, while a
 *   plain route is asked every millisecond: the event loop's longest delay
 *   and the plain route's p99, quiet and flooded.
 * - Nested unions: records that are a `oneOf` of n variants, each with an
 *   `app` whose owner is one of two: declared or refused, n = 2 to 12.
 *
 * Run with `--expose-gc` for the heap figures (the npm script does); name
 * sections (shared, variants, flood, unions) to run only those.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import fastifyRestrictedFields from '../lib/index.js'

const gc = (globalThis as { gc?: () => void }).gc

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function heapMiB (): number {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

const TEN_FIELDS: Record<string, unknown> = {
  id: { type: 'integer' },
  name: { type: 'string' },
  email: { type: 'string' },
  age: { type: 'integer' },
  score: { type: 'number' },
  active: { type: 'boolean' },
  city: { type: 'string' },
  country: { type: 'string' },
  created: { type: 'string' },
  note: { type: 'string' }
}

const record = { id: 1, name: 'a', email: 'e', age: 3, score: 1.5, active: true, city: 'c', country: 'x', created: 'd', note: 'n' }

/** An unrelated shared schema, as an API description's components are: a dozen fields, one nested object. */
function unrelated (index: number): Record<string, unknown> {
  return {
    $id: `unrelated-${index}`,
    type: 'object',
    properties: { ...TEN_FIELDS, nested: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } } }
  }
}

async function appWith (shared: number): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  for (let i = 0; i < shared; i++) app.addSchema(unrelated(i))
  app.addSchema({ $id: 'record', type: 'object', properties: TEN_FIELDS })
  app.get('/records', { restrictFields: true, schema: { response: { 200: { type: 'array', items: { $ref: 'record#' } } } } }, async () => Array.from({ length: 20 }, () => record))
  await app.ready()
  return app
}

/** Milliseconds the compiling request of `url` takes (its second sighting on a new route), less a served one. */
async function compilingRequest (app: FastifyInstance, url: string): Promise<number> {
  await app.inject(url)
  let start = performance.now()
  await app.inject(url)
  const compiling = performance.now() - start
  start = performance.now()
  await app.inject(url)
  return compiling - (performance.now() - start)
}

async function sharedSchemas (): Promise<void> {
  console.log('\n## A compile and the shared schemas it does not reach\n')
  console.log('| unrelated shared schemas | compiling request, ms (median of 5) |')
  console.log('|---:|---:|')
  // One app first, so that the first row does not pay for loading and warming the code.
  const warm = await appWith(0)
  await compilingRequest(warm, '/records?only=id,email')
  await warm.close()
  for (const shared of [0, 100, 1000]) {
    const times: number[] = []
    for (let round = 0; round < 5; round++) {
      const app = await appWith(shared)
      times.push(await compilingRequest(app, '/records?only=id,name'))
      await app.close()
    }
    console.log(`| ${shared} | ${median(times).toFixed(2)} |`)
  }
  const times: number[] = []
  for (let round = 0; round < 5; round++) {
    const start = performance.now()
    fastJsonStringify({ type: 'array', items: { type: 'object', properties: { id: TEN_FIELDS.id, name: TEN_FIELDS.name } } } as any)
    times.push(performance.now() - start)
  }
  console.log(`| hand-written schema of id, name, compiled by fast-json-stringify | ${median(times).toFixed(2)} |`)
  const app = await appWith(0)
  const before = heapMiB()
  const names = Object.keys(TEN_FIELDS)
  for (let i = 1; i < names.length; i++) await compilingRequest(app, `/records?only=${names.slice(0, i + 1).join(',')}`)
  console.log(`| heap kept per compiled selection on this route, KiB | ${gc === undefined ? 'n/a' : ((heapMiB() - before) * 1024 / (names.length - 1)).toFixed(1)} |`)
  await app.close()
}

/** A level of `count` variants; tagged ones require a `type` constant of their own, untagged ones a field of their own. */
function variantsSchema (count: number, tagged: boolean): Record<string, unknown> {
  const variants = Array.from({ length: count }, (_, index) => ({
    type: 'object',
    required: tagged ? ['type', `own${index}`] : [`own${index}`],
    properties: {
      ...(tagged ? { type: { const: `v${index}` } } : {}),
      id: { type: 'integer' },
      name: { type: 'string' },
      [`own${index}`]: { type: 'string' },
      created: { type: 'string', format: 'date-time' },
      owner: { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' } } }
    }
  }))
  return { type: 'array', items: { oneOf: variants } }
}

function variantRecords (count: number, tagged: boolean): unknown[] {
  return Array.from({ length: 20 }, (_, i) => {
    const index = i % count
    return { ...(tagged ? { type: `v${index}` } : {}), id: i, name: 'n', [`own${index}`]: 'x', created: '2024-01-01T00:00:00Z', owner: { login: 'l', id: 1 } }
  })
}

async function variantApp (count: number, tagged: boolean): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  const records = variantRecords(count, tagged)
  app.get('/variants', { restrictFields: true, schema: { response: { 200: variantsSchema(count, tagged) } } }, async () => records)
  app.get('/plain', { schema: { response: { 200: { type: 'array', items: { type: 'object', properties: TEN_FIELDS } } } } }, async () => [record, record])
  await app.ready()
  return app
}

const SELECTIONS = ['id,name', 'id', 'name', 'id,owner.login', 'id,created', 'name,owner', 'id,name,created', 'owner.id']

async function variants (): Promise<void> {
  console.log('\n## A level of 20 variants\n')
  console.log('| variants | compiling request, ms (median of 5) | heap kept per compiled selection, KiB | the route compiled whole without the plugin, ms |')
  console.log('|---|---:|---:|---:|')
  for (const tagged of [false, true]) {
    const times: number[] = []
    for (let round = 0; round < 5; round++) {
      const app = await variantApp(20, tagged)
      times.push(await compilingRequest(app, '/variants?only=id,name'))
      await app.close()
    }
    const app = await variantApp(20, tagged)
    await app.inject('/variants?only=id')
    await app.inject('/variants?only=id')
    const before = heapMiB()
    for (const selection of SELECTIONS) {
      await app.inject(`/variants?only=${selection}`)
      await app.inject(`/variants?only=${selection}`)
    }
    const kept = (heapMiB() - before) * 1024 / SELECTIONS.length
    await app.close()
    const whole: number[] = []
    for (let round = 0; round < 5; round++) {
      const start = performance.now()
      fastJsonStringify(variantsSchema(20, tagged) as any)
      whole.push(performance.now() - start)
    }
    console.log(`| 20, ${tagged ? 'tagged' : 'untagged'} | ${median(times).toFixed(1)} | ${gc === undefined ? 'n/a' : kept.toFixed(0)} | ${median(whole).toFixed(1)} |`)
  }
}

async function flood (): Promise<void> {
  console.log('\n## A flood of never-seen selections on the 20-variant route (untagged)\n')
  console.log('| traffic | event loop longest delay, ms | plain route p99, ms |')
  console.log('|---|---:|---:|')
  const names = ['id', 'name', 'own0', 'own1', 'own2', 'own3', 'created', 'owner', 'owner.login', 'owner.id', 'own4', 'own5']
  const selections: string[] = []
  for (let mask = 1; mask < 2 ** names.length && selections.length < 40; mask += 7) {
    selections.push(names.filter((_, bit) => (mask & (1 << bit)) !== 0).join(','))
  }
  // A server turns its loop between requests: so do these loops, so that the plain route's timer runs.
  const turn = async (): Promise<unknown> => await new Promise((resolve) => setImmediate(resolve))
  for (const flooded of [false, true]) {
    // A new app each time: a route that has served little compiles a selection on its second sighting.
    const app = await variantApp(20, false)
    if (!flooded) for (let i = 0; i < 3; i++) await app.inject('/variants?only=id,name')
    const latencies: number[] = []
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const running = { now: true }
    // A plain route asked every millisecond; its latency counts from when it was due.
    const plain = (async () => {
      while (running.now) {
        const due = performance.now()
        await new Promise((resolve) => setTimeout(resolve, 1))
        await app.inject('/plain')
        latencies.push(performance.now() - due - 1)
      }
    })()
    const start = performance.now()
    if (flooded) {
      for (const selection of selections) {
        for (let i = 0; i < 3; i++) {
          await app.inject(`/variants?only=${selection}`)
          await turn()
        }
      }
    } else {
      while (performance.now() - start < 2000) {
        await app.inject('/variants?only=id,name')
        await turn()
      }
    }
    // The histogram's last sample waits for the loop's next turn.
    await new Promise((resolve) => setTimeout(resolve, 20))
    running.now = false
    await plain
    delay.disable()
    const sorted = latencies.sort((a, b) => a - b)
    const p99 = sorted[Math.floor(sorted.length * 0.99)]
    console.log(`| ${flooded ? `${selections.length} never-seen selections, each 3 times` : 'one selection, 2 s'} | ${(delay.max / 1e6).toFixed(1)} | ${p99.toFixed(2)} |`)
    await app.close()
  }
}

/** Records of `count` variants, each with an app whose owner is a user or an organization. */
function nestedUnionSchema (count: number): Record<string, unknown> {
  return {
    type: 'array',
    items: {
      oneOf: Array.from({ length: count }, (_, index) => ({
        type: 'object',
        required: ['event'],
        properties: { event: { const: `e${index}` }, id: { type: 'integer' }, app: { $ref: 'app#' } }
      }))
    }
  }
}

const APP_SCHEMA = {
  $id: 'app',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    owner: {
      oneOf: [
        { type: 'object', required: ['login'], properties: { login: { type: 'string' } } },
        { type: 'object', required: ['slug'], properties: { slug: { type: 'string' } } }
      ]
    }
  }
}

async function nestedUnions (): Promise<void> {
  console.log('\n## Records of n variants, each with an app whose owner is one of two\n')
  console.log('| n | declared | declaration, ms |')
  console.log('|---:|---|---:|')
  for (const count of [2, 4, 6, 7, 8, 10, 12]) {
    const app = Fastify()
    await app.register(fastifyRestrictedFields)
    app.addSchema(APP_SCHEMA)
    const start = performance.now()
    let declared = 'yes'
    try {
      app.get('/events', { restrictFields: true, schema: { response: { 200: nestedUnionSchema(count) } } }, async () => [])
      await app.ready()
    } catch (error) {
      declared = `refused: ${(error as Error).message.replace(/\|/g, '\\|')}`
    }
    console.log(`| ${count} | ${declared} | ${(performance.now() - start).toFixed(1)} |`)
    await app.close()
  }
}

// Name sections to run only those: `node dist/bench/compile.js flood`.
const sections: Record<string, () => Promise<void>> = { shared: sharedSchemas, variants, flood, unions: nestedUnions }
const chosen = process.argv.slice(2)
for (const [name, run] of Object.entries(sections)) if (chosen.length === 0 || chosen.includes(name)) await run()
