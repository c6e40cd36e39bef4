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
import { CHOICES } from './vocabulary.js'

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
  /**
   * The merged schemas that declare properties, in the order fast-json-stringify merges them: it
   * writes their names in first-seen order.
   */
  parts: Located[]
  /** The names `required` anywhere in the merge, beside or inside `allOf`: fast-json-stringify writes those first. */
  required: string[]
  variants: Array<{ test: JsonSchema | null, parts: Located[], required: string[] }> | null
  nullable: boolean
  /** The schemas of its items, one for each merged schema that declares them: merged too. */
  items: Located[] | null
  /** Every schema met on the way, refs followed, to read a default from. */
  seen: Located[]
}

/** An expansion of nothing, to merge others into. */
export function emptyExpanded (): Expanded {
  return { parts: [], required: [], variants: null, nullable: false, items: null, seen: [] }
}

/**
 * Merges `b` into `a` as `allOf` does: the parts of both; variants of both,
 * crossed. `b` is an object's expansion: the items of merged schemas are read
 * where they are merged (expandAll).
 */
export function mergeInto (a: Expanded, b: Expanded, refs: References, at: Located): void {
  a.parts.push(...b.parts)
  a.required.push(...b.required)
  a.seen.push(...b.seen)
  if (b.variants !== null) {
    if (a.variants === null) {
      a.variants = b.variants
    } else {
      const crossed: NonNullable<Expanded['variants']> = []
      for (const left of a.variants) {
        for (const right of b.variants) {
          const tests = [left.test, right.test].filter((test) => test !== null)
          crossed.push({
            test: tests.length === 0 ? null : tests.length === 1 ? tests[0] : { allOf: tests },
            parts: [...left.parts, ...right.parts],
            required: [...left.required, ...right.required]
          })
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
  a.required.push(...b.required)
  a.seen.push(...b.seen)
  if (b.variants === null) return
  if (a.variants === null) {
    a.variants = [...b.variants]
    return
  }
  for (const variant of b.variants) {
    const test = JSON.stringify(variant.test)
    const known = a.variants.some((each) => JSON.stringify(each.test) === test && each.parts.length === variant.parts.length &&
      each.parts.every((part, index) => sameLocation(part, variant.parts[index])) && each.required.join() === variant.required.join())
    if (!known) a.variants.push(variant)
  }
  if (a.variants.length > MAX_VARIANTS) refs.unreadable(at, 'oneOf', `the variants that declare it give it ${a.variants.length} variants, more than the ${MAX_VARIANTS} a level may have`)
}

/** Whether an expansion declares object fields: parts of its own, or variants. */
export function isObjectLike (expanded: Expanded): boolean {
  return expanded.parts.length > 0 || expanded.variants !== null
}

/**
 * The schemas whose keywords fast-json-stringify merges into the one it
 * writes a value with, in its order: the declarations of the value (several
 * where `allOf` members each declare a property), each after the chain of
 * `$ref`s it makes, as it merges a `$ref`'s target before the keywords beside
 * it; then, level after level, the `allOf` members of those, each after its
 * own chain. The members of a level all come before any of theirs.
 */
function mergedSchemas (declarations: Located[], refs: References, hops: number): { merged: Located[], own: number } {
  const merged: Located[] = []
  let own = -1
  let level = declarations
  for (let depth = hops; level.length > 0; depth++) {
    if (depth > MAX_REF_HOPS) refs.unreadable(level[0], '$ref', 'its references loop without reaching a schema')
    const next: Located[] = []
    const chains = depth === hops ? [declared(declarations, refs)] : level.map((member) => refChain(member, refs))
    for (const chain of chains) {
      for (const located of chain) {
        merged.push(located)
        const { schema, base, pointer } = located
        if (!Array.isArray(schema.allOf)) continue
        schema.allOf.forEach((member: unknown, index: number) => {
          if (isRecord(member)) next.push({ schema: member, base, pointer: `${pointer}/allOf/${index}` })
        })
      }
    }
    if (own === -1) own = merged.length
    level = next
  }
  return { merged, own }
}

/**
 * The declarations of one value, after the targets of their `$ref`:
 * fast-json-stringify merges several declarations keyword by keyword before
 * it follows the `$ref` they make, so that its target comes before all of
 * them. Declarations that make different `$ref`s are each read after their own.
 */
function declared (declarations: Located[], refs: References): Located[] {
  if (declarations.length === 1) return refChain(declarations[0], refs)
  const withRef = declarations.filter((located) => typeof located.schema.$ref === 'string')
  const texts = new Set(withRef.map(({ schema, base }) => schema.$ref.startsWith('#') ? base + schema.$ref : schema.$ref))
  if (texts.size === 1) return [...refChain(withRef[0], refs).slice(0, -1), ...declarations]
  return declarations.flatMap((located) => refChain(located, refs))
}

/** A schema and the schemas its `$ref`s reach, the last target first and the schema itself last. */
function refChain (located: Located, refs: References): Located[] {
  const chain = [located]
  for (let at = located; typeof at.schema.$ref === 'string';) {
    at = refs.resolve(at.schema.$ref, at.base)
    if (chain.some((each) => each.schema === at.schema)) refs.unreadable(at, '$ref', 'its references loop without reaching a schema')
    chain.unshift(at)
  }
  return chain
}

/** Reads one value's schema, following its `$ref`s, `allOf` members and choices; `hops` counts the schemas followed to reach it. */
export function expand (located: Located, refs: References, hops = 0): Expanded {
  return expandAll([located], refs, hops)
}

/**
 * Reads a value declared by several schemas at once (a property that several
 * `allOf` members declare, the items of each declaration of an array) as the
 * one schema fast-json-stringify merges them into.
 */
export function expandAll (declarations: Located[], refs: References, hops = 0): Expanded {
  const result = emptyExpanded()
  const { merged, own } = mergedSchemas(declarations, refs, hops)
  const items: Located[] = []
  let array = false
  merged.forEach((located, index) => {
    const { schema, base, pointer } = located
    result.seen.push(located)
    // What the declarations and their `$ref`s say of null; `allOf` members only narrow the value.
    if (index < own && (schema.nullable === true || typeIncludes(schema, 'null'))) result.nullable = true
    if (isRecord(schema.properties)) result.parts.push(located)
    if (Array.isArray(schema.required)) result.required.push(...schema.required.filter((name: unknown) => typeof name === 'string'))
    if (typeIncludes(schema, 'array')) array = true
    if (isRecord(schema.items)) items.push({ schema: schema.items, base, pointer: `${pointer}/items` })
  })
  if (array && items.length > 0) result.items = items
  for (const located of merged) choicesInto(result, located, refs, hops, declarations[0])
  return result
}

/** Whether a schema's `type` leaves objects out. */
function typedOtherThanObject (schema: JsonSchema): boolean {
  if (schema.type === undefined) return false
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type]
  return !types.includes('object')
}

/**
 * Merges the choices one merged schema offers (`anyOf`/`oneOf` of objects,
 * `if`/`then`/`else`) into the expansion of the value at `whole`, as variants.
 */
function choicesInto (result: Expanded, located: Located, refs: References, hops: number, whole: Located): void {
  const { schema, base, pointer } = located
  const at = (keyword: string, index?: number): Located => ({
    schema: index === undefined ? schema[keyword] : schema[keyword][index],
    base,
    pointer: index === undefined ? `${pointer}/${keyword}` : `${pointer}/${keyword}/${index}`
  })
  // The choices in the order fast-json-stringify reads them: `anyOf` around `oneOf`.
  for (const keyword of CHOICES) {
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
      mergeInto(result, members[0].expanded, refs, whole)
      continue
    }
    // Variants of variants are tested whole.
    const variantsOfVariants = members.some((member) => member.expanded.variants !== null)
    const tags = variantsOfVariants ? null : tagTests(members.map((member) => member.expanded.parts))
    if (tags !== null) members.forEach((member, index) => { member.test = tags[index] })
    const choice = emptyExpanded()
    choice.variants = []
    for (const { test, expanded } of members) {
      if (expanded.variants === null) {
        choice.variants.push({ test, parts: expanded.parts, required: expanded.required })
      } else {
        for (const inner of expanded.variants) {
          choice.variants.push({
            test: inner.test === null ? test : { allOf: [test, inner.test] },
            parts: [...expanded.parts, ...inner.parts],
            required: [...expanded.required, ...inner.required]
          })
        }
      }
    }
    if (choice.variants.length > MAX_VARIANTS) refs.unreadable(located, keyword, `it has ${choice.variants.length} variants, more than the ${MAX_VARIANTS} a level may have`)
    mergeInto(result, choice, refs, whole)
  }
  // fast-json-stringify reads `if` only with a `then` or an `else`. A branch typed as no object makes the condition one
  // between values, as a choice between objects and other values is: a leaf.
  const branches = [schema.then, schema.else].filter(isRecord)
  if (isRecord(schema.if) && branches.length > 0 && !branches.some(typedOtherThanObject)) {
    const branch = (keyword: string): Pick<Expanded, 'parts' | 'required'> =>
      isRecord(schema[keyword]) ? expand(at(keyword), refs, hops + 1) : { parts: [], required: [] }
    const then = branch('then')
    const otherwise = branch('else')
    const choice = emptyExpanded()
    choice.variants = [
      { test: typedObjectTest(refs.rebase(schema.if, base)), parts: then.parts, required: then.required },
      { test: null, parts: otherwise.parts, required: otherwise.required }
    ]
    mergeInto(result, choice, refs, whole)
  }
}
