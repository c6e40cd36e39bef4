/**
 * Single figures of the documentation, each read from a committed bench
 * file. A figure sits between markers that say where it comes from:
 *
 *     <!-- figure bench/flood.json cases.0.apps.plugin.ratio 2 -->1.23<!-- /figure -->
 *
 * the file, the value's path in it (keys and array indices joined by dots;
 * `*` takes every item, which `median:`, `min:` or `max:` before the path
 * reduces to one; two such terms joined by `-` or `/` give their difference
 * or their ratio), and how it is written: a number of decimals (`2`), with thousands grouped
 * (`0,`), as mebibytes of a count of bytes (`MiB1`), as a percentage of a
 * share (`%1`), or as it is (`text`). `npm run bench:readme` rewrites every
 * figure from its file, and test/bench/figures.test.ts fails when one
 * differs.
 */

const FIGURE = /<!-- figure (\S+) (\S+) (\S+) -->([^<]*)<!-- \/figure -->/g

/** The value at a dotted path of a parsed file; throws, naming the file and path, when there is none. */
export function valueAt (data: unknown, path: string, file: string): unknown {
  let value = data
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) throw new Error(`${file} has no ${path}`)
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

const REDUCERS: Record<string, (values: number[]) => number> = {
  median: (values) => {
    const sorted = [...values].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  },
  min: (values) => Math.min(...values),
  max: (values) => Math.max(...values)
}

/** Every value a path with `*` reaches. */
function valuesAt (data: unknown, path: string, file: string): unknown[] {
  const star = path.indexOf('*')
  if (star === -1) return [valueAt(data, path, file)]
  const items = star === 0 ? data : valueAt(data, path.slice(0, star - 1), file)
  if (!Array.isArray(items)) throw new Error(`${file} has no list at ${path.slice(0, star + 1)}`)
  const rest = path.slice(star + 2)
  return items.flatMap((item) => rest === '' ? [item] : valuesAt(item, rest, file))
}

/** One term of an expression: a path, or a reduction of the values a path with `*` reaches. */
function termValue (data: unknown, term: string, file: string): unknown {
  const match = /^(median|min|max):(.+)$/.exec(term)
  if (match === null) return valueAt(data, term, file)
  const values = valuesAt(data, match[2], file)
  const numbers = values.length > 0 && values.every((value) => typeof value === 'number')
  if (!numbers) throw new Error(`${file} ${match[2]} holds no numbers only`)
  return REDUCERS[match[1]](values as number[])
}

/** The value of a marker's expression: a term, or two terms' difference or ratio. */
export function figureValue (data: unknown, expression: string, file: string): unknown {
  const match = /^([^-/]+)([-/])([^-/]+)$/.exec(expression)
  if (match === null) return termValue(data, expression, file)
  const [left, right] = [termValue(data, match[1], file), termValue(data, match[3], file)]
  if (typeof left !== 'number' || typeof right !== 'number') throw new Error(`${file} ${expression} is not between numbers`)
  return match[2] === '-' ? left - right : left / right
}

/** A value written in a format of the markers. */
export function formatFigure (value: unknown, format: string, where: string): string {
  if (format === 'text') return String(value)
  if (typeof value !== 'number') throw new Error(`${where} is not a number`)
  const match = /^(MiB|%)?(\d)(,?)$/.exec(format)
  if (match === null) throw new Error(`${where}: unknown format ${format}`)
  const [, unit, decimals, grouped] = match
  const scaled = unit === 'MiB' ? value / 2 ** 20 : unit === '%' ? value * 100 : value
  const digits = Number(decimals)
  if (grouped !== ',') return scaled.toFixed(digits)
  return scaled.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

/** A page with every figure written from its file; `read` parses a file of the project, once per file. */
export function updateFigures (page: string, read: (file: string) => unknown): string {
  const files = new Map<string, unknown>()
  return page.replace(FIGURE, (_whole, file: string, path: string, format: string) => {
    if (!files.has(file)) files.set(file, read(file))
    const figure = formatFigure(figureValue(files.get(file), path, file), format, `${file} ${path}`)
    return `<!-- figure ${file} ${path} ${format} -->${figure}<!-- /figure -->`
  })
}

/** The pages whose figures are written from the bench files. */
export const FIGURE_PAGES = ['README.md', 'docs/benchmarks.md', 'docs/agents.md', 'docs/internals.md']
