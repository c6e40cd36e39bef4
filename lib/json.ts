/**
 * Small helpers for the JSON values and JSON Schema documents that several
 * modules walk, and the one reading of JSON pointers (RFC 6901), kept here
 * so that each exists once.
 */

/** Serializes a response payload to JSON text, as a compiled serializer does. */
export type Serializer = (payload: unknown) => string

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

/** A JSON pointer token as a name, per RFC 6901: `~1` is `/`, then `~0` is `~`. */
export function decodePointerToken (token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~')
}

/** A name as a JSON pointer token. */
export function encodePointerToken (name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The names of a JSON pointer (`/owner/a~1b`): split at each `/`, each token decoded. */
export function pointerNames (pointer: string): string[] {
  return pointer.split('/').slice(1).map(decodePointerToken)
}

/**
 * The ways a pointer written in a URI fragment (`#/s%73n`, a `$ref`'s, a
 * runtime expression's) may be read, as lists of names: percent-decoded
 * first, then read as a JSON pointer (RFC 6901, section 6: `%2F` is then a
 * `/` between two names); and as it stands, as a reader that does not
 * decode it reads it. A fragment whose percent-encoding is malformed has
 * that one reading.
 */
export function fragmentReadings (fragment: string): string[][] {
  const readings = [pointerNames(fragment)]
  try {
    const decoded = decodeURIComponent(fragment)
    if (decoded !== fragment) readings.unshift(pointerNames(decoded))
  } catch {}
  return readings
}

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
