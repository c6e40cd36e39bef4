/**
 * `fastify-restricted-fields/drizzle`: a request's selection as Drizzle's own
 * arguments, for the query builder (`db.select({...})`) and for relational
 * queries (`db.query.users.findMany({ columns, with })`).
 */
import { getTableColumns, getTableName } from 'drizzle-orm'
import type { Column, Table } from 'drizzle-orm'
import { formatted, planner } from './load.js'
import type { LoadOptions, LoadPlan, TableShape } from './load.js'
import type { FieldSelection } from '../view.js'

/** A table's column names: the keys of its Drizzle object. */
type ColumnName<T extends Table> = keyof T['_']['columns'] & string

export interface DrizzleOptions<T extends Table, R extends Record<string, Table>> extends LoadOptions<ColumnName<T>, NoInfer<keyof R & string>> {
  /**
   * The tables behind relation fields, by relation name: the tables joined to
   * `table` for `drizzleSelect`, and its relations (as `relations()` names
   * them) for `drizzleQuery`.
   */
  readonly relations?: R
}

function shapeOf (table: Table, relations: Record<string, Table> = {}): TableShape {
  return {
    name: getTableName(table),
    columns: Object.keys(getTableColumns(table)),
    relations: Object.fromEntries(Object.entries(relations).map(([name, related]) => [name, shapeOf(related)]))
  }
}

/** The column objects of a table. */
type ColumnOf<T extends Table> = T['_']['columns'][keyof T['_']['columns']]

/** The select object of a plan: the table's columns by key, and each joined table's as a nested object. */
export type DrizzleSelectFields<T extends Table, R extends Record<string, Table>> = Record<string, ColumnOf<T> | Record<string, ColumnOf<R[keyof R]>>>

function columnsOf (table: Table, plan: LoadPlan): Record<string, Column> {
  const all = getTableColumns(table)
  return Object.fromEntries(plan.columns.map((name) => [name, all[name]]))
}

/**
 * The object for `db.select(...)` that loads what a selection sends: the
 * table's columns under their keys, and the columns of each joined relation
 * table as a nested object under the relation's name (Drizzle gives `null`
 * for it when the left join found no row). On a route that is not opted in,
 * every column of the table and of each relation.
 *
 * Checks every source against the tables now, with a coded error naming the
 * field and the column.
 */
export function drizzleSelect<T extends Table, R extends Record<string, Table> = Record<never, Table>> (table: T, options: DrizzleOptions<T, R> = {}): (selection: FieldSelection) => DrizzleSelectFields<T, R> {
  const relations: Record<string, Table> = options.relations ?? {}
  const everything = { ...getTableColumns(table) } as DrizzleSelectFields<T, R>
  for (const [relation, related] of Object.entries(relations)) everything[relation] = getTableColumns(related) as Record<string, ColumnOf<R[keyof R]>>
  return formatted(planner(shapeOf(table, relations), options), (plan) => {
    const fields = columnsOf(table, plan) as DrizzleSelectFields<T, R>
    for (const [relation, inner] of Object.entries(plan.relations)) fields[relation] = columnsOf(relations[relation], inner) as Record<string, ColumnOf<R[keyof R]>>
    return fields
  }, everything)
}

/** The `columns` and `with` of a relational query. */
export interface DrizzleQueryConfig {
  columns: Record<string, true>
  with?: Record<string, { columns: Record<string, true> }>
}

/**
 * The `columns` and `with` for `db.query.<table>.findMany(...)` (or
 * `findFirst`) that load what a selection sends, with each relation's own
 * columns. Drizzle joins on the foreign key without loading it. `undefined`
 * on a route that is not opted in, which loads every column.
 */
export function drizzleQuery<T extends Table, R extends Record<string, Table> = Record<never, Table>> (table: T, options: DrizzleOptions<T, R> = {}): (selection: FieldSelection) => DrizzleQueryConfig | undefined {
  const flags = (plan: LoadPlan): Record<string, true> => Object.fromEntries(plan.columns.map((name) => [name, true]))
  return formatted<DrizzleQueryConfig | undefined>(planner(shapeOf(table, options.relations), options), (plan) => {
    const config: DrizzleQueryConfig = { columns: flags(plan) }
    const relations = Object.entries(plan.relations)
    if (relations.length > 0) config.with = Object.fromEntries(relations.map(([name, inner]) => [name, { columns: flags(inner) }]))
    return config
  }, undefined)
}
