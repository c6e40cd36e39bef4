/**
 * What a first sighting costs, and why, in one place: what a compile is
 * handed, what it is estimated to cost before it runs, and which compiles
 * are worth their cost on the request path. The admission cache
 * (lib/cache.ts) counts sightings; lib/serializer.ts asks this module
 * whether and how to compile.
 *
 * - A compile reads only the shared schemas its pruned schema reaches.
 *   Fastify's default serializer compiler hands fast-json-stringify every
 *   shared schema of the instance, and fast-json-stringify checks and
 *   indexes each of them on every compile: with a thousand of them a
 *   ten-field selection took 30 ms instead of 1. Where the route uses that
 *   default compiler, the plugin makes that compiler anew from the app's
 *   own Fastify, with its `serializerOpts` and the reached schemas alone
 *   (lib/fastify-compiler.ts); a custom compiler is called as Fastify calls it.
 * - A compile is estimated before it runs, from the size of what it is
 *   handed: the pruned schema and the shared schemas it reaches (the
 *   compiler's work is about linear in them, and the chains of variants
 *   are written so that it stays so, see lib/prune.ts). A selection
 *   estimated above `MAX_COMPILE_COST` is never compiled on the request
 *   path: the writer serves it, at the cost of writing, with no pause.
 * - Compiles are rationed in cost, not in count: a compile spends one unit
 *   of the cache's ration per `COST_UNIT` of its estimate, so a client
 *   cannot buy many expensive compiles at the price of cheap ones.
 */
import { isRecord } from './json.js'
import { walkSchema } from './schema/vocabulary.js'
import type { Reached } from './schema/vocabulary.js'
import type { JsonSchema } from './schema/tree.js'

/**
 * The share of a status's recent lookups that a selection must make up to be
 * compiled. A compiled serializer outruns the writer only while it stays hot:
 * many of them in rotation, each called now and then, lose to the one writer
 * they would replace. Measured here at pages of 20, against naive copying:
 * 32 field sets in turn, compiled, 1.31 (written: 1.06); 165 in turn,
 * compiled, 0.73 (written: 1.06). So at most some 32 selections are compiled
 * at a time for their popularity; a new route still compiles a selection
 * on its second sighting, while it has seen fewer than 64 lookups.
 */
export const COMPILE_SHARE = 1 / 32

/**
 * Characters of schema text (the pruned schema and the shared schemas it
 * reaches) that fast-json-stringify compiles in about a millisecond, measured
 * here (`npm run bench:compile`) on schemas of plain fields and of variants;
 * an estimate errs on the side of cost, since a schema of variants costs more per character.
 */
const CHARACTERS_PER_MS = 250

/**
 * Characters of variant tests that ajv compiles in about a millisecond: in a
 * selection's schema, each test with its shared schemas counted at every
 * reference (fast-json-stringify's ajv writes the code of a shared schema
 * without references of its own into each test that refers to it); in the
 * writer's tests (lib/variant-chooser.ts), each shared schema once. Measured
 * here on GitHub's and Mailchimp's variants at a load average of 18 on two
 * cores, 23 to 78 (docs/internals.md): an estimate errs on the side of cost.
 */
export const TEST_CHARACTERS_PER_MS = 20

/** The estimated cost, in milliseconds, above which a selection is not compiled on the request path but written. */
export const MAX_COMPILE_COST = 20

/**
 * The estimated cost that one unit of the compilation ration pays for: a
 * compile of a few fields, nested ones included, spends one, as it did when
 * the ration counted compiles; one near the limit spends ten.
 */
const COST_UNIT = 2

/**
 * The shared schemas a schema reaches through its `$ref`s, and theirs, by id:
 * all a compile of it needs. Only schemas are walked, as the vocabulary says
 * where they sit: a property named `default` or `enum` is a schema like any
 * other, and an instance's keys are never taken for a schema's.
 */
export function reachedSchemas (schema: JsonSchema, shared: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const reached: Record<string, JsonSchema> = {}
  const reach = (ref: string): Reached | undefined => {
    const id = ref.split('#')[0]
    if (id === '' || !Object.hasOwn(shared, id) || Object.hasOwn(reached, id)) return undefined
    reached[id] = shared[id]
    return { schema: shared[id], base: id }
  }
  // A keyword of no dialect may still hold schemas that fast-json-stringify follows: it is read as one, or a list of them.
  walkSchema(schema, () => {}, { resolve: reach, unknownKeywords: 'schemas' })
  return reached
}

/**
 * What a compile of `schema` with the `reached` shared schemas is estimated
 * to cost, in milliseconds: fast-json-stringify's work on the text it is
 * handed, and ajv's on each variant test (an `if`), which it compiles by the
 * first record it writes.
 */
export function compileCost (schema: JsonSchema, reached: Readonly<Record<string, JsonSchema>>): number {
  let characters = JSON.stringify(schema).length
  for (const id in reached) characters += JSON.stringify(reached[id]).length
  // Past the bound, how much further does not matter: a shared schema that refers to itself expands without end.
  const limit = (MAX_COMPILE_COST + 1) * TEST_CHARACTERS_PER_MS
  let testCharacters = 0
  const pending: unknown[] = [schema]
  while (pending.length > 0 && testCharacters <= limit) {
    const value = pending.pop() as Record<string, unknown>
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'if' && isRecord(inner)) testCharacters += expandedCharacters(inner, reached, limit)
      else if (isRecord(inner)) pending.push(inner)
    }
  }
  return characters / CHARACTERS_PER_MS + testCharacters / TEST_CHARACTERS_PER_MS
}

/**
 * The heap a compiled serializer of this estimated cost keeps, in bytes:
 * its generated code and, for a schema of variants, the validator of their
 * tests. Measured here (`npm run bench:compile`): a selection of a few
 * fields keeps a few kilobytes, one on a level of 20 variants some 90 KB.
 */
export function keptBytes (cost: number): number {
  return Math.ceil(4096 + cost * CHARACTERS_PER_MS * 16)
}

/** The units of the compilation ration that a compile of this estimated cost spends: one at least. */
export function rationUnits (cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_UNIT))
}

/** The characters of a schema with the shared schemas it refers to counted where they are referred to, up to `limit`. */
export function expandedCharacters (schema: JsonSchema, shared: Readonly<Record<string, JsonSchema>>, limit: number): number {
  let characters = 0
  const pending: unknown[] = [schema]
  while (pending.length > 0 && characters <= limit) {
    const value = pending.pop()
    if (Array.isArray(value)) {
      pending.push(...value)
    } else if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) {
        characters += key.length + 3
        pending.push(inner)
        if (key === '$ref' && typeof inner === 'string' && Object.hasOwn(shared, inner.split('#')[0])) pending.push(shared[inner.split('#')[0]])
      }
    } else {
      characters += String(value).length
    }
  }
  return characters
}
