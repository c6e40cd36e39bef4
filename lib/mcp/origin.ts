/**
 * The MCP endpoint's check against DNS rebinding. A page of another site
 * that gets its name to resolve to the server is, to the browser, on its own
 * origin: the `Host` it sends is the attacker's, so a request's origin is
 * never accepted for matching its `Host`, only for being on the list.
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
