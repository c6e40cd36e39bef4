import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { test } from 'tap'
import { declaredPathsOf, describe, readDescription } from '../../bench/description.js'
import { BOX_FILE, STRIPE_FILE, getPaths, jsonGetPaths, operationGroups } from '../../bench/search-scope.js'
import type { Task } from '../../bench/search-scope.js'

type Json = Record<string, any>

const readJson = (url: URL | string): Json => JSON.parse(readFileSync(url, 'utf8'))
const heldOut = readJson(new URL('../../bench/search-heldout.json', import.meta.url)) as Record<'github' | 'stripe' | 'box', Task[]>
const tuning = readJson(new URL('../../bench/search-tasks.json', import.meta.url)) as Record<'github' | 'stripe', Task[]>
const packaged = (file: string): Json => readJson(createRequire(import.meta.url).resolve(file))

test('every held-out task names only operations the bench searches, and every group of them is asked about', async (t) => {
  const github = readDescription()
  const { routes, shared } = describe(github)
  const byId = Object.fromEntries(shared.map((schema) => [schema.$id, schema]))
  // A route whose records declare no fields cannot restrict them: the bench declares it plainly, outside the anonymous caller's search.
  const restricted = routes.filter((route) => declaredPathsOf(route, byId).length > 0).map(({ path }) => path)
  const stripe = packaged(STRIPE_FILE)
  const box = packaged(BOX_FILE)
  const sets: Array<[string, Task[], Map<string, string>, number]> = [
    ['github', heldOut.github, operationGroups(github, restricted), 200],
    ['stripe', heldOut.stripe, operationGroups(stripe, getPaths(stripe)), 100],
    ['box', heldOut.box, operationGroups(box, jsonGetPaths(box)), 60]
  ]
  for (const [name, tasks, groups, least] of sets) {
    const named = tasks.flatMap(({ operations }) => operations)
    t.ok(tasks.length >= least, `${name}: ${tasks.length} tasks, at least ${least}`)
    t.strictSame(tasks.filter(({ operations }) => operations.length === 0), [], `${name}: every task has an answer`)
    t.strictSame(named.filter((id) => !groups.has(id)), [], `${name}: every operation named is searched`)
    const asked = new Set(named.map((id) => groups.get(id)))
    t.strictSame([...new Set(groups.values())].filter((group) => !asked.has(group)), [], `${name}: every group is asked about`)
  }
})

test('no held-out task repeats another, or a tuning task', async (t) => {
  const words = (task: string): string => task.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()
  const tuned = new Set([...tuning.github, ...tuning.stripe].map(({ task }) => words(task)))
  const asked = [...heldOut.github, ...heldOut.stripe, ...heldOut.box].map(({ task }) => words(task))
  t.strictSame(asked.filter((task, index) => asked.indexOf(task) !== index), [])
  t.strictSame(asked.filter((task) => tuned.has(task)), [])
})

test('an operation is grouped by its first tag, or by the resource its path names first', async (t) => {
  const json = { content: { 'application/json': {} } }
  const openapi = {
    paths: {
      '/v1/charges/{charge}': { get: { operationId: 'GetChargesCharge' } },
      '/files/{id}': { get: { operationId: 'get_files_id', responses: { 200: { $ref: '#/components/responses/Ok' } } } },
      '/files/{id}/content': { get: { operationId: 'get_files_id_content', responses: { 200: { content: { 'image/png': {} } } } } },
      '/folders': { get: { operationId: 'get_folders', tags: ['Folders', 'More'], responses: { 201: json, default: {} } } },
      '/later': { post: {} }
    },
    components: { responses: { Ok: json } }
  }
  t.strictSame([...jsonGetPaths(openapi)], ['/files/{id}', '/folders'])
  t.strictSame([...jsonGetPaths({ paths: { '/a': { get: {} } } })], [])
  t.strictSame(getPaths(openapi), ['/v1/charges/{charge}', '/files/{id}', '/files/{id}/content', '/folders'])
  const groups = operationGroups(openapi, ['/v1/charges/{charge}', '/folders'])
  t.strictSame([...groups], [['GetChargesCharge', 'charges'], ['get_folders', 'Folders']])
})
