/**
 * Adds the restriction parameters to a route's querystring schema, so that
 * @fastify/swagger documents them (the allowed names as choices) and a strict
 * querystring schema (`additionalProperties: false`) still accepts them.
 * The route's own parameters and their validation are kept.
 */
import type { JsonSchema } from './schema/tree.js'

/** A route's field sets as documented: the presets by name and the default fields, as dotted paths. */
export interface DocumentedSets {
  readonly fieldSets?: Readonly<Record<string, readonly string[]>>
  readonly defaultFields?: readonly string[] | null
}

/** What `only` accepts besides declared names: `*`, `@default` where the route has default fields, and `@name` for each preset. */
export function setChoices (sets: DocumentedSets = {}): string[] {
  return ['*', ...(sets.defaultFields ?? null) === null ? [] : ['@default'], ...Object.keys(sets.fieldSets ?? {}).map((name) => '@' + name)]
}

/**
 * The description of the parameter that keeps fields, named `onlyParam`,
 * with the route's field sets; `keep` leaves out the fields a caller may not see.
 */
export function onlyDescription (onlyParam: string, sets: DocumentedSets = {}, keep: (path: string) => boolean = () => true): string {
  const text = `Keep only these fields in every returned object. Repeat the parameter for several fields (${onlyParam}=a&${onlyParam}=b); ` +
    `a comma-separated list (${onlyParam}=a,b) and ${onlyParam}[]=a are accepted too. Dotted paths reach nested fields (a.b).`
  const presets = Object.entries(sets.fieldSets ?? {})
  const defaults = sets.defaultFields ?? null
  if (presets.length === 0 && defaults === null) return `${text} ${onlyParam}=* keeps every field.`
  // A set whose fields are all hidden from a caller still answers, with empty records.
  const list = (paths: readonly string[]): string => paths.filter(keep).join(', ') || 'empty'
  const named = [
    '* is every field',
    ...defaults === null ? [] : [`@default, sent without ${onlyParam}, is ${list(defaults)}`],
    ...presets.map(([name, paths]) => `@${name} is ${list(paths)}`)
  ]
  return `${text} Field sets mix with names (${onlyParam}=@name,a): ${named.join('; ')}.`
}

/** The description of the parameter that removes fields, named `deferParam`. */
export function deferDescription (onlyParam: string, deferParam: string): string {
  return `Remove these fields from every returned object, after ${onlyParam}. Repeat the parameter for several fields (${deferParam}=a&${deferParam}=b); ` +
    `a comma-separated list (${deferParam}=a,b) and ${deferParam}[]=a are accepted too. It takes field names only: \`*\` and the field sets are for ${onlyParam}.`
}

/** The schema of one restriction parameter: an array of declared names. */
function parameterSchema (paths: readonly string[], description: string, choices: readonly string[] = []): JsonSchema {
  return { type: 'array', items: { type: 'string', enum: [...paths, ...choices] }, description }
}

/**
 * Returns the route's querystring schema with `only` and `defer` added (under
 * their configured names), or the schema unchanged when it cannot be extended
 * safely (a `$ref` or a combinator at its top). Parameters the route declares
 * itself are left as they are.
 */
export function withRestrictionParameters (
  querystring: JsonSchema | undefined, onlyParam: string, deferParam: string, paths: readonly string[], sets: DocumentedSets = {}
): JsonSchema | undefined {
  if (querystring !== undefined && (querystring.$ref !== undefined || querystring.anyOf !== undefined ||
      querystring.oneOf !== undefined || querystring.allOf !== undefined)) return querystring
  const ours = {
    [onlyParam]: parameterSchema(paths, onlyDescription(onlyParam, sets), setChoices(sets)),
    [deferParam]: parameterSchema(paths, deferDescription(onlyParam, deferParam))
  }
  return {
    type: 'object',
    ...querystring,
    properties: { ...ours, ...querystring?.properties }
  }
}
