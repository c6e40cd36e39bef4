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
 * fields it has; a record that matches none ends in an `anyOf` of the same
 * variants, which fails as the route's serializer fails. Inside a variant
 * nothing is closed: a closed level would refuse, in that last `anyOf`, the
 * fields that restriction leaves out.
 */

function objectSchema (tree: FieldTree, projection: Projection, nullable: boolean, options: PruneOptions, open: boolean): JsonSchema {
  const variants = tree.variants
  const merged = (): JsonSchema => {
    const schema: JsonSchema = {
      type: 'object',
      // fromEntries defines keys, so a field named __proto__ stays a field.
      properties: Object.fromEntries(projection.map(({ node, sub }) => [node.name, fieldSchema(node, sub, options, open)]))
    }
    if (!open) schema.additionalProperties = false
    return schema
  }
  if (variants === null) {
    const schema = merged()
    if (nullable) schema.nullable = true
    return schema
  }
  const kept = keptByVariant(variants, projection, options)
  if (options.variants === 'copy') {
    const key = variantKey(tree)
    // A copy without an index is of a record that matches no variant: it fails, as the route's own serializer does.
    let chain: JsonSchema = { anyOf: [{ type: 'object', required: [key] }] }
    for (let index = kept.length - 1; index >= 0; index--) {
      chain = { if: { type: 'object', required: [key], properties: { [key]: { const: index } } }, then: kept[index], else: chain }
    }
    return nullable ? { if: { type: 'null' }, then: { type: 'null' }, else: chain } : chain
  }
  // The record that matches no variant meets what the route's own serializer does: no option matches, and it throws.
  const choices = kept.map((choice, index) => {
    const test = variants.tests[index]
    return test === null ? choice : { ...choice, not: { not: test } }
  })
  if (nullable) choices.push({ type: 'null' })
  let chain: JsonSchema = { anyOf: choices }
  // fast-json-stringify tests only the `if` of a branch, not the branch it then writes.
  for (let index = kept.length - 1; index >= 0; index--) {
    const test = variants.tests[index]
    chain = test === null ? kept[index] : { if: test, then: kept[index], else: chain }
  }
  return nullable ? { if: { type: 'null' }, then: { type: 'null' }, else: chain } : chain
}

/** Each variant's kept fields, as the object schema that writes them. */
function keptByVariant (variants: Variants, projection: Projection, options: PruneOptions): JsonSchema[] {
  return variants.own.map((own): JsonSchema => {
    const properties = variantProjection(projection, own)
      .map(({ node, sub }) => [node.name, fieldSchema(node, sub, options, options.variants === 'choose')])
    const choice: JsonSchema = { type: 'object', properties: Object.fromEntries(properties) }
    if (options.variants === 'copy') choice.additionalProperties = false
    return choice
  })
}

/** A kept field's schema. */
function fieldSchema (node: FieldNode, sub: Projection | null, options: PruneOptions, open: boolean): JsonSchema {
  if (node.children === null) return options.defaults ? node.schema : node.schemaWithoutDefault
  let schema: JsonSchema
  if (node.isArray) {
    schema = { type: 'array', items: objectSchema(node.children, sub ?? wholeProjection(node.children), node.children.nullable, options, open) }
    if (node.nullable) schema.nullable = true
  } else {
    schema = objectSchema(node.children, sub ?? wholeProjection(node.children), node.nullable, options, open)
  }
  // The serializer writes a missing field's default as it stands: it gets the selection's projection first.
  if (options.defaults && node.hasDefault) schema.default = projectedDefault(node, sub)
  return schema
}

/** Returns the response schema that serializes exactly the projected fields of a declared response. */
export function pruneSchema (declared: DeclaredResponse, projection: Projection, options: PruneOptions): JsonSchema {
  return aroundRecords(declared, objectSchema(declared.tree, projection, declared.tree.nullable, options, false))
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
  const kept = keptByVariant(tree.variants, projection, { defaults: true, variants: 'choose' }).map((schema) => withTagAsString(schema, tag))
  const first = JSON.stringify(kept[0])
  if (kept.some((each) => JSON.stringify(each) !== first)) return null
  const records: JsonSchema = { ...kept[0], additionalProperties: false }
  if (tree.nullable) records.nullable = true
  return aroundRecords(declared, records)
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
  return { ...kept, properties: Object.fromEntries(Object.entries(kept.properties).map(([key, value]) => [key, key === name ? { type: 'string' } : value])) }
}

/** The response schema with `records` where the declared response has its records. */
function aroundRecords (declared: DeclaredResponse, records: JsonSchema): JsonSchema {
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
  return { ...declared.localDefinitions, ...schema }
}

/**
 * The schema that tells which variant of a level the route's serializer
 * chooses for a record: it writes the variant's index, or -1 when none matches.
 */
export function variantChooserSchema (declared: DeclaredResponse, variants: Variants): JsonSchema {
  let chain: JsonSchema = { const: -1 }
  for (let index = variants.tests.length - 1; index >= 0; index--) {
    const test = variants.tests[index]
    chain = test === null ? { const: index } : { if: test, then: { const: index }, else: chain }
  }
  return { ...declared.localDefinitions, ...chain }
}
