/**
 * The links of a restricted response (OpenAPI 3) as a caller is shown them:
 * a link whose runtime expression reads a hidden path of the response's body
 * (`$response.body#/secret`, in its `parameters` or its `requestBody`,
 * alone or inside a string) goes, since it names that path.
 */
import { decodePointerToken, isRecord } from '../json.js'
import type { PathTrie } from '../schema/tree.js'
import type { Json, RecordsShape } from './types.js'

// A body's JSON pointer ends where a runtime expression embedded in a string does: at a brace, a space or a quote.
const BODY_POINTER = /\$response\.body#((?:\/[^\s{}"]*)?)/g

/** Whether a pointer into a body reaches a hidden path: the indexes of arrays are passed through, as hidden paths are. */
function reachesHidden (pointer: string, hidden: PathTrie): boolean {
  let at = hidden
  for (const token of pointer.split('/').slice(1).map(decodePointerToken)) {
    const below = at.children.get(token)
    if (below === undefined) {
      if (/^\d+$/.test(token)) continue
      return false
    }
    if (below.whole) return true
    at = below
  }
  return false
}

/** The hidden paths of a body whose records sit as `shape` says: under an envelope's key, or where they are found at run time. */
function bodyTries (hidden: PathTrie, shape: RecordsShape): PathTrie[] {
  if (shape.kind === 'object' || shape.kind === 'array') return [hidden]
  const envelope: PathTrie = { whole: false, children: new Map([[String(shape.key), hidden]]) }
  return shape.kind === 'envelope' ? [envelope] : [hidden, envelope]
}

/** Every string a value holds, keys included. */
function strings (value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  return isRecord(value) ? Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)]) : []
}

/** Whether a link reads a hidden path of the body. */
function readsHidden (link: unknown, tries: PathTrie[]): boolean {
  return strings(link).some((text) => [...text.matchAll(BODY_POINTER)].some(([, pointer]) => tries.some((hidden) => reachesHidden(pointer, hidden))))
}

/** Leaves out of a response the links that read a hidden path of its body, in place; `links` goes when none is left. */
export function withoutHiddenLinks (response: Json, shape: RecordsShape, hidden: PathTrie): void {
  if (!isRecord(response.links)) return
  const tries = bodyTries(hidden, shape)
  const kept = Object.fromEntries(Object.entries(response.links).filter(([, link]) => !readsHidden(link, tries)))
  if (Object.keys(kept).length === 0) delete response.links
  else response.links = kept
}
