import { test } from 'tap'
import { documentTools, parameterOf, toolDescription, toolName, unwrappedDefinition } from '../../lib/mcp/tools.js'

const GUIDE = 'Ask only for the fields you need: `only` keeps the fields named (dotted paths reach nested ones, * is every field), `defer` leaves fields out.'

test('a tool is named after the operation id, or its method and path, in the characters clients accept', async (t) => {
  const cases: Array<[unknown, string, string]> = [
    ['listUsers', '/users', 'listUsers'],
    ['users.list v2', '/users', 'users_list_v2'],
    ['..', '/users', 'get'],
    [undefined, '/api/users/{id}/posts', 'get_api_users_id_posts'],
    ['', '/', 'get'],
    [42, '/x', 'get_x'],
    ['a'.repeat(80), '/x', 'a'.repeat(64)]
  ]
  for (const [operationId, path, expected] of cases) t.equal(toolName(operationId, path), expected, `${String(operationId)} ${path}`)
})

test('a tool\'s description is the operation\'s words, then how to choose its fields, its sets and its defaults', async (t) => {
  const fields = { statuses: { 200: { record: { $ref: '#/x' }, records: 'object' as const } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8 }
  const cases: Array<[Record<string, unknown>, typeof fields & { defaultFields?: string[] } | undefined, string]> = [
    [{ summary: 'Get a user', description: 'By id!' }, undefined, 'Get a user. By id!'],
    [{ summary: '  ', description: 'Ends with a colon:' }, undefined, 'Ends with a colon:'],
    [{}, undefined, ''],
    [{ summary: 'One' }, fields, `One.\n${GUIDE}\nWithout \`only\`: every field.`],
    [{}, { ...fields, only: 'fields', defer: 'omit', sets: { summary: ['id', 'name'], contact: ['email'] }, defaultFields: ['id'] },
      'Ask only for the fields you need: `fields` keeps the fields named (dotted paths reach nested ones, * is every field), `omit` leaves fields out.\n' +
      'Field sets: @summary is id, name; @contact is email.\nWithout `fields`: id (@default).']
  ]
  for (const [operation, description, expected] of cases) t.equal(toolDescription(operation, description), expected, expected)
})

const userRecord = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string', nullable: true } }, additionalProperties: false }

/** A caller's document, as the plugin makes it, with the operations given. */
function document (paths: Record<string, unknown>, openapi = '3.0.3'): Record<string, unknown> {
  return {
    openapi,
    paths,
    components: {
      schemas: { userRestricted: userRecord },
      parameters: { page: { name: 'page', in: 'query', required: true, schema: { type: 'integer' }, description: 'The page.' } }
    }
  }
}

const onlyParameter = { name: 'only', in: 'query', description: 'Keep only these fields (only=a&only=b).', schema: { type: 'array', items: { type: 'string', enum: ['id', 'name', '*'] } } }
const deferParameter = { name: 'defer', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['id', 'name'] } } }
const restricted = { statuses: { 200: { record: { $ref: '#/components/schemas/user' }, records: 'object' } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8 }
const json = (schema: unknown): unknown => ({ content: { 'application/json': { schema } } })

test('a restricted GET becomes a tool whose input is its parameters, with the caller\'s field names, and whose output is its restricted response', async (t) => {
  const tools = documentTools(document({
    '/users/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'id', in: 'query', schema: { type: 'string' } }],
      get: {
        operationId: 'getUser',
        summary: 'Get a user',
        parameters: [onlyParameter, deferParameter, { name: 'x-trace', in: 'header', schema: { type: 'string' } }, { $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/missing' }],
        responses: { 200: json({ $ref: '#/components/schemas/userRestricted', description: 'The user.' }), 404: json({ type: 'object' }) },
        'x-restricted-fields': restricted
      },
      post: { operationId: 'makeUser', 'x-restricted-fields': restricted }
    }
  }))
  t.strictSame(tools, [{
    definition: {
      name: 'getUser',
      title: 'Get a user',
      description: `Get a user.\n${GUIDE}\nWithout \`only\`: every field.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          only: { type: ['array', 'null'], items: { type: 'string', enum: ['id', 'name', '*'] }, description: 'The fields to return; absent: the default ones.' },
          defer: { type: ['array', 'null'], items: { type: 'string', enum: ['id', 'name'] }, description: 'The fields to leave out.' },
          page: { type: 'integer', description: 'The page.' }
        },
        required: ['id', 'page'],
        additionalProperties: false
      },
      outputSchema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } }, additionalProperties: false, description: 'The user.' },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    call: { path: '/users/{id}', pathParams: ['id'], queryParams: ['only', 'defer', 'page'], arrays: ['only', 'defer'], structured: true, wrapped: false }
  }])
})

test('which operations become tools, and what a tool gets when its reply is not an object or has no schema', async (t) => {
  const paths = {
    '/a': { get: { operationId: 'same', responses: { 200: json({ type: 'array', items: { $ref: '#/components/schemas/userRestricted' } }) }, 'x-restricted-fields': { ...restricted, statuses: { 200: { record: { $ref: '#/components/schemas/user' }, records: 'array' } } } } },
    '/b': { get: { operationId: 'same', responses: { '2XX': { content: { 'text/json': { schema: { type: 'string' } } } } } } },
    '/c': { get: { responses: { 204: { description: 'Nothing' } } } },
    '/d': { get: { responses: {} } },
    '/e': { get: { responses: { 200: { content: { 'text/plain': {} } } } } },
    '/f': { get: {} },
    '/g': null,
    '/h': { parameters: 'none', get: { parameters: 'none', responses: { 200: json({ $ref: '#/components/schemas/selfish' }) } } }
  }
  const doc = document(paths, '3.1.0')
  ;(doc.components as Record<string, any>).schemas.selfish = { type: 'array', items: { $ref: '#/components/schemas/selfish' } }
  const tools = documentTools(doc, () => true)
  t.strictSame(tools.map((tool) => [tool.definition.name, tool.definition.outputSchema, tool.call.structured, tool.call.wrapped]), [
    ['same', {
      type: 'object',
      properties: { result: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, additionalProperties: false } } },
      required: ['result'],
      additionalProperties: false
    }, true, true],
    ['same_2', { type: 'object', properties: { result: { type: 'string' } }, required: ['result'], additionalProperties: false }, true, true],
    ['get_c', undefined, false, false],
    ['get_d', undefined, false, false],
    ['get_e', undefined, false, false],
    ['get_f', undefined, false, false],
    ['get_h', {
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/selfish' } } },
      required: ['result'],
      additionalProperties: false,
      $defs: { selfish: { type: 'array', items: { $ref: '#/$defs/selfish' } } }
    }, true, true]
  ])
  t.strictSame(tools.find((tool) => tool.definition.name === 'get_c')?.definition, {
    name: 'get_c', description: '', inputSchema: { type: 'object', properties: {}, additionalProperties: false }, annotations: { readOnlyHint: true, openWorldHint: false }
  })
  t.strictSame(documentTools(document(paths)).map((tool) => tool.definition.name), ['same'], 'by default, the restricted routes alone')
  const seen: unknown[] = []
  documentTools(document(paths), (route) => { seen.push(route); return false })
  t.strictSame(seen.slice(0, 3), [{ method: 'GET', path: '/a', restricted: true, operationId: 'same' }, { method: 'GET', path: '/b', restricted: false, operationId: 'same' }, { method: 'GET', path: '/c', restricted: false }])
  for (const nothing of [null, {}, { paths: [] }]) t.strictSame(documentTools(nothing), [], JSON.stringify(nothing))
})

test('a parameter without a schema takes anything, and a restriction parameter declared as text is a list all the same', async (t) => {
  const [tool] = documentTools({
    openapi: '3.0.3',
    paths: { '/x': { get: { parameters: [{ name: 'q', in: 'query' }, { ...onlyParameter, schema: { type: 'string' } }], 'x-restricted-fields': restricted } } }
  })
  t.strictSame(tool.definition.inputSchema.properties, {
    q: {},
    only: { type: ['array', 'null'], items: { type: 'string' }, description: 'The fields to return; absent: the default ones.' }
  })
})

test('a bounded list of the document is the tools\' list as it is, and defer\'s without `*` and the sets', async (t) => {
  const bounded = { anyOf: [{ type: 'string', enum: ['a', 'b', '*', '@default'] }, { type: 'string', pattern: '^[^.]+(\\.[^.]+){1,}$' }] }
  const items = { $ref: '#/components/schemas/Fields-1' }
  const doc = document({
    '/x': {
      get: {
        parameters: [{ name: 'only', in: 'query', schema: { type: 'array', items } }, { name: 'defer', in: 'query', schema: { type: 'array', items } }],
        'x-restricted-fields': { ...restricted, defaultFields: ['a'] }
      }
    }
  })
  ;(doc.components as Record<string, any>).schemas['Fields-1'] = bounded
  const [tool] = documentTools(doc)
  t.strictSame(tool.definition.inputSchema.properties, {
    only: { type: ['array', 'null'], items: bounded, description: 'The fields to return; absent: the default ones.' },
    defer: {
      type: ['array', 'null'],
      items: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'string', pattern: '^[^.]+(\\.[^.]+){1,}$' }] },
      description: 'The fields to leave out.'
    }
  })
})

test('a parameter is read with the list its items refer to in place, and as it is otherwise', async (t) => {
  const list = { type: 'string', enum: ['id', '*'] }
  const bounded = { anyOf: [{ type: 'string', enum: ['id', '*'] }, { type: 'string', pattern: '^[^.]+(\\.[^.]+){1,}$' }] }
  const document = { components: { schemas: { 'Fields-1': list, 'Fields-2': bounded, plain: { type: 'string' } }, parameters: { shared: { name: 'only', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/Fields-1' } } } } } }
  const only = (items: unknown): unknown => ({ name: 'only', in: 'query', schema: { type: 'array', items } })
  const table: Array<[string, unknown, unknown]> = [
    ['a list among the components', only({ $ref: '#/components/schemas/Fields-1' }), only(list)],
    ['a bounded list among the components', only({ $ref: '#/components/schemas/Fields-2' }), only(bounded)],
    ['through a shared parameter', { $ref: '#/components/parameters/shared' }, only(list)],
    ['a component that is no list', only({ $ref: '#/components/schemas/plain' }), only({ $ref: '#/components/schemas/plain' })],
    ['a list in another document', only({ $ref: 'other.json#/list' }), only({ $ref: 'other.json#/list' })],
    ['items without a reference', only({ type: 'string' }), only({ type: 'string' })],
    ['no parameter', { in: 'query' }, null]
  ]
  for (const [title, parameter, expected] of table) t.strictSame(parameterOf(document, parameter), expected, title)
})

test('a wrapped tool is listed for 2026-07-28 with its reply\'s own output schema, the definitions it refers to kept at the top', async (t) => {
  const annotations = { readOnlyHint: true, openWorldHint: false } as const
  const base = { name: 'listNodes', description: 'Lists nodes.', inputSchema: { type: 'object' }, annotations }
  const node = { type: 'object', properties: { next: { $ref: '#/$defs/node' } } }
  const cases = [
    [{ type: 'array', items: { $ref: '#/$defs/node' } }, { node }],
    [{ type: 'string' }, undefined]
  ] as const
  for (const [reply, $defs] of cases) {
    const wrapped = { type: 'object', properties: { result: reply }, required: ['result'], additionalProperties: false, ...$defs === undefined ? {} : { $defs } }
    const unwrapped = { ...reply, ...$defs === undefined ? {} : { $defs } }
    t.strictSame(unwrappedDefinition({ ...base, outputSchema: wrapped }), { ...base, outputSchema: unwrapped })
  }
})
