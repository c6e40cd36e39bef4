/**
 * Finds the routes that did not opt in but send a record that a
 * `hiddenFields` rule restricts on an opted-in route: the same schema object,
 * or the same shared schema (by its `$id`, or as a `$ref`'s target), at the
 * top of the reply or anywhere inside it. Such a route sends every field of
 * that record to every caller, and nothing else would say so. The search
 * runs once, when the app is ready, since a shared schema may be added after
 * a route that refers to it.
 */
import { isRecord } from './json.js'
import { References } from './schema/references.js'
import type { JsonSchema } from './schema/tree.js'
import { TESTS } from './schema/vocabulary.js'
import { SKIP, walkSchema } from './schema/walk.js'
import type { Place, Reached } from './schema/walk.js'
import { isStandardSchema } from './standard-schema.js'

/** A route as the search is told of it. */
export interface SendingRoute {
  /** The route in messages: "POST /tasks/:id/assign". */
  readonly route: string
  /** Its 2xx response schemas. */
  readonly schemas: readonly unknown[]
  /** The shared schemas its `$ref`s resolve against, read when the search runs. */
  readonly shared: () => Record<string, JsonSchema>
}

/** An opted-in route with a rule: where its records sit depends on its envelope's key. */
export interface RestrictingRoute extends SendingRoute {
  readonly resultsKey: string
}

/** A route that sends, unrestricted, a record another route restricts. */
export interface UnrestrictedSender {
  readonly route: string
  /** The shared schema's `$id` (with a fragment where it is a part of it); null for a schema object both routes hold. */
  readonly schema: string | null
  /** The opted-in route whose rule restricts it. */
  readonly restrictedOn: string
}

/** What a schema is known by: the object itself, and `id#fragment` where it is a shared schema or a part of one. */
type Key = object | string

/** Where a schema sits in a reply, as far as records go: the reply itself, an envelope's records array, or a record. */
type Role = 'top' | 'holder' | 'record'

const NOT_FOLLOWED = new Error('not followed')
const notFollowed = (): never => { throw NOT_FOLLOWED }

/**
 * Walks the schemas a 2xx response schema holds, each with its keys, `$ref`s
 * followed as fast-json-stringify resolves them (one it cannot resolve is
 * not); a visit that returns SKIP leaves what a schema holds unwalked, and
 * one that returns false ends the walk. A Standard Schema (Zod) is known by
 * its object alone.
 */
function walkKeys (
  schema: unknown, shared: Record<string, JsonSchema>, visit: (place: Place | null, keys: Key[]) => boolean | typeof SKIP
): void {
  if (isStandardSchema(schema)) {
    visit(null, [schema])
    return
  }
  let refs: References | undefined
  try {
    refs = new References({ root: schema as JsonSchema, shared, unresolved: notFollowed, unreadable: notFollowed })
  } catch {
    // Two schemas under one `$id` inside it: the route's serializer compiler took it, and its references are not followed.
  }
  let ended = false
  walkSchema(schema, (place) => {
    if (ended) return SKIP
    const keys: Key[] = [place.schema]
    const id: unknown = place.schema.$id
    if (typeof id === 'string' && id !== '' && !id.startsWith('#')) keys.push(id + '#')
    else if (place.keyword === '$ref' && place.base !== refs!.rootId) keys.push(`${place.base}#${place.pointer}`)
    const answer = visit(place, keys)
    if (answer === false) ended = true
    return answer === true ? undefined : SKIP
  }, refs === undefined ? {} : { base: refs.rootId, resolve: (ref, place) => reach(refs, ref, place) })
}

/** A `$ref`'s target, its pointer the fragment as written (an anchor's is its name, which the located pointer does not keep). */
function reach (refs: References, ref: string, place: Place): Reached | undefined {
  try {
    const located = refs.resolve(ref, place.base)
    return { schema: located.schema, base: located.base, pointer: ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : '' }
  } catch {
    return undefined
  }
}

/** Where a schema held at `place` sits, from where its holder sits; null where it is no record's. */
function roleBelow (role: Role, place: Place, resultsKey: string): Role | null {
  if (place.describes === 'same' && !TESTS.has(place.keyword!)) return role
  if (place.describes === 'items') return 'record'
  return role === 'top' && place.keyword === 'properties' && place.key === resultsKey ? 'holder' : null
}

/** The keys of the schemas where a restricting route's records sit, each with the first route that restricts it. */
function restrictedRecords (routes: readonly RestrictingRoute[]): Map<Key, string> {
  const restricted = new Map<Key, string>()
  for (const { route, schemas, shared, resultsKey } of routes) {
    const sharedSchemas = shared()
    for (const schema of schemas) {
      const roles = new Map<Place, Role>()
      walkKeys(schema, sharedSchemas, (place, keys) => {
        const role = place === null || place.parent === null ? 'top' : roleBelow(roles.get(place.parent)!, place, resultsKey)
        if (role === null) return SKIP
        if (place !== null) roles.set(place, role)
        // Only a level with fields is a record: the `{ type: 'null' }` beside one in an `anyOf` is shared by routes that send no record.
        if (place === null || isRecord(place.schema.properties)) {
          for (const key of keys) if (!restricted.has(key)) restricted.set(key, route)
        }
        return true
      })
    }
  }
  return restricted
}

/**
 * The routes of `sending` that send, anywhere in a 2xx reply, a schema where
 * the records of a route of `restricting` sit; in `sending`'s order, each
 * once, with the first such schema found.
 */
export function unrestrictedSenders (restricting: readonly RestrictingRoute[], sending: readonly SendingRoute[]): UnrestrictedSender[] {
  if (restricting.length === 0) return []
  const restricted = restrictedRecords(restricting)
  const senders: UnrestrictedSender[] = []
  for (const { route, schemas, shared } of sending) {
    const sharedSchemas = shared()
    const found: UnrestrictedSender[] = []
    for (const schema of schemas) {
      walkKeys(schema, sharedSchemas, (place, keys) => {
        // Definitions are reached through the references to them; names and a string's content hold no record.
        if (place !== null && (place.describes === 'none' || place.describes === 'names' || place.describes === 'content')) return SKIP
        const key = keys.find((each) => restricted.has(each))
        if (key === undefined) return true
        const id = keys.find((each) => typeof each === 'string') as string | undefined
        found.push({ route, schema: id === undefined ? null : id.replace(/#$/, ''), restrictedOn: restricted.get(key)! })
        return false
      })
      if (found.length > 0) break
    }
    senders.push(...found)
  }
  return senders
}

/** The warning that names the senders, grouped by what they send and where it is restricted; null when there are none. */
export function unrestrictedSendersWarning (senders: readonly UnrestrictedSender[]): string | null {
  if (senders.length === 0) return null
  const groups = new Map<string, { routes: string[], what: string, restrictedOn: string }>()
  for (const { route, schema, restrictedOn } of senders) {
    const what = schema === null ? 'a schema' : `the schema '${schema}'`
    const key = JSON.stringify([what, restrictedOn])
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { routes: [route], what, restrictedOn })
    else group.routes.push(route)
  }
  const sentences = [...groups.values()].map(({ routes, what, restrictedOn }) =>
    `${routes.length === 1 ? 'route' : 'routes'} ${routes.join(', ')} ${routes.length === 1 ? 'sends' : 'send'} ${what} that a hiddenFields rule restricts on ${restrictedOn}`)
  const [they, send, them] = senders.length === 1 ? ['it', 'sends', 'it'] : ['they', 'send', 'them']
  return `fastify-restricted-fields: ${sentences.join('; ')}, but did not opt in: ${they} ${send} every field to every caller. ` +
    `Opt ${them} in with restrictFields: true, or every route that sends records with the plugin option global: true; ` +
    'restrictFields: false on a route says that it may send every field'
}
