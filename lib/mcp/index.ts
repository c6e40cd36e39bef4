/**
 * `fastify-restricted-fields/mcp`: the opted-in routes as MCP tools, served
 * over Streamable HTTP, stateless, beside the REST routes. Each caller's tools
 * are made from that caller's OpenAPI document; a call runs its route with
 * `inject`, with the caller's credentials, address and host, so every hook,
 * rule and loader of the route applies as it does over HTTP. The JSON-RPC
 * methods are answered in `protocol.ts`, with the SDK's schemas.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions, onRequestHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { InvalidArgumentsError, InvalidOptionError, McpWithoutDocumentError, ToolFailedError, ToolSchemasTooLargeError, quote } from '../errors.js'
import { isRecord } from '../json.js'
import { betweenSteps } from '../slices.js'
import { RESULT_TOKENS, oversizedResult } from './budget.js'
import { callResult, callUrl, errorResult } from './call.js'
import type { ToolResult } from './call.js'
import { CALL_TOOL, DESCRIBE_TOOL, DISCOVERY_TOOLS, DiscoveryView, FIND_TOOL } from './discovery.js'
import { SchemaBudget } from './json-schema.js'
import { normalizeOrigin, originAllowed } from './origin.js'
import { queryRefusal } from './search.js'
import { answer, transportError } from './protocol.js'
import type { Answer, ToolServer } from './protocol.js'
import { RouteBindings } from './routes.js'
import { documentOperations, includeRestrictedRoutes, operationTool } from './tools.js'
import type { DocumentOperation, IncludeTools, Tool, ToolCall, ToolDefinition } from './tools.js'
import type { RouteFieldsDescription } from '../openapi/route-fields.js'

/** How tools are offered: one per route, or the discovery mode's three (find, describe, call). */
export type ToolsMode = 'routes' | 'discovery'

/**
 * Past this many routes, the discovery mode is the default: agent hosts start
 * to defer tools past about 30 and some editors take no more than 40, and at
 * GitHub's median of a few hundred tokens a tool, 30 per-route tools already
 * cost more than the discovery mode's fixed three.
 */
export const DISCOVERY_ABOVE = 30

export interface RestrictedFieldsMcpOptions {
  /** Where the endpoint is served. Default: `/mcp`. */
  path?: string
  /** The server's name and version, as `initialize` reports them. Default: `fastify-restricted-fields`, `1.0.0`. */
  name?: string
  version?: string
  /** What the server tells a client about itself, for its model. Default: none. */
  instructions?: string
  /** Which `GET` operations become tools. Default: those of the opted-in routes. */
  include?: IncludeTools
  /** The request headers a call passes on to its route, besides `authorization`: whatever else the app's authentication reads. Default: none. */
  forwardHeaders?: readonly string[]
  /** The origins (`https://app.example.com`) whose browser pages may call the endpoint; a request with any other `Origin` is refused. Default: none. */
  allowedOrigins?: readonly string[]
  /** The longest query string a call's arguments may make. Default: 2048. */
  maxArgumentsLength?: number
  /** The largest JSON-RPC request body, in bytes. Default: 65536. */
  bodyLimit?: number
  /** Hooks that authenticate requests to the endpoint, run after the origin check; the app's own `onRequest` hooks run too. */
  onRequest?: onRequestHookHandler | onRequestHookHandler[]
  /** One tool per route, or three tools that find, describe and call the routes. Default: `discovery` past 30 routes, else `routes`. */
  mode?: ToolsMode
  /** The most schema objects one caller's tools may read and write; past it, `tools/list` answers an error and the server logs why. Default: 250000. */
  maxSchemaNodes?: number
  /** The most tokens one tool result may hold, estimated from its bytes; a larger reply is answered with how to ask for less. Default: 25000. */
  maxResultTokens?: number
}

export type { IncludeTools, ToolRoute } from './tools.js'
export { CALL_TOOL, DESCRIBE_TOOL, FIND_TOOL } from './discovery.js'

/** The part of the plugin's decorations this subpath reads. */
interface DocumentedInstance {
  restrictedFieldsDocument: (request: FastifyRequest, options: { shared: true }) => Promise<unknown>
  swagger?: () => unknown
}

/** Sends an answer of the endpoint: JSON, written once, or no body. */
function send (reply: FastifyReply, { status, body }: Answer): FastifyReply {
  reply.code(status)
  return body === undefined ? reply.send() : reply.type('application/json').send(JSON.stringify(body))
}

/**
 * The headers that say who and where the caller is, passed on as received
 * with the client's address, so that the route's `request.ip`, `host` and
 * `protocol` are the endpoint's under the app's own `trustProxy` (rate limits,
 * allow-lists and host-based tenancy see the caller, not the process).
 */
const CALLER_HEADERS = ['host', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto']

function positiveInteger (value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new InvalidOptionError(`The ${name} option should be a positive integer, instead got ${String(value)}`)
  return value as number
}

function checkedStrings (value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((member) => typeof member === 'string' && member !== '')) throw new InvalidOptionError(`The ${name} option should be an array of non-empty strings`)
  return value
}

async function restrictedFieldsMcp (fastify: FastifyInstance, options: RestrictedFieldsMcpOptions): Promise<void> {
  const path = options.path ?? '/mcp'
  if (typeof path !== 'string' || !path.startsWith('/')) throw new InvalidOptionError(`The path option should be a path starting with '/', instead got ${String(path)}`)
  const include = options.include ?? includeRestrictedRoutes
  if (typeof include !== 'function') throw new InvalidOptionError('The include option should be a function')
  const forwardHeaders = ['authorization', ...checkedStrings(options.forwardHeaders, 'forwardHeaders').map((name) => name.toLowerCase())]
  const allowedOrigins = new Set(checkedStrings(options.allowedOrigins, 'allowedOrigins').map(normalizeOrigin))
  const maxArgumentsLength = positiveInteger(options.maxArgumentsLength, 'maxArgumentsLength', 2048)
  const bodyLimit = positiveInteger(options.bodyLimit, 'bodyLimit', 65536)
  const mode = options.mode
  if (mode !== undefined && mode !== 'routes' && mode !== 'discovery') throw new InvalidOptionError(`The mode option should be one of 'routes', 'discovery', instead got '${quote(String(mode))}'`)
  const maxSchemaNodes = positiveInteger(options.maxSchemaNodes, 'maxSchemaNodes', 250_000)
  const maxResultTokens = positiveInteger(options.maxResultTokens, 'maxResultTokens', RESULT_TOKENS)
  const serverInfo = { name: options.name ?? 'fastify-restricted-fields', version: options.version ?? '1.0.0' }
  const documented = fastify as unknown as DocumentedInstance

  fastify.addHook('onReady', async function checkDocument () {
    if (typeof documented.swagger !== 'function') throw new McpWithoutDocumentError()
  })

  // Each tool runs the route its operation was declared from, at the URL it was registered with: never at the
  // document's path, which a base path, a transform or another route may have made another route's.
  const bindings = new RouteBindings()
  const routeOf = bindings.routeOf.bind(bindings)
  fastify.addHook('onRoute', function bindRoute (routeOptions: RouteOptions) {
    if ([routeOptions.method].flat().some((method) => method.toUpperCase() === 'GET')) routeOptions.schema = bindings.record(routeOptions.url as string, routeOptions.schema)
  })

  // A call needs its route's path and parameters, the same for every caller: they are read from the
  // complete document (swagger keeps it), not from the caller's, and each tool's once, when first called.
  let complete: unknown
  let operations = new Map<string, DocumentOperation>()
  const callable = new Map<string, Tool>()
  function completeOperations (): Map<string, DocumentOperation> {
    const document = (documented.swagger as () => unknown)()
    if (document !== complete) {
      complete = document
      operations = new Map(documentOperations(document, include, routeOf).map((operation) => [operation.name, operation]))
      callable.clear()
    }
    return operations
  }
  function modeNow (): ToolsMode {
    return mode ?? (completeOperations().size > DISCOVERY_ABOVE ? 'discovery' : 'routes')
  }
  /** The tool that runs operation `name`, in either mode: its call says whether a reply is structured, and how. */
  function callableTool (name: string): Tool | undefined {
    const operation = completeOperations().get(name)
    if (operation === undefined) return undefined
    let tool = callable.get(name)
    if (tool === undefined) {
      try {
        tool = operationTool(complete as Record<string, unknown>, operation, new SchemaBudget(maxSchemaNodes))
      } catch (error) {
        // As its listed tool is, a tool whose output schema is past the budget is called without one.
        if (!(error instanceof ToolSchemasTooLargeError)) throw error
        tool = operationTool(complete as Record<string, unknown>, operation, new SchemaBudget(maxSchemaNodes), false)
      }
      callable.set(name, tool)
    }
    return tool
  }

  // What a caller's tools are depends only on what is hidden from the caller: each view's shared
  // document carries them, made once (the plugin keeps a bounded number of views).
  const views = new WeakMap<object, { tools?: Promise<ToolDefinition[]>, discovery?: DiscoveryView }>()
  async function callerView (request: FastifyRequest): Promise<{ document: Record<string, unknown>, view: { tools?: Promise<ToolDefinition[]>, discovery?: DiscoveryView } }> {
    const document = await documented.restrictedFieldsDocument(request, { shared: true })
    const key = isRecord(document) ? document : {}
    let view = views.get(key)
    if (view === undefined) {
      view = {}
      views.set(key, view)
    }
    return { document: key, view }
  }

  async function routeTools (request: FastifyRequest): Promise<ToolDefinition[]> {
    const { document, view } = await callerView(request)
    view.tools ??= buildRouteTools(request, document)
    return await view.tools
  }

  function discoveryView (document: Record<string, unknown>, view: { discovery?: DiscoveryView }): DiscoveryView {
    view.discovery ??= new DiscoveryView(document, include, routeOf)
    return view.discovery
  }

  /**
   * The definitions of a view's per-route tools, made a slice at a time: the
   * event loop turns between slices, so other requests are served meanwhile.
   * Tools whose output schemas do not fit the schema budget together (Stripe's
   * 212 routes, whose records expand into one another) are listed without
   * them: an agent that cannot see the tools cannot call any of them, while
   * a result without an output schema is still a result.
   */
  async function buildRouteTools (request: FastifyRequest, document: Record<string, unknown>): Promise<ToolDefinition[]> {
    try {
      return await definitionsOf(document, true)
    } catch (error) {
      if (!(error instanceof ToolSchemasTooLargeError)) throw error
      request.log.warn({ maxSchemaNodes }, 'The MCP tools\' output schemas are past the schema budget together: the tools are listed without them')
      return await definitionsOf(document, false)
    }
  }

  async function definitionsOf (document: Record<string, unknown>, withOutput: boolean): Promise<ToolDefinition[]> {
    const budget = new SchemaBudget(maxSchemaNodes)
    const definitions: ToolDefinition[] = []
    const turn = betweenSteps()
    for (const operation of documentOperations(document, include, routeOf)) {
      await turn()
      definitions.push(operationTool(document, operation, budget, withOutput).definition)
    }
    return definitions
  }

  /**
   * What a failure to describe the tools answers: a description past its budget, its coded error, logged
   * with why; any other failure (a rule or a transform of the app that threw, whose message may name what
   * the caller may not see) goes on to the protocol, which logs it and answers a generic internal error.
   */
  function describeFailure (request: FastifyRequest, error: unknown): unknown {
    if (!(error instanceof ToolSchemasTooLargeError)) return error
    request.log.error({ err: error }, 'The MCP tools could not be described')
    return new McpError(ErrorCode.InternalError, error.message, { code: error.code })
  }

  function forwarded (request: FastifyRequest): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { accept: 'application/json' }
    for (const name of [...CALLER_HEADERS, ...forwardHeaders]) {
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
  async function callerFields (request: FastifyRequest, name: string): Promise<RouteFieldsDescription | undefined> {
    try {
      const { document } = await callerView(request)
      const operation = documentOperations(document, include, routeOf).find((candidate) => candidate.name === name)?.operation
      return isRecord(operation?.['x-restricted-fields']) ? operation['x-restricted-fields'] as unknown as RouteFieldsDescription : undefined
    } catch {
      // A document that cannot be made now (a rule that threw): the message goes without the route's field sets.
      return undefined
    }
  }

  /** Runs `call`'s route with `args` as the caller of `request` would over HTTP; a reply past the budget is not sent. */
  async function callRoute (request: FastifyRequest, call: ToolCall, args: unknown, name: string): Promise<ToolResult> {
    const target = callUrl(call, args, maxArgumentsLength)
    if ('refused' in target) return target.refused
    let response
    try {
      response = await fastify.inject({ method: 'GET', url: target.url, headers: forwarded(request), remoteAddress: request.socket.remoteAddress })
    } catch (error) {
      request.log.error({ err: error, tool: name }, 'MCP tool call failed')
      return errorResult(new ToolFailedError())
    }
    // A character is at most three bytes, so a body of no more characters than the budget's tokens fits: no count needed.
    if (response.statusCode >= 200 && response.statusCode < 300 && response.body.length > maxResultTokens) {
      const oversized = oversizedResult(response.body, maxResultTokens, await callerFields(request, name), call.queryParams)
      if (oversized !== null) return errorResult(oversized)
    }
    return callResult(call, response.statusCode, response.body)
  }

  /** A call of one of the discovery mode's tools, answered from the caller's own document. */
  async function discoveryCall (request: FastifyRequest, name: string, args: Record<string, unknown> | undefined): Promise<ToolResult> {
    const refuse = (message: string): ToolResult => errorResult(new InvalidArgumentsError(message))
    const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] })
    if (name !== FIND_TOOL && name !== DESCRIBE_TOOL && name !== CALL_TOOL) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(name)}`)
    const given = args ?? {}
    // A query past the search's limits is refused before anything of the caller's is read or made.
    const refused = name === FIND_TOOL && typeof given.query === 'string' ? queryRefusal(given.query) : undefined
    if (refused !== undefined) return errorResult(refused)
    let discovery: DiscoveryView
    try {
      const { document, view } = await callerView(request)
      discovery = discoveryView(document, view)
    } catch (error) {
      throw describeFailure(request, error)
    }
    if (name === FIND_TOOL) {
      const { query, limit } = given
      if (typeof query !== 'string') return refuse("Argument 'query' must be a string")
      // JSON has no infinite numbers: a number here is finite.
      if (limit !== undefined && limit !== null && typeof limit !== 'number') return refuse("Argument 'limit' must be a number")
      return text(await discovery.find(query, limit ?? undefined))
    }
    const operation = given.operation
    if (typeof operation !== 'string') return refuse("Argument 'operation' must be a string")
    if (!discovery.has(operation)) return refuse(`Unknown operation '${quote(operation)}'; ${FIND_TOOL} finds them`)
    if (name === DESCRIBE_TOOL) {
      const fields = given.fields ?? undefined
      if (fields !== undefined && typeof fields !== 'string') return refuse("Argument 'fields' must be a string")
      try {
        return text(discovery.describe(operation, fields, new SchemaBudget(maxSchemaNodes)) as string)
      } catch (error) {
        throw describeFailure(request, error)
      }
    }
    // The caller's document has it, so the complete one has it too: the same routes, fewer fields.
    const tool = callableTool(operation) as Tool
    return await callRoute(request, tool.call, given.arguments, operation)
  }

  function toolServer (request: FastifyRequest): ToolServer {
    return {
      serverInfo,
      ...options.instructions === undefined ? {} : { instructions: options.instructions },
      async listTools () {
        if (modeNow() === 'discovery') return { tools: DISCOVERY_TOOLS }
        try {
          return { tools: await routeTools(request) }
        } catch (error) {
          throw describeFailure(request, error)
        }
      },
      async callTool (params) {
        if (modeNow() === 'discovery') return await discoveryCall(request, params.name, params.arguments)
        const tool = callableTool(params.name)
        // The spec's answer to an unknown tool: a JSON-RPC error, not a result; the name it echoes is cut short.
        if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(params.name)}`)
        return await callRoute(request, tool.call, params.arguments, params.name)
      },
      // A rule or a transform of the app that failed while the tools were made: its message may name what the caller may not see.
      failed (error) {
        request.log.error({ err: error }, 'MCP request failed')
      }
    }
  }

  const checkOrigin: onRequestHookHandler = async function checkOrigin (request, reply) {
    if (!originAllowed(request.headers.origin, allowedOrigins)) return send(reply, transportError(403, 'Forbidden: this origin may not call the MCP endpoint'))
  }
  const userHooks = [options.onRequest ?? []].flat()

  fastify.route({
    method: ['POST', 'GET', 'DELETE'],
    url: path,
    bodyLimit,
    onRequest: [checkOrigin, ...userHooks],
    // Left out of the OpenAPI document: it is no REST route.
    schema: { hide: true } as FastifySchema,
    handler: async function mcpEndpoint (request, reply) {
      // Stateless: no session to resume, so no event stream to open (GET) or session to end (DELETE).
      if (request.method !== 'POST') return send(reply.header('allow', 'POST'), transportError(405, 'Method not allowed: this stateless endpoint takes POST only'))
      return send(reply, await answer(toolServer(request), request.body, request.headers))
    }
  })
}

/**
 * Serves the opted-in routes as MCP tools at `path` (default `/mcp`).
 * Register it after fastify-restricted-fields and @fastify/swagger.
 */
const plugin = fp(restrictedFieldsMcp, {
  fastify: '5.x',
  name: 'fastify-restricted-fields-mcp',
  dependencies: ['fastify-restricted-fields']
})

export default plugin
export { plugin as restrictedFieldsMcp }
export { ArgumentsTooLongError, InvalidArgumentsError, McpWithoutDocumentError, QueryTooLongError, ResultTooLargeError, ToolFailedError, ToolSchemasTooLargeError } from '../errors.js'
