/**
 * `fastify-restricted-fields/drizzle`: a request's selection as Drizzle's own
 * arguments, for the query builder (`db.select({...})`) and for relational
 * queries (`db.query.users.findMany({ columns, with })`).
 */
import { Table, getTableColumns, getTableName, is } from 'drizzle-orm'
import { InvalidSourceError, LoadFailedError } from '../errors.js'
import { formatted, planner } from './load.js'
import type { LoadOptions, LoadPlan, Loader, TableShape } from './load.js'

/** A table's column names: the keys of its Drizzle object. */
type ColumnName<T extends Table> = keyof T['_']['columns'] & string

/**
 * The table behind a relation field; with relations of its own (a post's
 * comments, its author), the table and those, by relation name, at any depth.
 */
export type DrizzleRelation = Table | { readonly table: Table, readonly relations?: { readonly [relation: string]: DrizzleRelation } }

export interface DrizzleOptions<T extends Table, R extends Record<string, DrizzleRelation>>
  extends LoadOptions<ColumnName<T>, NoInfer<keyof R & string>> {
  /**
   * The tables behind relation fields, by relation name: the tables joined to
   * `table` for `drizzleSelect`, and its relations (as `relations()` names
   * them) for `drizzleQuery`.
   */
  readonly relations?: R
}

function tableOf (relation: DrizzleRelation): Table {
  return is(relation, Table) ? relation : relation.table
}

function relationsOf (relation: DrizzleRelation): Readonly<Record<string, DrizzleRelation>> {
  return is(relation, Table) ? {} : relation.relations ?? {}
}

function shapeOf (table: Table, relations: Readonly<Record<string, DrizzleRelation>>): TableShape {
  return {
    name: getTableName(table),
    columns: Object.keys(getTableColumns(table)),
    relations: Object.fromEntries(
      Object.entries(relations).map(([name, related]) => [name, shapeOf(tableOf(related), relationsOf(related))])
    )
  }
}

/** The column objects of a table. */
type ColumnOf<T extends Table> = T['_']['columns'][keyof T['_']['columns']]

/** The table of a relation. */
type TableOf<R> = R extends Table ? R : R extends { readonly table: infer T extends Table } ? T : never

/**
 * The select object of a plan: the table's columns by key, and each joined
 * table's as a nested object (a relation's own relations nest inside it).
 * Frozen: the same object answers every request with the same selection.
 */
export type DrizzleSelectFields<T extends Table, R extends Record<string, DrizzleRelation>> = Readonly<Record<
  string,
  ColumnOf<T> | Readonly<Record<string, ColumnOf<TableOf<R[keyof R]>>>>
>>

/**
 * The columns that tell a joined row from none, for a relation kept with none
 * of its fields and no always-loaded column: Drizzle leaves an empty nested
 * object out, so its primary key is selected (and not sent).
 */
function presenceOf (table: Table, relation: string): Record<string, unknown> {
  const keys = Object.entries(getTableColumns(table)).filter(([, column]) => column.primary)
  if (keys.length === 0) {
    throw new LoadFailedError({ cause: new InvalidSourceError(`Relation '${relation}' is kept with none of its fields, and table '${getTableName(table)}' has no always-loaded or primary key column to tell a row from none; give the relation \`always\``) })
  }
  return Object.fromEntries(keys)
}

/** The select object of a plan of `table`, each relation's nested under its name. */
function selectOf (
  table: Table,
  relations: Readonly<Record<string, DrizzleRelation>>,
  plan: LoadPlan | null,
  relation?: string
): Record<string, unknown> {
  const all = getTableColumns(table)
  const fields: Record<string, unknown> = plan === null
    ? { ...all }
    : relation !== undefined && plan.columns.length === 0 && Object.keys(plan.relations).length === 0
      ? presenceOf(table, relation)
      : Object.fromEntries(plan.columns.map((name) => [name, all[name]]))
  const nested = plan === null ? Object.keys(relations) : Object.keys(plan.relations)
  for (const relation of nested) {
    const related = relations[relation]
    fields[relation] = selectOf(tableOf(related), relationsOf(related), plan === null ? null : plan.relations[relation], relation)
  }
  return fields
}

/**
 * The object for `db.select(...)` that loads what a selection sends: the
 * table's columns under their keys, and the columns of each joined relation
 * table as a nested object under the relation's name (Drizzle gives `null`
 * for it when the left join found no row). On a route that is not opted in,
 * every column of the table and of each relation.
 *
 * Checks every source against the tables now, with a coded error naming the
 * field and the column; `restrictFields: { loads }` checks a route's fields.
 */
export function drizzleSelect<T extends Table, R extends Record<string, DrizzleRelation> = Record<never, Table>> (
  table: T,
  options: DrizzleOptions<T, R> = {}
): Loader<DrizzleSelectFields<T, R>> {
  const relations: Readonly<Record<string, DrizzleRelation>> = options.relations ?? {}
  return formatted(
    planner(shapeOf(table, relations), options),
    (plan) => selectOf(table, relations, plan) as DrizzleSelectFields<T, R>,
    selectOf(table, relations, null) as DrizzleSelectFields<T, R>
  )
}

/** The `columns` and `with` of a relational query, each relation's own `with` nested in it. Frozen. */
export interface DrizzleQueryConfig {
  readonly columns: Readonly<Record<string, true>>
  readonly with?: Readonly<Record<string, DrizzleQueryConfig>>
}

function queryOf (plan: LoadPlan): DrizzleQueryConfig {
  const config: { columns: Record<string, true>, with?: Record<string, DrizzleQueryConfig> } = {
    columns: Object.fromEntries(plan.columns.map((name) => [name, true]))
  }
  const relations = Object.entries(plan.relations)
  if (relations.length > 0) config.with = Object.fromEntries(relations.map(([name, inner]) => [name, queryOf(inner)]))
  return config
}

/**
 * The `columns` and `with` for `db.query.<table>.findMany(...)` (or
 * `findFirst`) that load what a selection sends, with each relation's own
 * columns and relations, at any depth. Drizzle joins on the foreign key
 * without loading it. `undefined` on a route that is not opted in, which
 * loads every column.
 */
export function drizzleQuery<T extends Table, R extends Record<string, DrizzleRelation> = Record<never, Table>> (
  table: T,
  options: DrizzleOptions<T, R> = {}
): Loader<DrizzleQueryConfig | undefined> {
  return formatted<DrizzleQueryConfig | undefined>(planner(shapeOf(table, options.relations ?? {}), options), queryOf, undefined)
}
