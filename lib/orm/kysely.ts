/**
 * `fastify-restricted-fields/kysely`: a request's selection as the column
 * lists of a Kysely query. Kysely has no schema at run time, so the adapter
 * is given each table's columns, typed by the database interface: a column
 * that is not there does not compile, and none outside the lists is ever named.
 */
import { formatted, planner } from './load.js'
import type { LoadOptions, TableShape } from './load.js'
import type { FieldSelection } from '../view.js'

/** A table's column names, from the database interface `DB` that Kysely is typed with. */
export type KyselyColumn<DB, TB extends keyof DB> = keyof DB[TB] & string

/** A table of `DB` and the columns the adapter may load from it. */
export interface KyselyTable<DB, TB extends keyof DB & string> {
  readonly table: TB
  readonly columns: ReadonlyArray<KyselyColumn<DB, TB>>
}

export interface KyselyOptions<DB, TB extends keyof DB & string, R extends Record<string, keyof DB & string>> extends LoadOptions<KyselyColumn<DB, TB>, NoInfer<keyof R & string>> {
  /** The related tables behind relation fields, by relation name, each with its columns. */
  readonly relations?: { readonly [K in keyof R]: KyselyTable<DB, R[K]> }
}

/** What to load: the table's columns, and each selected relation's columns (absent when none of its fields is selected). */
export interface KyselyPlan<DB, TB extends keyof DB & string, R extends Record<string, keyof DB & string>> {
  readonly columns: Array<KyselyColumn<DB, TB>>
  readonly relations: { readonly [K in keyof R]?: { readonly columns: Array<KyselyColumn<DB, R[K]>> } }
}

/** A table as the adapter reads it, whatever the database interface. */
interface ListedTable { readonly table: string, readonly columns: readonly string[] }

function shapeOf (table: ListedTable, relations: Record<string, ListedTable> = {}): TableShape {
  return {
    name: table.table,
    columns: table.columns,
    relations: Object.fromEntries(Object.entries(relations).map(([name, related]) => [name, shapeOf(related)]))
  }
}

/**
 * A function from a selection to the columns that load what it sends, for
 * `.select(plan.columns)`, and the columns of each relation it needs, for the
 * subquery that loads it (`jsonObjectFrom`, `jsonArrayFrom`). On a route that
 * is not opted in, the plan holds every column listed and every relation.
 *
 * Checks every source against the lists now, with a coded error naming the
 * field and the column.
 */
export function kyselySelect<DB, TB extends keyof DB & string, R extends Record<string, keyof DB & string> = Record<never, keyof DB & string>> (
  table: KyselyTable<DB, TB>,
  options: KyselyOptions<DB, TB, R> = {}
): (selection: FieldSelection) => KyselyPlan<DB, TB, R> {
  const relations: Record<string, ListedTable> = options.relations ?? {}
  const everything = Object.freeze({
    columns: [...table.columns],
    relations: Object.fromEntries(Object.entries(relations).map(([name, related]) => [name, { columns: [...related.columns] }]))
  }) as KyselyPlan<DB, TB, R>
  return formatted(planner(shapeOf(table, relations), options), (plan) => ({
    columns: [...plan.columns],
    relations: Object.fromEntries(Object.entries(plan.relations).map(([name, inner]) => [name, { columns: [...inner.columns] }]))
  }) as KyselyPlan<DB, TB, R>, everything)
}
