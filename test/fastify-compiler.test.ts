import { test } from 'tap'
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import fastify58 from 'fastify-5-8'
import fastJsonStringify from 'fast-json-stringify'
import fastifyRestrictedFields from '../lib/index.js'
import { compileWithFastJsonStringify, defaultCompilerOf, fastifyModulesOf } from '../lib/fastify-compiler.js'
import type { JsonSchema } from '../lib/schema/tree.js'
import { compileBudget } from '../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

/** Fastify 5.8 says a custom serializer builder is not custom (`isCustomSerializerCompiler`, fixed in 5.10). */
const versions = [
  { name: 'Fastify 5.8', make: fastify58 as unknown as typeof Fastify },
  { name: 'the current Fastify 5', make: Fastify }
]

/** The app's own compiler: fast-json-stringify's output, marked, so that a body tells which compiler wrote it. */
function markingCompiler (compiled: JsonSchema[]) {
  return ({ schema }: { schema?: unknown }) => {
    compiled.push(schema as JsonSchema)
    const inner = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0])
    return (data: unknown) => '{"marked":' + inner(data) + '}'
  }
}

const schema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } }
const records = [{ id: 1, name: 'a' }]

/** Each way an app supplies its own serializer compiler, applied before the route is declared, where it goes. */
const customCompilers: Array<{ way: string, app: (make: typeof Fastify, compiled: JsonSchema[]) => Promise<FastifyInstance> }> = [
  {
    way: 'the route option',
    app: async (make, compiled) => {
      const app = make()
      await app.register(fastifyRestrictedFields)
      app.get('/items', { restrictFields: true, serializerCompiler: markingCompiler(compiled), schema: { response: { 200: schema } } }, async () => records)
      return app
    }
  },
  {
    way: 'setSerializerCompiler',
    app: async (make, compiled) => {
      const app = make()
      await app.register(fastifyRestrictedFields)
      app.setSerializerCompiler(markingCompiler(compiled))
      app.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => records)
      return app
    }
  },
  {
    way: 'setSerializerCompiler on a parent, with the route in a child plugin',
    app: async (make, compiled) => {
      const app = make()
      await app.register(fastifyRestrictedFields)
      app.setSerializerCompiler(markingCompiler(compiled))
      app.register(async function child (child) {
        child.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => records)
      })
      return app
    }
  },
  {
    way: 'schemaController.compilersFactory.buildSerializer',
    app: async (make, compiled) => {
      const app = make({ schemaController: { compilersFactory: { buildSerializer: () => markingCompiler(compiled) } } })
      await app.register(fastifyRestrictedFields)
      app.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => records)
      return app
    }
  }
]

for (const { name, make } of versions) {
  for (const { way, app: makeApp } of customCompilers) {
    test(`on ${name}, an app's own serializer compiler (${way}) compiles its restricted selections`, async (t) => {
      const compiled: JsonSchema[] = []
      const app = await makeApp(make, compiled)
      t.teardown(() => app.close())
      await app.ready()
      compiled.length = 0
      // Written on the first sighting (plain fields need no compiler), compiled by the app's compiler on the second.
      const bodies = []
      for (let i = 0; i < 3; i++) bodies.push((await app.inject('/items?only=id')).body)
      t.strictSame(bodies, ['[{"id":1}]', '{"marked":[{"id":1}]}', '{"marked":[{"id":1}]}'])
      t.strictSame(compiled, [{ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false } }])
      t.equal((await app.inject('/items')).body, '{"marked":[{"id":1,"name":"a"}]}', 'the unrestricted reply is the app compiler\'s too')
    })
  }

  test(`on ${name}, Fastify's default compiler is made with the instance's serializerOpts and only the shared schemas a compile reaches`, async (t) => {
    const app = make({ serializerOpts: { rounding: 'ceil' } })
    await app.register(fastifyRestrictedFields)
    t.teardown(() => app.close())
    let unrelatedReads = 0
    const unrelated: JsonSchema = { $id: 'unrelated', type: 'object' }
    Object.defineProperty(unrelated, 'properties', { enumerable: true, get () { unrelatedReads++; return { a: { type: 'string' } } } })
    app.addSchema(unrelated)
    app.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => [{ id: 1.5, name: 'a' }])
    await app.ready()
    unrelatedReads = 0
    const bodies = []
    for (let i = 0; i < 3; i++) bodies.push((await app.inject('/items?only=id')).body)
    // Written first, as fast-json-stringify writes a number that is not an integer (through the leaf's compiler), then compiled.
    t.strictSame(bodies, ['[{"id":2}]', '[{"id":2}]', '[{"id":2}]'])
    t.equal(unrelatedReads, 0, 'the unrelated shared schema is not read by the compiles of selections')
  })
}

test('an object that no loaded Fastify made has no default compiler and no fast-json-stringify of its own', async (t) => {
  t.equal(fastifyModulesOf({}), null)
  t.equal(defaultCompilerOf({}), null)
  t.equal(compileWithFastJsonStringify({}, { type: 'integer' }), null)
  const app = Fastify()
  t.teardown(() => app.close())
  t.equal(fastifyModulesOf(app), fastifyModulesOf(app), 'found once per instance')
  t.equal(compileWithFastJsonStringify(app, { type: 'integer' })?.(1.5), '1')
})

test('an instance whose options cannot be read as Fastify keeps them is called through its compiler', async (t) => {
  const app = Fastify({ serializerOpts: { rounding: 'ceil' } })
  t.teardown(() => app.close())
  app.get('/items', { schema: { response: { 200: schema } } }, async () => records)
  await app.ready()
  t.not(defaultCompilerOf(app), null)
  const modules = fastifyModulesOf(app)!
  const options = (app as any)[modules.kOptions]
  for (const serializerOpts of [null, 'ceil']) {
    options.serializerOpts = serializerOpts
    t.equal(defaultCompilerOf(app), null, `serializerOpts ${String(serializerOpts)}`)
  }
  const child = Object.create(app)
  child[modules.kOptions] = null
  t.equal(defaultCompilerOf(child), null, 'options that are not an object')
  child[modules.kSchemaController] = {}
  t.equal(defaultCompilerOf(child), null, 'a schema controller without a builder')
  const unready = Fastify()
  t.teardown(() => unready.close())
  t.equal(defaultCompilerOf(unready), null, 'no compiler set up yet')
})

const root = fileURLToPath(new URL('..', import.meta.url))

/** Runs a script with node, without coverage (the copied package is not the project's source), and returns its standard output. */
async function runNode (script: string, cwd: string): Promise<string> {
  const { NODE_OPTIONS, ...rest } = process.env
  return await new Promise((resolve, reject) => {
    execFile(process.execPath, [script], { cwd, env: { ...rest, _TAPJS_PROCESSINFO_COVERAGE_: '0' } }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout)
      else reject(new Error(`${script}: ${error.message}\n${stderr}`))
    })
  })
}

test('installed where it cannot see the app\'s Fastify (a pnpm-like layout), the plugin compiles with the app\'s own Fastify', async (t) => {
  // npm test builds dist/ before the suite runs. The plugin's built lib/ is copied (a link would be followed back
  // to this project, where Fastify is), with its dependencies beside it but neither Fastify nor fast-json-stringify;
  // the app's Fastify sits in a folder of its own.
  const work = await mkdtemp(join(tmpdir(), 'fastify-restricted-fields-layout-'))
  t.teardown(() => rm(work, { recursive: true, force: true }))
  const plugin = join(work, 'store', 'fastify-restricted-fields')
  await cp(join(root, 'dist', 'lib'), join(plugin, 'lib'), { recursive: true, filter: (file) => !file.endsWith('.map') && !file.endsWith('.d.ts') })
  await writeFile(join(plugin, 'package.json'), JSON.stringify({ name: 'fastify-restricted-fields', type: 'module' }))
  const link = async (name: string, into: string): Promise<void> => {
    await mkdir(join(into, 'node_modules', name, '..'), { recursive: true })
    await symlink(await realpath(join(root, 'node_modules', name)), join(into, 'node_modules', name), 'dir')
  }
  for (const dependency of ['@fastify/error', 'fastify-plugin', 'json-schema-ref-resolver', 'rfdc']) await link(dependency, plugin)
  const app = join(work, 'app')
  await link('fastify', app)
  await writeFile(join(app, 'main.mjs'), `
    import Fastify from 'fastify'
    import plugin from ${JSON.stringify(join(plugin, 'lib', 'index.js'))}
    const app = Fastify({ serializerOpts: { rounding: 'ceil' } })
    await app.register(plugin)
    app.addSchema({ $id: 'money', type: 'object', properties: { amount: { type: 'integer' } } })
    const schema = { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, price: { $ref: 'money#' } } } }
    app.get('/items', { restrictFields: true, schema: { response: { 200: schema } } }, async () => [{ id: 1.5, price: { amount: 2.5, cost: 1 } }])
    const bodies = []
    for (let i = 0; i < 3; i++) bodies.push((await app.inject('/items?only=id,price')).body)
    await app.close()
    process.stdout.write(JSON.stringify(bodies))
  `)
  t.strictSame(JSON.parse(await runNode(join(app, 'main.mjs'), app)), Array(3).fill('[{"id":2,"price":{"amount":3}}]'))
  // The plugin's own fast-json-stringify, should one be installed beside it, is not the app's: it is never called.
  const decoy = join(plugin, 'node_modules', 'fast-json-stringify')
  await mkdir(decoy, { recursive: true })
  await writeFile(join(decoy, 'package.json'), JSON.stringify({ name: 'fast-json-stringify', main: 'index.js' }))
  await writeFile(join(decoy, 'index.js'), 'module.exports = () => () => \'"decoy"\'\nmodule.exports.default = module.exports\n')
  t.strictSame(JSON.parse(await runNode(join(app, 'main.mjs'), app)), Array(3).fill('[{"id":2,"price":{"amount":3}}]'), 'with a fast-json-stringify beside the plugin')
})
