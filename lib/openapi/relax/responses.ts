/**
 * The restricted responses of an operation as a caller is shown them: their
 * schemas relaxed (relaxation.ts), the examples beside them and their links
 * without the caller's hidden paths, and a note of what the parameters do.
 */
import { bodyTrie } from '../../hidden-paths.js'
import { isRecord } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { stripHidden } from '../../visibility.js'
import { shapeNote, withNote } from '../notes.js'
import { restrictedResponses, schemaHolders } from '../operations.js'
import type { Json, RecordsShape, RestrictedRoute, Version } from '../types.js'
import { relaxLinks } from './links.js'
import type { Relaxation } from './relaxation.js'

/**
 * The examples @fastify/swagger puts beside a response's schema, without the hidden paths: on the
 * media type (OpenAPI 3) or the response (Swagger 2.0).
 */
function stripExamples (holder: Json, version: Version, shape: RecordsShape, hidden: PathTrie): void {
  const body = bodyTrie(hidden, shape)
  const strip = (value: unknown): unknown => stripHidden(value, body)
  if (version === '2.0') {
    if (isRecord(holder.examples)) {
      holder.examples = Object.fromEntries(Object.entries(holder.examples).map(([mime, value]) => [mime, strip(value)]))
    }
    return
  }
  if (Object.hasOwn(holder, 'example')) holder.example = strip(holder.example)
  if (isRecord(holder.examples)) {
    holder.examples = Object.fromEntries(Object.entries(holder.examples).map(([name, example]) =>
      // An Example Object holds its instance under `value`; an `x-examples` map moved here as it was written (Stoplight's) holds it whole.
      [name, isRecord(example) && Object.hasOwn(example, 'value') ? { ...example, value: strip(example.value) } : strip(example)]))
  }
}

/** Relaxes the restricted 2xx responses of an operation and notes what the parameters do to them. */
export function relaxSuccess (
  relaxation: Relaxation, version: Version, operation: Json, route: RestrictedRoute, hidden: PathTrie | null
): void {
  const relax = (schema: unknown, shape: RecordsShape): unknown => shape.kind === 'envelope'
    ? relaxation.relaxEnvelope(schema, String(shape.key), route.maxDepth, hidden)
    : relaxation.relaxRecords(schema, route.maxDepth, hidden)
  for (const { shape, response } of restrictedResponses(operation, route, version)) {
    if (!isRecord(response)) continue
    if (hidden !== null && version === '3') relaxLinks(response, shape, hidden)
    for (const holder of schemaHolders(response, version)) {
      if (holder.schema !== undefined) holder.schema = relax(holder.schema, shape)
      if (hidden !== null) stripExamples(holder, version, shape, hidden)
    }
    response.description = withNote(response.description, shapeNote(route, shape))
  }
}
