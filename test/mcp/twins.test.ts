import { test } from 'tap'
import { scopeOf, twinEntries } from '../../lib/mcp/twins.js'

test('a path answers for the scope its start names, and what it answers there is the rest with parameter names left out', async (t) => {
  const cases: Array<[string, ReturnType<typeof scopeOf>]> = [
    ['/repos/{owner}/{repo}/issues', { scope: 'repository', rest: '/issues' }],
    ['/projects/{group}/{project}/issues/{iid}', { scope: 'repository', rest: '/issues/{}' }],
    ['/orgs/{org}/issues', { scope: 'organization', rest: '/issues' }],
    ['/organizations/{id}/members', { scope: 'organization', rest: '/members' }],
    ['/enterprises/{enterprise}/dependabot/alerts', { scope: 'enterprise', rest: '/dependabot/alerts' }],
    ['/users/{username}/events', { scope: 'user', rest: '/events' }],
    ['/user/issues', { scope: 'own', rest: '/issues' }],
    ['/me/drive', { scope: 'own', rest: '/drive' }],
    ['/repos/{owner}/{repo}', undefined],
    ['/user', undefined],
    ['/issues', undefined],
    ['/users', undefined]
  ]
  for (const [path, expected] of cases) t.strictSame(scopeOf(path), expected, path)
})

test('found operations are answered in order, with their twins of other scopes (found ones first, in its order), each once', async (t) => {
  const paths = [
    '/repos/{owner}/{repo}/issues', // 0
    '/orgs/{org}/issues', // 1
    '/user/issues', // 2
    '/issues', // 3
    '/users/{username}/issues', // 4
    '/repos/{owner}/{repo}/pulls' // 5
  ]
  const cases: Array<[number[], ReturnType<typeof twinEntries>]> = [
    [[3, 5], [{ position: 3, twins: [] }, { position: 5, twins: [] }]],
    [[1, 3, 2], [
      { position: 1, twins: [{ position: 2, scope: 'own' }, { position: 0, scope: 'repository' }, { position: 4, scope: 'user' }] },
      { position: 3, twins: [] }
    ]],
    [[0, 1], [
      { position: 0, twins: [{ position: 1, scope: 'organization' }, { position: 2, scope: 'own' }, { position: 4, scope: 'user' }] }
    ]],
    [[], []]
  ]
  for (const [found, expected] of cases) t.strictSame(twinEntries(found, paths), expected, found.join(' '))
})
