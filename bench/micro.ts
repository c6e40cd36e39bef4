/**
 * `npm run bench:micro`: the per-request cost of the plugin's own work, in
 * nanoseconds per call, without HTTP: parsing a selection, finding it in the
 * memo of raw query strings, reading a list never sent before (the memo
 * missed, then the parse), and looking up its compiled serializer.
 * Results go to bench/micro.json, and the table of docs/benchmarks.md is written from them.
 */
import { writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { AdmissionCache } from '../lib/cache.js'
import { declaredResponse } from '../lib/schema/reader.js'
import { parseSelection, selectionReader, selectionRules } from '../lib/selection.js'
import { TOP_LEVEL_FIELDS, recordSchema } from './data.js'
import { writeReadme } from './write-readme.js'

const declared = declaredResponse(recordSchema, 'results', 8, { root: recordSchema, shared: {}, unresolved: () => { throw new Error('unresolved') }, unreadable: () => { throw new Error('unreadable') } })!
const rules = selectionRules({ onlyParam: 'only', deferParam: 'defer', unknownFields: 'reject', maxFields: 100, maxDepth: 8 })
const read = selectionReader(declared.tree, rules, 100)
const cache = new AdmissionCache<string>(100)
cache.set('id,name', 'serializer')

const only = { only: ['id', 'name'] }
const defer = { defer: TOP_LEVEL_FIELDS.filter((field) => field !== 'id' && field !== 'name') }
const nested = { only: 'id,profile.city,tags.label', defer: 'profile.city' }
// One comma list, as a client sends it; each call gets a raw query string never seen before, as a new list would.
const list = { only: 'id,email,age,score,profile,tags' }
const nestedList = { only: 'id,email,profile.city,tags.label' }
let sent = 0

const rows: Array<{ operation: string, ns: number }> = []

function time (title: string, run: () => unknown): void {
  for (let i = 0; i < 200_000; i++) run()
  const rounds: number[] = []
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < 500_000; i++) run()
    rounds.push(Number(process.hrtime.bigint() - start) / 500_000)
  }
  rounds.sort((a, b) => a - b)
  console.log(`| ${title} | ${rounds[2].toFixed(0)} |`)
  rows.push({ operation: title, ns: rounds[2] })
}

console.log('| operation | ns per call (median of 5) |')
console.log('|---|---:|')
time('no restriction parameter', () => read({ page: '2' }, 'page=2'))
time('parse only=id&only=name', () => parseSelection(only, declared.tree, rules))
time('parse defer of 8 fields', () => parseSelection(defer, declared.tree, rules))
time('parse nested paths with only and defer', () => parseSelection(nested, declared.tree, rules))
time('remembered query string (memo hit)', () => read(only, 'only=id&only=name'))
time('never-seen list of six top-level fields (memo miss and parse)', () => read(list, `only=id,email,age,score,profile,tags&n=${sent++}`))
time('never-seen list with nested paths (memo miss and parse)', () => read(nestedList, `only=id,email,profile.city,tags.label&n=${sent++}`))
time('compiled serializer lookup (cache hit)', () => cache.get('id,name'))
writeFileSync(fileURLToPath(new URL('../../bench/micro.json', import.meta.url)), JSON.stringify({
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  rows
}, null, 2) + '\n')
writeReadme()
