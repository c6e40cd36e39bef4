/**
 * Reads the composition of one value's schema: its own `properties`, the
 * members of an `allOf` (merged, as fast-json-stringify merges them) and
 * `$ref`s; a choice of objects (`anyOf`/`oneOf`, `if`/`then`/`else`) becomes
 * variants, each with the schema the route's serializer tests to choose it.
 */
import { MAX_REF_HOPS, isRecord } from '../json.js'
import type { Located, References } from './references.js'
import type { JsonSchema } from './tree.js'
import { tagTests, typedObjectTest } from './variant-tests.js'

/** Variants multiply through nested `allOf`s; past this many, a level is refused rather than expanded. */
const MAX_VARIANTS = 64

function typeIncludes (schema: JsonSchema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type
}

function isNullSchema (schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null'
}

/**
 * What one value's schema says, its composition read: the object parts to
 * merge (own `properties`, `allOf` members), the variants when it is a choice
 * of objects, whether it may be null, and its items' schema when it is an array.
 */
export interface Expanded {
  parts: Located[]
  variants: Array<{ test: JsonSchema | null, parts: Located[] }> | null
  nullable: boolean
  items: Located | null
  /** Every schema met on the way, refs followed, to read a default from. */
  seen: Located[]
}

/** An expansion of nothing, to merge others into. */
export function emptyExpanded (): Expanded {
  return { parts: [], variants: null, nullable: false, items: null, seen: [] }
}

/** Merges `b` into `a` as `allOf` does: the parts of both; variants of both, crossed. */
export function mergeInto (a: Expanded, b: Expanded, refs: References, at: Located): void {
  a.parts.push(...b.parts)
  a.seen.push(...b.seen)
  a.items ??= b.items
  if (b.variants !== null) {
    if (a.variants === null) {
      a.variants = b.variants
    } else {
      const crossed: NonNullable<Expanded['variants']> = []
      for (const left of a.variants) {
        for (const right of b.variants) {
          const tests = [left.test, right.test].filter((test) => test !== null)
          crossed.push({ test: tests.length === 0 ? null : tests.length === 1 ? tests[0] : { allOf: tests }, parts: [...left.parts, ...right.parts] })
        }
      }
      if (crossed.length > MAX_VARIANTS) refs.unreadable(at, 'allOf', `its members combine into ${crossed.length} variants, more than the ${MAX_VARIANTS} a level may have`)
      a.variants = crossed
    }
  }
}

/** Whether two located schemas are one: the same place in the same document. */
function sameLocation (a: Located, b: Located): boolean {
  return a.base === b.base && a.pointer === b.pointer && a.schema === b.schema
}

/**
 * Merges `b` into `a` as alternatives, not as `allOf` members: where
 * variants each declare a field, the field holds the value of one of them,
 * so its nested level declares the names of either and each variant writes
 * its own (lib/schema/reader.ts). Parts and variants of both, each once;
 * variants are listed side by side, never crossed, so a level the variants
 * share (a `$ref` each of them makes) keeps its own count.
 */
export function unionInto (a: Expanded, b: Expanded, refs: References, at: Located): void {
  for (const part of b.parts) if (!a.parts.some((each) => sameLocation(each, part))) a.parts.push(part)
  a.seen.push(...b.seen)
  a.items ??= b.items
  if (b.variants === null) return
  if (a.variants === null) {
    a.variants = [...b.variants]
    return
  }
  for (const variant of b.variants) {
    const test = JSON.stringify(variant.test)
    const known = a.variants.some((each) => JSON.stringify(each.test) === test && each.parts.length === variant.parts.length &&
      each.parts.every((part, index) => sameLocation(part, variant.parts[index])))
    if (!known) a.variants.push(variant)
  }
  if (a.variants.length > MAX_VARIANTS) refs.unreadable(at, 'oneOf', `the variants that declare it give it ${a.variants.length} variants, more than the ${MAX_VARIANTS} a level may have`)
}

/** Whether an expansion declares object fields: parts of its own, or variants. */
export function isObjectLike (expanded: Expanded): boolean {
  return expanded.parts.length > 0 || expanded.variants !== null
}

/** Reads one value's schema, following its `$ref`s, `allOf` members and choices; `hops` counts the schemas followed to reach it. */
export function expand (located: Located, refs: References, hops = 0): Expanded {
  const { schema, base, pointer } = located
  const result = emptyExpanded()
  result.seen.push(located)
  if (hops > MAX_REF_HOPS) refs.unreadable(located, '$ref', 'its references loop without reaching a schema')
  if (schema.nullable === true || typeIncludes(schema, 'null')) result.nullable = true
  const at = (keyword: string, index?: number): Located => ({
    schema: index === undefined ? schema[keyword] : schema[keyword][index],
    base,
    pointer: index === undefined ? `${pointer}/${keyword}` : `${pointer}/${keyword}/${index}`
  })
  if (isRecord(schema.properties)) result.parts.push(located)
  if (typeof schema.$ref === 'string') {
    const target = expand(refs.resolve(schema.$ref, base), refs, hops + 1)
    result.nullable ||= target.nullable
    mergeInto(result, target, refs, located)
  }
  if (Array.isArray(schema.allOf)) {
    for (let i = 0; i < schema.allOf.length; i++) {
      if (!isRecord(schema.allOf[i])) continue
      const member = expand(at('allOf', i), refs, hops + 1)
      mergeInto(result, member, refs, located)
    }
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    if (!Array.isArray(schema[keyword])) continue
    const members: Array<{ test: JsonSchema, expanded: Expanded }> = []
    let others = false
    for (let i = 0; i < schema[keyword].length; i++) {
      const member = schema[keyword][i]
      if (isNullSchema(member)) {
        result.nullable = true
        continue
      }
      if (!isRecord(member)) continue
      const expanded = expand(at(keyword, i), refs, hops + 1)
      if (isObjectLike(expanded) && expanded.items === null) {
        members.push({ test: typedObjectTest(refs.rebase(member, base)), expanded })
      } else {
        others = true
      }
    }
    // A choice between objects and other values (`anyOf: [User, string]`) is a leaf.
    if (others || members.length === 0) continue
    if (members.length === 1) {
      result.nullable ||= members[0].expanded.nullable
      mergeInto(result, members[0].expanded, refs, located)
      continue
    }
    // Variants of variants are tested whole.
    const tags = members.some((member) => member.expanded.variants !== null) ? null : tagTests(members.map((member) => member.expanded.parts))
    if (tags !== null) members.forEach((member, index) => { member.test = tags[index] })
    const choice = emptyExpanded()
    choice.variants = []
    for (const { test, expanded } of members) {
      if (expanded.variants === null) {
        choice.variants.push({ test, parts: expanded.parts })
      } else {
        for (const inner of expanded.variants) {
          choice.variants.push({ test: inner.test === null ? test : { allOf: [test, inner.test] }, parts: [...expanded.parts, ...inner.parts] })
        }
      }
    }
    if (choice.variants.length > MAX_VARIANTS) refs.unreadable(located, keyword, `it has ${choice.variants.length} variants, more than the ${MAX_VARIANTS} a level may have`)
    mergeInto(result, choice, refs, located)
  }
  // fast-json-stringify reads `if` only with a `then` or an `else`.
  if (isRecord(schema.if) && (isRecord(schema.then) || isRecord(schema.else))) {
    const branch = (keyword: string): Located[] => isRecord(schema[keyword]) ? expand(at(keyword), refs, hops + 1).parts : []
    const choice = emptyExpanded()
    choice.variants = [
      { test: typedObjectTest(refs.rebase(schema.if, base)), parts: branch('then') },
      { test: null, parts: branch('else') }
    ]
    mergeInto(result, choice, refs, located)
  }
  if (typeIncludes(schema, 'array') && isRecord(schema.items)) result.items = at('items')
  return result
}
