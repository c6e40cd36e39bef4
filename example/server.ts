/** Starts the example server from environment variables. */
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { databaseStore, seededDatabase } from './database.js'
import { memoryStore } from './store.js'
import { loadUsers } from './users.js'

export interface ServerEnvironment {
  HOST?: string
  PORT?: string
  PAGE_SIZE?: string
  USERS_FILE?: string
  LOG_LEVEL?: string
  /** The bearer token of staff requests; unset, nobody is staff. */
  STAFF_TOKEN?: string
  /** The origin clients reach the API at, for the pagination links; unset, the address the server listens on. */
  PUBLIC_URL?: string
  /** Which proxies' X-Forwarded-* headers to believe, as Fastify's trustProxy: `true`, a number of hops, or addresses. Unset: none. */
  TRUST_PROXY?: string
  /** How the MCP endpoint offers the routes: `routes` (a tool each) or `discovery` (tools that find them). Unset: by their number. */
  MCP_MODE?: string
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** The users file shipped with the example; the build copies it next to the compiled server. */
export const defaultUsersFile = fileURLToPath(new URL('./users.json', import.meta.url))

function integerSetting (name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got '${raw}'`)
  }
  return value
}

/** An http(s) origin, without a trailing slash; throws for anything else. */
function publicUrlSetting (raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined
  let url: URL | null = null
  try {
    url = new URL(raw)
  } catch {}
  if (url === null || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`PUBLIC_URL must be an http or https URL without a query, fragment or credentials, such as https://api.example.com, got '${raw}'`)
  }
  return url.href.replace(/\/+$/, '')
}

/** Fastify's trustProxy from its text: `true`, a number of hops, or a comma-separated list of addresses and ranges. */
function trustProxySetting (raw: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) | undefined {
  if (raw === undefined || raw === '') return undefined
  if (raw === 'true' || raw === 'false') return raw === 'true'
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw)
    return (_address, hop) => hop < hops
  }
  return raw.split(',').map((address) => address.trim()).filter((address) => address !== '')
}

function mcpModeSetting (raw: string | undefined): { mcp?: { mode: 'routes' | 'discovery' } } {
  if (raw === undefined || raw === '') return {}
  if (raw !== 'routes' && raw !== 'discovery') throw new Error(`MCP_MODE must be routes or discovery, got '${raw}'`)
  return { mcp: { mode: raw } }
}

/**
 * Loads the users, builds the app over memory or a seeded embedded database,
 * and listens; throws a clear Error for a bad setting.
 */
export async function startServer (env: ServerEnvironment, storage: 'memory' | 'database' = 'memory'): Promise<FastifyInstance> {
  const level = env.LOG_LEVEL ?? 'info'
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${level}'`)
  const pageSize = integerSetting('PAGE_SIZE', env.PAGE_SIZE, 10, 1, 1000)
  const port = integerSetting('PORT', env.PORT, 3000, 0, 65535)
  const users = loadUsers(env.USERS_FILE ?? defaultUsersFile)
  const db = storage === 'database' ? await seededDatabase(users) : null
  // At LOG_LEVEL=debug, the database store logs each statement it runs.
  const statements: { log?: FastifyInstance['log'] } = {}
  const store = db === null ? memoryStore(users) : databaseStore(db, (sql) => statements.log?.debug({ sql }, 'SQL statement'))
  const app = await buildApp({
    store,
    pageSize,
    staffToken: env.STAFF_TOKEN,
    logger: { level },
    publicUrl: publicUrlSetting(env.PUBLIC_URL),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    ...mcpModeSetting(env.MCP_MODE)
  })
  statements.log = app.log
  // Closing the app closes the database: PGlite writes nothing to disk here, but its WebAssembly instance is released.
  if (db !== null) {
    app.addHook('onClose', async function closeDatabase () {
      await db.close()
      app.log.info('Database closed')
    })
  }
  await app.listen({ host: env.HOST ?? '127.0.0.1', port })
  return app
}

/**
 * Closes the app on SIGINT (Ctrl-C) and SIGTERM (process managers, containers):
 * requests in flight finish, the database closes, and the process exits 0 once
 * nothing is left to run (1 if closing failed). Signals that come while it
 * closes are ignored; the listeners stay, so Node never turns one into a kill.
 */
export function closeOnSignals (app: FastifyInstance): void {
  let closing = false
  function shutDown (signal: NodeJS.Signals): void {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'Closing the server')
    app.close().then(() => {
      app.log.info('Server closed')
    }, (error: Error) => {
      app.log.error(error, 'Closing the server failed')
      process.exitCode = 1
    })
  }
  process.on('SIGINT', shutDown)
  process.on('SIGTERM', shutDown)
}
