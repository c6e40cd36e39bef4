import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../example/app.js'
import { memoryStore } from '../example/store.js'

// The package as users get it: packed by `npm pack`, whose prepare script
// builds lib/ alone into dist/package (so the tests reading dist/lib meanwhile
// are not disturbed), then installed from the tarball into a project of its
// own, next to the oldest Fastify we support.

/** The oldest Fastify the package works with; the README's Compatibility table names it. */
const oldestFastify = '5.0.0'

const root = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'fastify-restricted-fields-package-'))
const consumer = join(work, 'consumer')
t.teardown(() => rm(work, { recursive: true, force: true }))

let packedFiles: string[] = []
/** The package's command as npm installs it (run without npx, whose start costs more than the command). */
const command = join(consumer, 'node_modules', '.bin', 'fastify-restricted-fields')

/**
 * Runs a command to its end, without coverage: coverage of npm, tsc and the consumer would only slow them down,
 * and none of them runs a file of the project. Dropping tap's NODE_OPTIONS is not enough, since tap puts its
 * loader back into every child's NODE_OPTIONS; _TAPJS_PROCESSINFO_COVERAGE_=0 is how it is told to record no coverage.
 */
async function run (
  command: string,
  args: string[],
  cwd: string
): Promise<{ code: number | string | null, stdout: string, stderr: string }> {
  const { NODE_OPTIONS, ...rest } = process.env
  const env = { ...rest, _TAPJS_PROCESSINFO_COVERAGE_: '0' }
  return await new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      // An exit status, or a system error code such as ENOENT when the command is missing.
      resolve({ code: error === null ? 0 : error.code ?? null, stdout, stderr })
    })
  })
}

/** Runs a command that must succeed and returns its standard output. */
async function succeed (command: string, args: string[], cwd: string): Promise<string> {
  const { code, stdout, stderr } = await run(command, args, cwd)
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code} in ${cwd}:\n${stdout}${stderr}`)
  return stdout
}

const schema = "{ response: { 200: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } } } }"

/** The consumer project's sources. */
const sources: Record<string, string> = {
  'esm.mjs': `
    import Fastify from 'fastify'
    import plugin, { fastifyRestrictedFields, UnknownFieldError } from 'fastify-restricted-fields'

    const app = Fastify()
    await app.register(plugin)
    app.get('/', { restrictFields: true, schema: ${schema} }, async () => ({ a: 1, b: 2 }))
    const restricted = await app.inject('/?only=b')
    const unknown = await app.inject('/?only=c')
    console.log(JSON.stringify([
      app.version, plugin === fastifyRestrictedFields, new UnknownFieldError('x').code,
      restricted.statusCode, restricted.body, unknown.statusCode, unknown.json()
    ]))
  `,
  'require.cjs': `
    const plugin = require('fastify-restricted-fields')
    const app = require('fastify')()

    app.register(plugin).after(() => {
      app.get('/', { restrictFields: true, schema: ${schema} }, async () => ({ a: 1, b: 2 }))
    })
    Promise.all([import('fastify-restricted-fields'), app.inject('/?defer=a')]).then(([namespace, response]) => {
      const names = Object.keys(namespace).filter((name) => name !== 'module.exports')
      const missing = names.filter((name) => plugin[name] !== namespace[name])
      console.log(JSON.stringify([typeof plugin, plugin.default === plugin, plugin.fastifyRestrictedFields === plugin, missing, names, response.body]))
    })
  `,
  // Type-checked under every setup.
  'app.ts': `
    import Fastify from 'fastify'
    import plugin, { fastifyRestrictedFields, UnknownFieldError } from 'fastify-restricted-fields'
    import type { RestrictedFieldsOptions } from 'fastify-restricted-fields'

    const app = Fastify()
    const options: RestrictedFieldsOptions = { maxFields: 10, unknownFields: 'ignore' }
    app.register(plugin, options)
    app.register(fastifyRestrictedFields)
    app.get('/', { restrictFields: { fields: ['id'] } }, async (request) => request.restrictedFields.fields)
    // @ts-expect-error restrictFields is a boolean or an options object
    app.get('/wrong', { restrictFields: 'yes' }, async () => ({}))

    export function report (error: unknown): void {
      if (error instanceof UnknownFieldError) {
        const code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' = error.code
        const statusCode: 400 = error.statusCode
        // @ts-expect-error the code has its literal type, not any
        const notANumber: number = error.code
        console.log(code, statusCode, notANumber)
      }
    }
  `,
  // Type-checked under every setup: the adapters that import no ORM, typed by what they are given.
  'lists.ts': `
    import { kyselySelect } from 'fastify-restricted-fields/kysely'
    import { prismaSelect } from 'fastify-restricted-fields/prisma'

    interface Database { users: { id: number, name: string, first_name: string | null } }
    export const columns = kyselySelect<Database, 'users'>({ table: 'users', columns: ['id', 'name', 'first_name'] }, { fields: { firstName: 'first_name' } })
    // @ts-expect-error not a column of users
    kyselySelect<Database, 'users'>({ table: 'users', columns: ['id', 'nmae'] })

    const UserScalarFieldEnum = { id: 'id', name: 'name' } as const
    export const prisma = prismaSelect({ name: 'User', fields: UserScalarFieldEnum }, { fields: { label: 'name' } })
    // @ts-expect-error not a field of User
    prismaSelect({ name: 'User', fields: UserScalarFieldEnum }, { fields: { label: 'title' } })
  `,
  // Type-checked under every resolution with skipLibCheck, as Drizzle's own declarations need it.
  'drizzle.ts': `
    import { drizzleQuery, drizzleSelect } from 'fastify-restricted-fields/drizzle'
    import { integer, pgTable, text } from 'drizzle-orm/pg-core'

    const users = pgTable('users', { id: integer().primaryKey(), name: text().notNull(), firstName: text('first_name') })
    export const query = drizzleQuery(users, { fields: { full_name: { dependsOn: ['firstName', 'name'] } } })
    export const select = drizzleSelect(users, { always: ['id'] })
    // @ts-expect-error not a column of users
    drizzleQuery(users, { fields: { first: 'first_name' } })
  `,
  'orm.mjs': `
    import Fastify from 'fastify'
    import plugin from 'fastify-restricted-fields'
    import { drizzleQuery } from 'fastify-restricted-fields/drizzle'
    import { integer, pgTable, text } from 'drizzle-orm/pg-core'

    const users = pgTable('users', { id: integer().primaryKey(), name: text(), secret: text() })
    const load = drizzleQuery(users, { always: [] })
    const loaded = []
    const app = Fastify()
    await app.register(plugin)
    app.get('/', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } }, async (request) => {
      loaded.push(load(request.restrictedFields))
      return { id: 1, name: 'Ada', secret: 's3' }
    })
    const bodies = [(await app.inject('/')).body, (await app.inject('/?only=name')).body]
    console.log(JSON.stringify([bodies, loaded]))
  `,
  // A client typed from the example's generated document types (api.ts and restricted.ts, copied in), with openapi-fetch.
  'client.ts': `
    import createClient from 'openapi-fetch'
    import { restrictedClient } from 'fastify-restricted-fields/client'
    import type { RestrictedData } from 'fastify-restricted-fields/client'
    import type { paths } from './api.js'
    import type { RestrictedRoutes } from './restricted.js'

    type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
    type One = RestrictedRoutes['/api/users/{id}']['get']
    export const exact: Equal<RestrictedData<One, { params: { query: { only: readonly ['@summary', 'email'] } } }>, { id: number, name: string, email: string | null }> = true

    const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://127.0.0.1:1' }))
    export async function names (): Promise<string[]> {
      const { data } = await api.GET('/api/users/', { params: { query: { only: ['name'], defer: [] } } })
      // @ts-expect-error the id was not selected
      console.log(data?.results[0].id)
      return data?.results.map((user) => user.name) ?? []
    }
  `,
  'client.mjs': `
    import { restrictedClient } from 'fastify-restricted-fields/client'
    import { restrictedRoutesSource } from 'fastify-restricted-fields/client/generate'

    const sent = []
    const api = restrictedClient({ GET: async (path, init) => { sent.push([path, init]); return { data: {} } } })
    await api.GET('/users/{id}', { params: { path: { id: 1 }, query: { only: ['id'] } } })
    const source = restrictedRoutesSource({ openapi: '3.0.3', paths: {} })
    console.log(JSON.stringify([sent, source.includes('export interface RestrictedRoutes'), Object.keys(await import('fastify-restricted-fields/client'))]))
  `,
  // The MCP endpoint's optional peer dependency is not installed here: the main entry does not need it, its subpath does.
  'mcp.mjs': `
    import plugin from 'fastify-restricted-fields'
    try {
      await import('fastify-restricted-fields/mcp')
      console.log('imported')
    } catch (error) {
      console.log(JSON.stringify([typeof plugin, error.code, error.message.startsWith("Cannot find module '@modelcontextprotocol/sdk/types.js'")]))
    }
  `,
  // Type-checked under nodenext, where a .cts file is CommonJS and require()s the package.
  'require.cts': `
    import Fastify = require('fastify')
    import restrictedFields = require('fastify-restricted-fields')

    const app = Fastify()
    app.register(restrictedFields.default, { maxDepth: 4 })
    app.register(restrictedFields.fastifyRestrictedFields)

    export function code (error: unknown): 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD' | undefined {
      return error instanceof restrictedFields.UnknownFieldError ? error.code : undefined
    }
  `
}

const setups = [
  { name: 'nodenext', module: 'nodenext', moduleResolution: 'nodenext', files: ['app.ts', 'lists.ts', 'require.cts', 'client.ts'] },
  { name: 'bundler', module: 'esnext', moduleResolution: 'bundler', files: ['app.ts', 'lists.ts', 'client.ts'] },
  { name: 'node10', module: 'commonjs', moduleResolution: 'node10', files: ['app.ts', 'lists.ts', 'client.ts'] },
  { name: 'nodenext-drizzle', module: 'nodenext', moduleResolution: 'nodenext', files: ['drizzle.ts'], skipLibCheck: true },
  { name: 'bundler-drizzle', module: 'esnext', moduleResolution: 'bundler', files: ['drizzle.ts'], skipLibCheck: true },
  { name: 'node10-drizzle', module: 'commonjs', moduleResolution: 'node10', files: ['drizzle.ts'], skipLibCheck: true }
]

t.before(async () => {
  const [packed] = JSON.parse(await succeed('npm', ['pack', '--json', '--pack-destination', work], root))
  packedFiles = packed.files.map((file: { path: string }) => file.path).sort()
  await mkdir(consumer)
  await writeFile(join(consumer, 'package.json'), JSON.stringify({
    name: 'consumer',
    private: true,
    type: 'module',
    dependencies: {
      'fastify-restricted-fields': `file:${join(work, packed.filename)}`,
      fastify: oldestFastify,
      'drizzle-orm': '0.45',
      'openapi-fetch': '0.17',
      typescript: '5.9',
      '@types/node': '20'
    }
  }))
  for (const [name, text] of Object.entries(sources)) await writeFile(join(consumer, name), text)
  await copyFile(join(root, 'example', 'api.ts'), join(consumer, 'api.ts'))
  // The example's anonymous document: the consumer's restricted.ts is generated from it by the package's command.
  const app = await buildApp({ store: memoryStore([]), pageSize: 10 })
  await writeFile(join(consumer, 'openapi.json'), (await app.inject('/documentation/json')).body)
  await app.close()
  for (const setup of setups) {
    await writeFile(join(consumer, `tsconfig.${setup.name}.json`), JSON.stringify({
      compilerOptions: {
        module: setup.module,
        moduleResolution: setup.moduleResolution,
        target: 'es2022',
        lib: ['es2022'],
        types: ['node'],
        strict: true,
        esModuleInterop: true,
        skipLibCheck: setup.skipLibCheck ?? false,
        noEmit: true
      },
      files: setup.files
    }))
  }
  await succeed('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], consumer)
  await succeed(command, ['generate', 'openapi.json', '-o', 'restricted.ts'], consumer)
})

t.test('the package\'s command writes the client\'s types from a document, and refuses bad arguments with its usage and exit code 2', async (t) => {
  t.equal(await readFile(join(consumer, 'restricted.ts'), 'utf8'), await readFile(join(root, 'example', 'restricted.ts'), 'utf8'), 'the types the example generates')
  const refused = await run(command, ['generate'], consumer)
  t.strictSame([refused.code, refused.stdout], [2, ''])
  t.match(refused.stderr, /^fastify-restricted-fields: generate reads a document: give its URL or file\n\nUsage: fastify-restricted-fields generate <url or file> \[options\]\n/)
})

t.test('the tarball holds the compiled library, its declarations, the README and the LICENSE, and nothing else', async (t) => {
  const modules = (await readdir(join(root, 'lib'), { recursive: true })).filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -'.ts'.length))
  t.strictSame(packedFiles, [
    'LICENSE', 'README.md', 'package.json',
    ...modules.flatMap((name) => [`dist/package/${name}.d.ts`, `dist/package/${name}.js`])
  ].sort())
})

t.test('an ES module import registers the plugin on the oldest supported Fastify and restricts a response', async (t) => {
  t.equal(await succeed(process.execPath, ['esm.mjs'], consumer), JSON.stringify([
    oldestFastify, true, 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', 200, '{"b":2}', 400,
    { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message: "Unknown field 'c' in query parameter 'only'; allowed fields: a, b" }
  ]) + '\n')
})

t.test('an ORM adapter, imported from its subpath, loads the declared fields the response sends and never an undeclared column', async (t) => {
  t.equal(await succeed(process.execPath, ['orm.mjs'], consumer), JSON.stringify([
    ['{"id":1,"name":"Ada"}', '{"name":"Ada"}'],
    [{ columns: { id: true, name: true } }, { columns: { name: true } }]
  ]) + '\n')
})

t.test('the client subpath runs alone: it passes the call\'s options, the literal selection included, to the client it wraps', async (t) => {
  t.equal(await succeed(process.execPath, ['client.mjs'], consumer), JSON.stringify([
    [['/users/{id}', { params: { path: { id: 1 }, query: { only: ['id'] } } }]], true, ['restrictedClient']
  ]) + '\n')
})

t.test('without the MCP SDK, the package imports, and its mcp subpath says the SDK is missing', async (t) => {
  t.equal(await succeed(process.execPath, ['mcp.mjs'], consumer), JSON.stringify(['function', 'MODULE_NOT_FOUND', true]) + '\n')
})

t.test('require() returns the plugin itself, with default, fastifyRestrictedFields and the error constructors on it', async (t) => {
  t.equal(await succeed(process.execPath, ['require.cjs'], consumer), JSON.stringify([
    'function', true, true, [],
    [
      'DocumentLeakError', 'DocumentNotMadeError', 'HiddenFieldsUnknownError', 'InvalidFieldSetError', 'InvalidHiddenFieldsError', 'InvalidOptionError', 'InvalidParameterError', 'InvalidResultsKeyError', 'InvalidSourceError', 'LoadFailedError', 'NoDeclaredFieldsError', 'PathTooDeepError',
      'SelectionNotReadError', 'TooManyFieldsError', 'UnaddressableFieldError', 'UnknownFieldError', 'UnknownFieldSetError', 'UnreadableSchemaError', 'UnresolvedReferenceError', 'UnsupportedSchemaError',
      'default', 'fastifyRestrictedFields', 'loadPlanner'
    ],
    '{"b":2}'
  ]) + '\n')
})

t.test('the consumer has one fastify, its own: the package brings no copy', async (t) => {
  const copies = JSON.parse(await succeed('npm', ['query', '#fastify'], consumer))
  t.strictSame(copies.map((copy: { location: string, version: string }) => [copy.location, copy.version]), [['node_modules/fastify', oldestFastify]])
})

t.test('the consumer type-checks under nodenext, bundler and node10 resolution: with skipLibCheck: false, and the Drizzle adapter with it on, as Drizzle needs', async (t) => {
  const tsc = join(consumer, 'node_modules/typescript/bin/tsc')
  const outcomes = await Promise.all(setups.map(async (setup) => {
    const { code, stdout, stderr } = await run(process.execPath, [tsc, '-p', `tsconfig.${setup.name}.json`], consumer)
    return { setup: setup.name, code, output: stdout + stderr }
  }))
  t.strictSame(outcomes, setups.map((setup) => ({ setup: setup.name, code: 0, output: '' })))
})
