/**
 * The tests that choose a record's variant, as the route's serializer and the
 * selection's serializers read them: tag tests for tagged variants, the tag
 * read back out of them, and object tests typed for ajv's strict mode.
 */
import { isRecord } from '../json.js'
import type { Located } from './references.js'
import { keywordOf } from './vocabulary.js'
import type { FieldTree, JsonSchema, Variants } from './tree.js'

/** The properties a schema's parts require to hold one constant (`const`, or an `enum` of one value), with that value. */
function requiredConstants (parts: Located[]): Map<string, unknown> {
  const required = new Set<string>()
  const constants = new Map<string, unknown>()
  for (const { schema } of parts) {
    if (Array.isArray(schema.required)) for (const name of schema.required) required.add(name)
    for (const [name, property] of Object.entries(schema.properties as JsonSchema)) {
      if (!isRecord(property)) continue
      if (Object.hasOwn(property, 'const')) constants.set(name, property.const)
      else if (Array.isArray(property.enum) && property.enum.length === 1) constants.set(name, property.enum[0])
    }
  }
  return new Map([...constants].filter(([name]) => required.has(name)))
}

/**
 * Tests that choose between tagged variants (each requires one property, the
 * same for all, to hold a constant of its own: a discriminator, TypeBox and
 * Zod literals) by that property alone. For any record that fits one of the
 * variants they choose what testing each whole variant chooses, as
 * fast-json-stringify does, at a fraction of the cost. Takes the object parts
 * of each variant; null when the variants are not tagged so.
 */
export function tagTests (variants: Located[][]): JsonSchema[] | null {
  const constants = variants.map((parts) => requiredConstants(parts))
  for (const name of constants[0].keys()) {
    if (!constants.every((each) => each.has(name))) continue
    const values = constants.map((each) => JSON.stringify(each.get(name)))
    if (new Set(values).size !== values.length) continue
    return constants.map((each) => ({ type: 'object', required: [name], properties: { [name]: { const: each.get(name) } } }))
  }
  return null
}

/** A level's variants told apart by one property alone: its name, and the constant it holds in each variant. */
export interface VariantTag {
  readonly name: string
  readonly values: readonly unknown[]
}

const isPrimitive = (value: unknown): boolean => value === null || ['string', 'number', 'boolean'].includes(typeof value)

/**
 * The tag of a level whose every test is the test of one property's
 * constant, in exactly the form tagTests writes, so that a record is of the
 * variant whose constant `record[name] === value`, as the test finds it;
 * null for other tests, and for constants that are not primitive (compared by
 * structure).
 */
export function variantTag (variants: Variants): VariantTag | null {
  let name: string | null = null
  const values: unknown[] = []
  for (const test of variants.tests) {
    if (test === null || Object.keys(test).length !== 3 || test.type !== 'object' || !Array.isArray(test.required) ||
      test.required.length !== 1 || !isRecord(test.properties)) return null
    const [property] = test.required
    const constant = test.properties[property]
    if ((name !== null && property !== name) || Object.keys(test.properties).length !== 1 || !isRecord(constant) ||
      Object.keys(constant).length !== 1 || !isPrimitive(constant.const)) return null
    name = property
    values.push(constant.const)
  }
  return name === null ? null : { name, values }
}

const appliesToObjects = (key: string): boolean => keywordOf(key)?.appliesTo === 'object'
// Words and instances that constrain nothing; an identifier (`$id`, `$anchor`) is not copied into a second place.
const constrainsNothing = (key: string): boolean => {
  const holds = keywordOf(key)?.holds
  return (holds === 'annotation' && !key.startsWith('$')) ||
    key === '$comment' || key === 'default' || key === 'examples' || key === 'example'
}

/**
 * A variant's test as the selection's serializers read it. ajv in strict mode
 * warns when object keywords come without `type: 'object'`, and it would warn
 * again for every selection compiled from the test, on top of the route's own
 * warning. When each keyword of a test applies to objects only, anything that
 * is not an object passes it, so this form tests the same values, quietly.
 */
export function typedObjectTest (test: JsonSchema): JsonSchema {
  if ('type' in test) return test
  const keys = Object.keys(test)
  if (!keys.every((key) => appliesToObjects(key) || constrainsNothing(key)) || !keys.some(appliesToObjects)) return test
  const typed: JsonSchema = { ...test, type: 'object' }
  if (isRecord(test.properties)) {
    typed.properties = Object.fromEntries(Object.entries(test.properties).map(([name, inner]) => [name, typedObjectTest(inner)]))
  }
  return { anyOf: [{ not: { type: 'object' } }, typed] }
}

/** The levels of variants of a tree, at any depth, that are not told apart by a tag. */
// A field tree is finite (maxDepth ends it) and shares no subtree, so the walk needs no guard against revisits.
export function untaggedLevels (tree: FieldTree, levels: Variants[] = []): Variants[] {
  if (tree.variants !== null) {
    if (variantTag(tree.variants) === null) levels.push(tree.variants)
    for (const own of tree.variants.own) untaggedLevels(own, levels)
  }
  for (const node of tree.nodes) if (node.children !== null) untaggedLevels(node.children, levels)
  return levels
}
