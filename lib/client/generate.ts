/**
 * Writes the `RestrictedRoutes` type of a client from an OpenAPI 3 document
 * served by the plugin: for each operation whose `x-restricted-fields` key
 * says what it sends, its complete record (a component of openapi-typescript's
 * `components`), where the records sit, its field sets and default fields,
 * and openapi-typescript's types of its parameters and responses. The
 * document is read as it is: nothing of the server is imported.
 */
// A type only: the description of one operation, as the plugin writes it; nothing of the server is imported.
import type { RouteFieldsDescription as Described } from '../openapi/route-fields.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const COMPONENT = '#/components/schemas/'

export interface GenerateOptions {
  /** The module of openapi-typescript's output, as the generated file imports it. Default `'./api.js'`. */
  types?: string
}

const text = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const list = (values: readonly string[]): string => `[${values.map(text).join(', ')}]`
const union = (values: readonly string[]): string => values.length === 0 ? "''" : values.map(text).join(' | ')
/** A status key as openapi-typescript writes it: a number for digits, a string otherwise. */
const statusIndex = (status: string): string => /^\d+$/.test(status) ? status : text(status)

function isDescribed (value: unknown): value is Described {
  const described = value as Described
  return typeof value === 'object' && value !== null && typeof described.status === 'string' && typeof described.record?.$ref === 'string' &&
    described.record.$ref.startsWith(COMPONENT) && ['object', 'array', 'envelope'].includes(described.records) &&
    typeof described.only === 'string' && typeof described.defer === 'string' && typeof described.sets === 'object' && described.sets !== null
}

/** The media type openapi-typescript keys the response body by: JSON first. */
function mediaType (operation: any, status: string): string | null {
  const content = operation?.responses?.[status]?.content
  if (typeof content !== 'object' || content === null) return null
  return 'application/json' in content ? 'application/json' : Object.keys(content).find((media) => content[media]?.schema !== undefined) ?? null
}

/**
 * The TypeScript source of `RestrictedRoutes` for a document: one entry per
 * path and method that the plugin restricts. Throws when the document is not
 * OpenAPI 3 (openapi-typescript reads no other).
 *
 * @example writeFileSync('restricted.ts', restrictedRoutesSource(await (await fetch(url)).json()))
 */
export function restrictedRoutesSource (document: unknown, options: GenerateOptions = {}): string {
  const doc = document as { openapi?: unknown, paths?: Record<string, Record<string, unknown>> }
  if (typeof doc?.openapi !== 'string' || !doc.openapi.startsWith('3.')) throw new TypeError('restrictedRoutesSource reads OpenAPI 3 documents, as openapi-typescript does')
  const entries: string[] = []
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const operations: string[] = []
    for (const method of METHODS) {
      const operation = item?.[method] as Record<string, unknown> | undefined
      const described = operation?.['x-restricted-fields']
      const media = mediaType(operation, (described as Described | undefined)?.status ?? '')
      if (!isDescribed(described) || media === null) continue
      const at = `paths[${text(path)}][${text(method)}]`
      const component = decodeURIComponent(described.record.$ref.slice(COMPONENT.length)).replace(/~1/g, '/').replace(/~0/g, '~')
      operations.push([
        `    ${method}: {`,
        `      parameters: ${at}['parameters']`,
        `      responses: ${at}['responses']`,
        `      reply: ${at}['responses'][${statusIndex(described.status)}]['content'][${text(media)}]`,
        `      record: components['schemas'][${text(component)}]`,
        `      records: ${text(described.records)}`,
        `      key: ${described.key === undefined ? 'never' : text(described.key)}`,
        `      only: ${text(described.only)}`,
        `      defer: ${text(described.defer)}`,
        `      sets: {${Object.entries(described.sets).map(([name, paths]) => ` ${text(name)}: ${list(paths)}`).join(',')}${Object.keys(described.sets).length > 0 ? ' ' : ''}}`,
        // Default fields that are all hidden from this caller leave empty records: '' names no field.
        `      defaultFields: ${described.defaultFields === undefined ? 'never' : union(described.defaultFields)}`,
        '    }'
      ].join('\n'))
    }
    if (operations.length > 0) entries.push(`  ${text(path)}: {\n${operations.join('\n')}\n  }`)
  }
  return [
    '// What each restricted operation of the document sends, for fastify-restricted-fields/client.',
    '// Generated from the document\'s x-restricted-fields keys: do not edit.',
    `import type { components, paths } from ${text(options.types ?? './api.js')}`,
    '',
    'export interface RestrictedRoutes {',
    entries.join('\n'),
    '}',
    ''
  ].join('\n')
}
