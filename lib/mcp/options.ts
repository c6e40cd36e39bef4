/**
 * Checks and completes the MCP endpoint's options once, at registration;
 * the endpoint reads only the resolved object.
 */
import type { onRequestHookHandler } from 'fastify'
import { InvalidOptionError, quote } from '../errors.js'
import { RESULT_TOKENS } from './budget.js'
import { normalizeOrigin } from './origin.js'
import { includeRestrictedRoutes } from './tools.js'
import type { IncludeTools } from './tools.js'

/** How tools are offered: one per route, or the discovery mode's tools (find, browse, describe, call). */
export type ToolsMode = 'routes' | 'discovery'

/**
 * Past this many routes, the discovery mode is the default: agent hosts start
 * to defer tools past about 30 and some editors take no more than 40, and at
 * GitHub's median of a few hundred tokens a tool, 30 per-route tools already
 * cost more than the discovery mode's fixed few.
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
  /**
   * The request headers a call passes on to its route, besides `authorization`: whatever else the
   * app's authentication reads (an API key). Default: `['cookie']`, so that a route behind cookie
   * sessions sees the caller's session; `[]` passes `authorization` alone.
   */
  forwardHeaders?: readonly string[]
  /** The origins (`https://app.example.com`) whose browser pages may call the endpoint; a request with any other `Origin` is refused. Default: none. */
  allowedOrigins?: readonly string[]
  /** The longest query string a call's arguments may make. Default: 2048. */
  maxArgumentsLength?: number
  /** The largest JSON-RPC request body, in bytes. Default: 65536. */
  bodyLimit?: number
  /** Hooks that authenticate requests to the endpoint, run after the origin check; the app's own `onRequest` hooks run too. */
  onRequest?: onRequestHookHandler | onRequestHookHandler[]
  /**
   * One tool per route, or a few tools that find, browse, describe and call the routes. Default:
   * `discovery` past 30 routes, else `routes`.
   */
  mode?: ToolsMode
  /**
   * The most schema objects one caller's tools may read and write; past it, `tools/list` answers an
   * error and the server logs why. Default: 250000.
   */
  maxSchemaNodes?: number
  /**
   * The most tokens one tool result may hold, estimated from its bytes; a larger reply is answered
   * with how to ask for less. Default: 25000.
   */
  maxResultTokens?: number
}

/** The endpoint's options, checked and completed; `mode` stays undefined when it is chosen by the number of routes. */
export interface ResolvedMcpOptions {
  path: string
  serverInfo: { name: string, version: string }
  instructions: string | undefined
  include: IncludeTools
  /** Lower case, `authorization` first. */
  forwardHeaders: string[]
  /** Normalized as browsers write origins. */
  allowedOrigins: ReadonlySet<string>
  maxArgumentsLength: number
  bodyLimit: number
  onRequest: onRequestHookHandler[]
  mode: ToolsMode | undefined
  maxSchemaNodes: number
  maxResultTokens: number
}

const MODES = ['routes', 'discovery']

/**
 * Passed on unless `forwardHeaders` says otherwise: a session cookie is a credential as `authorization` is, and the
 * endpoint serves no page of a foreign origin, so no other site's page can make a browser spend it here.
 */
const FORWARDED = ['cookie']

function positiveInteger (value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new InvalidOptionError(`The ${name} option should be a positive integer, instead got ${String(value)}`)
  }
  return value as number
}

function checkedStrings (value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((member) => typeof member === 'string' && member !== '')) {
    throw new InvalidOptionError(`The ${name} option should be an array of non-empty strings`)
  }
  return value
}

function checkedMode (mode: unknown): ToolsMode | undefined {
  if (mode !== undefined && !MODES.includes(mode as string)) {
    throw new InvalidOptionError(`The mode option should be one of 'routes', 'discovery', instead got '${quote(String(mode))}'`)
  }
  return mode as ToolsMode | undefined
}

/** The endpoint's options resolved, or an `InvalidOptionError` naming the first one that is wrong. */
export function normalizeMcpOptions (options: RestrictedFieldsMcpOptions): ResolvedMcpOptions {
  const path = options.path ?? '/mcp'
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new InvalidOptionError(`The path option should be a path starting with '/', instead got ${String(path)}`)
  }
  const include = options.include ?? includeRestrictedRoutes
  if (typeof include !== 'function') throw new InvalidOptionError('The include option should be a function')
  return {
    path,
    serverInfo: { name: options.name ?? 'fastify-restricted-fields', version: options.version ?? '1.0.0' },
    instructions: options.instructions,
    include,
    forwardHeaders: ['authorization', ...checkedStrings(options.forwardHeaders ?? FORWARDED, 'forwardHeaders').map((name) => name.toLowerCase())],
    allowedOrigins: new Set(checkedStrings(options.allowedOrigins, 'allowedOrigins').map(normalizeOrigin)),
    maxArgumentsLength: positiveInteger(options.maxArgumentsLength, 'maxArgumentsLength', 2048),
    bodyLimit: positiveInteger(options.bodyLimit, 'bodyLimit', 65536),
    onRequest: [options.onRequest ?? []].flat(),
    mode: checkedMode(options.mode),
    maxSchemaNodes: positiveInteger(options.maxSchemaNodes, 'maxSchemaNodes', 250_000),
    maxResultTokens: positiveInteger(options.maxResultTokens, 'maxResultTokens', RESULT_TOKENS)
  }
}
