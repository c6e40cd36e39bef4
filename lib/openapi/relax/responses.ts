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
import { restrictedStatuses } from '../operations.js'
import type { Json, RecordsShape, RestrictedRoute, Version } from '../types.js'
import { relaxLinks } from './links.js'
import type { Relaxation } from './relaxation.js'

/** The examples @fastify/swagger puts beside a response's schema, without the hidden paths: on the media type (OpenAPI 3) or the response (Swagger 2.0). */
function stripExamples (holder: Json, version: Version, shape: RecordsShape, hidden: PathTrie): void {
  const body = bodyTrie(hidden, shape)
  const strip = (value: unknown): unknown => stripHidden(value, body)
  if (version === '2.0') {
    if (isRecord(holder.examples)) holder.examples = Object.fromEntries(Object.entries(holder.examples).map(([mime, value]) => [mime, strip(value)]))
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
export function relaxSuccess (relaxation: Relaxation, version: Version, operation: Json, route: RestrictedRoute, hidden: PathTrie | null): void {
  if (!isRecord(operation.responses)) return
  const relax = (schema: unknown, shape: RecordsShape): unknown => shape.kind === 'envelope'
    ? relaxation.relaxEnvelope(schema, String(shape.key), route.maxDepth, hidden)
    : relaxation.relaxRecords(schema, route.maxDepth, hidden)
  for (const { key, shape } of restrictedStatuses(operation, route, version)) {
    const response = operation.responses[key]
    if (!isRecord(response)) continue
    if (version === '2.0') {
      if (response.schema !== undefined) response.schema = relax(response.schema, shape)
      if (hidden !== null) stripExamples(response, version, shape, hidden)
    } else {
      if (hidden !== null) relaxLinks(response, shape, hidden)
      for (const media of Object.values(isRecord(response.content) ? response.content : {})) {
        if (!isRecord(media)) continue
        if (media.schema !== undefined) media.schema = relax(media.schema, shape)
        if (hidden !== null) stripExamples(media, version, shape, hidden)
      }
    }
    response.description = withNote(response.description, shapeNote(route, shape))
  }
}
