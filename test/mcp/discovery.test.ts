import { test } from 'tap'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { DISCOVERY_TOOLS, DiscoveryView } from '../../lib/mcp/discovery.js'
import { SchemaBudget } from '../../lib/mcp/json-schema.js'

const fields = (names: string[]): unknown => ({ name: 'only', in: 'query', schema: { type: 'array', items: { type: 'string', enum: names } } })
const restricted = (extra: Record<string, unknown> = {}): unknown => ({ statuses: {}, only: 'only', defer: 'defer', sets: {}, maxDepth: 8, ...extra })

/** A caller's document: issues of a repository, one issue, a user, and an operation that did not opt in. */
const document = {
  openapi: '3.0.3',
  tags: [
    { name: 'issues', description: 'Issues and pull requests.\nEvery repository has them.' },
    { name: 'secrets', description: 'Tagged on no operation of this caller.' },
    { name: 'issues', description: 'A second entry of a tag is not read.' },
    'not a tag'
  ],
  components: {
    schemas: { state: { type: 'string', enum: ['open', 'closed'] } },
    parameters: { owner: { name: 'owner', in: 'path', required: true, schema: { type: 'string' }, description: 'The account owner of the repository.' } }
  },
  paths: {
    '/repos/{owner}/{repo}/issues': {
      parameters: [{ $ref: '#/components/parameters/owner' }, { name: 'repo', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'issues/list-for-repo',
        summary: 'List repository issues',
        description: 'Issues and pull requests.\n\nNewest first.',
        tags: ['issues'],
        parameters: [
          { name: 'state', in: 'query', schema: { $ref: '#/components/schemas/state', nullable: true } },
          fields(['id', 'title', 'user', 'user.login', 'user.plan', 'user.plan.name', 'labels', 'labels.name', '*', '@card']),
          { name: 'defer', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
          { name: 'owner', in: 'query', schema: { type: 'string' } }
        ],
        'x-restricted-fields': restricted({ sets: { card: ['id', 'title'] }, defaultFields: ['id', 'title'] })
      }
    },
    '/repos/{owner}/{repo}/issues/{number}': { get: { operationId: 'issues/get', summary: 'Get an issue', tags: ['issues'], 'x-restricted-fields': restricted() } },
    '/users/{username}': { get: { operationId: 'users/get-by-username', summary: 'Get a user' } },
    '/plain': { get: { parameters: [{ name: 'q', in: 'query' }] } },
    '/meta': { get: { operationId: 'meta/root', summary: 'x'.repeat(200), description: 'y'.repeat(500), 'x-restricted-fields': restricted() } }
  }
}

const view = new DiscoveryView(document, () => true)
const budget = (): SchemaBudget => new SchemaBudget(1000)

test('a search finds operations by the words of their names, summaries, tags, paths, parameters and fields (never a field set\'s name), best first, one line each', async (t) => {
  const cases: Array<[string, number | undefined, string]> = [
    ['list issues', undefined, [
      'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]',
      'issues_get: /repos/{owner}/{repo}/issues/{number} (Get an issue) [issues]'
    ].join('\n')],
    ['username', undefined, 'users_get-by-username: /users/{username} (Get a user) [users]'],
    ['repo', 1, 'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]\n1 more match: use more words, or a higher limit.'],
    ['nothing like it', undefined, 'No operation matches; 5 in all: try other words.'],
    ['', 2, 'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]\nissues_get: /repos/{owner}/{repo}/issues/{number} (Get an issue) [issues]\n3 more match: use more words, or a higher limit.'],
    ['meta', 0.5, `meta_root: /meta (${'x'.repeat(119)}…) [meta]`],
    ['usern', 1000, 'users_get-by-username: /users/{username} (Get a user) [users]'],
    ['plain', undefined, 'get_plain: /plain [plain]'],
    ['plan', undefined, 'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]'],
    ['state', undefined, 'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]'],
    ['card', undefined, 'No operation matches; 5 in all: try other words.']
  ]
  for (const [query, limit, expected] of cases) t.equal(await view.find(query, limit), expected, `${query} (${String(limit)})`)
})

test('a description says what the operation takes, its top-level fields marked when nested, its sets and defaults; a field lists those right under it', async (t) => {
  t.equal(view.describe('issues_list-for-repo', undefined, budget()), [
    'issues_list-for-repo: GET /repos/{owner}/{repo}/issues',
    'List repository issues. Issues and pull requests. Newest first.',
    'Without only: id, title (@default).',
    'Field sets: @card is id, title.',
    'Arguments:',
    '- owner (string, path, required): The account owner of the repository.',
    '- repo (string, path, required)',
    '- state (query): {"type":["string","null"],"enum":["open","closed",null]}',
    '- only, defer (query): lists of field names, to keep and to leave out',
    'Fields: id, title, user{}, labels{}',
    "{} marks nested fields: name one in describe_operation's fields to list them; dotted paths choose them (a.b)."
  ].join('\n'))
  const cases: Array<[string, string | undefined, string | null]> = [
    ['issues_list-for-repo', 'user', 'Fields of issues_list-for-repo under user: user.login, user.plan{}'],
    ['issues_list-for-repo', 'user.plan', 'Fields of issues_list-for-repo under user.plan: user.plan.name'],
    ['issues_list-for-repo', 'title', 'No fields are nested under that field in issues_list-for-repo; describe_operation without fields lists the top level.'],
    ['issues_list-for-repo', 'secret', 'No fields are nested under that field in issues_list-for-repo; describe_operation without fields lists the top level.'],
    ['issues_get', undefined, 'issues_get: GET /repos/{owner}/{repo}/issues/{number}\nGet an issue\nWithout only: every field.\nArguments:\n- only, defer (query): lists of field names, to keep and to leave out\nFields: none.'],
    ['users_get-by-username', '', 'users_get-by-username: GET /users/{username}\nGet a user\nArguments: none.\nFields: not selectable; the whole reply is sent.'],
    ['meta_root', undefined, `meta_root: GET /meta\n${'x'.repeat(200)}. ${'y'.repeat(97)}…\nWithout only: every field.\nArguments:\n- only, defer (query): lists of field names, to keep and to leave out\nFields: none.`],
    ['get_plain', undefined, 'get_plain: GET /plain\nArguments:\n- q (query): {}\nFields: not selectable; the whole reply is sent.'],
    ['nothing', undefined, null]
  ]
  for (const [name, prefix, expected] of cases) t.equal(view.describe(name, prefix, budget()), expected, `${name} ${String(prefix)}`)
  const bare = new DiscoveryView({ openapi: '3.1.0', paths: { '/x': { get: { parameters: [{ name: 'n', in: 'query', schema: { $ref: '#/components/schemas/n' } }] } } } }, () => true)
  t.equal(bare.describe('get_x', undefined, budget()), 'get_x: GET /x\nArguments:\n- n (query): {}\nFields: not selectable; the whole reply is sent.', 'a document without components')
  t.ok(view.has('issues_get'))
  t.notOk(view.has('issues'))
})

test('a bounded list is browsed as far as it lists; under its deepest listed fields, every field gets the same answer, which says deeper paths are taken', async (t) => {
  const list = { anyOf: [{ type: 'string', enum: ['id', 'user', 'user.plan', '*'] }, { type: 'string', pattern: '^[^.]+(\\.[^.]+){2,}$' }] }
  const wide = new DiscoveryView({
    openapi: '3.0.3',
    components: { schemas: { 'Fields-1': list } },
    paths: { '/issues': { get: { operationId: 'issues', parameters: [{ name: 'only', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/Fields-1' } } }], 'x-restricted-fields': restricted() } } }
  }, () => true)
  const unlisted = 'No fields are listed under that field in issues: its list stops at a depth, and a deeper dotted path is sent as it is ' +
    '(the call says whether it is known); describe_operation without fields lists the top level.'
  const cases: Array<[string, string]> = [
    ['user', 'Fields of issues under user: user.plan'],
    ['user.plan', unlisted],
    ['id', unlisted],
    ['secret', unlisted]
  ]
  for (const [prefix, expected] of cases) t.equal(wide.describe('issues', prefix, budget()), expected, prefix)
  t.match(wide.describe('issues', undefined, budget()), /\nFields: id, user\{\}\n/)
})

test('the areas are the first tags, or else the first fixed segment of the path; each lists its count and a line of its tag\'s description', async (t) => {
  t.equal(view.browse(undefined), [
    'Areas: 4; list_operations with an area lists its operations:',
    'issues (2): Issues and pull requests.',
    'users (1)',
    'plain (1)',
    'meta (1)'
  ].join('\n'))
  const cases: Array<[string, number | undefined, string]> = [
    ['issues', undefined, [
      'issues (2), page 1 of 1:',
      'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [issues]',
      'issues_get: /repos/{owner}/{repo}/issues/{number} (Get an issue) [issues]'
    ].join('\n')],
    ['users', 7, 'users (1), page 1 of 1:\nusers_get-by-username: /users/{username} (Get a user) [users]'],
    ['secrets', 1, 'No such area; list_operations without an area lists them.'],
    ['Issues', 1, 'No such area; list_operations without an area lists them.']
  ]
  for (const [area, page, expected] of cases) t.equal(view.browse(area, page), expected, `${area} ${String(page)}`)
  t.equal(new DiscoveryView({ openapi: '3.1.0', paths: {} }, () => true).browse(undefined), 'No operations.')
})

test('an area\'s operations come a page of 20 at a time, the last page saying none follows; a page out of range is the nearest', async (t) => {
  const paths = Object.fromEntries(Array.from({ length: 41 }, (_, index) => [`/items/${index}`, { get: { operationId: `item${index}`, tags: [' ', 'items', 'other'] } }]))
  const items = new DiscoveryView({ openapi: '3.1.0', paths, tags: [{ name: 'items' }] }, () => true)
  const lines = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, index) => `item${from + index}: /items/${from + index} [items]`)
  t.equal(items.browse(undefined), 'Areas: 1; list_operations with an area lists its operations:\nitems (41)')
  const cases: Array<[number | undefined, string[]]> = [
    [undefined, ['items (41), page 1 of 3:', ...lines(0, 20), 'More: page 2.']],
    [2.5, ['items (41), page 2 of 3:', ...lines(20, 40), 'More: page 3.']],
    [3, ['items (41), page 3 of 3:', ...lines(40, 41)]],
    [99, ['items (41), page 3 of 3:', ...lines(40, 41)]],
    [-1, ['items (41), page 1 of 3:', ...lines(0, 20), 'More: page 2.']]
  ]
  for (const [page, expected] of cases) t.equal(items.browse('items', page), expected.join('\n'), String(page))
  const root = new DiscoveryView({ openapi: '3.1.0', paths: { '/': { get: { operationId: 'root' } }, '/{id}': { get: { operationId: 'byId', tags: 'x' } } } }, () => true)
  t.equal(root.browse(undefined), 'Areas: 1; list_operations with an area lists its operations:\n/ (2)', 'a path without a fixed segment is in /')
})

test('the discovery mode\'s four tools cost fewer than 600 tokens, whatever the API', async (t) => {
  t.strictSame(DISCOVERY_TOOLS.map((tool) => tool.name), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  const tokens = countTokens(JSON.stringify(DISCOVERY_TOOLS))
  t.ok(tokens <= 600, `${tokens} tokens`)
})
