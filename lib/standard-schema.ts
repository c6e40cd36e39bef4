/**
 * Reads schemas that are not JSON Schema objects but implement the Standard
 * Schema interfaces (https://standardschema.dev): `~standard.validate` and
 * Standard JSON Schema's `~standard.jsonSchema.output()`. Zod 4 implements
 * both; so may other libraries. The plugin depends on none of them.
 */
import type { JsonSchema } from './schema/tree.js'

/** The result of `~standard.validate`: the validated output, or the issues found. */
export type StandardResult = { readonly value: unknown, readonly issues?: undefined } | { readonly issues: readonly unknown[] }

/** The part of a Standard Schema the plugin uses. */
export interface StandardSchema {
  readonly '~standard': {
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult | Promise<StandardResult>
    readonly jsonSchema?: { readonly output: (options: { target: string, libraryOptions?: Record<string, unknown> }) => JsonSchema }
  }
}

/** Whether a schema is a Standard Schema (Zod 4, Valibot, ArkType, …) rather than a JSON Schema object. */
export function isStandardSchema (schema: unknown): schema is StandardSchema {
  if (schema === null || (typeof schema !== 'object' && typeof schema !== 'function')) return false
  const standard = (schema as Record<string, unknown>)['~standard']
  return standard !== null && typeof standard === 'object' && typeof (standard as Record<string, unknown>).validate === 'function'
}

/**
 * The JSON Schema (draft-07, the dialect fast-json-stringify reads) of what a
 * Standard Schema outputs. Returns a string that says what is wrong instead
 * when the schema cannot give one.
 */
export function standardOutputSchema (schema: StandardSchema): JsonSchema | string {
  const standard = schema['~standard']
  if (typeof standard.jsonSchema?.output !== 'function') {
    return `a Standard Schema from '${String(standard.vendor)}' that does not implement Standard JSON Schema (~standard.jsonSchema)`
  }
  let json: JsonSchema
  try {
    // A value JSON Schema cannot describe (a Zod date, a codec's output) becomes a leaf
    // that allows anything: it is written as the route's own serializer writes it, with JSON.stringify.
    json = standard.jsonSchema.output({ target: 'draft-07', libraryOptions: { unrepresentable: 'any' } })
  } catch (error) {
    return `a Standard Schema from '${String(standard.vendor)}' whose JSON Schema cannot be generated (${(error as Error).message})`
  }
  const { $schema: _dialect, ...rest } = json
  return rest
}

/**
 * Names a value that is neither a JSON Schema object nor a Standard Schema,
 * such as an instance of another schema library's class; null for a plain object.
 */
export function foreignSchema (schema: object): string | null {
  const prototype = Object.getPrototypeOf(schema)
  if (prototype === null || prototype === Object.prototype) return null
  const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name
  return `an instance of ${typeof name === 'string' && name !== '' ? name : 'a class'}, not a JSON Schema object`
}

/** Whether any part of a route's schema (querystring, body, params, headers, a response) is a Standard Schema. */
export function usesStandardSchemas (routeSchema: Record<string, any> | undefined): boolean {
  if (routeSchema === undefined) return false
  const parts = [routeSchema.querystring, routeSchema.body, routeSchema.params, routeSchema.headers]
  const response = routeSchema.response
  if (response !== null && typeof response === 'object') {
    for (const entry of Object.values(response as Record<string, any>)) {
      parts.push(entry, entry?.content?.['application/json']?.schema)
    }
  }
  return parts.some(isStandardSchema)
}
