/**
 * What to load for a selection: the columns and relations that the fields a
 * response will contain come from. The ORM adapters (`/drizzle`, `/kysely`,
 * `/prisma`) put a plan in their own form; this module knows no ORM.
 *
 * A plan names only columns of the table it was built with, from the fields
 * of `request.restrictedFields`, which are declared names with hidden fields
 * already left out: nothing a client sends reaches it as a name.
 */
import { InvalidSourceError, LoadFailedError } from '../errors.js'
import type { FieldSelection } from '../field-selection.js'

/**
 * Where a field's value comes from:
 * - a string: the column of that name (`isStaff: 'is_staff'`);
 * - `false`: nothing is loaded for it (the handler makes it from nothing);
 * - `{ dependsOn }`: the handler computes it from these columns, or from
 *   `relation.column` paths through a relation field of the same level;
 * - `{ relation }`: a nested object or array of objects that is a relation,
 *   with its own field sources and always-loaded columns.
 *
 * Without a source, a field is the relation of its name if the table has one,
 * else the column of its name. A nested object that is not a relation is one
 * column (JSON), loaded whole when any of its paths is selected.
 *
 * `Column` and `Relation` are the table's column and relation names, where an
 * adapter knows them from its ORM's types: a typo then does not compile.
 */
export type FieldSource<Column extends string = string, Relation extends string = string> =
  | Column
  | false
  | { readonly dependsOn: ReadonlyArray<Column | `${Relation}.${string}`> }
  | RelationSource<Relation>

export interface RelationSource<Relation extends string = string> {
  readonly relation: Relation
  readonly fields?: FieldSources
  /** Columns of the related table loaded whatever is selected (default: `id` where it has one). */
  readonly always?: readonly string[]
}

export interface FieldSources<Column extends string = string, Relation extends string = string> {
  readonly [field: string]: FieldSource<Column, Relation>
}

/** A table as an adapter reads it from its ORM: its name, columns and relations. */
export interface TableShape {
  readonly name: string
  readonly columns: readonly string[]
  readonly relations?: { readonly [relation: string]: TableShape }
}

export interface LoadOptions<Column extends string = string, Relation extends string = string> {
  /** Where each response field comes from, where it is not the column (or relation) of its own name. */
  readonly fields?: FieldSources<Column, Relation>
  /** Columns loaded whatever is selected, such as the key that orders or pages (default: `id` where the table has one). */
  readonly always?: readonly Column[]
}

/** The columns of one table to load, and each relation's own plan, by relation name. */
export interface LoadPlan {
  readonly columns: readonly string[]
  readonly relations: { readonly [relation: string]: LoadPlan }
}

/** One level's sources, checked against its table once, when the adapter is built. */
interface Level {
  readonly table: TableShape
  readonly columns: ReadonlySet<string>
  readonly always: readonly string[]
  readonly fields: ReadonlyMap<string, Source>
  /** The relations fields name by default, compiled on first use: a table's relations may lead back to it. */
  readonly defaultRelations: Map<string, Source>
}

/** A relation a field's columns are reached through. */
interface Through { relation: string, level: Level, column: string }

type Source =
  | { readonly kind: 'column', readonly column: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'depends', readonly columns: readonly string[], readonly through: ReadonlyArray<Through> }
  | { readonly kind: 'relation', readonly relation: string, readonly level: Level }

function list (names: Iterable<string>): string {
  return [...names].map((name) => `'${name}'`).join(', ')
}

function missingColumn (field: string, column: string, table: TableShape): InstanceType<typeof InvalidSourceError> {
  return new InvalidSourceError(`Field '${field}' loads column '${column}', which table '${table.name}' does not have; its columns are ${list(table.columns)}`)
}

function relationOf (field: string, relation: string, table: TableShape): TableShape {
  const related = table.relations !== undefined && Object.hasOwn(table.relations, relation) ? table.relations[relation] : undefined
  if (related === undefined) {
    const known = Object.keys(table.relations ?? {})
    throw new InvalidSourceError(`Field '${field}' loads relation '${relation}', which table '${table.name}' does not have; ${known.length === 0 ? 'it has none' : `its relations are ${list(known)}`}`)
  }
  return related
}

function defaultAlways (table: TableShape): string[] {
  return table.columns.includes('id') ? ['id'] : []
}

function compileLevel (table: TableShape, sources: FieldSources, always: readonly string[], prefix: string): Level {
  const columns = new Set(table.columns)
  for (const column of always) if (!columns.has(column)) throw missingColumn(`${prefix}(always)`, column, table)
  const fields = new Map<string, Source>()
  const level: Level = { table, columns, always, fields, defaultRelations: new Map() }
  for (const [field, source] of Object.entries(sources)) {
    const name = prefix + field
    if (source === false) {
      fields.set(field, { kind: 'none' })
    } else if (typeof source === 'string') {
      if (!columns.has(source)) throw missingColumn(name, source, table)
      fields.set(field, { kind: 'column', column: source })
    } else if ('relation' in source) {
      const related = relationOf(name, source.relation, table)
      const level = compileLevel(related, source.fields ?? {}, source.always ?? defaultAlways(related), `${name}.`)
      fields.set(field, { kind: 'relation', relation: source.relation, level })
    } else {
      fields.set(field, { kind: 'depends', columns: [], through: [] })
    }
  }
  // Dependencies through a relation read the relation's source, so they are resolved once every field has one.
  for (const [field, source] of Object.entries(sources)) {
    if (source === false || typeof source === 'string' || 'relation' in source) continue
    const own: string[] = []
    const through: Array<{ relation: string, level: Level, column: string }> = []
    for (const dependency of source.dependsOn) {
      const dot = dependency.indexOf('.')
      if (dot === -1) {
        if (!columns.has(dependency)) throw missingColumn(prefix + field, dependency, table)
        own.push(dependency)
        continue
      }
      const via = dependency.slice(0, dot)
      const column = dependency.slice(dot + 1)
      const relation = sourceOf(level, via)
      if (relation.kind !== 'relation') {
        throw new InvalidSourceError(`Field '${prefix + field}' depends on '${dependency}', but '${prefix + via}' is not a relation of table '${table.name}'`)
      }
      if (!relation.level.columns.has(column)) throw missingColumn(prefix + field, column, relation.level.table)
      through.push({ relation: relation.relation, level: relation.level, column })
    }
    fields.set(field, { kind: 'depends', columns: own, through })
  }
  return level
}

/** A field's source: the declared one, else the relation of its name, else the column of its name. */
function sourceOf (level: Level, field: string): Source {
  const declared = level.fields.get(field)
  if (declared !== undefined) return declared
  let relation = level.defaultRelations.get(field)
  if (relation === undefined) {
    const relations = level.table.relations
    const related = relations !== undefined && Object.hasOwn(relations, field) ? relations[field] : undefined
    if (related === undefined) return { kind: 'column', column: field }
    relation = { kind: 'relation', relation: field, level: compileLevel(related, {}, defaultAlways(related), `${field}.`) }
    level.defaultRelations.set(field, relation)
  }
  return relation
}

interface Building { columns: Set<string>, relations: Map<string, Building> }

function startBuilding (level: Level): Building {
  return { columns: new Set(level.always), relations: new Map() }
}

function relationBuilding (into: Building, relation: string, level: Level): Building {
  let building = into.relations.get(relation)
  if (building === undefined) into.relations.set(relation, building = startBuilding(level))
  return building
}

/**
 * Adds what `paths` need to `into`. `declared` says that the paths are every
 * declared path of a route (a check), so that a relation with none below it is
 * declared without fields; in a request's selection, it is a relation kept
 * with none of its fields (`defer` of all of them), loaded for its presence.
 */
function addPaths (level: Level, paths: readonly string[], into: Building, prefix: string, declared: boolean): void {
  const below = new Map<string, string[]>()
  for (const path of paths) {
    const dot = path.indexOf('.')
    const field = dot === -1 ? path : path.slice(0, dot)
    let tails = below.get(field)
    if (tails === undefined) below.set(field, tails = [])
    if (dot !== -1) tails.push(path.slice(dot + 1))
  }
  for (const [field, tails] of below) {
    const source = sourceOf(level, field)
    if (source.kind === 'column') {
      if (!level.columns.has(source.column)) throw missingColumn(prefix + field, source.column, level.table)
      into.columns.add(source.column)
    } else if (source.kind === 'depends') {
      for (const column of source.columns) into.columns.add(column)
      for (const { relation, level: related, column } of source.through) relationBuilding(into, relation, related).columns.add(column)
    } else if (source.kind === 'relation') {
      // A relation's fields are what to load from it; one the response declares none below (past maxDepth,
      // or declared free-form) would be loaded as its always-loaded columns and sent short.
      if (declared && tails.length === 0) throw new InvalidSourceError(`Field '${prefix}${field}' loads relation '${source.relation}', but the response declares no fields inside it (deeper than maxDepth, or a free-form object); declare its fields, or give it a column or dependsOn source`)
      addPaths(source.level, tails, relationBuilding(into, source.relation, source.level), `${prefix}${field}.`, declared)
    }
  }
}

function finish (building: Building): LoadPlan {
  const relations: { [relation: string]: LoadPlan } = {}
  for (const [relation, inner] of building.relations) relations[relation] = finish(inner)
  return Object.freeze({ columns: Object.freeze([...building.columns]), relations: Object.freeze(relations) })
}

/** Builds plans for one table: checks the sources against it now, and remembers each selection's plan. */
export interface Planner {
  /**
   * The plan for a selection; null on a route that is not opted in, where no
   * field is declared and everything is loaded. A source that does not fit
   * its table throws LoadFailedError, whose message names no table or column
   * (its `cause`, which the server's log shows, does).
   */
  plan: (selection: FieldSelection) => LoadPlan | null
  /**
   * Throws InvalidSourceError, naming the field and the column, where a plan of any of `paths` (every declared path of a route, say)
   * would fail.
   */
  check: (paths: readonly string[]) => void
}

/** How many distinct selections a planner remembers by their paths; past it, it starts again. */
const REMEMBERED = 1024

export function planner (table: TableShape, options: LoadOptions = {}): Planner {
  const root = compileLevel(table, options.fields ?? {}, options.always ?? defaultAlways(table), '')
  // A selection met again is often the same object; when it is not (its first use, or one not kept), its paths are.
  const bySelection = new WeakMap<FieldSelection, LoadPlan | null>()
  const byPaths = new Map<string, LoadPlan>()
  const planOf = (paths: readonly string[], declared: boolean): LoadPlan => {
    const building = startBuilding(root)
    addPaths(root, paths, building, '', declared)
    return finish(building)
  }
  return {
    plan (selection) {
      let plan = bySelection.get(selection)
      if (plan === undefined) {
        if (!selection.restricted && selection.paths.length === 0) {
          plan = null
        } else {
          // A name may hold any character but '.' and ',': only a quoted list tells two selections apart.
          const key = JSON.stringify(selection.paths)
          plan = byPaths.get(key)
          if (plan === undefined) {
            try {
              plan = planOf(selection.paths, false)
            } catch (error) {
              // The client is told that loading failed, never the table's columns: those go to the log, as the cause.
              throw new LoadFailedError({ cause: error })
            }
            if (byPaths.size >= REMEMBERED) byPaths.clear()
            byPaths.set(key, plan)
          }
        }
        bySelection.set(selection, plan)
      }
      return plan
    },
    check (paths) { planOf(paths, true) }
  }
}

/**
 * Checks a route's declared paths against each loader it names, when the
 * route is declared: a field no source can load fails there, naming the
 * route, the field and the column, not on the first request that selects it.
 */
export function checkLoaders (
  loaders: ReadonlyArray<{ readonly check: (paths: readonly string[]) => void }>,
  paths: readonly string[],
  route: string
): void {
  for (const loader of loaders) {
    try {
      loader.check(paths)
    } catch (error) {
      if (error instanceof InvalidSourceError) throw new InvalidSourceError(`Route ${route}: ${error.message}`)
      throw error
    }
  }
}

/**
 * An adapter's function of a selection, with the check of a route's declared
 * paths that `restrictFields: { loads }` runs when the route is declared.
 */
export interface Loader<T> {
  (selection: FieldSelection): T
  /** Throws InvalidSourceError, naming the field and the column, where a path of `paths` cannot be loaded. */
  readonly check: (paths: readonly string[]) => void
}

/** Freezes what an answer holds, through plain objects and arrays only: an ORM's own objects (Drizzle's columns) are left as they are. */
export function deepFreeze<T> (value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    const prototype = Object.getPrototypeOf(value)
    if (Array.isArray(value) || prototype === Object.prototype || prototype === null) {
      Object.freeze(value)
      for (const inner of Object.values(value)) deepFreeze(inner)
    }
  }
  return value
}

/**
 * An adapter's function of a selection: the plan put in the ORM's form once
 * per plan, and `everything` on a route that is not opted in. Every answer is
 * deeply frozen: requests with the same paths share it, so a handler that
 * changed it would change what the next caller loads.
 */
export function formatted<T> (plans: Planner, format: (plan: LoadPlan) => T, everything: T): Loader<T> {
  const made = new WeakMap<LoadPlan, T>()
  deepFreeze(everything)
  const load = (selection: FieldSelection): T => {
    const plan = plans.plan(selection)
    if (plan === null) return everything
    let result = made.get(plan)
    if (result === undefined) made.set(plan, result = deepFreeze(format(plan)))
    return result
  }
  return Object.assign(load, { check: plans.check })
}
