/**
 * Near twins: operations that answer the same thing for different scopes (a
 * repository's, an organization's, a user's, an enterprise's, the caller's
 * own), told apart only by the start of their paths. A search answers them
 * as one entry naming each scope, so that an agent chooses by the scope it has.
 */

/** A scope an operation answers for, named as an agent is shown it. */
export type Scope = 'repository' | 'organization' | 'enterprise' | 'user' | 'own'

// The path prefixes REST APIs give a scope, in common use (GitHub, GitLab, Microsoft Graph, Slack).
const SCOPES: ReadonlyArray<readonly [Scope, RegExp]> = [
  ['repository', /^\/(?:repos|projects)\/\{[^}]+\}\/\{[^}]+\}(\/.+)$/],
  ['organization', /^\/(?:orgs|organizations)\/\{[^}]+\}(\/.+)$/],
  ['enterprise', /^\/enterprises\/\{[^}]+\}(\/.+)$/],
  ['user', /^\/users\/\{[^}]+\}(\/.+)$/],
  ['own', /^\/(?:user|me)(\/.+)$/]
]

/** The scope a path answers for, and what it answers there with parameter names left out; undefined for a path of no scope. */
export function scopeOf (path: string): { scope: Scope, rest: string } | undefined {
  for (const [scope, pattern] of SCOPES) {
    const rest = pattern.exec(path)?.[1]
    if (rest !== undefined) return { scope, rest: rest.replace(/\{[^}]*\}/g, '{}') }
  }
  return undefined
}

/** A found operation and its twins of other scopes, each with its scope. */
export interface TwinEntry { position: number, twins: Array<{ position: number, scope: Scope }> }

/**
 * The entries of a search's answer: each found operation, in order, with
 * its twins of other scopes among `paths` (found or not), each operation
 * answered once, at the place of the first of its twins found.
 */
export function twinEntries (found: readonly number[], paths: readonly string[]): TwinEntry[] {
  const byRest = new Map<string, number[]>()
  for (const [position, path] of paths.entries()) {
    const scoped = scopeOf(path)
    if (scoped !== undefined) byRest.set(scoped.rest, [...byRest.get(scoped.rest) ?? [], position])
  }
  const rank = new Map(found.map((position, at) => [position, at]))
  // Twins the search found come in its order, before those it did not.
  const rankOf = (position: number): number => rank.get(position) ?? found.length + position
  const answered = new Set<number>()
  const entries: TwinEntry[] = []
  for (const position of found) {
    if (answered.has(position)) continue
    answered.add(position)
    const rest = scopeOf(paths[position])?.rest
    // A scoped path is in its own group: the group is there.
    const twins = (rest === undefined ? [] : byRest.get(rest) as number[]).filter((twin) => !answered.has(twin))
      .sort((a, b) => rankOf(a) - rankOf(b))
    for (const twin of twins) answered.add(twin)
    entries.push({ position, twins: twins.map((twin) => ({ position: twin, scope: (scopeOf(paths[twin]) as { scope: Scope }).scope })) })
  }
  return entries
}
