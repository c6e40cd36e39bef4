import { test } from 'tap'
import { declaredPaths } from '../lib/schema/paths.js'
import { normalizeOptions, resolveRouteOptions } from '../lib/options.js'
import { UNDECLARED_STATUS, buildRouteSpec } from '../lib/route.js'
import { tagSchema } from './fixtures.js'

const options = resolveRouteOptions(true, normalizeOptions({}), 'GET /')!

function specFor (response: Record<string, unknown>, shared = {}) {
  return buildRouteSpec(options, { response }, shared, 'GET /tags')
}

test('the success schema is read from 200, then 2xx, then the lowest 2xx code', async (t) => {
  const other = { type: 'object', properties: { other: {} } }
  t.strictSame(declaredPaths(specFor({ 201: other, 200: tagSchema, '2xx': other }).primary.tree), ['id', 'label'])
  t.strictSame(declaredPaths(specFor({ 201: other, '2xx': tagSchema }).primary.tree), ['id', 'label'])
  t.strictSame(declaredPaths(specFor({ 204: {}, 201: tagSchema, 400: other }).primary.tree), ['id', 'label'])
  t.strictSame(declaredPaths(specFor({ 200: { content: { 'application/json': { schema: tagSchema } } } }).tree), ['id', 'label'])
})

test('a spec built like another takes its statuses as they are, with its own name and rules', async (t) => {
  const get = specFor({ 200: tagSchema, 201: { type: 'object', properties: { id: { type: 'integer' }, job: { type: 'string' } } } })
  const head = buildRouteSpec({ ...options, defaultFields: ['id'] }, { response: {} }, {}, 'HEAD /tags', get)
  t.equal(head.route, 'HEAD /tags')
  t.equal(head.tree, get.tree)
  t.strictSame([head.statuses, head.primary, head.statusOf], [get.statuses, get.primary, get.statusOf])
  t.not(head.rules, get.rules)
  t.strictSame([get.unrequested, head.unrequested?.projection.map(({ node }) => node.name)], [null, ['id']])
})

test('every 2xx status with fields is restricted with its own; other 2xx codes are undeclared; other codes untouched', async (t) => {
  const codes = [200, 201, 204, 299, 300, 404, 500]
  const statuses = (response: Record<string, unknown>): unknown[] => {
    const spec = specFor(response)
    return codes.map((code) => {
      const status = spec.statusOf(code)
      return status === null ? null : status === UNDECLARED_STATUS ? 'undeclared' : status.key
    })
  }
  t.strictSame(statuses({ 200: tagSchema }), ['200', 'undeclared', 'undeclared', 'undeclared', null, null, null])
  t.strictSame(statuses({ '2xx': tagSchema, 201: { type: 'object' } }), ['2xx', 'undeclared', '2xx', '2xx', null, null, null])
  t.strictSame(statuses({ 201: tagSchema, 200: tagSchema, '2XX': { type: 'string' } }), ['200', '201', 'undeclared', 'undeclared', null, null, null])
  const listed = buildRouteSpec({ ...options, fields: ['id'] }, undefined, {}, 'GET /')
  t.strictSame(codes.map((code) => listed.statusOf(code) === null ? null : 'listed'), ['listed', 'listed', 'listed', 'listed', null, null, null])
})

test('names are checked against the fields of every restricted status; each keeps its own', async (t) => {
  const other = { type: 'object', properties: { id: { type: 'integer' }, job: { type: 'object', properties: { state: { type: 'string' } } }, label: { type: 'string' } } }
  const spec = specFor({ 201: other, 200: tagSchema })
  t.strictSame(declaredPaths(spec.tree), ['id', 'label', 'job', 'job.state'])
  t.strictSame(spec.statuses.map((status) => [status.key, declaredPaths(status.tree)]), [['200', ['id', 'label']], ['201', ['id', 'job', 'job.state', 'label']]])
  const single = specFor({ 200: tagSchema })
  t.equal(single.tree, single.primary.tree, 'one status: its own tree')
  const leafFirst = specFor({ 200: { type: 'object', properties: { job: { type: 'object' } } }, 201: other })
  t.strictSame(declaredPaths(leafFirst.tree), ['job', 'job.state', 'id', 'label'], 'a field with nested fields in one status keeps them')
  const both = specFor({ 200: { type: 'object', properties: { job: { type: 'object', properties: { kind: { type: 'string' } } } } }, 201: other })
  t.strictSame(declaredPaths(both.tree), ['job', 'job.kind', 'job.state', 'id', 'label'], 'nested fields of both statuses are merged')
})

test('a declared property that a request could not name fails at declaration, naming it', async (t) => {
  const rows: Array<[Record<string, unknown>, string, string]> = [
    [{ 'billing.card_last4': { type: 'string' } }, '"billing.card_last4"', "it holds '.', which separates names in a request"],
    [{ a: { type: 'object', properties: { 'b,c': { type: 'string' } } } }, '"a.b,c"', "it holds ',', which separates names in a request"],
    [{ ' padded': { type: 'string' } }, '" padded"', 'it starts or ends with a space, which a request trims'],
    [{ '': { type: 'string' } }, '""', 'it is empty']
  ]
  for (const [properties, path, reason] of rows) {
    t.throws(() => specFor({ 200: { type: 'object', properties } }), {
      code: 'FST_RESTRICTED_FIELDS_UNADDRESSABLE_FIELD',
      message: `Route GET /tags: the response property ${path} cannot be named in a request or a rule, because ${reason}`
    }, path)
  }
  const odd = { type: 'object', properties: { 'x(y)': { type: 'string' }, 'a[0]': { type: 'string' }, 'naïve name': { type: 'string' }, 'ü\u0000': { type: 'string' } } }
  t.strictSame(declaredPaths(specFor({ 200: odd }).tree), ['x(y)', 'a[0]', 'naïve name', 'ü\u0000'], 'brackets, parentheses, inner spaces and other characters are names like any other')
})

test('a route without declared fields fails at declaration, saying how to fix it', async (t) => {
  const message = 'Route GET /tags has restrictFields enabled but declares no fields: add a response schema for status 200 (or 2xx), or list the fields with restrictFields: { fields: [...] }'
  for (const response of [{}, { 404: tagSchema }, { 200: null }]) {
    t.throws(() => specFor(response), { code: 'FST_RESTRICTED_FIELDS_NO_DECLARED_FIELDS', message }, JSON.stringify(response))
  }
  t.throws(() => buildRouteSpec(options, undefined, {}, 'GET /tags'), { message })
})

test('a response schema without object fields, or one that cannot be read, fails at declaration naming the status, the place and the keyword', async (t) => {
  const rows: Array<{ response: Record<string, unknown>, message: string }> = [
    {
      response: { 200: { type: 'string' } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#' (keyword 'type'): it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them"
    },
    {
      response: { 201: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: {} } }] } } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 201 at '#' (keyword 'type'): it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them"
    },
    {
      response: { 200: {} },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#' (keyword '{}'): it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them"
    },
    {
      response: { 200: { items: { type: 'string' } } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#' (keyword 'items'): it declares no object fields; records are objects (properties, allOf, anyOf/oneOf of objects, if/then/else) or arrays of them"
    },
    {
      response: { 200: { type: 'object', properties: { a: { $id: 'dup', type: 'string' }, b: { $id: 'dup', type: 'integer' } } } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#' (keyword '$id'): There is already another schema with id \"dup\"."
    },
    {
      response: { 200: { $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#/definitions/a' (keyword '$ref'): its references loop without reaching a schema"
    },
    {
      response: { 200: { type: 'object', properties: { pet: { anyOf: Array.from({ length: 65 }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: {} } })) } } } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#/properties/pet' (keyword 'anyOf'): it has 65 variants, more than the 64 a level may have"
    },
    {
      response: { 200: { allOf: Array.from({ length: 3 }, (_, m) => ({ anyOf: Array.from({ length: 5 }, (_, i) => ({ type: 'object', properties: { [`k${m}${i}`]: {} } })) })) } },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#' (keyword 'allOf'): its members combine into 125 variants, more than the 64 a level may have"
    },
    {
      // Two variants each declare a pet of 33 kinds of their own: the pet level has 66, side by side.
      response: {
        200: {
          oneOf: ['a', 'b'].map((kind) => ({
            type: 'object',
            required: ['kind'],
            properties: { kind: { const: kind }, pet: { oneOf: Array.from({ length: 33 }, (_, i) => ({ type: 'object', required: [`${kind}${i}`], properties: { [`${kind}${i}`]: {} } })) } }
          }))
        }
      },
      message: "Route GET /tags: cannot read the fields of its response schema for status 200 at '#/oneOf/0/properties/pet' (keyword 'oneOf'): the variants that declare it give it 66 variants, more than the 64 a level may have"
    }
  ]
  for (const { response, message } of rows) {
    t.throws(() => specFor(response), { code: 'FST_RESTRICTED_FIELDS_UNSUPPORTED_SCHEMA', statusCode: 500, message }, JSON.stringify(response).slice(0, 80))
  }
})

test('an unresolvable $ref fails at declaration, naming the route and the ref', async (t) => {
  t.throws(() => specFor({ 200: { $ref: 'missing#' } }), {
    code: 'FST_RESTRICTED_FIELDS_UNRESOLVED_REFERENCE',
    message: "Route GET /tags: cannot resolve $ref 'missing#' in its response schema; add the referenced schema with fastify.addSchema() before declaring the route"
  })
})

test('fields and a response schema together are refused', async (t) => {
  t.throws(() => buildRouteSpec({ ...options, fields: ['id'] }, { response: { 200: tagSchema } }, {}, 'GET /tags'), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_OPTION',
    message: "fastify-restricted-fields, route GET /tags: `fields` is for routes without a response schema; this route's fields are read from its schema, remove `fields`"
  })
})

const task = { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'string' } } }
const taskPage = { type: 'object', properties: { total: { type: 'integer' }, tasks: { type: 'array', items: task } } }

test('a route\'s own resultsKey that none of its success schemas holds records under fails at declaration, naming the route and the keys', async (t) => {
  const own = (resultsKey: string) => resolveRouteOptions({ resultsKey }, normalizeOptions({}), 'GET /tasks')!
  const rows: Array<[string, Record<string, unknown>, string]> = [
    ['task', { 200: taskPage }, "resultsKey 'task' is not an array of records in its 200 response schema; its keys are: total, tasks (the records are under 'tasks')"],
    ['labels', { 200: { type: 'object', properties: { total: { type: 'integer' }, labels: { type: 'array', items: { type: 'string' } } } } },
      "resultsKey 'labels' is not an array of records in its 200 response schema; its keys are: total, labels"],
    ['owner', { 201: { type: 'object', properties: { owner: task } } }, "resultsKey 'owner' is not an array of records in its 201 response schema; its keys are: owner"],
    ['tasks', { 200: { type: 'array', items: task } }, "resultsKey 'tasks' is not an array of records in its 200 response schema; the schema is an array of records itself, which takes no resultsKey"],
    ['results', { 200: task }, "resultsKey 'results' is not an array of records in its 200 response schema; its keys are: id, status"]
  ]
  for (const [key, response, message] of rows) {
    t.throws(() => buildRouteSpec(own(key), { response }, {}, 'GET /tasks'), {
      code: 'FST_RESTRICTED_FIELDS_INVALID_RESULTS_KEY', statusCode: 500, message: 'Route GET /tasks: ' + message
    }, `${key} in ${JSON.stringify(response).slice(0, 60)}`)
  }
  const mixed = buildRouteSpec(own('tasks'), { response: { 200: taskPage, 201: task } }, {}, 'GET /tasks')
  t.strictSame(mixed.statuses.map((status) => status.shape.kind), ['envelope', 'object'], 'one status holding the records is enough')
  t.equal(buildRouteSpec({ ...own('tasks'), fields: ['id'] }, undefined, {}, 'GET /tasks').primary.shape.kind, 'auto', 'a fields route has no schema to hold them')
  const plugin = resolveRouteOptions(true, normalizeOptions({ resultsKey: 'task' }), 'GET /tasks')!
  t.strictSame([taskPage, { type: 'array', items: task }].map((schema) => buildRouteSpec(plugin, { response: { 200: schema } }, {}, 'GET /tasks').primary.shape.kind),
    ['object', 'array'], 'the plugin\'s resultsKey leaves a route whose schema does not hold it one object, or a plain array')
})

test('a route read as one object that looks like an envelope keeps the key its records are likely under, and only such a route', async (t) => {
  const recordsKey = (response: Record<string, unknown>, options = resolveRouteOptions(true, normalizeOptions({}), 'GET /tasks')!) =>
    buildRouteSpec(options, { response }, {}, 'GET /tasks').rules.recordsKey
  t.equal(recordsKey({ 200: taskPage }), 'tasks')
  t.equal(recordsKey({ 200: taskPage, 201: taskPage }), 'tasks', 'every status one such object')
  t.equal(recordsKey({ 200: taskPage, 201: { type: 'object', properties: { total: { type: 'integer' }, results: { type: 'array', items: task } } } }), null,
    'a status that is an envelope')
  t.equal(recordsKey({ 200: { type: 'array', items: taskPage } }), null, 'an array')
  t.equal(recordsKey({ 200: taskPage }, resolveRouteOptions({ resultsKey: 'tasks' }, normalizeOptions({}), 'GET /tasks')!), null, 'an envelope')
  t.equal(recordsKey({ 200: task }), null, 'a record without an array of records')
})
