/**
 * The MCP endpoint's check against DNS rebinding. A page of another site
 * that gets its name to resolve to the server is, to the browser, on its own
 * origin: the `Host` it sends is the attacker's name, so a request whose
 * origin merely matches its `Host` proves nothing. It does when that `Host`
 * is a loopback name and the server listens on loopback alone: no other
 * site's page can send it, since a browser writes the name of the page's own
 * server, and only a page this server served has that origin.
 */

/** An origin as browsers write it: lower case, no trailing slash. */
export function normalizeOrigin (origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '')
}

/**
 * Whether a request with this `Origin` header may reach the endpoint:
 * without one (clients other than browsers send none), or with one of
 * `allowed` (normalized). `null`, sent by sandboxed and file pages, is refused.
 */
export function originAllowed (origin: string | string[] | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true
  if (Array.isArray(origin)) return false
  return allowed.has(normalizeOrigin(origin))
}

/** The loopback names the SDK's own `localhostHostValidation` takes, with any port. */
const LOOPBACK_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/

/**
 * Whether `origin` is the origin of the loopback address `host` names:
 * `http://` or `https://`, the same name and the same port.
 * `sameLoopbackOrigin('http://127.0.0.1:3000', '127.0.0.1:3000')` is true.
 */
export function sameLoopbackOrigin (origin: string | string[] | undefined, host: string | undefined): boolean {
  if (typeof origin !== 'string' || host === undefined) return false
  const name = host.toLowerCase()
  if (!LOOPBACK_HOST.test(name)) return false
  const given = normalizeOrigin(origin)
  return given === `http://${name}` || given === `https://${name}`
}

/**
 * Whether a server listening on these addresses is reached from this
 * machine alone: each is a loopback address. None (an app answering `inject`
 * alone) is reached from its own process alone; a Unix socket is not taken
 * for loopback, since a proxy in front of it may pass on any `Host`.
 */
export function listensOnLoopback (addresses: ReadonlyArray<{ address: string } | string>): boolean {
  return addresses.every((entry) => typeof entry !== 'string' && /^(?:127\.|::1$|::ffff:127\.)/.test(entry.address))
}
