/** The sentences the plugin adds to the descriptions of a document. */
import type { RecordsShape, RestrictedRoute } from './types.js'

/** A description with `note` appended as a sentence of its own, once. */
export function withNote (description: unknown, note: string): string {
  const text = typeof description === 'string' ? description.trim() : ''
  if (text.endsWith(note)) return text
  if (text === '') return note
  return `${text}${/[.!?]$/.test(text) ? '' : '.'} ${note}`
}

/** What the parameters do to a restricted response of this shape. */
export function shapeNote (route: RestrictedRoute, shape: RecordsShape): string {
  const params = `\`${route.onlyParam}\` and \`${route.deferParam}\``
  const what = shape.kind === 'envelope'
    ? `the fields of each record in \`${String(shape.key)}\``
    : shape.kind === 'array' ? 'the fields of each item' : 'its fields'
  const note = `The ${params} query parameters choose ${what}; a field they leave out is absent.`
  // Hidden fields stay declared: the requests allowed to see them must match the document too.
  return route.hidesFields === true ? `${note} Some fields are hidden from some requests, which are answered as if those fields were not declared.` : note
}
