/**
 * Tells which variant of a level a record is, as the route's serializer
 * (fast-json-stringify) tells it: the first variant whose test the record
 * passes, each test run by fast-json-stringify's own validator (ajv with its
 * options and its reading of strings). Nothing else of fast-json-stringify
 * runs: no schema check of a chooser schema, no code written around the
 * tests. One validator serves every level of a route's status, so a shared schema
 * that several tests reach is compiled once; each test is compiled on first
 * use, alone, or all of a level's tests at once when the route is made
 * ready, where compiling them on a first reply could cost more than the
 * bound of a compile on the request path (`testsCost`, lib/compile.ts). The
 * validator itself is made when the first test is compiled.
 */
import { TEST_CHARACTERS_PER_MS, compileBudget, reachedSchemas } from './compile.js'
import type { DeclaredResponse, JsonSchema, Variants } from './schema/tree.js'
import type { VariantTag } from './schema/variant-tests.js'
import type { VariantValidator } from './fastify-compiler.js'
import { isRecord } from './json.js'
import type { Serializer } from './json.js'

/** The index of the variant a record is; -1 for none. */
export type VariantIndex = (record: Record<string, unknown>) => number

/**
 * Where the tests sit among the validator's schemas: a relative id, as fast-json-stringify's own, so that a test's `$ref`s to shared ids
 * resolve as in the route's serializer.
 */
const TEST_KEY = '__fastify_restricted_fields_test_'

/** The variant tests of one route, run as fast-json-stringify runs them. */
export class VariantTester {
  #validator: VariantValidator | (() => VariantValidator)
  readonly #shared: Readonly<Record<string, JsonSchema>>
  readonly #definitions: JsonSchema
  /** The shared schemas added to the validator, by id. */
  readonly #added = new Set<string>()
  /** Each level's compiled tests, by its tests (shared by the level and its visible variants). */
  readonly #compiled = new Map<Variants['tests'], Array<((data: unknown) => boolean) | undefined>>()
  #keys = 0

  /**
   * `validator`, or what makes it on first use; `definitions`: what a test's local `$ref`s point into, the
   * route schema's `definitions`/`$defs`.
   */
  constructor (
    validator: VariantValidator | (() => VariantValidator), shared: Readonly<Record<string, JsonSchema>>, definitions: JsonSchema
  ) {
    this.#validator = validator
    this.#shared = shared
    this.#definitions = definitions
  }

  /**
   * The chooser of a level: tests are compiled as records need them, the
   * first variant first. Should a test not compile alone, `instead` (the
   * chooser compiled by the route's compiler) tells the level's records from then on.
   */
  chooser (tests: Variants['tests'], instead: () => VariantIndex | null): VariantIndex {
    const compiled = this.#compiledOf(tests)
    let fallback: VariantIndex | null | undefined
    return (record) => {
      if (fallback === undefined) {
        try {
          for (let index = 0; index < tests.length; index++) {
            // Charged to the process's compile time, so that compiles that can wait give way to it.
            if (tests[index] === null || (compiled[index] ??= compileBudget.timed(() => this.#compile(tests[index]!)))(record)) return index
          }
          return -1
        } catch {
          fallback = instead()
        }
      }
      return fallback === null ? -1 : fallback(record)
    }
  }

  /**
   * What compiling the tests of a level not compiled yet is estimated to cost,
   * in milliseconds: their text and that of the shared schemas they reach
   * that the route's validator has not compiled yet, each counted once, as ajv compiles them.
   */
  testsCost (tests: Variants['tests']): number {
    const compiled = this.#compiledOf(tests)
    const counted = new Set(this.#added)
    let characters = 0
    for (let index = 0; index < tests.length; index++) {
      if (tests[index] === null || compiled[index] !== undefined) continue
      characters += JSON.stringify(tests[index]).length
      for (const [id, reached] of Object.entries(reachedSchemas({ ...this.#definitions, allOf: [tests[index]] }, this.#shared))) {
        if (counted.has(id)) continue
        counted.add(id)
        characters += JSON.stringify(reached).length
      }
    }
    return characters / TEST_CHARACTERS_PER_MS
  }

  /** Compiles every test of a level now. */
  prepare (tests: Variants['tests']): void {
    const compiled = this.#compiledOf(tests)
    for (let index = 0; index < tests.length; index++) if (tests[index] !== null) compiled[index] ??= this.#compile(tests[index]!)
  }

  #compiledOf (tests: Variants['tests']): Array<((data: unknown) => boolean) | undefined> {
    let compiled = this.#compiled.get(tests)
    if (compiled === undefined) this.#compiled.set(tests, compiled = [])
    return compiled
  }

  /**
   * A test compiled alone, as a schema of its own beside the route's local
   * definitions (what the test's own `$ref`s point into, as they do in the
   * route's serializer), with the shared schemas it reaches.
   */
  #compile (test: JsonSchema): (data: unknown) => boolean {
    if (typeof this.#validator === 'function') this.#validator = this.#validator()
    const validator = this.#validator
    const schema = { ...this.#definitions, allOf: [test] }
    for (const [id, reached] of Object.entries(reachedSchemas(schema, this.#shared))) {
      if (this.#added.has(id)) continue
      this.#added.add(id)
      validator.addSchema(reached, id)
    }
    const key = TEST_KEY + String(this.#keys++)
    validator.addSchema(schema, key)
    return validator.ajv.getSchema(key)!
  }
}

/**
 * Writes records of tagged variants that all keep the same fields with
 * `shared`, once each record's tag is checked here: a loop that costs a
 * fraction of fast-json-stringify's test of each record against each
 * variant. A payload with a record of no variant (or not where the records
 * belong) goes to `chosen`, which tests each record as the route's own
 * serializer does, and fails as it fails.
 */
export function taggedRecordsSerializer (
  declared: DeclaredResponse, { name, values }: VariantTag, shared: Serializer, chosen: Serializer
): Serializer {
  const { shape, tree } = declared
  const isOfAVariant = (record: unknown): boolean => record === null
    ? tree.nullable
    : typeof record === 'object' && !Array.isArray(record) && values.includes((record as Record<string, unknown>)[name])
  const allOfAVariant = (records: unknown): boolean => {
    if (!Array.isArray(records)) return false
    for (let i = 0; i < records.length; i++) if (!isOfAVariant(records[i])) return false
    return true
  }
  const key = shape.kind === 'envelope' ? shape.key : null
  return function writeTaggedRecords (payload) {
    const tagged = shape.kind === 'object'
      ? isOfAVariant(payload)
      : allOfAVariant(key === null ? payload : isRecord(payload) ? payload[key] : undefined)
    return tagged ? shared(payload) : chosen(payload)
  }
}
