/**
 * Writes the `RestrictedRoutes` type of a client from an OpenAPI 3 document
 * served by the plugin: for each operation, openapi-typescript's type of it;
 * for one whose `x-restricted-fields` key says what it sends, each
 * restricted status's complete record (a component of openapi-typescript's
 * `components`) and where the records sit, then its field sets, default
 * fields and `maxDepth`. The document is read as it is: nothing of the
 * server is imported.
 */
// A type only: the description of one operation, as the plugin writes it; nothing of the server is imported.
import type { RecordsDescription, RouteFieldsDescription as Described } from '../openapi/route-fields.js'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const COMPONENT = '#/components/schemas/'
/** The plugin's default `maxDepth`, for a description without one. */
const DEFAULT_DEPTH = 8

export interface GenerateOptions {
  /** The module of openapi-typescript's output, as the generated file imports it. Default `'./api.js'`. */
  types?: string
}

const text = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const list = (values: readonly string[]): string => `[${values.map(text).join(', ')}]`
const union = (values: readonly string[]): string => values.length === 0 ? "''" : values.map(text).join(' | ')
/** A status key as openapi-typescript writes it: a number for digits, a string otherwise. */
const statusIndex = (status: string): string => /^\d+$/.test(status) ? status : text(status)

function isRecords (value: unknown): value is RecordsDescription {
  const described = value as RecordsDescription
  return typeof value === 'object' && value !== null && typeof described.record?.$ref === 'string' && described.record.$ref.startsWith(COMPONENT) &&
    ['object', 'array', 'envelope'].includes(described.records) && (described.records !== 'envelope' || typeof described.key === 'string')
}

function isDescribed (value: unknown): value is Described {
  const described = value as Described
  return typeof value === 'object' && value !== null && typeof described.statuses === 'object' && described.statuses !== null &&
    typeof described.only === 'string' && typeof described.defer === 'string' &&
    typeof described.sets === 'object' && described.sets !== null
}

/** The media type openapi-typescript keys the response body by: JSON first. */
function mediaType (operation: any, status: string): string | null {
  const content = operation?.responses?.[status]?.content
  if (typeof content !== 'object' || content === null) return null
  return 'application/json' in content ? 'application/json' : Object.keys(content).find((media) => content[media]?.schema !== undefined) ?? null
}

/** The component a `$ref` names, its pointer token decoded. */
const componentOf = (ref: string): string => decodeURIComponent(ref.slice(COMPONENT.length)).replace(/~1/g, '/').replace(/~0/g, '~')

/** The entries of an operation's restricted statuses, as lines: those whose body openapi-typescript types. */
function statusEntries (operation: any, described: Described, at: string): string[] {
  const entries: string[] = []
  for (const [status, records] of Object.entries(described.statuses)) {
    const media = mediaType(operation, status)
    if (!isRecords(records) || media === null) continue
    entries.push([
      `        ${statusIndex(status)}: {`,
      `          reply: ${at}['responses'][${statusIndex(status)}]['content'][${text(media)}]`,
      `          record: components['schemas'][${text(componentOf(records.record.$ref))}]`,
      `          records: ${text(records.records)}`,
      `          key: ${records.records === 'envelope' ? text(records.key as string) : 'never'}`,
      '        }'
    ].join('\n'))
  }
  return entries
}

/**
 * The TypeScript source of `RestrictedRoutes` for a document: one entry per
 * path and method, with what narrowing needs where the plugin restricts it.
 * Throws when the document is not OpenAPI 3 (openapi-typescript reads no
 * other).
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
      if (typeof operation !== 'object' || operation === null) continue
      const described = operation['x-restricted-fields']
      const at = `paths[${text(path)}][${text(method)}]`
      const statuses = isDescribed(described) ? statusEntries(operation, described, at) : []
      // A route that did not opt in is called through the same client, typed as documented.
      if (!isDescribed(described) || statuses.length === 0) {
        operations.push(`    ${method}: {\n      operation: ${at}\n    }`)
        continue
      }
      operations.push([
        `    ${method}: {`,
        `      operation: ${at}`,
        '      statuses: {',
        ...statuses,
        '      }',
        `      only: ${text(described.only)}`,
        `      defer: ${text(described.defer)}`,
        `      sets: {${Object.entries(described.sets).map(([name, paths]) => ` ${text(name)}: ${list(paths)}`).join(',')}${Object.keys(described.sets).length > 0 ? ' ' : ''}}`,
        // Default fields that are all hidden from this caller leave empty records: '' names no field.
        `      defaultFields: ${described.defaultFields === undefined ? 'never' : union(described.defaultFields)}`,
        `      maxDepth: ${Number.isInteger(described.maxDepth) ? described.maxDepth : DEFAULT_DEPTH}`,
        '    }'
      ].join('\n'))
    }
    if (operations.length > 0) entries.push(`  ${text(path)}: {\n${operations.join('\n')}\n  }`)
  }
  return [
    '// What each operation of the document sends, for fastify-restricted-fields/client.',
    '// Generated from the document\'s operations and their x-restricted-fields keys: do not edit.',
    `import type { components, paths } from ${text(options.types ?? './api.js')}`,
    '',
    'export interface RestrictedRoutes {',
    entries.join('\n'),
    '}',
    ''
  ].join('\n')
}
