/**
 * The links of a restricted response (OpenAPI 3) as a caller is shown them:
 * a link whose runtime expression reads a hidden path of the response's body
 * (`$response.body#/secret`, in its `parameters` or its `requestBody`,
 * alone or inside a string, percent-encoded or not) goes, since it names
 * that path.
 */
import { bodyTrie, pointerReachesHidden } from '../../hidden-paths.js'
import { isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import type { Json, RecordsShape } from '../types.js'

// A body's JSON pointer ends where a runtime expression embedded in a string does: at a brace, a space or a quote.
const BODY_POINTER = /\$response\.body#((?:\/[^\s{}"]*)?)/g

/** Every string a value holds, keys included. */
function strings (value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  return isRecord(value) ? Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)]) : []
}

/** Whether a link reads a path of `body`, the hidden paths of the body. */
function readsPathOf (link: unknown, body: PathTrie): boolean {
  return strings(link).some((text) => [...text.matchAll(BODY_POINTER)].some(([, pointer]) => pointerReachesHidden(pointer, body)))
}

/**
 * Leaves out of a response, whose records sit at `place`, the links that
 * read a hidden path of its body, in place; `links` goes when none is left.
 */
export function relaxLinks (response: Json, place: RecordsShape, hidden: PathTrie): void {
  if (!isRecord(response.links)) return
  const body = bodyTrie(hidden, place)
  const kept = Object.fromEntries(Object.entries(response.links).filter(([, link]) => !readsPathOf(link, body)))
  if (Object.keys(kept).length === 0) delete response.links
  else response.links = kept
}
