/**
 * Builds the schema a hand-written route returning exactly the kept fields
 * would declare, for the route's serializer compiler: what a selection that
 * is compiled is served by.
 */
import type { DeclaredResponse, FieldNode, FieldTree, JsonSchema, Variants } from './schema/tree.js'
import type { VariantTag } from './schema/variant-tests.js'
import { variantProjection, wholeProjection } from './projection.js'
import type { Projection } from './projection.js'
import { variantKey } from './copy.js'
import { projectedDefault } from './defaults.js'

export interface PruneOptions {
  /** Keep declared defaults; the object-copy path fills them in itself and must not get them twice. */
  defaults: boolean
  /**
   * How a level of variants is written: `choose` keeps the choice, each
   * variant with the kept fields it has, chosen as the route's serializer
   * chooses it; `copy` serializes copies, which hold only fields of their
   * own variant already and carry its index (copy.ts, variantKey): that
   * variant writes them, in its own order; a copy without one fails.
   */
  variants: 'choose' | 'copy'
}

/*
 * pruneSchema: every object level lists only the kept properties, closes
 * itself with `additionalProperties: false` and drops `required` and
 * `patternProperties`, so that nothing removed comes back and nothing missing throws.
 * A level of variants becomes a chain of `if`/`then`/`else`: each variant's
 * test (what the route's own serializer tests to choose it), then the kept
 * fields it has; a record that matches none ends in an `anyOf` that nothing
 * matches, which fails as the route's serializer fails. Inside a variant
 * nothing is closed.
 *
 * Each link of a chain sits in the pruned schema's `$defs`, its `else`
 * a `$ref` to the next: fast-json-stringify copies a branch into a schema of
 * its own before writing it, so a chain written inline, each `else` holding
 * the rest, would cost it time and memory in the square of the variants.
 * Under `$defs`, not `definitions`: it follows each `$ref` looking for
 * recursion, and it would start again from each link listed under `definitions`.
 */

/** Where a pruned schema keeps the links of its chains, among its `$defs`. */
const LINK_PREFIX = 'fastify-restricted-fields:link-'

/** The links of the chains of one pruned schema, by definition key. */
type Links = Record<string, JsonSchema>

/** A chain link, kept among the `$defs`: what refers to it. */
function linked (links: Links, link: JsonSchema): JsonSchema {
  const key = LINK_PREFIX + String(Object.keys(links).length)
  links[key] = link
  return { $ref: '#/$defs/' + key }
}

function objectSchema (
  tree: FieldTree, projection: Projection, nullable: boolean, options: PruneOptions, open: boolean, links: Links
): JsonSchema {
  const variants = tree.variants
  const merged = (): JsonSchema => {
    const schema: JsonSchema = {
      type: 'object',
      // fromEntries defines keys, so a field named __proto__ stays a field.
      properties: Object.fromEntries(projection.map(({ node, sub }) => [node.name, fieldSchema(node, sub, options, open, links)]))
    }
    if (!open) schema.additionalProperties = false
    return schema
  }
  if (variants === null) {
    const schema = merged()
    if (nullable) schema.nullable = true
    return schema
  }
  const kept = keptByVariant(variants, projection, options, links)
  if (options.variants === 'copy') {
    const key = variantKey(tree)
    // A copy without an index is of a record that matches no variant: it fails, as the route's own serializer does.
    let chain: JsonSchema = { anyOf: [{ type: 'object', required: [key] }] }
    for (let index = kept.length - 1; index >= 0; index--) {
      const link = { if: { type: 'object', required: [key], properties: { [key]: { const: index } } }, then: kept[index], else: chain }
      chain = index === 0 ? link : linked(links, link)
    }
    return nullable ? { if: { type: 'null' }, then: { type: 'null' }, else: chain } : chain
  }
  // A record that reaches the end of the chain failed every test (and null was written before it):
  // it meets an option nothing matches, and the serializer throws, as the route's own does.
  let chain: JsonSchema = { anyOf: [{ not: {} }] }
  // fast-json-stringify tests only the `if` of a branch, not the branch it then writes.
  for (let index = kept.length - 1; index >= 0; index--) {
    const test = variants.tests[index]
    if (test === null) {
      chain = kept[index]
    } else {
      const branch = { if: test, then: kept[index], else: chain }
      chain = index === 0 ? branch : linked(links, branch)
    }
  }
  return nullable ? { if: { type: 'null' }, then: { type: 'null' }, else: chain } : chain
}

/** Each variant's kept fields, as the object schema that writes them. */
function keptByVariant (variants: Variants, projection: Projection, options: PruneOptions, links: Links): JsonSchema[] {
  return variants.own.map((own): JsonSchema => {
    const properties = variantProjection(projection, own)
      .map(({ node, sub }) => [node.name, fieldSchema(node, sub, options, options.variants === 'choose', links)])
    const choice: JsonSchema = { type: 'object', properties: Object.fromEntries(properties) }
    if (options.variants === 'copy') choice.additionalProperties = false
    return choice
  })
}

/** A kept field's schema. */
function fieldSchema (node: FieldNode, sub: Projection | null, options: PruneOptions, open: boolean, links: Links): JsonSchema {
  if (node.children === null) return options.defaults ? node.schema : node.schemaWithoutDefault
  let schema: JsonSchema
  if (node.isArray) {
    const items = objectSchema(node.children, sub ?? wholeProjection(node.children), node.children.nullable, options, open, links)
    schema = { type: 'array', items }
    if (node.nullable) schema.nullable = true
  } else {
    schema = objectSchema(node.children, sub ?? wholeProjection(node.children), node.nullable, options, open, links)
  }
  // The serializer writes a missing field's default as it stands: it gets the selection's projection first.
  if (options.defaults && node.hasDefault) schema.default = projectedDefault(node, sub)
  return schema
}

/** Returns the response schema that serializes exactly the projected fields of a declared response. */
export function pruneSchema (declared: DeclaredResponse, projection: Projection, options: PruneOptions): JsonSchema {
  const links: Links = {}
  return aroundRecords(declared, objectSchema(declared.tree, projection, declared.tree.nullable, options, false, links), links)
}

/**
 * The response schema of a selection whose records are variants that all
 * keep the same fields, with the same schemas: those fields, written alike
 * for every record, as if the level had no variants. Null when the records
 * are not variants, or when variants keep different fields. It does not
 * test which variant a record is: its caller does (serializer.ts).
 */
export function pruneSharedVariants (declared: DeclaredResponse, projection: Projection, tag: VariantTag): JsonSchema | null {
  const { tree } = declared
  if (tree.variants === null) return null
  const links: Links = {}
  const kept = keptByVariant(tree.variants, projection, { defaults: true, variants: 'choose' }, links).map((schema) => withTagAsString(schema, tag))
  const first = JSON.stringify(kept[0])
  if (kept.some((each) => JSON.stringify(each) !== first)) return null
  const records: JsonSchema = { ...kept[0], additionalProperties: false }
  if (tree.nullable) records.nullable = true
  return aroundRecords(declared, records, links)
}

/**
 * A variant's kept fields with its tag, when kept and declared as a string
 * constant, declared as a string: each variant writes its own constant, which
 * is the record's value once the record's tag is checked, so the variants
 * then write the tag alike.
 */
function withTagAsString (kept: JsonSchema, { name, values }: VariantTag): JsonSchema {
  const schema = kept.properties[name]
  if (schema === undefined || !values.every((value) => typeof value === 'string')) return kept
  const keys = Object.keys(schema).sort().join()
  if (typeof schema.const !== 'string' || (keys !== 'const' && !(keys === 'const,type' && schema.type === 'string'))) return kept
  const properties = Object.fromEntries(Object.entries(kept.properties).map(([key, value]) => [key, key === name ? { type: 'string' } : value]))
  return { ...kept, properties }
}

/** The response schema with `records` where the declared response has its records, and the links of its chains. */
function aroundRecords (declared: DeclaredResponse, records: JsonSchema, links: Links): JsonSchema {
  const { shape } = declared
  let schema: JsonSchema
  if (shape.kind === 'envelope') {
    const envelope = declared.envelope as JsonSchema
    schema = { ...envelope, properties: { ...envelope.properties, [shape.key]: { type: 'array', items: records } } }
  } else if (shape.kind === 'array') {
    schema = { type: 'array', items: records }
  } else {
    schema = records
  }
  return withLinks({ ...declared.localDefinitions, ...schema }, declared, links)
}

/** A schema with the links of its chains among its `$defs`, beside the route's own. */
function withLinks (schema: JsonSchema, declared: DeclaredResponse, links: Links): JsonSchema {
  if (Object.keys(links).length === 0) return schema
  return { ...schema, $defs: { ...declared.localDefinitions.$defs, ...links } }
}

/**
 * The schema that tells which variant of a level the route's serializer
 * chooses for a record: it writes the variant's index, or -1 when none matches.
 */
export function variantChooserSchema (declared: DeclaredResponse, variants: Variants): JsonSchema {
  const links: Links = {}
  let chain: JsonSchema = { const: -1 }
  for (let index = variants.tests.length - 1; index >= 0; index--) {
    const test = variants.tests[index]
    const link = { if: test, then: { const: index }, else: chain }
    chain = test === null ? { const: index } : index === 0 ? link : linked(links, link)
  }
  return withLinks({ ...declared.localDefinitions, ...chain }, declared, links)
}
