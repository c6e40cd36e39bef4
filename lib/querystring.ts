/**
 * Adds the restriction parameters to a route's querystring schema, so that
 * @fastify/swagger documents them (the allowed names as choices) and a strict
 * querystring schema (`additionalProperties: false`) still accepts them.
 * The route's own parameters and their validation are kept.
 */
import type { JsonSchema } from './declared.js'

/** The description of the parameter that keeps fields, named `onlyParam`. */
export function onlyDescription (onlyParam: string): string {
  return `Keep only these fields in every returned object. Repeat the parameter for several fields (${onlyParam}=a&${onlyParam}=b); ` +
    `a comma-separated list (${onlyParam}=a,b) and ${onlyParam}[]=a are accepted too. Dotted paths reach nested fields (a.b).`
}

/** The description of the parameter that removes fields, named `deferParam`. */
export function deferDescription (onlyParam: string, deferParam: string): string {
  return `Remove these fields from every returned object, after ${onlyParam}. Repeat the parameter for several fields (${deferParam}=a&${deferParam}=b); ` +
    `a comma-separated list (${deferParam}=a,b) and ${deferParam}[]=a are accepted too.`
}

/** The schema of one restriction parameter: an array of declared names. */
function parameterSchema (paths: readonly string[], description: string): JsonSchema {
  return { type: 'array', items: { type: 'string', enum: [...paths] }, description }
}

/**
 * Returns the route's querystring schema with `only` and `defer` added (under
 * their configured names), or the schema unchanged when it cannot be extended
 * safely (a `$ref` or a combinator at its top). Parameters the route declares
 * itself are left as they are.
 */
export function withRestrictionParameters (
  querystring: JsonSchema | undefined, onlyParam: string, deferParam: string, paths: readonly string[]
): JsonSchema | undefined {
  if (querystring !== undefined && (querystring.$ref !== undefined || querystring.anyOf !== undefined ||
      querystring.oneOf !== undefined || querystring.allOf !== undefined)) return querystring
  const ours = {
    [onlyParam]: parameterSchema(paths, onlyDescription(onlyParam)),
    [deferParam]: parameterSchema(paths, deferDescription(onlyParam, deferParam))
  }
  return {
    type: 'object',
    ...querystring,
    properties: { ...ours, ...querystring?.properties }
  }
}
