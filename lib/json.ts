/**
 * Small helpers for the JSON values and JSON Schema documents that several
 * modules walk, kept here so that each exists once.
 */
import { decodePointerToken, encodePointerToken } from './hidden-paths.js'

/** Whether a value is an object that is neither null nor an array: a JSON object, or a record to read fields from. */
export function isRecord (value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Whether a value has a `toJSON()` method, which JSON.stringify and fast-json-stringify write in its place. */
export function hasToJSON (value: unknown): value is { toJSON: () => unknown } {
  return typeof (value as { toJSON?: unknown } | null)?.toJSON === 'function'
}

/** Most `$ref`s followed one after the other; a longer chain loops. */
export const MAX_REF_HOPS = 32

// JSON pointers are read in one place, with the paths they may name.
export { decodePointerToken, encodePointerToken } from './hidden-paths.js'

/** A JSON pointer one token deeper; most tokens hold neither `~` nor `/`, so only those are encoded. */
export function pointerTo (pointer: string, token: string | number): string {
  return `${pointer}/${typeof token === 'string' && /[~/]/.test(token) ? encodePointerToken(token) : token}`
}

/** The value a local pointer (`#/components/schemas/user`) names inside `root`, or undefined. */
export function valueAtPointer (root: unknown, ref: string): unknown {
  let value = root
  for (const token of ref.split('/').slice(1)) {
    if (!isRecord(value) && !Array.isArray(value)) return undefined
    const key = decodePointerToken(token)
    if (!Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}
