import { test } from 'tap'
import type { Test } from 'tap'
import Fastify from 'fastify'
import type { FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import fastifyRestrictedFields from '../../lib/index.js'
import { MAX_QUERY_LENGTH, MAX_QUERY_WORDS, OperationSearch, queryRefusal, queryShape, queryTerms, queryValues, searchEntry, textWords, wordParts } from '../../lib/mcp/search.js'
import type { ValueKind } from '../../lib/mcp/search.js'

type Json = Record<string, any>
const record = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, secret_salary: { type: 'number' } } }

/**
 * An app of a few routes in discovery mode, whose anonymous callers may not see `secret_salary`;
 * `mcp` is the endpoint plugin to register.
 */
async function app (t: Test, mcp: (fastify: FastifyInstance, options: Json) => Promise<void>): Promise<FastifyInstance> {
  const fastify = Fastify()
  t.teardown(() => fastify.close())
  await fastify.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  await fastify.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'Bearer staff' ? [] : ['secret_salary'] })
  await fastify.register(mcp, { mode: 'discovery' })
  const routes: Array<[string, string, string]> = [
    ['/repos/:owner/:repo/pulls', 'pulls/list', 'List pull requests'],
    ['/repos/:owner/:repo/pulls/:number', 'pulls/get', 'Get a pull request'],
    ['/repos/:owner/:repo/issues', 'issues/list-for-repo', 'List repository issues'],
    ['/repos/:owner/:repo/issues/:number', 'issues/get', 'Get an issue'],
    ['/orgs/:org/members', 'orgs/list-members', 'List organization members'],
    ['/user/repos', 'repos/list-for-authenticated-user', 'List repositories for the authenticated user']
  ]
  for (const [url, operationId, summary] of routes) {
    fastify.get(url, { restrictFields: true, schema: { operationId, summary, response: { 200: record } } }, async () => ({}))
  }
  return fastify
}

let id = 0
async function find (fastify: FastifyInstance, args: Json, headers: Record<string, string> = {}): Promise<Json> {
  const response = await fastify.inject({
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    payload: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'find_operations', arguments: args } }
  })
  return JSON.parse(response.body).result
}

const found = (...lines: string[]): Json => ({ content: [{ type: 'text', text: lines.join('\n') }] })
const tooLong = (message: string): Json => ({ content: [{ type: 'text', text: JSON.stringify({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_QUERY_TOO_LONG', error: 'Bad Request', message }) }], isError: true })
const PULLS = 'pulls_list: /repos/{owner}/{repo}/pulls (List pull requests) [repos]'
const PULL = 'pulls_get: /repos/{owner}/{repo}/pulls/{number} (Get a pull request) [repos]'
const ISSUES = 'issues_list-for-repo: /repos/{owner}/{repo}/issues (List repository issues) [repos]'
const ISSUE = 'issues_get: /repos/{owner}/{repo}/issues/{number} (Get an issue) [repos]'
const MEMBERS = 'orgs_list-members: /orgs/{org}/members (List organization members) [orgs]'
const MY_REPOS = 'repos_list-for-authenticated-user: /user/repos (List repositories for the authenticated user) [user]'

test('a query longer or of more words than a search takes is refused with a coded error naming the limit', async (t) => {
  const { default: mcp } = await import('../../lib/mcp/index.js')
  const fastify = await app(t, mcp)
  const cases: Array<[string, Json]> = [
    ['x'.repeat(65_000), tooLong(`Argument 'query' is too long: at most ${MAX_QUERY_LENGTH} characters are allowed`)],
    ['x'.repeat(MAX_QUERY_LENGTH + 1), tooLong("Argument 'query' is too long: at most 500 characters are allowed")],
    [Array.from({ length: MAX_QUERY_WORDS + 1 }, () => 'pull').join(' '), tooLong("Argument 'query' has too many words: at most 32 are allowed")],
    [Array.from({ length: MAX_QUERY_WORDS }, () => 'pulls').join(' '), found(PULLS, PULL)],
    [`${'pulls '.repeat(50)}`.padEnd(MAX_QUERY_LENGTH, ' '), tooLong("Argument 'query' has too many words: at most 32 are allowed")]
  ]
  for (const [query, expected] of cases) t.strictSame(await find(fastify, { query }), expected, `${query.length} characters`)
  t.strictSame(queryRefusal('list the pulls'), undefined)
})

test('the search ranks the operation a task asks for first, in words other than its summary', async (t) => {
  const { default: mcp } = await import('../../lib/mcp/index.js')
  const fastify = await app(t, mcp)
  const cases: Array<[string, Json]> = [
    ['show me the open PRs on my repo', found(PULL, PULLS, MY_REPOS, ISSUES, ISSUE)],
    ['fetch PR 42', found(PULL, PULLS)],
    ['bugs reported in the repository', found(ISSUES, ISSUE, MY_REPOS, PULLS, PULL)],
    ['who is in the acme org', found(MEMBERS, MY_REPOS)],
    ['my own repos', found(MY_REPOS, ISSUES, PULLS, PULL, ISSUE)],
    ['please show', found('No operation matches; 6 in all: try other words.')],
    ['', found(PULLS, PULL, ISSUES, ISSUE, MEMBERS, MY_REPOS)]
  ]
  for (const [query, expected] of cases) t.strictSame(await find(fastify, { query }), expected, query)
})

test('a field hidden from the caller is no word of its index: only a caller who may see it finds by it', async (t) => {
  const { default: mcp } = await import('../../lib/mcp/index.js')
  const fastify = await app(t, mcp)
  const none = found('No operation matches; 6 in all: try other words.')
  t.strictSame(await find(fastify, { query: 'secret salary' }), none, 'anonymous')
  t.strictSame(await find(fastify, { query: 'salary' }), none, 'anonymous, one word')
  const everyOperation = found(PULLS, PULL, ISSUES, ISSUE, MEMBERS, MY_REPOS)
  t.strictSame(await find(fastify, { query: 'salary' }, { authorization: 'Bearer staff' }), everyOperation, 'staff')
  t.strictSame(await find(fastify, { query: 'salary' }), none, 'anonymous again, after staff')
})

test('a view\'s index is built once, at its first search, and shared by concurrent first searches and the searches after it', async (t) => {
  let built = 0
  const search = await import('../../lib/mcp/search.js')
  const counted = {
    ...search,
    OperationSearch: {
      async build (...args: Parameters<typeof search.OperationSearch.build>) {
        built++
        return await search.OperationSearch.build(...args)
      }
    }
  }
  const { DiscoveryView } = await t.mockImport<typeof import('../../lib/mcp/discovery.js')>('../../lib/mcp/discovery.js', { '../../lib/mcp/search.js': counted })
  const document = {
    openapi: '3.1.0',
    paths: {
      '/pulls': { get: { operationId: 'pulls/list', summary: 'List pull requests' } },
      '/issues': { get: { operationId: 'issues/list', summary: 'List issues' } }
    }
  }
  const view = new DiscoveryView(document, () => true)
  t.equal(built, 0, 'no index before a search')
  t.strictSame(await Promise.all([view.find('pull requests'), view.find('issues')]), ['pulls_list: /pulls (List pull requests) [pulls]', 'issues_list: /issues (List issues) [issues]'])
  t.equal(built, 1, 'concurrent first searches share one build')
  t.equal(await view.find('bugs'), 'issues_list: /issues (List issues) [issues]')
  t.equal(built, 1, 'later searches read the same index')
  await new DiscoveryView(document, () => true).find('issues')
  t.equal(built, 2, 'another view has its own')
})

test('words of a text split camelCase, snake_case, kebab-case and paths, in lower case', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['listPullRequests', ['list', 'pull', 'requests']],
    ['open PRs', ['open', 'prs']],
    ['GetHTTPSConfig /repos/{owner}/git_refs', ['get', 'https', 'config', 'repos', 'owner', 'git', 'refs']],
    ['issues/list-for-repo', ['issues', 'list', 'for', 'repo']],
    ['  ', []]
  ]
  for (const [text, expected] of cases) t.strictSame(textWords(text), expected, text)
})

test('an operation is searched by its name, summary, description without markup, tags, path, resource, parameter names, the field names of its only, what its tags, parameters and record say of themselves, and the pairs of words side by side in its name, summary and path', async (t) => {
  const only = { name: 'only', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['id', 'user.login_name', '*', '@card'] } } }
  const restricted = { only: 'only', defer: 'defer' }
  const document = {
    tags: [{ name: 'issues', description: 'Bug reports' }, { name: 'other', description: 'Unrelated' }, 'loose'],
    components: {
      parameters: { state: { name: 'state', in: 'query', description: 'Open or closed' } },
      schemas: {
        issue: { title: 'Issue', description: 'A <i>tracked</i> problem', properties: { body: { description: 'What was reported' }, user: { $ref: '#/components/schemas/user' } } },
        user: { description: 'A person', properties: { login: { description: 'Too deep to be read' } } },
        loop: { $ref: '#/components/schemas/loop' }
      }
    }
  }
  const list = { content: { 'application/json': { schema: { anyOf: [{ type: 'array', items: { $ref: '#/components/schemas/issue' } }, { $ref: '#/components/schemas/loop' }] } } } }
  const entry = (path: string, operation: Json, pathItem: Json = {}): Json => searchEntry(3, { name: 'op', path, pathItem, operation }, document)
  const cases: Array<[string, Json, Json, Json]> = [
    ['/repos/{owner}/issues', {
      summary: 'List issues',
      description: '<p>Newest <b>first</b></p>',
      tags: ['issues', 7],
      parameters: [only, { name: 'defer', in: 'query' }, { $ref: '#/components/parameters/state' }, { name: 'x-trace', in: 'header' }, null],
      responses: { 200: list },
      'x-restricted-fields': restricted
    }, { parameters: [{ name: 'owner', in: 'path' }] },
    {
      id: 3,
      name: 'op',
      summary: 'List issues',
      description: ' Newest  first  ',
      tags: 'issues',
      path: '/repos/ /issues',
      resource: 'issues',
      parameters: 'state owner',
      context: 'Bug reports Open or closed',
      record: 'Issue A  tracked  problem What was reported A person',
      fields: 'id user login name',
      pairs: 'issu~repo',
      shape: 'qqmany'
    }],
    ['/issues/{number}', { parameters: [{ name: 'state', in: 'query' }], 'x-restricted-fields': restricted }, {},
      { id: 3, name: 'op', summary: '', description: '', tags: '', path: '/issues/ ', resource: 'issues', parameters: 'state', context: '', record: '', fields: '', pairs: '', shape: 'qqone' }],
    ['/{id}', { parameters: [{ ...only, schema: { type: 'string' } }], 'x-restricted-fields': restricted }, {},
      { id: 3, name: 'op', summary: '', description: '', tags: '', path: '/ ', resource: '', parameters: '', context: '', record: '', fields: '', pairs: '', shape: 'qqone' }]
  ]
  for (const [path, operation, pathItem, expected] of cases) t.strictSame(entry(path, operation, pathItem), expected, path)
})

test('a query searches its words, their synonyms, the parts of a joined word, related words and counterparts, and the pairs of its words side by side, each at its weight', async (t) => {
  const known = new Set(['git', 'ignore', 'templates', 'web', 'hooks'])
  const cases: Array<[string, Json]> = [
    ['who watches the repo', { peopl: 0.3, user: 0.3, watch: 1, watcher: 0.5, repo: 1, repositori: 1, 'repo~watch': 1, 'repositori~watch': 1, 'repo~watcher': 0.5, 'repositori~watcher': 0.5 }],
    ['chargebacks', { chargeback: 1 }],
    ['my PRs', { authent: 0.3, pr: 1, pull: 1, request: 1 }],
    ['list all issues', { list: 1, issu: 1 }],
    ['get the tags of a label', { get: 1, retriev: 0.3, tag: 1, label: 1, 'label~tag': 1 }],
    ['please show', { list: 0.3, get: 0.3 }],
    ['fetch and get', { fetch: 1, get: 1, retriev: 0.3 }],
    ['gitignore templates', { gitignor: 1, git: 1, ignor: 1, templat: 1, 'gitignor~templat': 1, 'git~templat': 1, 'ignor~templat': 1 }],
    ['webhooks', { webhook: 1, web: 1, hook: 1 }]
  ]
  for (const [query, expected] of cases) t.strictSame(Object.fromEntries(queryTerms(textWords(query), known)), expected, query)
})

test('a joined word is its two parts where both are words of the API\'s own names, the second of four letters or more', async (t) => {
  const known = new Set(['git', 'ignore', 'star', 'user', 'name', 'web', 'hook', 'at'])
  const cases: Array<[string, string[]]> = [
    ['gitignore', ['git', 'ignor']],
    ['username', ['user', 'name']],
    ['webhook', ['web', 'hook']],
    ['stargazers', []],
    ['userat', []],
    ['git', []]
  ]
  for (const [word, expected] of cases) t.strictSame(wordParts(word, known), expected, word)
})

test('the values of a query are read as arguments, not words: an email, a date, an owner/name slug, a prefixed id, a number', async (t) => {
  const cases: Array<[string, string, string[]]> = [
    ['issues of octo/app', 'issues of  ', ['slug']],
    ['invoices of customer cus_123', 'invoices of customer  ', ['id']],
    ['issue #42', 'issue  ', ['number']],
    ['commits since 2024-01-31 by ana@example.com', 'commits since   by  ', ['email', 'date']],
    ['read/write teams of /orgs/acme', '  teams of /orgs/acme', ['slug']],
    ['version 1.2 of the top 10', 'version 1.2 of the top  ', ['number']],
    ['pull_request reviews', 'pull_request reviews', []]
  ]
  for (const [query, text, kinds] of cases) {
    const read = queryValues(query)
    t.strictSame([read.text, [...read.values]], [text, kinds], query)
  }
})

test('a query asks for a list by a plural or a word of many, else for one record by a value or a word of one', async (t) => {
  const cases: Array<[string, ValueKind[], string | undefined]> = [
    ['comments of issue', ['number'], 'qqmany'],
    ['which team', [], 'qqmany'],
    ['issue', ['number'], 'qqone'],
    ['customer', ['id'], 'qqone'],
    ['a single gist', [], 'qqone'],
    ['version 2', [], 'qqone'],
    ['status', [], undefined],
    ['issue', ['slug'], undefined]
  ]
  for (const [words, values, expected] of cases) t.equal(queryShape(textWords(words), new Set(values)), expected, `${words} ${values.join(' ')}`)
})

test('an operation that takes the kind of value a query holds weighs more than its twin that does not', async (t) => {
  const operation = (name: string, path: string, summary: string, parameters: Json[] = []): Json =>
    ({ name, path, pathItem: {}, operation: { summary, parameters }, route: {} })
  const operations = [
    operation('issues_list-for-org', '/orgs/{org}/issues', 'List issues', [{ name: 'org', in: 'path', schema: { type: 'string' } }]),
    operation('issues_list-for-repo', '/repos/{owner}/{repo}/issues', 'List issues', [{ name: 'owner', in: 'path' }, { name: 'repo', in: 'path' }]),
    operation('issues_list', '/issues', 'List issues', [{ name: 'creator_email', in: 'query' }, { name: 'since', in: 'query', schema: { format: 'date-time' } }]),
    operation('gists_get', '/gists/{gist_number}', 'Get a gist', [{ name: 'gist_number', in: 'path', schema: { type: 'integer' } }])
  ] as any[]
  const search = await OperationSearch.build(operations, {})
  const cases: Array<[string, number[]]> = [
    ['issues', [0, 1, 2]],
    ['issues of octo/app', [1, 0, 2]],
    ['issues opened by ana@example.com', [2, 0, 1]],
    ['issues since 2024-01-31', [2, 0, 1]],
    ['gist 42', [3]],
    ['octo/app', []]
  ]
  for (const [query, expected] of cases) t.strictSame(search.find(query), expected, query)
})

test('an operation its document marks deprecated, or whose name or summary says legacy, comes after its current twin unless the query asks for legacy', async (t) => {
  const operation = (name: string, path: string, summary: string, deprecated?: boolean): Json =>
    ({ name, path, pathItem: {}, operation: { summary, ...deprecated === undefined ? {} : { deprecated } }, route: {} })
  const operations = [
    operation('teams_get-legacy', '/teams/{id}', 'Get a team (Legacy)'),
    operation('teams_get-old', '/teams/{id}', 'Get a team', true),
    operation('teams_get-by-name', '/orgs/{org}/teams/{team_slug}', 'Get a team by its name in an organization', false)
  ] as any[]
  const search = await OperationSearch.build(operations, {})
  const cases: Array<[string, number[]]> = [
    ['get a team', [2, 1, 0]],
    ['get a team legacy', [0, 1, 2]],
    ['deprecated team', [1, 0, 2]]
  ]
  for (const [query, expected] of cases) t.strictSame(search.find(query), expected, query)
})

test('an operation of the caller\'s own (under /user or /me, or of the authenticated user) comes first for a query that says my, I or our, and after its twins for any other', async (t) => {
  const operation = (name: string, path: string, summary: string): Json => ({ name, path, pathItem: {}, operation: { summary }, route: {} })
  const operations = [
    operation('repos_list-for-user', '/users/{username}/repos', 'List public repositories for the specified user'),
    operation('repos_list-for-authenticated-user', '/user/repos', 'List repositories for the authenticated user'),
    operation('gists_list', '/me/gists', 'List gists')
  ] as any[]
  const search = await OperationSearch.build(operations, {})
  const cases: Array<[string, number[]]> = [
    ['our repositories', [1, 0]],
    ['repositories of user alice', [0, 1]],
    ['user gists', [2, 0, 1]]
  ]
  for (const [query, expected] of cases) t.strictSame(search.find(query), expected, query)
})

test('a word only a hidden field\'s description holds finds nothing for a caller it is hidden from, and the operation for one who may see it', async (t) => {
  const { default: mcp } = await import('../../lib/mcp/index.js')
  const fastify = Fastify()
  t.teardown(() => fastify.close())
  await fastify.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  await fastify.register(fastifyRestrictedFields, { hiddenFields: (request) => request.headers.authorization === 'Bearer staff' ? [] : ['pay'] })
  await fastify.register(mcp, { mode: 'discovery' })
  const employee = {
    type: 'object',
    description: 'A person on the payroll',
    properties: { id: { type: 'integer' }, name: { type: 'string', description: 'As printed on the badge' }, pay: { type: 'number', description: 'Quarterly bonus ledger' } }
  }
  fastify.get('/employees/:id', { restrictFields: true, schema: { operationId: 'employees/get', summary: 'Get an employee', response: { 200: employee } } }, async () => ({}))
  fastify.get('/rooms', { restrictFields: true, schema: { operationId: 'rooms/list', summary: 'List rooms', response: { 200: { type: 'array', items: record } } } }, async () => [])
  const EMPLOYEE = 'employees_get: /employees/{id} (Get an employee) [employees]'
  const none = found('No operation matches; 2 in all: try other words.')
  t.strictSame(await find(fastify, { query: 'bonus ledger' }), none, 'anonymous')
  t.strictSame(await find(fastify, { query: 'bonus ledger' }, { authorization: 'Bearer staff' }), found(EMPLOYEE), 'staff')
  t.strictSame(await find(fastify, { query: 'badge' }), found(EMPLOYEE), 'a visible field\'s description finds it for anyone')
  t.strictSame(await find(fastify, { query: 'payroll' }), found(EMPLOYEE), 'so does the record\'s own')
})

test('find_operations answers near twins by scope as one entry that names each scope and its operation, and counts entries against the limit', async (t) => {
  const { default: mcp } = await import('../../lib/mcp/index.js')
  const fastify = Fastify()
  t.teardown(() => fastify.close())
  await fastify.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  await fastify.register(fastifyRestrictedFields)
  await fastify.register(mcp, { mode: 'discovery' })
  const routes: Array<[string, string, string]> = [
    ['/repos/:owner/:repo/events', 'activity/list-repo-events', 'List repository events'],
    ['/orgs/:org/events', 'activity/list-org-events', 'List organization events'],
    ['/users/:username/events', 'activity/list-user-events', 'List events of a user'],
    ['/user/events', 'activity/list-my-events', 'List events for the authenticated user'],
    ['/events', 'activity/list-public-events', 'List public events'],
    ['/repos/:owner/:repo/labels', 'issues/list-labels', 'List labels of a repository']
  ]
  for (const [url, operationId, summary] of routes) {
    fastify.get(url, { restrictFields: true, schema: { operationId, summary, response: { 200: { type: 'array', items: record } } } }, async () => [])
  }
  const REPO = 'activity_list-repo-events: /repos/{owner}/{repo}/events (List repository events) [repos]'
  const PUBLIC = 'activity_list-public-events: /events (List public events) [events]'
  t.strictSame(await find(fastify, { query: 'events of octo/app' }), found(
    `${REPO}; also for organization: activity_list-org-events, user: activity_list-user-events, own: activity_list-my-events`,
    PUBLIC
  ))
  t.strictSame(await find(fastify, { query: 'my events' }), found(
    'activity_list-my-events: /user/events (List events for the authenticated user) [user]; also for ' +
      'organization: activity_list-org-events, repository: activity_list-repo-events, user: activity_list-user-events',
    PUBLIC
  ))
  t.strictSame(await find(fastify, { query: 'events', limit: 1 }), found(
    'activity_list-org-events: /orgs/{org}/events (List organization events) [orgs]; also for ' +
      'repository: activity_list-repo-events, user: activity_list-user-events, own: activity_list-my-events',
    '1 more match: use more words, or a higher limit.'
  ))
})
