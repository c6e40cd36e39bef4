/**
 * Whether `find_operations` answers the operation an agent needs first. Tasks
 * phrased as people ask an agent, each with the operations that answer it,
 * are asked of GitHub's description (the scale benchmark's app, served with
 * the MCP endpoint in discovery mode, through `tools/call`, as an anonymous
 * caller), of Stripe's (its GET operations, searched straight from the
 * description) and of Box's (its GET operations answering JSON, the same
 * way). Two sets: the tuning set (bench/search-tasks.json), which the ranking
 * was tuned on, and the held-out set (bench/search-heldout.json), written
 * before and never tuned on, the only one for Box. Beside each, a plain BM25
 * over the same texts of the same operations: the floor the search must not
 * fall below. Reports top-1 and top-5 of each, and of the tuning set what a
 * search costs, the index's first build, the event loop's longest delay and
 * the tasks missed; of the held-out set only its shares, since its misses
 * read while tuning would make it a tuning set. Writes bench/search.json.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import Fastify from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../lib/index.js'
import restrictedFieldsMcp from '../lib/mcp/index.js'
import { DiscoveryView } from '../lib/mcp/discovery.js'
import { searchEntry, textWords } from '../lib/mcp/search.js'
import { documentOperations, includeRestrictedRoutes, toolName } from '../lib/mcp/tools.js'
import type { IncludeTools } from '../lib/mcp/tools.js'
import { namesOf } from './search-answer.js'
import { declareRoutes, describe, readDescription } from './description.js'
import { watched } from './drive.js'
import { BOX_FILE, STRIPE_FILE, jsonGetPaths } from './search-scope.js'
import type { Task } from './search-scope.js'

type Json = Record<string, any>
interface Ranked { task: string, expected: string[], found: string[] }
type Searched = ReadonlyArray<{ name: string }>
/** The tasks of one description: the tuning set's, and the held-out set's. */
interface Sets { tuning: readonly Task[], heldOut: readonly Task[] }
const TARGETS = { top1: 0.8, top5: 0.95 }
const startedAt = performance.now()

function progress (what: string): void {
  process.stderr.write(`  ${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${what}\n`)
}

/**
 * A plain BM25 (k1 1.2, b 0.75) over every text of an operation as one bag of lower-case words: no
 * stems, no stop words, no field weights.
 */
function plainBm25 (texts: readonly string[]): (query: string) => number[] {
  const k1 = 1.2
  const b = 0.75
  const documents = texts.map((text) => {
    const counts = new Map<string, number>()
    const words = textWords(text)
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1)
    return { counts, length: words.length }
  })
  const averageLength = documents.reduce((sum, { length }) => sum + length, 0) / documents.length
  const frequency = new Map<string, number>()
  for (const { counts } of documents) for (const word of counts.keys()) frequency.set(word, (frequency.get(word) ?? 0) + 1)
  const idf = (word: string): number => {
    const n = frequency.get(word) ?? 0
    return Math.log(1 + (documents.length - n + 0.5) / (n + 0.5))
  }
  return (query) => {
    const words = [...new Set(textWords(query))]
    return documents.map(({ counts, length }, index) => {
      let score = 0
      for (const word of words) {
        const tf = counts.get(word) ?? 0
        if (tf > 0) score += idf(word) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / averageLength))
      }
      return { index, score }
    }).filter(({ score }) => score > 0).sort((x, y) => y.score - x.score || x.index - y.index).map(({ index }) => index)
  }
}

/** Top-1 and top-5 of ranked answers, and the tasks whose operation is not in the top five. */
function scores (ranked: readonly Ranked[]): Json {
  const hit = (found: readonly string[], expected: readonly string[], k: number): boolean =>
    found.slice(0, k).some((name) => expected.includes(name))
  const share = (k: number): number =>
    Math.round(1000 * ranked.filter(({ found, expected }) => hit(found, expected, k)).length / ranked.length) / 1000
  return {
    top1: share(1),
    top5: share(5),
    missedTop5: ranked
      .filter(({ found, expected }) => !hit(found, expected, 5))
      .map(({ task, expected, found }) => ({ task, expected, found: found.slice(0, 3) }))
  }
}

function median (values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)]
}

/** The BM25 floor over the same texts the search reads, from the same document. */
function bm25Ranked (document: Json, tasks: readonly Task[], include: IncludeTools): Ranked[] {
  const operations = documentOperations(document, include)
  const search = plainBm25(operations.map((operation, id) => {
    // The pairs of words are the search's own terms, not texts of the operation; the path is read whole, its parameter names too.
    const { id: _, pairs: __, ...texts } = searchEntry(id, operation, document)
    return Object.values({ ...texts, path: operation.path.replace(/[{}]/g, ' ') }).join(' ')
  }))
  return tasks.map(({ task, operations: expected }) => ({ task, expected: expected.map((id) => toolName(id, '')), found: search(task).slice(0, 5).map((index) => operations[index].name) }))
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Asks every task of a view's search, one at a time: the answers, the median
 * and longest time of one search, and the process's CPU time per search (on a
 * busy machine, wall time is mostly waiting for a core).
 */
async function ask (
  tasks: readonly Task[], find: (query: string) => Promise<string>
): Promise<{ ranked: Ranked[], medianMs: number, maxMs: number, cpuMs: number }> {
  const times: number[] = []
  const ranked: Ranked[] = []
  const cpuBefore = cpuMs()
  for (const { task, operations } of tasks) {
    const started = performance.now()
    const text = await find(task)
    times.push(performance.now() - started)
    ranked.push({ task, expected: operations.map((id) => toolName(id, '')), found: namesOf(text) })
  }
  const cpu = (cpuMs() - cpuBefore) / tasks.length
  const thousandths = (value: number): number => Math.round(value * 1000) / 1000
  return { ranked, medianMs: thousandths(median(times)), maxMs: thousandths(Math.max(...times)), cpuMs: thousandths(cpu) }
}

/** The CPU time of the search alone, on the view's own index (no protocol around it): per search, and per hundred operations. */
async function searchCpu (document: Json, include: IncludeTools, tasks: readonly Task[]): Promise<Json> {
  const view = new DiscoveryView(document, include)
  const operations = documentOperations(document, include).length
  const before = cpuMs()
  const build = await watched(async () => await view.find(''))
  const buildCpuMs = Math.round(cpuMs() - before)
  const { cpuMs: perSearch } = await ask(tasks, async (query) => await view.find(query, 5))
  return {
    indexBuildCpuMs: buildCpuMs,
    indexBuildMs: build.ms,
    indexBuildLoopDelayMaxMs: build.loopDelayMaxMs,
    cpuMsPerSearch: perSearch,
    cpuMsPer100Operations: Math.round(100_000 * perSearch / operations) / 1000
  }
}

/** How many tasks name no operation the view searches: none of them can be found, whatever the ranking (counted without searching). */
function outsideTheSearch (tasks: readonly Task[], operations: Searched): number {
  const searched = new Set(operations.map(({ name }) => name))
  return tasks.filter(({ operations: expected }) => !expected.some((id) => searched.has(toolName(id, '')))).length
}

/** The held-out set's shares, beside BM25's: no task by name, nothing to tune on. */
function heldOutResult (about: string, operations: Searched, tasks: readonly Task[], ranked: Ranked[], bm25: Ranked[]): Json {
  const found = scores(ranked)
  const floor = scores(bm25)
  return {
    about,
    set: 'held out',
    operations: operations.length,
    tasks: tasks.length,
    tasksOutsideTheSearch: outsideTheSearch(tasks, operations),
    findOperations: { top1: found.top1, top5: found.top5 },
    bm25: { top1: floor.top1, top5: floor.top5 }
  }
}

async function github ({ tuning, heldOut }: Sets): Promise<{ tuning: Json, heldOut: Json }> {
  progress('declaring GitHub\'s routes')
  const openapi = readDescription()
  const description = describe(openapi)
  const app = Fastify({ logger: false })
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))
  await app.register(swagger, { openapi: { info: { title: description.title, version: description.version }, tags: openapi.tags } })
  await app.register(fastifyRestrictedFields)
  await app.register(restrictedFieldsMcp, { path: '/mcp', mode: 'discovery' })
  declareRoutes(app, openapi, description, () => ({}))
  // The anonymous caller's own document, for the BM25 floor over the same texts.
  app.get('/bench/document', { schema: { hide: true } as never }, async (request) => await (app as unknown as { restrictedFieldsDocument: (request: unknown, options: { shared: true }) => Promise<unknown> }).restrictedFieldsDocument(request, { shared: true }))
  await app.ready()
  let id = 0
  const call = async (name: string, args: Json): Promise<string> => {
    const response = await app.inject({ method: 'POST', url: '/mcp', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } } })
    return JSON.parse(response.body).result.content[0].text
  }
  const find = async (query: string): Promise<string> => await call('find_operations', { query, limit: 5 })
  progress('the caller\'s document')
  const document = (await app.inject('/bench/document')).json()
  if (process.env.BENCH_SEARCH_DOCUMENT !== undefined) writeFileSync(process.env.BENCH_SEARCH_DOCUMENT, JSON.stringify(document))
  // The view's document is made by a describe; the first search then makes only the index.
  await call('describe_operation', { operation: 'meta_root' })
  progress('the first search')
  const first = await watched(async () => await call('find_operations', { query: 'list issues of a repository' }))
  progress('the tasks')
  const asked = await ask(tuning, find)
  const heldOutAsked = await ask(heldOut, find)
  const long = await watched(async () => await call('find_operations', { query: 'x'.repeat(65_000) }))
  await app.close()
  const own = await searchCpu(document, includeRestrictedRoutes, tuning)
  const operations = documentOperations(document, includeRestrictedRoutes)
  const about = 'GitHub, the scale benchmark\'s app in discovery mode, anonymous caller, through tools/call'
  return {
    tuning: result(about, operations, tuning, asked, own, bm25Ranked(document, tuning, includeRestrictedRoutes), first, long),
    heldOut: heldOutResult(about, operations, heldOut, heldOutAsked.ranked, bm25Ranked(document, heldOut, includeRestrictedRoutes))
  }
}

const readPackaged = (file: string): Json => JSON.parse(readFileSync(createRequire(import.meta.url).resolve(file), 'utf8'))

async function stripe ({ tuning, heldOut }: Sets): Promise<{ tuning: Json, heldOut: Json }> {
  progress('Stripe')
  const openapi = readPackaged(STRIPE_FILE)
  const view = new DiscoveryView(openapi, () => true)
  const find = async (query: string): Promise<string> => await view.find(query, 5)
  const first = await watched(async () => await view.find('list customers'))
  const asked = await ask(tuning, find)
  const heldOutAsked = await ask(heldOut, find)
  const own = await searchCpu(openapi, () => true, tuning)
  const operations = documentOperations(openapi, () => true)
  const about = 'Stripe, every GET operation, searched straight from the description'
  return {
    tuning: result(about, operations, tuning, asked, own, bm25Ranked(openapi, tuning, () => true), first),
    heldOut: heldOutResult(about, operations, heldOut, heldOutAsked.ranked, bm25Ranked(openapi, heldOut, () => true))
  }
}

/** Box's description, which no ranking was tuned on: held-out tasks only, searched like Stripe's. */
async function box (heldOut: readonly Task[]): Promise<Json> {
  progress('Box')
  const openapi = readPackaged(BOX_FILE)
  const paths = jsonGetPaths(openapi)
  const include: IncludeTools = (route) => paths.has(route.path)
  const view = new DiscoveryView(openapi, include)
  const { ranked } = await ask(heldOut, async (query) => await view.find(query, 5))
  const about = 'Box, every GET operation answering JSON, searched straight from the description'
  return heldOutResult(about, documentOperations(openapi, include), heldOut, ranked, bm25Ranked(openapi, heldOut, include))
}

function result (
  about: string, operations: Searched, tasks: readonly Task[], asked: Awaited<ReturnType<typeof ask>>, own: Json, bm25: Ranked[],
  first: { ms: number, loopDelayMaxMs: number }, long?: { value: string, ms: number }
): Json {
  const found = scores(asked.ranked)
  const floor = scores(bm25)
  return {
    about,
    set: 'tuning set',
    operations: operations.length,
    tasks: tasks.length,
    tasksOutsideTheSearch: outsideTheSearch(tasks, operations),
    findOperations: { top1: found.top1, top5: found.top5 },
    bm25: { top1: floor.top1, top5: floor.top5 },
    shortOfTargets: {
      top1: Math.max(0, Math.round(1000 * (TARGETS.top1 - found.top1)) / 1000),
      top5: Math.max(0, Math.round(1000 * (TARGETS.top5 - found.top5)) / 1000)
    },
    search: { medianMs: asked.medianMs, maxMs: asked.maxMs, cpuMs: asked.cpuMs, ...own },
    firstSearch: first,
    ...long === undefined ? {} : { query64kB: { ms: long.ms, answer: long.value } },
    missedTop5: found.missedTop5
  }
}

type TaskFile = Record<'github' | 'stripe', Task[]> & { box?: Task[] }
const readTasks = (file: string): TaskFile => JSON.parse(readFileSync(new URL(`../../bench/${file}`, import.meta.url), 'utf8'))
const tuning = readTasks('search-tasks.json')
const heldOut = readTasks('search-heldout.json')
const load = loadavg()
const githubSets = await github({ tuning: tuning.github, heldOut: heldOut.github })
const stripeSets = await stripe({ tuning: tuning.stripe, heldOut: heldOut.stripe })
// The tuning set's figures stay where they were; the held-out sets sit apart, under their own name.
const results = {
  load,
  github: githubSets.tuning,
  stripe: stripeSets.tuning,
  heldOut: { github: githubSets.heldOut, stripe: stripeSets.heldOut, box: await box(heldOut.box ?? []) }
}
writeFileSync(new URL('../../bench/search.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
const tuned = [['GitHub', results.github], ['Stripe', results.stripe]] as const
const { heldOut: held } = results
const everySet = [tuned[0], ['GitHub', held.github], tuned[1], ['Stripe', held.stripe], ['Box', held.box]] as const
const row = (cells: readonly unknown[]): string => `| ${cells.join(' | ')} |`
console.log(`Load average when it started: ${load.map((value) => value.toFixed(1)).join(' ')}`)
console.log(row(['description', 'set', 'tasks', 'find_operations top-1', 'top-5', 'plain BM25 top-1', 'top-5']))
console.log(row(Array(7).fill('---')))
for (const [name, { operations, set, tasks, findOperations, bm25 }] of everySet) {
  console.log(row([`${name} (${operations} operations)`, set, tasks, findOperations.top1, findOperations.top5, bm25.top1, bm25.top5]))
}
for (const [name, { set, tasksOutsideTheSearch }] of everySet) {
  if (tasksOutsideTheSearch > 0) console.log(`${name}, ${set}: ${tasksOutsideTheSearch} tasks name no operation the search reads`)
}
console.log('\nThe tuning set\'s searches:')
console.log(row(['description', 'a search, CPU ms', 'per 100 operations', 'the index\'s build, CPU ms']))
console.log(row(Array(4).fill('---')))
for (const [name, { operations, search }] of tuned) {
  const build = `${search.indexBuildCpuMs} (longest loop delay ${search.indexBuildLoopDelayMaxMs} ms)`
  console.log(row([`${name} (${operations} operations)`, search.cpuMsPerSearch, search.cpuMsPer100Operations, build]))
}
for (const [name, { shortOfTargets, firstSearch, search, missedTop5 }] of tuned) {
  console.log([
    `${name}, tuning set: short of the targets (top-1 ${TARGETS.top1}, top-5 ${TARGETS.top5}) by ${shortOfTargets.top1} and ${shortOfTargets.top5}`,
    `first search (the index's build) ${firstSearch.ms} ms, longest loop delay meanwhile ${firstSearch.loopDelayMaxMs} ms`,
    `a search through tools/call ${search.medianMs} ms median, ${search.maxMs} ms longest, ${search.cpuMs} ms CPU`,
    `${missedTop5.length} tasks missed in the top 5 (bench/search.json lists them)`
  ].join('; '))
}
console.log(`GitHub, a 64 kB query through tools/call: ${results.github.query64kB.ms} ms, answered: ${results.github.query64kB.answer}`)
