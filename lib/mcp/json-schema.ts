/**
 * Turns a schema of an OpenAPI document into a self-contained JSON Schema, as
 * MCP tools declare theirs: `$ref`s to components are written in place (a
 * component that refers back to itself goes to `$defs` once), and OpenAPI
 * 3.0's dialect (`nullable`, `example`, `discriminator`, `xml`) becomes JSON
 * Schema, so that any validator, a client's included, reads it as written.
 */
import { MAX_REF_HOPS, decodePointerToken, isRecord } from '../json.js'
import { keywordOf } from '../schema/vocabulary.js'

type Json = Record<string, any>

const COMPONENT_PREFIX = '#/components/schemas/'

/** OpenAPI keywords with no meaning in JSON Schema: strict validators refuse them, and they cost an agent tokens. */
const OPENAPI_ONLY = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example', 'x-restricted-fields'])

/** A nullable schema as JSON Schema: `null` added to its type, or to its choices. */
export function withNull (schema: Json): Json {
  if (typeof schema.type === 'string') {
    const nullable: Json = { ...schema, type: [schema.type, 'null'] }
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) nullable.enum = [...schema.enum, null]
    return nullable
  }
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] }
  return { anyOf: [schema, { type: 'null' }] }
}

/**
 * The self-contained JSON Schema of `schema`, whose `$ref`s point into
 * `components` (the document's `components.schemas`). `openapi30` converts
 * OpenAPI 3.0's `nullable`; a 3.1 document already writes JSON Schema.
 */
export function toJsonSchema (schema: unknown, components: Json, openapi30: boolean): Json {
  const defs: Json = {}
  const pending: string[] = []

  function component (name: string, stack: readonly string[]): Json {
    // A component met again inside itself cannot be written in place: it is referred to in `$defs`.
    if (stack.includes(name) || stack.length > MAX_REF_HOPS) {
      if (!Object.hasOwn(defs, name)) {
        defs[name] = true
        pending.push(name)
      }
      return { $ref: `#/$defs/${name}` }
    }
    return convert(components[name] ?? {}, [...stack, name])
  }

  function convert (value: unknown, stack: readonly string[]): any {
    if (Array.isArray(value)) return value.map((member) => convert(member, stack))
    if (!isRecord(value)) return value
    if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_PREFIX)) {
      const name = decodePointerToken(value.$ref.slice(COMPONENT_PREFIX.length))
      const target = component(name, stack)
      // Keywords beside a `$ref` (a description) are kept around the referred schema.
      const { $ref, nullable, ...rest } = value
      const beside = convert(rest, stack)
      const keys = Object.keys(beside)
      // Written in place, the schema takes them as its own, unless it has keywords of the same names.
      const merged = keys.length === 0
        ? target
        : target.$ref === undefined && keys.every((key) => !Object.hasOwn(target, key)) ? { ...target, ...beside } : { ...beside, allOf: [target] }
      return openapi30 && nullable === true ? withNull(merged) : merged
    }
    const converted: Json = {}
    for (const [keyword, member] of Object.entries(value)) {
      if (OPENAPI_ONLY.has(keyword)) continue
      // Where schemas sit is the vocabulary's: a property named `nullable` or `example` is a schema, not the keyword.
      const holds = keywordOf(keyword)?.holds
      if ((holds === 'schemaMap' || holds === 'namesOrSchemaMap') && isRecord(member)) {
        converted[keyword] = Object.fromEntries(Object.entries(member).map(([name, property]) => [name, Array.isArray(property) ? property : convert(property, stack)]))
      } else if (holds === 'schema' || holds === 'schemas' || holds === 'schemaOrSchemas') {
        converted[keyword] = convert(member, stack)
      } else {
        converted[keyword] = member
      }
    }
    return openapi30 && value.nullable === true ? withNull(converted) : converted
  }

  const root = convert(schema, [])
  // A component first met inside itself is written once more, from the top, as its own definition.
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) defs[next] = convert(components[next], [next])
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs }
}
