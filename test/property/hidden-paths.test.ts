import { test } from 'tap'
import fc from 'fast-check'
import Fastify from 'fastify'
import fastifyRestrictedFields from '../../lib/index.js'
import { project, trieOf } from '../oracle.js'
import { propertyRuns } from './generators.js'
import { compileBudget } from '../../lib/compile.js'

// What these tests count must not hang on how busy the machine is: the process's compile time is unbounded here (lib/compile.ts).
compileBudget.configure({ msPerSecond: Infinity, burstMs: Infinity })

const numRuns = propertyRuns(1 / 5)

// Nested objects, arrays of objects and of scalars, a free-form object, and variants.
const record = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    last_login: { type: 'string' },
    profile: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        phone: { type: 'string' },
        geo: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } }
      }
    },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, internal: { type: 'boolean' } } } },
    scores: { type: 'array', items: { type: 'integer' } },
    meta: { type: 'object', additionalProperties: true },
    pet: {
      oneOf: [
        { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' }, lives: { type: 'integer' } } },
        { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' }, breed: { type: 'string' } } }
      ]
    }
  }
}
const records = [
  { id: 1, last_login: 'L1', profile: { city: 'Oslo', phone: 'P1', geo: { lat: 59.9, lng: 10.7 } }, tags: [{ label: 'a', internal: true }], scores: [1, 2], meta: { secret: 'S1', plan: 'pro', nested: { deep: 'D1', keep: 1 } }, pet: { kind: 'cat', lives: 9 } },
  { id: 2, last_login: 'L2', profile: { city: 'Rome', phone: 'P2', geo: { lat: 41.9, lng: 12.5 } }, tags: [], scores: [], meta: { secret: 'S2' }, pet: { kind: 'dog', breed: 'collie' } }
]

/** Every declared path, and whether it is a leaf that holds no fields. */
const declared: Array<[string, boolean]> = [
  ['id', true], ['last_login', true], ['profile', false], ['profile.city', true], ['profile.phone', true], ['profile.geo', false],
  ['profile.geo.lat', true], ['profile.geo.lng', true], ['tags', false], ['tags.label', true], ['tags.internal', true],
  ['scores', true], ['meta', false], ['pet', false], ['pet.kind', true], ['pet.lives', true], ['pet.breed', true]
]
/** Well-formed paths inside the free-form value: they hide a key of it. */
const inside = ['meta.secret', 'meta.nested', 'meta.nested.deep', 'meta.plan']
const wellFormed = [...declared.map(([path]) => path), ...inside]

/** Malformed look-alikes of a path: none names a field, so each must fail the rule. */
function lookAlikes (path: string, scalar: boolean, freeForm: boolean): string[] {
  const names = path.split('.')
  const last = names[names.length - 1]
  const alike = [
    `${path}.`, `.${path}`, `${path}..`, names.join('..'), `${path}..${last}`,
    ` ${path}`, `${path} `, names.join(' .'), names.join('. '),
    `${path}[0]`, `${path}[]`, `${path},`, `,${path}`, names.join(','),
    names.length > 1 ? `${names.slice(0, -1).join('.')}[${last}]` : `[${path}]`
  ]
  if (scalar) alike.push(`${path}.x`, `${path}.${last}`, `${path}.x.y`)
  if (!freeForm) {
    // Inside a free-form value another key may be spelled so; among declared names it is a slip.
    alike.push(path.toUpperCase(), names.slice(0, -1).concat(last[0].toUpperCase() + last.slice(1)).join('.'))
    if (last.length > 1) alike.push(names.slice(0, -1).concat(`${last.slice(0, 1)} ${last.slice(1)}`).join('.'))
  }
  return alike.filter((candidate) => !wellFormed.includes(candidate))
}

const cases = [
  ...declared.flatMap(([path, scalar]) => lookAlikes(path, scalar, false)),
  ...inside.flatMap((path) => lookAlikes(path, false, true))
]
// Strings that appear only in records: a failed reply must carry none of them.
const values = ['L1', 'Oslo', 'P1', 'S1', 'D1', 'collie', '59.9']

async function appWithRule () {
  const app = Fastify()
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => JSON.parse(String(request.headers['x-hide'])) })
  const schema = { response: { 200: { type: 'array', items: record } } }
  app.get('/users', { restrictFields: true, schema }, async () => records)
  app.get('/copied', { restrictFields: { cacheSize: 0 }, schema }, async () => records)
  app.get('/plain', { schema }, async () => records)
  await app.ready()
  return app
}

test('every malformed look-alike of every declared path fails the rule with a 500 and sends no value', async (t) => {
  const app = await appWithRule()
  t.teardown(() => app.close())
  t.ok(cases.length > 250, `${cases.length} look-alikes`)
  let failed = 0
  for (const slip of new Set(cases)) {
    for (const url of ['/users', '/users?only=id,profile,tags,meta,pet', '/users?only=id,profile,tags,meta,pet', '/copied?defer=scores']) {
      const response = await app.inject({ url, headers: { 'x-hide': JSON.stringify([slip]) } })
      const body = response.json()
      if (response.statusCode !== 500 || body.code !== 'FST_RESTRICTED_FIELDS_INVALID_HIDDEN_FIELDS' || !body.message.includes(`returned '${slip}'`) ||
        values.some((value) => response.body.includes(value))) {
        t.fail(`${JSON.stringify(slip)} at ${url}: ${response.statusCode} ${response.body}`)
      } else {
        failed++
      }
    }
  }
  t.equal(failed, new Set(cases).size * 4, 'every look-alike, on the compiled, written and copied paths')
})

test('any set of well-formed paths hides exactly what it names, on the compiled, written and copied paths', async (t) => {
  const app = await appWithRule()
  t.teardown(() => app.close())
  const unrestricted = (await app.inject('/plain')).json()
  let checked = 0
  await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...wellFormed), { minLength: 1, maxLength: 4 }), async (hidden) => {
    const headers = { 'x-hide': JSON.stringify(hidden) }
    const expected = JSON.stringify(project(unrestricted, null, trieOf(hidden)))
    for (const url of ['/copied', '/users', '/users']) {
      const response = await app.inject({ url, headers })
      if (response.body !== expected) throw new Error(`hiding ${hidden.join(', ')} at ${url}: expected ${expected}, got ${response.body}`)
    }
    if (!hidden.includes('scores')) {
      const deferred = JSON.stringify(project(unrestricted, null, trieOf([...hidden, 'scores'])))
      for (const url of ['/copied?defer=scores', '/users?defer=scores', '/users?defer=scores']) {
        const response = await app.inject({ url, headers })
        if (response.body !== deferred) throw new Error(`hiding ${hidden.join(', ')} at ${url}: expected ${deferred}, got ${response.body}`)
      }
    }
    checked++
  }), { numRuns })
  t.equal(checked, numRuns)
})
