/**
 * Page-number pagination for the example: reading the `page` parameter and
 * building `next`/`previous` links that keep every other query parameter as
 * the client wrote it.
 */

export type PageRequest = { ok: true, page: number } | { ok: false, message: string }

/** Number of pages for `count` items; an empty list still has page 1. */
export function pageCount (count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize))
}

/** The largest page number read: nine digits. */
export const MAX_PAGE = 999_999_999

/** Reads `page` (absent, a positive integer, or `last`) against the number of pages. */
export function parsePage (raw: unknown, pages: number): PageRequest {
  if (raw === undefined) return { ok: true, page: 1 }
  if (raw === 'last') return { ok: true, page: pages }
  if (typeof raw !== 'string' || !/^[1-9]\d{0,8}$/.test(raw)) {
    return { ok: false, message: `Invalid page '${String(raw)}': page must be an integer from 1 to ${MAX_PAGE}, or 'last'` }
  }
  return { ok: true, page: Number(raw) }
}

function parameterName (part: string): string {
  const equals = part.indexOf('=')
  const name = (equals === -1 ? part : part.slice(0, equals)).replaceAll('+', ' ')
  try {
    return decodeURIComponent(name)
  } catch {
    return name
  }
}

/**
 * Returns the URL of page `page`: `base` plus the raw query string with its
 * `page` parameter set to `page` in place (or appended), or removed for page 1.
 */
export function pageLink (base: string, rawQuery: string, page: number): string {
  const parts: string[] = []
  let placed = page === 1
  for (const part of rawQuery.split('&')) {
    if (part === '') continue
    if (parameterName(part) !== 'page') {
      parts.push(part)
    } else if (!placed) {
      parts.push(`page=${page}`)
      placed = true
    }
  }
  if (!placed) parts.push(`page=${page}`)
  return parts.length === 0 ? base : `${base}?${parts.join('&')}`
}
