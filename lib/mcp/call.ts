/**
 * A tool call as a request of its route, and the route's reply as the call's
 * result. The arguments are checked for shape and size only: which field
 * names a caller may send is the route's to say, so that a hidden name and an
 * unknown one are refused by the same 400, in the same words.
 */
import { STATUS_CODES } from 'node:http'
import { ArgumentsTooLongError, InvalidArgumentsError, ToolFailedError } from '../errors.js'
import { isRecord } from '../json.js'
import { WRAPPED_KEY } from './tools.js'
import type { ToolCall } from './tools.js'

/** What a tool call returns, as MCP's `CallToolResult` has it. */
export interface ToolResult {
  [key: string]: unknown
  content: Array<{ type: 'text', text: string }>
  /** An object, or under revision 2026-07-28 any JSON value. */
  structuredContent?: unknown
  isError?: boolean
}

type Scalar = string | number | boolean

function isScalar (value: unknown): value is Scalar {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean'
}

/**
 * Values that a URL parser does not keep as a segment of their own: an empty
 * one falls to the route one level up, `.` and `..` (escaped or not, `%2E` is
 * a dot to WHATWG's parser) climb. Every other value is encoded whole
 * (`/`, `?`, `#` and `%` included), so it lands in its own parameter.
 */
const NOT_A_SEGMENT = new Set(['', '.', '..'])

/** An error result, its text the error's JSON as the routes send theirs. */
export function errorResult (error: { statusCode?: number, code?: string, message: string }): ToolResult {
  const statusCode = error.statusCode ?? 500
  const body = { statusCode, code: error.code, error: STATUS_CODES[statusCode], message: error.message }
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true }
}

/**
 * The URL that runs the call's route with `args`, or the error result that
 * refuses them: not an object, an argument the tool does not have, a value
 * that is not a string, number or boolean (or, for an array argument, a list
 * of them), a missing path parameter, a path parameter that is empty, `.` or `..`, or
 * a query string longer than `maxLength`.
 */
export function callUrl (call: ToolCall, args: unknown, maxLength: number): { url: string } | { refused: ToolResult } {
  const refuse = (message: string): { refused: ToolResult } => ({ refused: errorResult(new InvalidArgumentsError(message)) })
  if (args === undefined || args === null) args = {}
  if (!isRecord(args)) return refuse('The arguments must be an object')
  const query = new URLSearchParams()
  let path = call.path
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue
    const inPath = call.pathParams.includes(name)
    if (!inPath && !call.queryParams.includes(name)) {
      const known = [...call.pathParams, ...call.queryParams]
      return refuse(`Unknown argument '${name}'; ${known.length === 0 ? 'this tool takes none' : `arguments: ${known.join(', ')}`}`)
    }
    if (Array.isArray(value) && call.arrays.includes(name) && !inPath) {
      if (!value.every(isScalar)) return refuse(`Argument '${name}' must be a list of strings, numbers or booleans`)
      for (const member of value) query.append(name, String(member))
    } else if (isScalar(value)) {
      if (!inPath) query.append(name, String(value))
      else if (NOT_A_SEGMENT.has(String(value))) return refuse(`Argument '${name}' must be a path segment: neither empty, '.' nor '..'`)
      else path = path.replaceAll(`{${name}}`, encodeURIComponent(String(value)))
    } else {
      return refuse(`Argument '${name}' must be ${call.arrays.includes(name) ? 'a list of strings, numbers or booleans' : 'a string, a number or a boolean'}`)
    }
  }
  const missing = call.pathParams.filter((name) => args[name] === undefined || args[name] === null)
  if (missing.length > 0) return refuse(`Missing argument${missing.length > 1 ? 's' : ''} ${missing.map((name) => `'${name}'`).join(', ')}`)
  const search = query.toString()
  if (search.length > maxLength) return { refused: errorResult(new ArgumentsTooLongError(maxLength)) }
  return { url: search === '' ? path : `${path}?${search}` }
}

/** The longest text of a non-JSON 4xx reply that goes into its result. */
const MAX_ERROR_TEXT = 500

/**
 * The result of a call whose route answered `statusCode` with `body`. A 2xx
 * reply is the result: as `structuredContent` (under `result` when the tool
 * wraps it and the revision takes only an object there, `anyValue` false)
 * with the same JSON as text, compact as the route wrote it. A 4xx
 * reply is an error result carrying the route's error; any 5xx, and a 2xx
 * reply that is not JSON, an error result that says nothing of the cause.
 */
export function callResult (call: ToolCall, statusCode: number, body: string, anyValue = false): ToolResult {
  if (statusCode >= 200 && statusCode < 300) {
    // Without an output schema, the reply is sent as the route wrote it, JSON or not.
    if (!call.structured) return { content: [{ type: 'text', text: body }] }
    let value: unknown
    try {
      value = body === '' ? null : JSON.parse(body)
    } catch {
      return errorResult(new ToolFailedError())
    }
    // The route's own bytes are the text: no second serialization, and the text is exactly what REST clients get.
    const wrapped = call.wrapped && !anyValue
    const text = wrapped ? `{"${WRAPPED_KEY}":${body === '' ? 'null' : body}}` : body
    return { content: [{ type: 'text', text }], structuredContent: wrapped ? { [WRAPPED_KEY]: value } : value }
  }
  if (statusCode >= 500 || statusCode < 100) return errorResult(new ToolFailedError())
  let error: unknown
  try {
    error = JSON.parse(body)
  } catch {}
  if (isRecord(error)) return { content: [{ type: 'text', text: body }], isError: true }
  return errorResult({ statusCode, message: body.slice(0, MAX_ERROR_TEXT) })
}
