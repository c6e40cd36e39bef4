/**
 * The discovery mode: four fixed tools in place of one tool per route, for
 * APIs whose tools would not fit an agent's context. An agent finds an
 * operation by words, or browses the API's areas (each operation's first
 * tag, or the resource its path names) a page at a time, reads what it
 * takes and which fields it can choose, and calls it. Everything they
 * answer is read from the caller's own document, so a field hidden from the
 * caller is never named; fields are listed a level at a time, so that a wide
 * record stays a short answer.
 */
import { isRecord } from '../json.js'
import { isBounded, listedNames } from '../openapi/field-lists.js'
import { fixedSegments, sharedPrefix } from './areas.js'
import type { RouteFieldsDescription } from '../openapi/route-fields.js'
import type { SchemaBudget } from './json-schema.js'
import { toJsonSchema } from './json-schema.js'
import { OperationSearch } from './search.js'
import { twinEntries } from './twins.js'
import type { TwinEntry } from './twins.js'
import { BROWSE_TOOL, CALL_TOOL, DESCRIBE_TOOL, FIND_TOOL } from './tool-names.js'
import { documentOperations, parameterOf } from './tools.js'
import type { DocumentOperation, IncludeTools, RouteOf, ToolDefinition } from './tools.js'

type Json = Record<string, any>

/** The most operations a search answers, and how many by default. */
const MAX_FOUND = 50
const FOUND = 10
/** The longest description of an operation that `describe_operation` repeats; the rest is cut. */
const MAX_DESCRIPTION = 300
const MAX_PARAMETER_DESCRIPTION = 160
/** The operations of one page of an area: at most about 70 tokens a line, a page stays within 1,500 tokens. */
const AREA_PAGE = 20
/** The longest line of an area's description that the list of areas repeats. */
const MAX_AREA_DESCRIPTION = 80

const annotations = { readOnlyHint: true, openWorldHint: false } as const

/** The discovery mode's tools, the same for every caller and every API. */
export const DISCOVERY_TOOLS: readonly ToolDefinition[] = [
  {
    name: FIND_TOOL,
    title: 'Find operations',
    description: `Finds the API's operations by words of their names, summaries, paths and tags; answers one line per operation: its name, path, summary and [area], then its twins for other scopes. Then ${DESCRIBE_TOOL} says what one takes and sends, and ${CALL_TOOL} runs it.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for, e.g. "list issues of a repository"; empty lists every operation.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_FOUND, description: `The most operations to answer; default ${FOUND}.` }
      },
      required: ['query'],
      additionalProperties: false
    },
    annotations
  },
  {
    name: BROWSE_TOOL,
    title: 'List operations by area',
    description: `Without area: the API's areas, with their counts of operations. With area: its operations, one line each as ${FIND_TOOL} answers, ${AREA_PAGE} a page.`,
    inputSchema: {
      type: 'object',
      properties: {
        area: { type: 'string' },
        page: { type: 'integer', minimum: 1 }
      },
      additionalProperties: false
    },
    annotations
  },
  {
    name: DESCRIBE_TOOL,
    title: 'Describe an operation',
    description: 'Says what one operation takes (its arguments) and which fields of its reply `only` and `defer` can choose: the top-level fields, marked {} when they have nested ones, the field sets and the default fields. Name a field in `fields` to list those nested under it.',
    inputSchema: {
      type: 'object',
      properties: {
        operation: { type: 'string', description: `An operation's name, as ${FIND_TOOL} answers it.` },
        fields: { type: 'string', description: 'A field whose nested fields to list, e.g. "user" or "user.plan".' }
      },
      required: ['operation'],
      additionalProperties: false
    },
    annotations
  },
  {
    name: CALL_TOOL,
    title: 'Call an operation',
    description: 'Runs an operation and answers its JSON reply (as structured content too, where the operation declares its reply). Ask only for the fields you need: `only` keeps the fields named (dotted paths reach nested ones, @name is a field set, * is every field), `defer` leaves fields out.',
    inputSchema: {
      type: 'object',
      properties: {
        operation: { type: 'string', description: `An operation's name, as ${FIND_TOOL} answers it.` },
        arguments: { type: 'object', description: `Its arguments, as ${DESCRIBE_TOOL} lists them, e.g. {"owner": "octocat", "only": ["title"]}.` }
      },
      required: ['operation'],
      additionalProperties: false
    },
    annotations
  }
]

function textOf (value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/** A text cut to `length` characters, on one line. */
function cut (text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`
}

/**
 * An operation's area: its first tag, or else the first fixed segment of its
 * path past `prefix`, the one all listed paths share (`/v1/charges/{id}` is
 * in `charges` past `v1`), or `/` for a path with none past it, so that
 * every operation is in one.
 */
export function areaOf ({ path, operation }: Pick<DocumentOperation, 'path' | 'operation'>, prefix: readonly string[] = []): string {
  const tags: unknown[] = Array.isArray(operation.tags) ? operation.tags : []
  const tag = tags.find((candidate): candidate is string => typeof candidate === 'string' && candidate.trim() !== '')
  if (tag !== undefined) return cut(tag, 60)
  return fixedSegments(path)[prefix.length] ?? '/'
}

/** One answer line of a search or an area's page: the name, path, summary, and area. Every discovery answer lists operations with it. */
export function operationLine (operation: DocumentOperation, area: string): string {
  const summary = textOf(operation.operation.summary)
  return `${operation.name}: ${operation.path}${summary === '' ? '' : ` (${cut(summary, 120)})`} [${area}]`
}

/**
 * One argument of `describe_operation`'s answer. A schema that gives a type
 * alone is written as that type's name, beside where the argument goes:
 * `{"type":"string"}` costs five tokens, `string` one.
 */
function argumentLine (name: string, where: string, required: boolean, shape: Json, description: string): string {
  const typeOnly = Object.keys(shape).length === 1 && typeof shape.type === 'string'
  const about = [...typeOnly ? [] : [JSON.stringify(shape)], ...description === '' ? [] : [cut(description, MAX_PARAMETER_DESCRIPTION)]]
  const place = `${typeOnly ? `${shape.type as string}, ` : ''}${where}${required ? ', required' : ''}`
  return `- ${name} (${place})${about.length === 0 ? '' : `: ${about.join(' ')}`}`
}

/** One answer line of a search: the operation's line, then its twins of other scopes, each by its scope and name. */
function foundLine ({ position, twins }: TwinEntry, operations: readonly DocumentOperation[], areas: readonly string[]): string {
  const also = twins.map((twin) => `${twin.scope}: ${operations[twin.position].name}`).join(', ')
  return `${operationLine(operations[position], areas[position])}${also === '' ? '' : `; also for ${also}`}`
}

/** The field names of a field list, and the names that have nested ones. */
interface FieldNames { names: string[], parents: Set<string> }

function fieldNames (names: readonly string[]): FieldNames {
  const parents = new Set<string>()
  for (const name of names) {
    for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) parents.add(name.slice(0, dot))
  }
  return { names: names.filter((name) => !name.startsWith('@') && name !== '*'), parents }
}

/** The caller's discovery view of one document: its operations, searched and described on demand. */
export class DiscoveryView {
  private readonly operations: DocumentOperation[]
  private readonly byName: Map<string, DocumentOperation>
  /** Each operation's area, in the document's order, and the operations of each area. */
  private readonly areas: string[]
  private readonly byArea = new Map<string, DocumentOperation[]>()
  /** The view's search index, made at its first search and shared by the searches that wait for it. */
  private search?: Promise<OperationSearch>

  constructor (private readonly document: Json, include: IncludeTools, routeOf?: RouteOf) {
    this.operations = documentOperations(document, include, routeOf)
    this.byName = new Map(this.operations.map((operation) => [operation.name, operation]))
    const prefix = sharedPrefix(this.operations.map(({ path }) => path))
    this.areas = this.operations.map((operation) => areaOf(operation, prefix))
    for (const [position, area] of this.areas.entries()) {
      const members = this.byArea.get(area) ?? []
      members.push(this.operations[position])
      this.byArea.set(area, members)
    }
  }

  /** Whether the caller's document has an operation of this name. */
  has (name: string): boolean {
    return this.byName.has(name)
  }

  /** The operations that match `query` best, one line each, at most `limit`; every operation for a query without words. */
  async find (query: string, limit = FOUND): Promise<string> {
    this.search ??= OperationSearch.build(this.operations, this.document)
    const found = (await this.search).find(query)
    const matched = found === 'all'
      ? this.operations.map((_, position) => ({ position, twins: [] }))
      : twinEntries(found, this.operations.map(({ path }) => path))
    const count = Math.min(Math.max(1, Math.floor(limit)), MAX_FOUND)
    const lines = matched.slice(0, count).map((entry) => foundLine(entry, this.operations, this.areas))
    if (lines.length === 0) return `No operation matches; ${this.operations.length} in all: try other words.`
    if (matched.length > count) lines.push(`${matched.length - count} more match: use more words, or a higher limit.`)
    return lines.join('\n')
  }

  /**
   * Without `area`, the caller's areas, each with its count of operations and
   * a line of its tag's description; with it, a page of that area's
   * operations. An area none of whose operations the caller has is not one.
   */
  browse (area: string | undefined, page = 1): string {
    if (area === undefined) {
      const described = new Map<string, string>()
      for (const tag of Array.isArray(this.document.tags) ? this.document.tags : []) {
        if (!isRecord(tag) || typeof tag.name !== 'string' || described.has(tag.name)) continue
        described.set(tag.name, cut(textOf(tag.description).split('\n', 1)[0], MAX_AREA_DESCRIPTION))
      }
      const lines = [...this.byArea].map(([name, members]) => {
        const about = described.get(name) ?? ''
        return `${name} (${members.length})${about === '' ? '' : `: ${about}`}`
      })
      if (lines.length === 0) return 'No operations.'
      return [`Areas: ${lines.length}; ${BROWSE_TOOL} with an area lists its operations:`, ...lines].join('\n')
    }
    const members = this.byArea.get(area)
    // A hidden area and an unknown one get the same words, which do not repeat the name.
    if (members === undefined) return `No such area; ${BROWSE_TOOL} without an area lists them.`
    const pages = Math.ceil(members.length / AREA_PAGE)
    const at = Math.min(Math.max(1, Math.floor(page)), pages)
    const lines = members.slice((at - 1) * AREA_PAGE, at * AREA_PAGE).map((operation) => operationLine(operation, area))
    return [
      `${area} (${members.length}), page ${at} of ${pages}:`,
      ...lines,
      ...at < pages ? [`More: page ${at + 1}.`] : []
    ].join('\n')
  }

  /**
   * What operation `name` takes and which fields it sends, or with `prefix`
   * the fields nested right under that field; null for an unknown operation.
   * A prefix that has no nested field (hidden, unknown or a leaf alike) gets
   * the same answer.
   */
  describe (name: string, prefix: string | undefined, budget: SchemaBudget): string | null {
    const found = this.byName.get(name)
    if (found === undefined) return null
    const { operation, path, pathItem } = found
    const fields = isRecord(operation['x-restricted-fields']) ? operation['x-restricted-fields'] as RouteFieldsDescription : undefined
    const components: Json = isRecord(this.document.components?.schemas) ? this.document.components.schemas : {}
    const openapi30 = typeof this.document.openapi === 'string' && this.document.openapi.startsWith('3.0')
    const listed = [
      ...Array.isArray(operation.parameters) ? operation.parameters : [],
      ...Array.isArray(pathItem.parameters) ? pathItem.parameters : []
    ]
    const parameters = listed
      .map((parameter: unknown) => parameterOf(this.document, parameter))
      .filter((parameter): parameter is Json => parameter !== null && ['path', 'query'].includes(parameter.in))
      .sort((a, b) => Number(b.in === 'path') - Number(a.in === 'path'))
    const seen = new Set<string>()
    let choices: string[] = []
    let bounded = false
    const argumentLines: string[] = []
    for (const parameter of parameters) {
      const parameterName: string = parameter.name
      if (seen.has(parameterName)) continue
      seen.add(parameterName)
      const schema = toJsonSchema(parameter.schema ?? {}, components, openapi30, budget)
      if (fields !== undefined && parameter.in === 'query' && (parameterName === fields.only || parameterName === fields.defer)) {
        if (parameterName === fields.only) {
          choices = listedNames(schema.items)
          bounded = isBounded(schema.items)
        }
        continue
      }
      const { description, ...shape } = schema
      const text = textOf(parameter.description ?? description)
      const required = parameter.in === 'path' || parameter.required === true
      argumentLines.push(argumentLine(parameterName, parameter.in, required, shape, text))
    }
    const { names, parents } = fieldNames(choices)
    if (prefix !== undefined && prefix !== '') {
      const under = names.filter((field) => field.startsWith(`${prefix}.`) && !field.includes('.', prefix.length + 1))
      // The field asked for is not repeated: a hidden one and an unknown one get the same words.
      if (under.length === 0) {
        return bounded
          ? `No fields are listed under that field in ${name}: its list stops at a depth, and a deeper dotted path is sent as it is ` +
            `(the call says whether it is known); ${DESCRIBE_TOOL} without fields lists the top level.`
          : `No fields are nested under that field in ${name}; ${DESCRIBE_TOOL} without fields lists the top level.`
      }
      return `Fields of ${name} under ${prefix}: ${under.map((field) => parents.has(field) ? `${field}{}` : field).join(', ')}`
    }
    const lines = [`${name}: GET ${path}`]
    const own = [textOf(operation.summary), textOf(operation.description)].filter((text) => text !== '')
    if (own.length > 0) lines.push(cut(own.join('. '), MAX_DESCRIPTION))
    // What a call sends without `only`, and the sets that choose for it, come first: an agent that reads no further asks well.
    if (fields !== undefined) {
      lines.push(fields.defaultFields === undefined ? `Without ${fields.only}: every field.` : `Without ${fields.only}: ${fields.defaultFields.join(', ')} (@default).`)
      const sets = Object.entries(fields.sets)
      if (sets.length > 0) lines.push(`Field sets: ${sets.map(([set, members]) => `@${set} is ${members.join(', ')}`).join('; ')}.`)
      argumentLines.push(`- ${fields.only}, ${fields.defer} (query): lists of field names, to keep and to leave out`)
    }
    lines.push(argumentLines.length === 0 ? 'Arguments: none.' : `Arguments:\n${argumentLines.join('\n')}`)
    if (fields === undefined) {
      lines.push('Fields: not selectable; the whole reply is sent.')
      return lines.join('\n')
    }
    const top = names.filter((field) => !field.includes('.'))
    lines.push(`Fields: ${top.length === 0 ? 'none.' : top.map((field) => parents.has(field) ? `${field}{}` : field).join(', ')}`)
    if (parents.size > 0) lines.push(`{} marks nested fields: name one in ${DESCRIBE_TOOL}'s fields to list them; dotted paths choose them (a.b).`)
    return lines.join('\n')
  }
}
