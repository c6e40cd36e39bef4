/**
 * A caller's complete record written over its relaxed form: what the
 * complete schema adds to the relaxed one (its `required`, the complete
 * forms of the fields that differ), beside `allOf` the relaxed one. Every
 * record the complete schema allows, the relaxed one allows too, so the two
 * together allow exactly what the complete one does, and the fields that do
 * not differ are written once, in the relaxed form.
 */
import { isDeepStrictEqual } from 'node:util'
import { REQUIRING } from '../../schema/vocabulary.js'
import type { Json } from '../types.js'

/**
 * The keywords an overlay may hold: each asserts of the value by itself,
 * whatever its siblings say. `additionalProperties` reads its level's
 * `properties`, `items` a `prefixItems`, `$ref` drops its siblings in
 * OpenAPI 3.0, a `discriminator` reads its level's alternatives: a level
 * that differs in one of those is written whole.
 */
const ON_THEIR_OWN: ReadonlySet<string> = new Set([
  ...[...REQUIRING].filter((keyword) => keyword !== 'discriminator'), 'properties', 'patternProperties', 'oneOf', 'anyOf', 'allOf', 'items'
])

/** Annotations that a twin rewrites (its title and note): the relaxed form's say what the complete one's would, and assert nothing. */
const REWRITTEN = new Set(['title', 'description'])

/** `if`'s branches mean nothing without it. */
const BRANCHES = ['then', 'else']

/**
 * `complete` as `{ allOf: [{ $ref: relaxedRef }], …what differs }`; as
 * `{ $ref: relaxedRef }` when nothing differs; or `complete` itself when
 * one of its differing keywords reads its siblings.
 * `relaxed` is the schema `relaxedRef` names, which allows every record
 * `complete` allows.
 */
export function overlay (complete: Json, relaxed: Json, relaxedRef: string): Json {
  const added: Json = {}
  for (const [keyword, value] of Object.entries(complete)) {
    if (REWRITTEN.has(keyword) || isDeepStrictEqual(value, relaxed[keyword])) continue
    if (!ON_THEIR_OWN.has(keyword) || (keyword === 'items' && (Array.isArray(value) || complete.prefixItems !== undefined))) return complete
    if (keyword === 'properties') {
      const properties = relaxed.properties as Json
      const differs = ([name, field]: [string, unknown]): boolean => !isDeepStrictEqual(field, properties[name])
      added.properties = Object.fromEntries(Object.entries(value as Json).filter(differs))
    } else {
      added[keyword] = value
    }
  }
  if (BRANCHES.some((keyword) => keyword in added) && complete.if !== undefined) added.if = complete.if
  // Nothing added: the relaxed form is the complete one.
  if (Object.keys(added).length === 0) return { $ref: relaxedRef }
  const allOf = [{ $ref: relaxedRef }, ...Array.isArray(added.allOf) ? added.allOf : []]
  return { ...added, allOf }
}
