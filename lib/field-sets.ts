/**
 * A route's field sets (`@name` presets) and default fields, checked against
 * its declared tree once, when it is declared, and kept as split paths.
 */
import type { FieldNode, FieldTree } from './schema/tree.js'
import { InvalidFieldSetError } from './errors.js'

/** A declared path, split into its names. */
export type FieldPath = readonly string[]

/** A route's field sets, checked against its declared fields. */
export interface FieldSets {
  /** The presets by name (without `@`). */
  readonly fieldSets: ReadonlyMap<string, readonly FieldPath[]>
  /** The fields sent without `only`; null: every field. */
  readonly defaultFields: readonly FieldPath[] | null
}

/** A route without field sets or default fields. */
export const NO_FIELD_SETS: FieldSets = { fieldSets: new Map(), defaultFields: null }

/** Splits the paths of a field set, checking each against the declared tree; throws InvalidFieldSetError naming the route and the entry. */
function declaredSet (paths: readonly string[], tree: FieldTree, route: string, what: string): FieldPath[] {
  return paths.map((path) => {
    const segments = path.split('.')
    let level: FieldTree | null = tree
    for (const segment of segments) {
      const node: FieldNode | undefined = level?.byName.get(segment)
      if (node === undefined) {
        throw new InvalidFieldSetError(`fastify-restricted-fields, route ${route}: ${what} names '${path}', which the route does not declare`)
      }
      level = node.children
    }
    return segments
  })
}

/** Checks a route's field sets and default fields against its declared tree, once, when it is declared. */
export function resolveFieldSets (
  fieldSets: Readonly<Record<string, readonly string[]>>, defaultFields: readonly string[] | null, tree: FieldTree, route: string
): FieldSets {
  const sets = new Map<string, FieldPath[]>()
  for (const [name, paths] of Object.entries(fieldSets)) sets.set(name, declaredSet(paths, tree, route, `field set '@${name}'`))
  return {
    fieldSets: sets,
    defaultFields: defaultFields === null ? null : declaredSet(defaultFields, tree, route, '`defaultFields`')
  }
}
