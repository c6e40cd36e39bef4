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
 *   default compiler, the plugin calls fast-json-stringify itself, with
 *   Fastify's `serializerOpts` and the reached schemas alone; a custom
 *   compiler is called as Fastify calls it.
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
import { createRequire } from 'node:module'
import fastJsonStringify from 'fast-json-stringify'
import { isRecord } from './json.js'
import { heldSchemas, keywordOf } from './schema/vocabulary.js'
import type { JsonSchema } from './schema/tree.js'
import type { Serializer } from './write.js'

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
  const pending: unknown[] = [schema]
  while (pending.length > 0) {
    const value = pending.pop()
    if (!isRecord(value)) continue
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') {
        const id = inner.split('#')[0]
        if (id !== '' && Object.hasOwn(shared, id) && !Object.hasOwn(reached, id)) {
          reached[id] = shared[id]
          pending.push(shared[id])
        }
      } else if (keywordOf(key) === null) {
        // A keyword of no dialect may still hold schemas that fast-json-stringify follows: it is read as one, or a list of them.
        pending.push(...(Array.isArray(inner) ? inner : [inner]))
      } else {
        for (const held of heldSchemas(key, inner)) pending.push(held.schema)
      }
    }
  }
  return reached
}

/** What a compile of `schema` with the `reached` shared schemas is estimated to cost, in milliseconds. */
export function compileCost (schema: JsonSchema, reached: Readonly<Record<string, JsonSchema>>): number {
  let characters = JSON.stringify(schema).length
  for (const id in reached) characters += JSON.stringify(reached[id]).length
  return characters / CHARACTERS_PER_MS
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

/**
 * Fastify's own fast-json-stringify: the one its default serializer compiler
 * (@fastify/fast-json-stringify-compiler) calls, so that a selection is
 * written by the same version as the route; the plugin's own where it cannot be found.
 */
function fastifysFastJsonStringify (): Build {
  try {
    const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'))
    const fromCompiler = createRequire(fromFastify.resolve('@fastify/fast-json-stringify-compiler'))
    return fromCompiler('fast-json-stringify') as Build
    /* c8 ignore start: Fastify installed without its compiler beside it */
  } catch {
    return fastJsonStringify as unknown as Build
  }
  /* c8 ignore stop */
}

/** fast-json-stringify's build, as the plugin calls it. */
type Build = (schema: JsonSchema, options: Record<string, unknown>) => Serializer

let defaultBuild: Build | undefined

/**
 * Compiles as Fastify's default serializer compiler does (fast-json-stringify
 * with the instance's `serializerOpts`), handing it only the shared schemas
 * that `schema` reaches; throws when fast-json-stringify refuses it.
 */
export function compileWithReached (schema: JsonSchema, reached: Record<string, JsonSchema>, serializerOptions: Record<string, unknown> | undefined): Serializer {
  defaultBuild ??= fastifysFastJsonStringify()
  return defaultBuild(schema, { ...serializerOptions, schema: reached })
}
