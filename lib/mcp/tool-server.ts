/**
 * The MCP endpoint's tools for one request: listed and called from the
 * caller's own OpenAPI document, and run as the caller would run the route
 * over HTTP. What may be kept across requests (the complete document's
 * operations, each caller's tools) is kept here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { InvalidArgumentsError, ToolFailedError, ToolSchemasTooLargeError, quote } from '../errors.js'
import { isRecord } from '../json.js'
import type { RouteFieldsDescription } from '../openapi/route-fields.js'
import { betweenSteps } from '../slices.js'
import { oversizedResult } from './budget.js'
import { callResult, callUrl, errorResult } from './call.js'
import type { ToolResult } from './call.js'
import { DISCOVERY_TOOLS, DiscoveryView } from './discovery.js'
import { SchemaBudget, throwUnlessPastBudget } from './json-schema.js'
import { DISCOVERY_ABOVE } from './options.js'
import type { ResolvedMcpOptions, ToolsMode } from './options.js'
import type { ToolServer } from './answers.js'
import { queryRefusal } from './search.js'
import { BROWSE_TOOL, CALL_TOOL, DESCRIBE_TOOL, FIND_TOOL } from './tool-names.js'
import { documentOperations, operationTool, unwrappedDefinition } from './tools.js'
import type { DocumentOperation, RouteOf, Tool, ToolCall, ToolDefinition } from './tools.js'

/** The part of the plugin's decorations the endpoint reads. */
export interface DocumentedInstance {
  restrictedFieldsDocument: (request: FastifyRequest, options: { shared: true }) => Promise<unknown>
  restrictedFieldsDocumentVaries: () => boolean
  swagger?: () => unknown
}

/**
 * The headers that say who and where the caller is, passed on as received
 * with the client's address, so that the route's `request.ip`, `host` and
 * `protocol` are the endpoint's under the app's own `trustProxy` (rate limits,
 * allow-lists and host-based tenancy see the caller, not the process).
 */
const CALLER_HEADERS = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']

/** What one caller's document gives the endpoint, made once per document. */
interface CallerTools { tools?: Promise<ListedTool[]>, discovery?: DiscoveryView }

/** A listed tool's definition, and whether its reply goes under `result` where structured content must be an object. */
interface ListedTool { definition: ToolDefinition, wrapped: boolean }

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] })
const refuse = (message: string): ToolResult => errorResult(new InvalidArgumentsError(message))

/** Whether a JSON argument is absent, or a number (JSON has no infinite numbers: a number here is finite). */
function optionalNumber (value: unknown): value is number | undefined | null {
  return value === undefined || value === null || typeof value === 'number'
}

/** The endpoint's tools, for each request. */
export class ToolServers {
  private readonly documented: DocumentedInstance
  private complete: unknown
  private operations = new Map<string, DocumentOperation>()
  private readonly callable = new Map<string, Tool>()
  // What a caller's tools are depends only on what is hidden from the caller: each caller's shared
  // document carries them, made once (the plugin keeps a bounded number of such documents).
  private readonly byDocument = new WeakMap<object, CallerTools>()

  constructor (private readonly fastify: FastifyInstance, private readonly options: ResolvedMcpOptions, private readonly routeOf: RouteOf) {
    this.documented = fastify as unknown as DocumentedInstance
  }

  /** The tool server of one request. */
  serverFor (request: FastifyRequest): ToolServer {
    const { serverInfo, instructions } = this.options
    return {
      serverInfo,
      ...instructions === undefined ? {} : { instructions },
      listTools: async (anyValue = false) => {
        if (this.mode() === 'discovery') return { tools: DISCOVERY_TOOLS }
        try {
          const listed = await this.routeTools(request)
          return { tools: listed.map(({ definition, wrapped }) => wrapped && anyValue ? unwrappedDefinition(definition) : definition) }
        } catch (error) {
          throw this.describeFailure(request, error)
        }
      },
      // The four discovery tools are the same for everyone; a route tool is made from the caller's own document, which a rule makes.
      toolsVary: () => this.mode() !== 'discovery' && this.documented.restrictedFieldsDocumentVaries(),
      callTool: async (params, anyValue = false) => {
        if (this.mode() === 'discovery') return await this.discoveryCall(request, params.name, params.arguments, anyValue)
        const tool = this.callableTool(params.name)
        // The spec's answer to an unknown tool: a JSON-RPC error, not a result; the name it echoes is cut short.
        if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(params.name)}`)
        return await this.callRoute(request, tool.call, params.arguments, params.name, anyValue)
      },
      // A rule or a transform of the app that failed while the tools were made: its message may name what the caller may not see.
      failed (error) {
        request.log.error({ err: error }, 'MCP request failed')
      }
    }
  }

  // A call needs its route's path and parameters, the same for every caller: they are read from the
  // complete document (swagger keeps it), not from the caller's, and each tool's once, when first called.
  private completeOperations (): Map<string, DocumentOperation> {
    const document = (this.documented.swagger as () => unknown)()
    if (document !== this.complete) {
      this.complete = document
      const operations = documentOperations(document, this.options.include, this.routeOf)
      this.operations = new Map(operations.map((operation) => [operation.name, operation]))
      this.callable.clear()
    }
    return this.operations
  }

  private mode (): ToolsMode {
    return this.options.mode ?? (this.completeOperations().size > DISCOVERY_ABOVE ? 'discovery' : 'routes')
  }

  /** The tool that runs operation `name`, in either mode: its call says whether a reply is structured, and how. */
  private callableTool (name: string): Tool | undefined {
    const operation = this.completeOperations().get(name)
    if (operation === undefined) return undefined
    let tool = this.callable.get(name)
    if (tool === undefined) {
      const complete = this.complete as Record<string, unknown>
      try {
        tool = operationTool(complete, operation, new SchemaBudget(this.options.maxSchemaNodes))
      } catch (error) {
        // As its listed tool is, a tool whose output schema is past the budget is called without one.
        throwUnlessPastBudget(error)
        tool = operationTool(complete, operation, new SchemaBudget(this.options.maxSchemaNodes), false)
      }
      this.callable.set(name, tool)
    }
    return tool
  }

  private async callerTools (request: FastifyRequest): Promise<{ document: Record<string, unknown>, tools: CallerTools }> {
    const document = await this.documented.restrictedFieldsDocument(request, { shared: true })
    const key = isRecord(document) ? document : {}
    let tools = this.byDocument.get(key)
    if (tools === undefined) {
      tools = {}
      this.byDocument.set(key, tools)
    }
    return { document: key, tools }
  }

  private async routeTools (request: FastifyRequest): Promise<ListedTool[]> {
    const { document, tools } = await this.callerTools(request)
    tools.tools ??= this.buildRouteTools(request, document)
    return await tools.tools
  }

  /**
   * The definitions of a caller's per-route tools, made a slice at a time: the
   * event loop turns between slices, so other requests are served meanwhile.
   * Tools whose output schemas do not fit the schema budget together (Stripe's
   * 212 routes, whose records expand into one another) are listed without
   * them: an agent that cannot see the tools cannot call any of them, while
   * a result without an output schema is still a result.
   */
  private async buildRouteTools (request: FastifyRequest, document: Record<string, unknown>): Promise<ListedTool[]> {
    try {
      return await this.definitionsOf(document, true)
    } catch (error) {
      throwUnlessPastBudget(error)
      const { maxSchemaNodes } = this.options
      request.log.warn({ maxSchemaNodes }, 'The MCP tools\' output schemas are past the schema budget together: the tools are listed without them')
      return await this.definitionsOf(document, false)
    }
  }

  private async definitionsOf (document: Record<string, unknown>, withOutput: boolean): Promise<ListedTool[]> {
    const budget = new SchemaBudget(this.options.maxSchemaNodes)
    const definitions: ListedTool[] = []
    const turn = betweenSteps()
    for (const operation of documentOperations(document, this.options.include, this.routeOf)) {
      await turn()
      const { definition, call } = operationTool(document, operation, budget, withOutput)
      definitions.push({ definition, wrapped: call.wrapped })
    }
    return definitions
  }

  /**
   * What a failure to describe the tools answers: a description past its budget, its coded error, logged
   * with why; any other failure (a rule or a transform of the app that threw, whose message may name what
   * the caller may not see) goes on to the protocol, which logs it and answers a generic internal error.
   */
  private describeFailure (request: FastifyRequest, error: unknown): unknown {
    if (!(error instanceof ToolSchemasTooLargeError)) return error
    request.log.error({ err: error }, 'The MCP tools could not be described')
    return new McpError(ErrorCode.InternalError, error.message, { code: error.code })
  }

  private forwarded (request: FastifyRequest): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept: 'application/json' }
    for (const name of [...CALLER_HEADERS, ...this.options.forwardHeaders]) {
      const value = request.headers[name]
      if (value !== undefined) headers[name] = value
    }
    return headers
  }

  /**
   * The fields description of operation `name` in the caller's own document,
   * for a reply past the budget: the complete document's would name what the
   * caller may not see. Undefined when the caller's document has none.
   */
  private async callerFields (request: FastifyRequest, name: string): Promise<RouteFieldsDescription | undefined> {
    try {
      const { document } = await this.callerTools(request)
      const operations = documentOperations(document, this.options.include, this.routeOf)
      const fields = operations.find((candidate) => candidate.name === name)?.operation['x-restricted-fields']
      return isRecord(fields) ? fields as unknown as RouteFieldsDescription : undefined
    } catch {
      // A document that cannot be made now (a rule that threw): the message goes without the route's field sets.
      return undefined
    }
  }

  /** Runs `call`'s route with `args` as the caller of `request` would over HTTP; a reply past the budget is not sent. */
  private async callRoute (request: FastifyRequest, call: ToolCall, args: unknown, name: string, anyValue: boolean): Promise<ToolResult> {
    const { maxArgumentsLength, maxResultTokens } = this.options
    const target = callUrl(call, args, maxArgumentsLength)
    if ('refused' in target) return target.refused
    let response
    try {
      const { remoteAddress } = request.socket
      response = await this.fastify.inject({ method: 'GET', url: target.url, headers: this.forwarded(request), remoteAddress })
    } catch (error) {
      request.log.error({ err: error, tool: name }, 'MCP tool call failed')
      return errorResult(new ToolFailedError())
    }
    // A character is at most three bytes, so a body of no more characters than the budget's tokens fits: no count needed.
    if (response.statusCode >= 200 && response.statusCode < 300 && response.body.length > maxResultTokens) {
      const oversized = oversizedResult(response.body, maxResultTokens, await this.callerFields(request, name), call.queryParams)
      if (oversized !== null) return errorResult(oversized)
    }
    return callResult(call, response.statusCode, response.body, anyValue)
  }

  /** A call of one of the discovery mode's tools, answered from the caller's own document. */
  private async discoveryCall (
    request: FastifyRequest, name: string, args: Record<string, unknown> | undefined, anyValue: boolean
  ): Promise<ToolResult> {
    if (![FIND_TOOL, BROWSE_TOOL, DESCRIBE_TOOL, CALL_TOOL].includes(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(name)}`)
    const given = args ?? {}
    // A query past the search's limits is refused before anything of the caller's is read or made.
    const refused = name === FIND_TOOL && typeof given.query === 'string' ? queryRefusal(given.query) : undefined
    if (refused !== undefined) return errorResult(refused)
    let discovery: DiscoveryView
    try {
      const { document, tools } = await this.callerTools(request)
      discovery = tools.discovery ??= new DiscoveryView(document, this.options.include, this.routeOf)
    } catch (error) {
      throw this.describeFailure(request, error)
    }
    if (name === FIND_TOOL) {
      const { query, limit } = given
      if (typeof query !== 'string') return refuse("Argument 'query' must be a string")
      if (!optionalNumber(limit)) return refuse("Argument 'limit' must be a number")
      return text(await discovery.find(query, limit ?? undefined))
    }
    if (name === BROWSE_TOOL) {
      const { area, page } = given
      if (area !== undefined && area !== null && typeof area !== 'string') return refuse("Argument 'area' must be a string")
      if (!optionalNumber(page)) return refuse("Argument 'page' must be a number")
      return text(discovery.browse(area ?? undefined, page ?? undefined))
    }
    const operation = given.operation
    if (typeof operation !== 'string') return refuse("Argument 'operation' must be a string")
    if (!discovery.has(operation)) return refuse(`Unknown operation '${quote(operation)}'; ${FIND_TOOL} finds them`)
    if (name === DESCRIBE_TOOL) {
      const fields = given.fields ?? undefined
      if (fields !== undefined && typeof fields !== 'string') return refuse("Argument 'fields' must be a string")
      try {
        return text(discovery.describe(operation, fields, new SchemaBudget(this.options.maxSchemaNodes)) as string)
      } catch (error) {
        throw this.describeFailure(request, error)
      }
    }
    // The caller's document has it, so the complete one has it too: the same routes, fewer fields.
    const tool = this.callableTool(operation) as Tool
    return await this.callRoute(request, tool.call, given.arguments, operation, anyValue)
  }
}
