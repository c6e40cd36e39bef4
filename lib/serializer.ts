/**
 * Builds the response schema of a projection: the schema a hand-written route
 * returning exactly those fields would declare. Every object level lists only
 * the kept properties, closes itself with `additionalProperties: false` and
 * drops `required` and `patternProperties`, so that nothing removed comes back
 * and nothing missing throws.
 */
import type { DeclaredResponse, FieldNode, JsonSchema } from './declared.js'
import type { Projection } from './selection.js'
import { wholeProjection } from './apply.js'

export interface PruneOptions {
  /** Keep declared defaults; the object-copy path fills them in itself and must not get them twice. */
  defaults: boolean
}

function objectSchema (projection: Projection, options: PruneOptions): JsonSchema {
  return {
    type: 'object',
    // fromEntries defines keys, so a field named __proto__ stays a field.
    properties: Object.fromEntries(projection.map(({ node, sub }) => [node.name, fieldSchema(node, sub, options)])),
    additionalProperties: false
  }
}

function fieldSchema (node: FieldNode, sub: Projection | null, options: PruneOptions): JsonSchema {
  if (node.children === null) return options.defaults ? node.schema : node.schemaWithoutDefault
  let schema = objectSchema(sub ?? wholeProjection(node.children), options)
  if (node.isArray) schema = { type: 'array', items: schema }
  if (node.nullable) schema.nullable = true
  if (options.defaults && node.hasDefault) schema.default = node.defaultValue
  return schema
}

/** Returns the response schema that serializes exactly the projected fields of a declared response. */
export function pruneSchema (declared: DeclaredResponse, projection: Projection, options: PruneOptions): JsonSchema {
  const records = objectSchema(projection, options)
  const { shape } = declared
  let schema: JsonSchema
  if (shape.kind === 'envelope') {
    const envelope = declared.envelope as JsonSchema
    schema = {
      ...envelope,
      properties: { ...envelope.properties, [shape.key]: { type: 'array', items: records } }
    }
    delete schema.$id
  } else {
    schema = shape.kind === 'array' ? { type: 'array', items: records } : records
  }
  return { ...declared.localDefinitions, ...schema }
}
