/**
 * A loader hook that takes out of tsx's inline source maps the list of
 * sources' texts it leaves empty. tsx writes the texts only when
 * NODE_V8_COVERAGE is set, which tap's coverage does not set, and tap's
 * report takes an empty text for the file's own: every line of lib/ would
 * count as one covered statement. Without the list, it reads each file.
 */
const INLINE_MAP = '\n//# sourceMappingURL=data:application/json;base64,'

export async function load (url, context, nextLoad) {
  const loaded = await nextLoad(url, context)
  if (!url.startsWith('file:') || loaded.source === undefined || loaded.source === null) return loaded
  const text = String(loaded.source)
  const at = text.lastIndexOf(INLINE_MAP)
  if (at === -1) return loaded
  const map = JSON.parse(Buffer.from(text.slice(at + INLINE_MAP.length), 'base64').toString('utf8'))
  if (!Array.isArray(map.sourcesContent) || !map.sourcesContent.every((source) => source === null)) return loaded
  delete map.sourcesContent
  return { ...loaded, source: text.slice(0, at + INLINE_MAP.length) + Buffer.from(JSON.stringify(map)).toString('base64') }
}
