/**
 * The reference projection that the reference and composition tests compare
 * responses with, written apart from the plugin: a value with the keys that
 * `only` names (every key where it is null) minus those `defer` names, at any depth.
 */

/** A trie of dotted paths; `true` names a field whole. */
export type Trie = Map<string, Trie | true>

/** The trie of a list of dotted paths: a parent named whole stays whole. */
export function trieOf (paths: string[]): Trie {
  const root: Trie = new Map()
  for (const path of paths) {
    const segments = path.split('.')
    let level = root
    for (let i = 0; i < segments.length; i++) {
      const next = level.get(segments[i])
      if (next === true) break
      if (i === segments.length - 1) {
        level.set(segments[i], true)
        break
      }
      const inner: Trie = next ?? new Map()
      level.set(segments[i], inner)
      level = inner
    }
  }
  return root
}

/** The value with the keys `only` keeps (all when null) minus the keys `defer` drops, in every object of every array. */
export function project (value: unknown, only: Trie | null, defer: Trie | null): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => project(item, only, defer))
  const kept: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    const named = only === null ? true : only.get(key)
    const dropped = defer?.get(key)
    if (named === undefined || dropped === true) continue
    kept[key] = project(field, named === true ? null : named, dropped ?? null)
  }
  return kept
}
