/**
 * The path side of the discovery mode's areas: an operation without a tag is
 * in the resource its path names past the prefix every listed path shares,
 * so that an API without tags under `/v1` is divided by its resources rather
 * than filed whole under `v1`. The prefix is read from the paths a caller's
 * view lists alone, so that nothing the caller is not shown shapes it.
 */

/** The segments of a path that name something fixed: `/v1/charges/{charge}` has `v1` and `charges`; a segment with a parameter varies. */
export function fixedSegments (path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && !segment.includes('{'))
}

/**
 * The leading fixed segments every path shares, short of all of the longest
 * one's: a single path, or paths that differ only by parameters, keep their
 * last fixed segment as their area. A path that is the prefix itself (the
 * API's root, `/v1`) does not shorten it.
 */
export function sharedPrefix (paths: readonly string[]): string[] {
  const lists = paths.map(fixedSegments)
  if (lists.length === 0) return []
  const longest = lists.reduce((most, list) => Math.max(most, list.length), 0)
  const [first] = lists
  let length = 0
  while (length < longest - 1 && lists.every((list) => list[length] === first[length])) length++
  return first.slice(0, length)
}
