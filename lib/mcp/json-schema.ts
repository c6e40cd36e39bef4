/**
 * Turns a schema of an OpenAPI document into a self-contained JSON Schema, as
 * MCP tools declare theirs: `$ref`s to components become its own `$defs`
 * (or are written in place when met once), and OpenAPI
 * 3.0's dialect (`nullable`, `example`, `discriminator`, `xml`) becomes JSON
 * Schema, so that any validator, a client's included, reads it as written.
 */
import { ToolSchemasTooLargeError } from '../errors.js'
import { decodePointerToken, isRecord } from '../json.js'
import { OPENAPI_ONLY as OPENAPI_KEYWORDS, TESTS, WRITTEN_KEYWORDS, heldSchemas, keywordOf } from '../schema/vocabulary.js'
import { OPERATION_KEY } from '../openapi/types.js'

type Json = Record<string, any>

const COMPONENT_PREFIX = '#/components/schemas/'

/**
 * OpenAPI keywords with no meaning in JSON Schema, and the plugin's own key: strict validators refuse
 * them, and they cost an agent tokens.
 */
const OPENAPI_ONLY: ReadonlySet<string> = new Set([...OPENAPI_KEYWORDS, OPERATION_KEY])

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
 * Lets a build that went past the schema budget go on without output schemas
 * (its caller's fallback); any other failure goes on up as it was thrown.
 */
export function throwUnlessPastBudget (error: unknown): void {
  if (!(error instanceof ToolSchemasTooLargeError)) throw error
}

/**
 * How many schema objects one caller's tools may write, shared by all the
 * schemas of one build: past it the build stops with ToolSchemasTooLargeError
 * rather than run the process out of memory. Shared components written once
 * keep a description's tools linear in its size; the bound holds even so.
 */
export class SchemaBudget {
  constructor (public left: number) {}

  spend (): void {
    if (--this.left < 0) throw new ToolSchemasTooLargeError()
  }
}

/**
 * How many times each component is referred to by what `schema` reaches,
 * each component's own references counted once: a component met once is
 * written in place, one met twice or more (or inside itself) goes to `$defs`.
 */
function referenceCounts (schema: unknown, components: Json, budget: SchemaBudget): Map<string, number> {
  const counts = new Map<string, number>()
  // By hand, not the vocabulary's walk, which visits a shared schema once: here each place a `$ref` stands counts.
  const pending: unknown[] = [schema]
  for (let value = pending.pop(); pending.length > 0 || value !== undefined; value = pending.pop()) {
    // The vocabulary hands each schema of a list on its own, so only schemas are met here.
    if (!isRecord(value)) continue
    budget.spend()
    if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_PREFIX)) {
      const name = decodePointerToken(value.$ref.slice(COMPONENT_PREFIX.length))
      const count = counts.get(name) ?? 0
      counts.set(name, count + 1)
      if (count === 0) pending.push(components[name])
    }
    for (const [keyword, member] of Object.entries(value)) {
      // Where schemas sit is the vocabulary's: a property named `nullable` or `example` is a schema, not the keyword.
      if (!OPENAPI_ONLY.has(keyword)) for (const held of heldSchemas(keyword, member)) pending.push(held.schema)
    }
  }
  return counts
}

/** Whether a schema limits the names of its properties to those it declares itself (`additionalProperties` false or a schema). */
function limitsNames (schema: Json): boolean {
  return schema.additionalProperties !== undefined && schema.additionalProperties !== true
}

/**
 * The names and patterns of the properties that `schema`'s members declare
 * (its `$ref`'s target, the schemas of `allOf`, `anyOf`, `oneOf`, `then`,
 * `else`, and theirs in turn): fast-json-stringify merges them into the
 * record before it reads `additionalProperties`, so a record holds them.
 */
function memberProperties (schema: Json, components: Json, budget: SchemaBudget): { names: Set<string>, patterns: Set<string> } {
  const names = new Set<string>()
  const patterns = new Set<string>()
  const seen = new Set<unknown>([schema])
  const pending: Json[] = []
  const member = (value: unknown): void => {
    if (!isRecord(value) || seen.has(value)) return
    seen.add(value)
    pending.push(value)
    for (const name of Object.keys(isRecord(value.properties) ? value.properties : {})) names.add(name)
    for (const pattern of Object.keys(isRecord(value.patternProperties) ? value.patternProperties : {})) patterns.add(pattern)
  }
  // By hand, not the vocabulary's walk: a member's names are taken when it is first met, in the order the output lists them.
  for (let value: Json | undefined = schema; value !== undefined; value = pending.pop()) {
    budget.spend()
    if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_PREFIX)) {
      member(components[decodePointerToken(value.$ref.slice(COMPONENT_PREFIX.length))])
    }
    for (const [keyword, held] of Object.entries(value)) {
      if (TESTS.has(keyword) || OPENAPI_ONLY.has(keyword)) continue
      for (const { schema: inner, describes } of heldSchemas(keyword, held)) if (describes === 'same') member(inner)
    }
  }
  return { names, patterns }
}

/**
 * `converted` (the JSON Schema of `source`) with the properties its members
 * declare added to its own, as schemas that take any value: a JSON Schema
 * validator reads `additionalProperties` against the record's own
 * `properties` alone, and would refuse every record that fast-json-stringify
 * wrote with a member's field. The members still check their fields' values.
 */
function withMemberProperties (converted: Json, source: Json, components: Json, budget: SchemaBudget): Json {
  if (!limitsNames(converted)) return converted
  const { names, patterns } = memberProperties(source, components, budget)
  const properties: Json = isRecord(converted.properties) ? { ...converted.properties } : {}
  const patternProperties: Json = isRecord(converted.patternProperties) ? { ...converted.patternProperties } : {}
  for (const name of names) if (!Object.hasOwn(properties, name)) properties[name] = {}
  for (const pattern of patterns) if (!Object.hasOwn(patternProperties, pattern)) patternProperties[pattern] = {}
  return {
    ...converted,
    ...Object.keys(properties).length === 0 ? {} : { properties },
    ...Object.keys(patternProperties).length === 0 ? {} : { patternProperties }
  }
}

/** Whether an output schema keeps `keyword` with this value: the vocabulary's written keywords, `items` only as one schema. */
function writtenAsDeclared (keyword: string, member: unknown): boolean {
  return WRITTEN_KEYWORDS.has(keyword) && (keyword !== 'items' || isRecord(member))
}

/** `converted` with a choice among `choices` besides its own: as its `anyOf`, or, when it has one, as a member of its `allOf`. */
function withChoice (converted: Json, choices: unknown[]): Json {
  if (converted.anyOf === undefined) return { ...converted, anyOf: choices }
  return { ...converted, allOf: [...converted.allOf ?? [], { anyOf: choices }] }
}

/**
 * An output schema's own keywords, `value`'s converted ones given, as what
 * fast-json-stringify writes under `value` satisfies them: a `number` may be
 * null (an infinite number is written so). A choice of `oneOf` is kept as
 * `anyOf`: its members, with fewer checks, may overlap. A condition is not
 * kept (it was tested on the handler's value, not on the one written), and
 * its branches are kept as a choice, where it has both: the value written is
 * of one or the other.
 */
function asWritten (converted: Json, value: Json, convert: (value: unknown) => any): Json {
  let written = converted
  const types: unknown[] = [written.type].flat()
  if (types.includes('number') && !types.includes('null')) written = { ...written, type: [...types, 'null'] }
  if (Array.isArray(value.oneOf)) written = withChoice(written, convert(value.oneOf))
  if (value.then !== undefined && value.else !== undefined) written = withChoice(written, [convert(value.then), convert(value.else)])
  return written
}

/**
 * The self-contained JSON Schema of `schema`, whose `$ref`s point into
 * `components` (the document's `components.schemas`). `openapi30` converts
 * OpenAPI 3.0's `nullable`; a 3.1 document already writes JSON Schema. A
 * component referred to once is written in place; one referred to more often
 * is written once, in `$defs`, so that a description's graph of references is
 * never unfolded into a tree (each expandable field of Stripe's description
 * would double it). `budget` bounds the objects read and written. An
 * `output` schema, a tool's result, keeps only what fast-json-stringify's
 * writing guarantees (see `asWritten`): the route's reply is what it wrote,
 * whatever the handler's values, and a client refuses a result its schema
 * refuses.
 */
export function toJsonSchema (
  schema: unknown, components: Json, openapi30: boolean, budget = new SchemaBudget(Infinity), output = false
): Json {
  const counts = referenceCounts(schema, components, budget)
  const defs: Json = {}
  const pending: string[] = []

  function component (name: string, inPlace: boolean): Json {
    if (inPlace || (counts.get(name) as number) < 2) return convert(components[name] ?? {})
    if (!Object.hasOwn(defs, name)) {
      defs[name] = true
      pending.push(name)
    }
    return { $ref: `#/$defs/${name}` }
  }

  // The top schema is always written in place: a tool's output must say it is an object.
  function convert (value: unknown, top = false): any {
    if (Array.isArray(value)) return value.map((member) => convert(member))
    if (!isRecord(value)) return value
    budget.spend()
    if (typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT_PREFIX)) {
      const target = component(decodePointerToken(value.$ref.slice(COMPONENT_PREFIX.length)), top)
      // Keywords beside a `$ref` (a description) are kept around the referred schema.
      const { $ref, nullable, ...rest } = value
      const beside = convert(rest)
      const keys = Object.keys(beside)
      // Written in place, the schema takes them as its own, unless it has keywords of the same names.
      const merged = keys.length === 0
        ? target
        : withMemberProperties(
          target.$ref === undefined && keys.every((key) => !Object.hasOwn(target, key))
            ? { ...target, ...beside }
            : { ...beside, allOf: [target] },
          value, components, budget
        )
      return openapi30 && nullable === true ? withNull(merged) : merged
    }
    let converted: Json = {}
    for (const [keyword, member] of Object.entries(value)) {
      if (OPENAPI_ONLY.has(keyword) || (output && !writtenAsDeclared(keyword, member))) continue
      const holds = keywordOf(keyword)?.holds
      if ((holds === 'schemaMap' || holds === 'namesOrSchemaMap') && isRecord(member)) {
        converted[keyword] = Object.fromEntries(Object.entries(member)
          .map(([name, property]) => [name, Array.isArray(property) ? property : convert(property)]))
      } else if (holds === 'schema' || holds === 'schemas' || holds === 'schemaOrSchemas') {
        converted[keyword] = convert(member)
      } else {
        converted[keyword] = member
      }
    }
    if (output) converted = asWritten(converted, value, convert)
    const record = withMemberProperties(converted, value, components, budget)
    return openapi30 && value.nullable === true ? withNull(record) : record
  }

  const root = convert(schema, true)
  // Each shared component is written once, from the top, as its own definition.
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) defs[next] = convert(components[next] ?? {})
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs }
}
