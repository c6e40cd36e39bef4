/**
 * The MCP tools of an OpenAPI document, as one caller sees it: one tool per
 * included `GET` operation, its input schema made of the operation's path and
 * query parameters (`only` and `defer` with the names this caller may send),
 * its output schema the restricted response this caller may be sent. Built
 * from the caller's document, so hidden fields are neither choices nor
 * properties, and nothing here reads a route or a request.
 */
import { decodePointerToken, isRecord } from '../json.js'
import { isFieldList, keepNames } from '../openapi/field-lists.js'
import { clientSchema } from '../openapi/operations.js'
import type { RouteFieldsDescription } from '../openapi/route-fields.js'
import { SchemaBudget, toJsonSchema, withNull } from './json-schema.js'
import type { BoundRoute } from './routes.js'

type Json = Record<string, any>

/** An operation as the `include` option is told of it. */
export interface ToolRoute {
  /** Always `GET`: other methods are never tools. */
  method: 'GET'
  /** The path as the document writes it (`/api/users/{id}`). */
  path: string
  operationId?: string
  /** Whether the route opted in with `restrictFields`. */
  restricted: boolean
}

/** Which operations become tools; the default takes every opted-in `GET`. */
export type IncludeTools = (route: ToolRoute) => boolean

/** What a call needs to run the tool's route. */
export interface ToolCall {
  /** The route's URL as registered, with `{name}` for each of its parameters: never the document's path. */
  path: string
  /** The path parameters the tool takes: the route's, each of them documented. */
  pathParams: readonly string[]
  queryParams: readonly string[]
  /** The names of the arguments that are arrays: each member is sent as a parameter of its own. */
  arrays: readonly string[]
  /** Whether the tool declares an output schema, so that a success carries `structuredContent`. */
  structured: boolean
  /** Whether the reply is sent under `result`: an output must be an object, and the reply is not one. */
  wrapped: boolean
}

/** A tool as `tools/list` declares it. */
export interface ToolDefinition {
  name: string
  title?: string
  description: string
  inputSchema: Json
  outputSchema?: Json
  annotations: { readOnlyHint: true, openWorldHint: false }
}

export interface Tool { definition: ToolDefinition, call: ToolCall }

/**
 * A wrapped tool's definition as revision 2026-07-28 lists it: that revision
 * takes any JSON value as structured content, so the output schema is the
 * reply's own, its definitions kept at the top.
 */
export function unwrappedDefinition (definition: ToolDefinition): ToolDefinition {
  const { properties, $defs } = definition.outputSchema as Json
  return { ...definition, outputSchema: { ...properties[WRAPPED_KEY], ...$defs === undefined ? {} : { $defs } } }
}

/** The key a reply that is not an object is sent under. */
export const WRAPPED_KEY = 'result'

/** The most characters of a tool name that clients accept. */
const MAX_NAME_LENGTH = 64

export const includeRestrictedRoutes: IncludeTools = (route) => route.restricted

/** A tool name from the operation's id, or from its method and path, in the characters every client accepts. */
export function toolName (operationId: unknown, path: string): string {
  const words = typeof operationId === 'string' && operationId !== '' ? operationId : `get ${path}`
  const name = words.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '')
  return (name === '' ? 'get' : name).slice(0, MAX_NAME_LENGTH)
}

/** A sentence: ends with a full stop unless it ends with punctuation already. */
function sentence (text: string): string {
  const trimmed = text.trim()
  return /[.!?:]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/**
 * Which route the operation at `path` of `document` runs, or undefined when
 * it runs none. The plugin finds the route each operation was declared from
 * (routes.ts); a document with no app behind it (its tools described, not
 * called) is read at its own paths.
 */
export type RouteOf = (operation: Json, path: string, document: Json) => BoundRoute | undefined

/**
 * The document's own path as the route, filled from its documented
 * parameters alone: for documents whose tools are described, never for the
 * plugin's calls.
 */
export const documentPathRoute: RouteOf = (_operation, path) => ({ url: path, template: path, params: [] })

/** The tool's description: the operation's own words, then how to choose fields on it. */
export function toolDescription (operation: Json, fields: RouteFieldsDescription | undefined): string {
  const lines: string[] = []
  const own = [operation.summary, operation.description].filter((text): text is string => typeof text === 'string' && text.trim() !== '')
  if (own.length > 0) lines.push(own.map(sentence).join(' '))
  if (fields !== undefined) {
    lines.push(`Ask only for the fields you need: \`${fields.only}\` keeps the fields named (dotted paths reach nested ones, * is every field), \`${fields.defer}\` leaves fields out.`)
    const sets = Object.entries(fields.sets)
    if (sets.length > 0) lines.push(`Field sets: ${sets.map(([name, members]) => `@${name} is ${members.join(', ')}`).join('; ')}.`)
    lines.push(fields.defaultFields === undefined ? `Without \`${fields.only}\`: every field.` : `Without \`${fields.only}\`: ${fields.defaultFields.join(', ')} (@default).`)
  }
  return lines.join('\n')
}

/** `defer`'s items without `*` and the route's field sets: the document lists them once for both parameters, and only `only` takes them. */
function namesOnly (items: Json, fields: RouteFieldsDescription): Json {
  // `@default` goes whether or not the route has default fields: no field is named with a set's `@`.
  const choices = new Set(['*', '@default', ...Object.keys(fields.sets).map((name) => '@' + name)])
  return keepNames(items, (name) => !choices.has(name))
}

const SCHEMAS = '#/components/schemas/'

/**
 * A parameter, followed through a `$ref` to the document's
 * `components.parameters`, with the list its items refer to in place: the
 * choices of `only` and `defer` are one component that both refer to.
 */
export function parameterOf (document: Json, parameter: unknown): Json | null {
  if (isRecord(parameter) && typeof parameter.$ref === 'string' && parameter.$ref.startsWith('#/components/parameters/')) {
    parameter = document.components?.parameters?.[parameter.$ref.slice('#/components/parameters/'.length)]
  }
  if (!isRecord(parameter) || typeof parameter.name !== 'string') return null
  const ref: unknown = parameter.schema?.items?.$ref
  const name = typeof ref === 'string' && ref.startsWith(SCHEMAS) ? decodePointerToken(ref.slice(SCHEMAS.length)) : undefined
  const list = name === undefined ? undefined : document.components?.schemas?.[name]
  return isFieldList(list) ? { ...parameter, schema: { ...parameter.schema, items: list } } : parameter
}

/** The response schema of `status` (JSON first), or of the first 2xx status when none is given. */
export function successSchema (operation: Json, status: string | undefined): unknown {
  const responses = isRecord(operation.responses) ? operation.responses : {}
  const key = status ?? Object.keys(responses).find((code) => /^2(\d\d|XX)$/.test(code))
  return key === undefined ? undefined : clientSchema(responses[key], '3')
}

/**
 * The tool of one `GET` operation of the caller's document. `budget` bounds
 * the schema objects read and written.
 */
export function operationTool (
  document: Json,
  { pathItem, operation, name, route }: DocumentOperation,
  budget: SchemaBudget,
  withOutput = true
): Tool {
  const components: Json = isRecord(document.components?.schemas) ? document.components.schemas : {}
  const openapi30 = typeof document.openapi === 'string' && document.openapi.startsWith('3.0')
  const fields = isRecord(operation['x-restricted-fields']) ? operation['x-restricted-fields'] as RouteFieldsDescription : undefined
  const properties: Json = {}
  const required: string[] = []
  const pathParams: string[] = []
  const queryParams: string[] = []
  const arrays: string[] = []
  const resolved = (list: unknown): Array<Json | null> =>
    (Array.isArray(list) ? list : []).map((parameter: unknown) => parameterOf(document, parameter))
  const own = resolved(operation.parameters)
  const inherited = resolved(pathItem.parameters)
  // Path parameters first, so that a query parameter of the same name (which a tool could not tell apart) is the one left out.
  const parameters = [...own, ...inherited].filter((parameter): parameter is Json => parameter !== null && ['path', 'query'].includes(parameter.in))
    .sort((a, b) => Number(b.in === 'path') - Number(a.in === 'path'))
  for (const parameter of parameters) {
    const name: string = parameter.name
    if (Object.hasOwn(properties, name)) continue
    let schema = toJsonSchema(parameter.schema ?? {}, components, openapi30, budget)
    if (fields !== undefined && (name === fields.only || name === fields.defer) && parameter.in === 'query') {
      // The choices stay the document's, this caller's, bounded as the document bounds them; the description is written for a tool.
      const items = schema.items ?? { type: 'string' }
      schema = {
        type: 'array',
        items: name === fields.only ? items : namesOnly(items, fields),
        description: name === fields.only ? 'The fields to return; absent: the default ones.' : 'The fields to leave out.'
      }
    } else if (typeof parameter.description === 'string' && schema.description === undefined) {
      schema = { ...schema, description: parameter.description }
    }
    if (schema.type === 'array') arrays.push(name)
    if (parameter.in === 'path') pathParams.push(name)
    else queryParams.push(name)
    // A call takes null for an absent argument, and says so: some clients check a model's arguments against the schema first.
    if (parameter.in === 'path' || parameter.required === true) required.push(name)
    else if (Object.keys(schema).some((keyword) => keyword !== 'description')) schema = withNull(schema)
    properties[name] = schema
  }
  // A parameter of the route that its operation does not document (a `params` schema that leaves it out) is still one a call must fill.
  // One documented in the query only goes to the path: the route takes it there.
  for (const name of route.params) {
    if (pathParams.includes(name)) continue
    if (queryParams.includes(name)) queryParams.splice(queryParams.indexOf(name), 1)
    pathParams.push(name)
    if (!required.includes(name)) required.push(name)
    properties[name] ??= { type: 'string' }
  }
  const inputSchema: Json = { type: 'object', properties, ...required.length > 0 ? { required } : {}, additionalProperties: false }
  // The primary restricted status comes first; its reply is what a tool call returns.
  const reply = successSchema(operation, fields === undefined ? undefined : Object.keys(fields.statuses)[0])
  let outputSchema: Json | undefined
  let wrapped = false
  if (reply !== undefined && withOutput) {
    outputSchema = toJsonSchema(reply, components, openapi30, budget, true)
    // MCP's structured content is an object: a reply that may be anything else goes under one key.
    if (outputSchema.type !== 'object') {
      wrapped = true
      const { $defs, ...value } = outputSchema
      const definitions = $defs === undefined ? {} : { $defs }
      outputSchema = { type: 'object', properties: { [WRAPPED_KEY]: value }, required: [WRAPPED_KEY], additionalProperties: false, ...definitions }
    }
  }
  const title = typeof operation.summary === 'string' && operation.summary.trim() !== '' ? operation.summary.trim() : undefined
  return {
    definition: {
      name,
      ...title === undefined ? {} : { title },
      description: toolDescription(operation, fields),
      inputSchema,
      ...outputSchema === undefined ? {} : { outputSchema },
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    call: { path: route.template, pathParams, queryParams, arrays, structured: outputSchema !== undefined, wrapped }
  }
}

/** An included `GET` operation of a document, with its tool's name and the route it runs. */
export interface DocumentOperation {
  name: string
  /** The document's path, as an agent is shown it. */
  path: string
  pathItem: Json
  operation: Json
  route: BoundRoute
}

/**
 * The `GET` operations of a document that `include` takes and that run a
 * route (`routeOf`), in the document's order, each with its tool's name: two
 * operations that would get the same name are told apart by a number. An
 * operation whose route has a parameter the operation does not document is
 * left out: a call could not fill it.
 */
export function documentOperations (
  document: unknown,
  include: IncludeTools = includeRestrictedRoutes,
  routeOf: RouteOf = documentPathRoute
): DocumentOperation[] {
  if (!isRecord(document) || !isRecord(document.paths)) return []
  const operations: DocumentOperation[] = []
  const taken = new Set<string>()
  for (const [path, pathItem] of Object.entries(document.paths)) {
    const operation = isRecord(pathItem) ? pathItem.get : undefined
    if (!isRecord(operation)) continue
    const route: ToolRoute = { method: 'GET', path, restricted: isRecord(operation['x-restricted-fields']) }
    if (typeof operation.operationId === 'string') route.operationId = operation.operationId
    if (!include(route)) continue
    const bound = routeOf(operation, path, document)
    if (bound === undefined) continue
    let name = toolName(operation.operationId, path)
    for (let suffix = 2; taken.has(name); suffix++) {
      name = `${toolName(operation.operationId, path).slice(0, MAX_NAME_LENGTH - 1 - String(suffix).length)}_${suffix}`
    }
    taken.add(name)
    operations.push({ name, path, pathItem: pathItem as Json, operation, route: bound })
  }
  return operations
}

/**
 * The tools of a caller's OpenAPI 3 document, one per operation of
 * `documentOperations`. `budget` bounds the schema objects of them all: past
 * it, ToolSchemasTooLargeError.
 */
export function documentTools (
  document: unknown,
  include: IncludeTools = includeRestrictedRoutes,
  budget = new SchemaBudget(Infinity),
  routeOf: RouteOf = documentPathRoute
): Tool[] {
  return documentOperations(document, include, routeOf).map((operation) => operationTool(document as Json, operation, budget))
}
