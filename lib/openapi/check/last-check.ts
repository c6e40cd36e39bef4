/**
 * The last check of a caller's document, after it was relaxed: route by
 * route, what the document gives a restricted route (its restricted
 * responses and the components they reach, their examples, encodings and
 * links, its `x-restricted-fields` key, its `only` and `defer` choices) is
 * read with the paths the route's rule hides from the caller, and the
 * document is refused at the first position that names one of them
 * (naming.ts says what naming is), or at a reference it cannot follow.
 *
 * The exemption is by path, never by name: a field of the same name that the
 * caller sees elsewhere (another route, another level, a shared component
 * reached through a visible path) is read with that place's hidden paths,
 * which do not hide it.
 *
 * The check reads schemas, instances and names with code of its own (a
 * second opinion: a blind spot of the relaxer is not the check's). It
 * shares with the relaxer three things that read no schema, so cannot be
 * blind to a keyword: json.ts (pointers, `isRecord`), the trie of
 * hidden-paths.ts (built from the rule's answer, descended by name), and
 * operations.ts's list of an operation's restricted responses, read from
 * the route's declared statuses rather than from the document.
 */
import { isRecord, pointerTo as at } from '../../json.js'
import type { PathTrie } from '../../hidden-paths.js'
import { bodyTrie, hidesPath } from '../../hidden-paths.js'
import { restrictedResponses } from '../operations.js'
import type { Found } from '../operations.js'
import { OPERATION_KEY } from '../types.js'
import type { Json, Version } from '../types.js'
import { examplesMapNames, instanceNames, linkReads, namedAt } from './naming.js'
import { SchemaWalk } from './schema-walk.js'
import type { Finding, Position } from './schema-walk.js'

export type { Position } from './schema-walk.js'

/** Why the last check refuses a caller's document: about which route, where, what was found, and at which kind of position. */
export interface Refusal { place: Found, pointer: string, reason: 'hidden name' | 'unchecked reference', position: Position }

function first<T> (items: Iterable<T>, find: (item: T) => Finding | null): Finding | null {
  for (const item of items) {
    const found = find(item)
    if (found !== null) return found
  }
  return null
}

/** The first item of a list of dotted paths that is hidden, as a finding. */
function firstPath (paths: unknown, pointer: string, position: Position, level: PathTrie): Finding | null {
  if (!Array.isArray(paths)) return null
  const index = paths.findIndex((path) => hidesPath(level, String(path)))
  return index === -1 ? null : { pointer: at(pointer, index), position }
}

/** A response's media types (OpenAPI 3): the example, the schema, the named examples and the encoding of each. */
function media (walk: SchemaWalk, content: Json, pointer: string, level: PathTrie): Finding | null {
  return first(Object.entries(content), ([mime, held]) => {
    if (!isRecord(held)) return null
    const here = at(at(pointer, 'content'), mime)
    if (Object.hasOwn(held, 'example') && (instanceNames(held.example, level) || examplesMapNames(held.example, level))) {
      return { pointer: at(here, 'example'), position: 'instance key' }
    }
    return walk.root(held.schema, at(here, 'schema'), level) ??
      first(Object.entries(isRecord(held.examples) ? held.examples : {}), ([name, example]) => {
        // A named example, or a `$ref` to one among the components.
        const shared = isRecord(example) && typeof example.$ref === 'string' && example.$ref.startsWith('#/') ? walk.resolve(example.$ref) : example
        if (!isRecord(shared) || !instanceNames(shared.value, level)) return null
        return { pointer: at(at(at(here, 'examples'), name), 'value'), position: 'instance key' }
      }) ??
      // The keys of an encoding are the names of the body's properties.
      first(Object.keys(isRecord(held.encoding) ? held.encoding : {}), (name) =>
        namedAt(level, name) ? { pointer: at(at(here, 'encoding'), name), position: 'media encoding' } : null)
  })
}

/** The first link of a response whose expressions read a hidden path of the body; a link the document does not hold cannot be checked. */
function links (walk: SchemaWalk, value: unknown, pointer: string, level: PathTrie): Finding | null {
  return first(Object.entries(isRecord(value) ? value : {}), ([name, link]) => {
    const held = isRecord(link) && typeof link.$ref === 'string' ? (link.$ref.startsWith('#/') ? walk.resolve(link.$ref) : undefined) : link
    if (held === undefined) return { pointer: at(pointer, name), position: 'reference', unchecked: true }
    return linkReads(held, level) ? { pointer: at(pointer, name), position: 'link expression' } : null
  })
}

/** A response (or a `$ref` to one): its schemas, the examples beside them, its encodings and links. */
function response (walk: SchemaWalk, value: unknown, pointer: string, level: PathTrie, version: Version): Finding | null {
  if (!isRecord(value)) return null
  if (typeof value.$ref === 'string') {
    // A response shared among the components, read once per level of hidden paths; one the document does not hold is refused.
    const target = value.$ref.startsWith('#/') ? walk.resolve(value.$ref) : undefined
    if (target === undefined) return { pointer: at(pointer, '$ref'), position: 'reference', unchecked: true }
    return walk.once(value.$ref.slice(1), level) ? null : response(walk, target, value.$ref.slice(1), level, version)
  }
  if (version === '2.0') {
    return walk.root(value.schema, at(pointer, 'schema'), level) ??
      first(Object.entries(isRecord(value.examples) ? value.examples : {}), ([mime, example]) =>
        instanceNames(example, level) ? { pointer: at(at(pointer, 'examples'), mime), position: 'instance key' } : null)
  }
  return media(walk, isRecord(value.content) ? value.content : {}, pointer, level) ?? links(walk, value.links, at(pointer, 'links'), level)
}

/** The `only` and `defer` choices of an operation's parameters, or of its path's. */
function restrictionParameters (
  walk: SchemaWalk, parameters: unknown, pointer: string, names: readonly string[], level: PathTrie
): Finding | null {
  if (!Array.isArray(parameters)) return null
  return first(parameters.entries(), ([index, parameter]) => {
    if (!isRecord(parameter) || parameter.in !== 'query' || !names.includes(parameter.name)) return null
    const here = at(pointer, index)
    const [own, ownPointer] = isRecord(parameter.schema)
      ? [parameter.schema.items, at(at(here, 'schema'), 'items')]
      : [parameter.items, at(here, 'items')]
    // The choices may be a list shared among the components; one the document does not hold cannot be checked.
    const ref: unknown = isRecord(own) ? own.$ref : undefined
    const shared = typeof ref === 'string' && ref.startsWith('#/') ? walk.resolve(ref) : undefined
    if (typeof ref === 'string' && shared === undefined) return { pointer: at(ownPointer, '$ref'), position: 'reference', unchecked: true }
    const [items, itemsPointer] = typeof ref === 'string' ? [shared, ref.slice(1)] : [own, ownPointer]
    return listFinding(items, itemsPointer, level)
  })
}

/** A list of choices: its `enum`, or the `enum` of each member of its `anyOf` (a bounded list beside a pattern of deeper paths). */
function listFinding (items: unknown, pointer: string, level: PathTrie): Finding | null {
  if (!isRecord(items)) return null
  return firstPath(items.enum, at(pointer, 'enum'), 'restriction parameter', level) ??
    first((Array.isArray(items.anyOf) ? items.anyOf : []).entries(), ([index, member]) =>
      isRecord(member) ? firstPath(member.enum, at(at(at(pointer, 'anyOf'), index), 'enum'), 'restriction parameter', level) : null)
}

/** The operation's `x-restricted-fields` key: the complete record of each restricted status, its field sets and default fields. */
function routeFields (walk: SchemaWalk, described: unknown, pointer: string, level: PathTrie): Finding | null {
  if (!isRecord(described)) return null
  return first(Object.entries(isRecord(described.statuses) ? described.statuses : {}), ([status, description]) =>
    isRecord(description) && isRecord(description.record)
      ? walk.reference(description.record.$ref, level, at(at(at(at(pointer, 'statuses'), status), 'record'), '$ref'))
      : null) ??
    first(Object.entries(isRecord(described.sets) ? described.sets : {}), ([name, paths]) =>
      firstPath(paths, at(at(pointer, 'sets'), name), 'field set', level)) ??
    firstPath(described.defaultFields, at(pointer, 'defaultFields'), 'field set', level)
}

/** The first position of what the document gives one route that names a path its rule hides from the caller. */
function routeFinding (walk: SchemaWalk, version: Version, found: Found, hidden: PathTrie): Finding | null {
  const { operation, pathItem, route } = found
  const pointer = at(at('/paths', found.path), found.method)
  const names = [route.onlyParam, route.deferParam]
  return first(restrictedResponses(operation, route, version), ({ key, shape, response: held }) =>
    response(walk, held, at(at(pointer, 'responses'), key), bodyTrie(hidden, shape), version)) ??
    routeFields(walk, operation[OPERATION_KEY], at(pointer, OPERATION_KEY), hidden) ??
    restrictionParameters(walk, operation.parameters, at(pointer, 'parameters'), names, hidden) ??
    restrictionParameters(walk, pathItem.parameters, at(at('/paths', found.path), 'parameters'), names, hidden)
}

/**
 * The last check of a caller's document: the first position where what it
 * gives a restricted route names a path the route's rule hides from the
 * caller (`hidden`, by route id), or refers to what the document does not
 * hold. Null when there is none.
 */
export function lastCheck (
  document: Json,
  version: Version,
  found: readonly Found[],
  hidden: ReadonlyMap<string, PathTrie>
): Refusal | null {
  const walk = new SchemaWalk(document, version)
  for (const place of found) {
    const level = hidden.get(place.id)
    const finding = level === undefined ? null : routeFinding(walk, version, place, level)
    if (finding === null) continue
    return { place, pointer: finding.pointer, reason: finding.unchecked === true ? 'unchecked reference' : 'hidden name', position: finding.position }
  }
  return null
}
