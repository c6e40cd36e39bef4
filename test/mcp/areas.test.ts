import { test } from 'tap'
import { fixedSegments, sharedPrefix } from '../../lib/mcp/areas.js'
import { areaOf, DiscoveryView } from '../../lib/mcp/discovery.js'

test('a path\'s fixed segments leave out every segment that holds a parameter', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['/v1/charges/{charge}', ['v1', 'charges']],
    ['/', []],
    ['/{id}', []],
    ['/api/users/', ['api', 'users']],
    ['/reports/report.{format}/{year}-{month}/latest', ['reports', 'latest']],
    ['//double//slash', ['double', 'slash']]
  ]
  for (const [path, expected] of cases) t.strictSame(fixedSegments(path), expected, path)
})

test('the shared prefix is the leading fixed segments every path has, short of all of the longest path\'s', async (t) => {
  const cases: Array<[string, string[], string[]]> = [
    ['no path', [], []],
    ['one path keeps its last fixed segment', ['/v1/charges/{charge}'], ['v1']],
    ['one path of one segment', ['/users/{id}'], []],
    ['a versioned API', ['/v1/charges', '/v1/charges/{charge}', '/v1/customers/{customer}/sources'], ['v1']],
    ['paths that differ only by parameters', ['/v1/charges', '/v1/charges/{charge}'], ['v1']],
    ['a path that is the prefix itself does not shorten it', ['/api/v2', '/api/v2/users', '/api/v2/orders/{id}'], ['api', 'v2']],
    ['a prefix of parameters alone is no prefix', ['/{tenant}/users', '/{tenant}/orders'], []],
    ['parameters are skipped wherever they are', ['/{tenant}/v1/users', '/v1/{region}/orders'], ['v1']],
    ['nothing shared', ['/repos/{owner}', '/users/{username}', '/v1/x'], []],
    ['a root path', ['/', '/v1/users'], []],
    ['only parameters', ['/', '/{id}'], []],
    ['all one resource', ['/v1/charges', '/v1/charges/{id}/refunds'], ['v1', 'charges']]
  ]
  for (const [about, paths, expected] of cases) t.strictSame(sharedPrefix(paths), expected, about)
})

test('an operation\'s area is its first tag, else its first fixed segment past the prefix, else /', async (t) => {
  const cases: Array<[string, Record<string, unknown>, string[], string]> = [
    ['/v1/charges/{charge}', {}, ['v1'], 'charges'],
    ['/v1/charges/{charge}', {}, [], 'v1'],
    ['/v1/test_helpers/treasury/inbound_transfers/{id}/fail', {}, ['v1'], 'test_helpers'],
    ['/v1/charges/{charge}', { tags: ['payments'] }, ['v1'], 'payments'],
    ['/v1/charges/{charge}', { tags: ['', 7, '  Charges   and  refunds '] }, ['v1'], 'Charges and refunds'],
    ['/v1/charges/{charge}', { tags: 'payments' }, ['v1'], 'charges'],
    ['/v1/charges', { tags: ['x'.repeat(70)] }, ['v1'], `${'x'.repeat(59)}…`],
    ['/v1', {}, ['v1'], '/'],
    ['/v1/{id}', {}, ['v1'], '/'],
    ['/', {}, [], '/'],
    ['/{tenant}/users', {}, [], 'users']
  ]
  for (const [path, operation, prefix, expected] of cases) t.equal(areaOf({ path, operation }, prefix), expected, `${path} ${JSON.stringify(operation)} past ${prefix.join('/')}`)
})

/** The areas answer of a view of `paths`, each a GET operation named by its position, tagged as `tags` says. */
function areasOf (paths: string[], tags: Record<string, string[]> = {}, include = (path: string): boolean => path !== ''): string {
  const document = { openapi: '3.1.0', paths: Object.fromEntries(paths.map((path, index) => [path, { get: { operationId: `op${index}`, tags: tags[path] } }])) }
  return new DiscoveryView(document, (route) => include(route.path)).browse(undefined)
}

test('the areas of an API divide it by the resources past its shared prefix, tagged operations by their tags, over the listed operations alone', async (t) => {
  const head = (count: number): string => `Areas: ${count}; list_operations with an area lists its operations:`
  const cases: Array<[string, string, string[]]> = [
    ['untagged, under /v1', areasOf(['/v1/charges', '/v1/charges/{charge}', '/v1/customers', '/v1/test_helpers/x']), [head(3), 'charges (2)', 'customers (1)', 'test_helpers (1)']],
    ['the root of the prefix', areasOf(['/api/v2', '/api/v2/users', '/api/v2/users/{id}']), [head(2), '/ (1)', 'users (2)']],
    ['one path', areasOf(['/v1/charges/{charge}']), [head(1), 'charges (1)']],
    ['tagged and untagged', areasOf(['/v1/charges', '/v1/customers', '/v1/customers/{id}'], { '/v1/customers': ['people'] }), [head(3), 'charges (1)', 'people (1)', 'customers (1)']],
    ['tagged ones count in the prefix', areasOf(['/api/a', '/api/b', '/internal/status'], { '/api/a': ['a'], '/api/b': ['b'] }), [head(3), 'a (1)', 'b (1)', 'internal (1)']],
    // An operation the view does not list (not included, as a route that did not opt in) shapes no area.
    ['an operation left out', areasOf(['/v1/charges', '/v1/customers', '/admin/keys'], {}, (path) => !path.startsWith('/admin')), [head(2), 'charges (1)', 'customers (1)']],
    ['the same operation listed', areasOf(['/v1/charges', '/v1/customers', '/admin/keys']), [head(2), 'v1 (2)', 'admin (1)']]
  ]
  for (const [about, answer, expected] of cases) t.equal(answer, expected.join('\n'), about)
})
