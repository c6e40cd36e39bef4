import { test } from 'tap'
import { callResult, callUrl, errorResult } from '../../lib/mcp/call.js'
import type { ToolCall } from '../../lib/mcp/tools.js'

const user: ToolCall = { path: '/users/{id}', pathParams: ['id'], queryParams: ['only', 'defer', 'page'], arrays: ['only', 'defer'], structured: true, wrapped: false }
const tags: ToolCall = { path: '/tags', pathParams: [], queryParams: [], arrays: [], structured: true, wrapped: true }
const health: ToolCall = { path: '/health', pathParams: [], queryParams: [], arrays: [], structured: false, wrapped: false }

const invalid = (message: string): unknown => errorResult({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_INVALID_ARGUMENTS', message })

test('arguments become the URL of the route, or an error result that says what is wrong', async (t) => {
  const cases: Array<[string, ToolCall, unknown, unknown]> = [
    ['path and query parameters', user, { id: 7, only: ['name', 'profile.city'], page: 2 }, { url: '/users/7?only=name&only=profile.city&page=2' }],
    ['an empty list sends nothing', user, { id: 7, only: [] }, { url: '/users/7' }],
    ['a single name for a list is one name', user, { id: 7, only: 'name' }, { url: '/users/7?only=name' }],
    ['booleans and strings are sent as text, escaped', user, { id: 'a b/c', page: true }, { url: '/users/a%20b%2Fc?page=true' }],
    ['a dot segment cannot climb to another route', user, { id: '..' }, { refused: invalid("Argument 'id' must be a path segment: neither empty, '.' nor '..'") }],
    ['a lone dot neither', user, { id: '.' }, { refused: invalid("Argument 'id' must be a path segment: neither empty, '.' nor '..'") }],
    ['an empty segment neither', user, { id: '' }, { refused: invalid("Argument 'id' must be a path segment: neither empty, '.' nor '..'") }],
    ['escaped dots, slashes, ? and # stay in the segment', user, { id: '%2E%2E/?#' }, { url: '/users/%252E%252E%2F%3F%23' }],
    ['three dots are a name', user, { id: '...' }, { url: '/users/...' }],
    ['null is an absent argument', user, { id: 1, page: null }, { url: '/users/1' }],
    ['no arguments for a tool that takes none', tags, undefined, { url: '/tags' }],
    ['null arguments are none', tags, null, { url: '/tags' }],
    ['arguments that are not an object', tags, ['x'], { refused: invalid('The arguments must be an object') }],
    ['an argument the tool does not have', user, { id: 1, fields: 'x' }, { refused: invalid("Unknown argument 'fields'; arguments: id, only, defer, page") }],
    ['an argument of a tool that takes none', tags, { page: 1 }, { refused: invalid("Unknown argument 'page'; this tool takes none") }],
    ['a missing path parameter', user, { only: ['id'] }, { refused: invalid("Missing argument 'id'") }],
    ['a list member that is an object', user, { id: 1, only: [{}] }, { refused: invalid("Argument 'only' must be a list of strings, numbers or booleans") }],
    ['an object for a list', user, { id: 1, defer: { a: 1 } }, { refused: invalid("Argument 'defer' must be a list of strings, numbers or booleans") }],
    ['a list for a single value', user, { id: [1] }, { refused: invalid("Argument 'id' must be a string, a number or a boolean") }],
    ['a number that JSON cannot write', user, { id: 1, page: Infinity }, { refused: invalid("Argument 'page' must be a string, a number or a boolean") }],
    ['a query string past the limit', user, { id: 1, only: Array(10).fill('name') }, { refused: errorResult({ statusCode: 400, code: 'FST_RESTRICTED_FIELDS_ARGUMENTS_TOO_LONG', message: 'The arguments are too long: at most 50 characters of query string are allowed' }) }]
  ]
  for (const [title, call, args, expected] of cases) t.strictSame(callUrl(call, args, 50), expected, title)
})

test('several missing path parameters are named together', async (t) => {
  const call: ToolCall = { path: '/a/{x}/{y}', pathParams: ['x', 'y'], queryParams: [], arrays: [], structured: true, wrapped: false }
  t.strictSame(callUrl(call, {}, 50), { refused: invalid("Missing arguments 'x', 'y'") })
})

const failed = { content: [{ type: 'text', text: '{"statusCode":500,"code":"FST_RESTRICTED_FIELDS_TOOL_FAILED","error":"Internal Server Error","message":"The route failed to answer; the server logged why"}' }], isError: true }

test('a reply becomes the call\'s result: structured and as the same text on success, the route\'s error on a 4xx, nothing of the cause on a 5xx', async (t) => {
  const cases: Array<[string, ToolCall, number, string, unknown]> = [
    ['an object', user, 200, '{"id":1}', { content: [{ type: 'text', text: '{"id":1}' }], structuredContent: { id: 1 } }],
    ['an array, under result', tags, 200, '[{"id":1}]', { content: [{ type: 'text', text: '{"result":[{"id":1}]}' }], structuredContent: { result: [{ id: 1 }] } }],
    ['no body, under result as null', tags, 204, '', { content: [{ type: 'text', text: '{"result":null}' }], structuredContent: { result: null } }],
    ['text, for a tool without an output schema', health, 200, 'ok', { content: [{ type: 'text', text: 'ok' }] }],
    ['a 2xx reply that is not JSON', user, 200, '<html>', failed],
    ['a coded 400', user, 400, '{"statusCode":400,"code":"X","message":"m"}', { content: [{ type: 'text', text: '{"statusCode":400,"code":"X","message":"m"}' }], isError: true }],
    ['a 401 in plain text', user, 401, 'Go away', { content: [{ type: 'text', text: '{"statusCode":401,"error":"Unauthorized","message":"Go away"}' }], isError: true }],
    ['a long error text is cut', user, 404, 'x'.repeat(600), { content: [{ type: 'text', text: `{"statusCode":404,"error":"Not Found","message":"${'x'.repeat(500)}"}` }], isError: true }],
    ['a redirect', user, 308, '', { content: [{ type: 'text', text: '{"statusCode":308,"error":"Permanent Redirect","message":""}' }], isError: true }],
    ['a 500 with its internals', user, 500, '{"statusCode":500,"message":"password=hunter2"}', failed],
    ['a 503', user, 503, 'down', failed],
    ['a status out of range', user, 42, '', failed]
  ]
  for (const [title, call, status, body, expected] of cases) t.strictSame(callResult(call, status, body), expected, title)
})

test('an error without a status is a 500', async (t) => {
  t.strictSame(errorResult({ message: 'm' }), { content: [{ type: 'text', text: '{"statusCode":500,"error":"Internal Server Error","message":"m"}' }], isError: true })
})
