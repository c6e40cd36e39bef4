/**
 * The schema of a list of field names offered as choices, bounded: every
 * name while they fit, else the names down to the deepest depth that fits
 * (the top level at least) and any deeper dotted path taken by a pattern.
 * The callers' documents write their lists with it, and the MCP tools read
 * the lists back from those documents, so both offer the same choices.
 */
import { isRecord } from '../json.js'
import type { Json } from './types.js'

/** How many segments a field name has: `a.b` has two; `*` and `@set` one. */
const depthOf = (name: string): number => name.split('.').length

/**
 * A list of `names` within `limit`: `{ type: 'string', enum }` when they
 * fit; else `anyOf` the names of at most as many segments as fit and a
 * string of more segments than those (which names no field, so none a
 * caller may not see).
 * @example fieldList(['a', 'a.b', 'a.b.c'], 2)
 * // { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', pattern: '^[^.]+(\\.[^.]+){1,}$' }] }
 */
export function fieldList (names: readonly string[], limit: number): Json {
  if (names.length <= limit) return { type: 'string', enum: [...names] }
  // A reduce, not Math.max(...names): a spread of a long list would pass the engine's limit on arguments.
  let depth = names.reduce((deepest, name) => Math.max(deepest, depthOf(name)), 1)
  while (depth > 1 && names.filter((name) => depthOf(name) <= depth).length > limit) depth--
  const kept = names.filter((name) => depthOf(name) <= depth)
  // Any name of more segments than are listed: a path under one of the listed ones, which the route's own 400 says it knows or not.
  return { anyOf: [{ type: 'string', enum: kept }, { type: 'string', pattern: `^[^.]+(\\.[^.]+){${depth},}$` }] }
}

/** The level of a list's schema that holds its names: the list itself, or the first member of a bounded one. */
function namesLevel (list: unknown): Json | null {
  if (!isRecord(list)) return null
  if (Array.isArray(list.enum)) return list
  const first: unknown = Array.isArray(list.anyOf) ? list.anyOf[0] : undefined
  return isRecord(first) && Array.isArray(first.enum) ? first : null
}

/** Whether a schema is a list of names as fieldList writes it, bounded or not. */
export function isFieldList (schema: unknown): boolean {
  return namesLevel(schema) !== null
}

/** Whether a list's schema lists only some of the names, deeper paths taken by its pattern. */
export function isBounded (list: unknown): boolean {
  const level = namesLevel(list)
  return level !== null && level !== list
}

/** The names a list's schema names, bounded or not; none for another schema. */
export function listedNames (list: unknown): string[] {
  return namesLevel(list)?.enum.map(String) ?? []
}

/** The list's schema with only the names `keep` keeps, its pattern as it was; another schema as it is. */
export function keepNames (list: Json, keep: (name: string) => boolean): Json {
  const level = namesLevel(list)
  if (level === null) return list
  const names = { ...level, enum: level.enum.filter((name: unknown) => keep(String(name))) }
  return level === list ? names : { ...list, anyOf: [names, ...list.anyOf.slice(1)] }
}
