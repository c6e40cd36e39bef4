/**
 * `fastify-restricted-fields/kysely`: a request's selection as the column
 * lists of a Kysely query. Kysely has no schema at run time, so the adapter
 * is given each table's columns, typed by the database interface: a column
 * that is not there does not compile, and none outside the lists is ever named.
 */
import { formatted, planner } from './load.js'
import type { LoadOptions, LoadPlan, Loader, TableShape } from './load.js'

/** A table's column names, from the database interface `DB` that Kysely is typed with. */
export type KyselyColumn<DB, TB extends keyof DB> = keyof DB[TB] & string

/** A table of `DB` and the columns the adapter may load from it. */
export interface KyselyTable<DB, TB extends keyof DB & string> {
  readonly table: TB
  readonly columns: ReadonlyArray<KyselyColumn<DB, TB>>
}

/**
 * What a relation field loads, in the adapter's type parameter: a table's
 * name, or, for a relation with relations of its own (a post's comments, its
 * author), the table's name and those, at any depth.
 */
export type KyselyRelation<DB> =
  | (keyof DB & string)
  | { readonly table: keyof DB & string, readonly relations: { readonly [relation: string]: KyselyRelation<DB> } }

/** The table of a relation, and the columns and relations the adapter is given for it. */
export type KyselyRelationTable<DB, S> = S extends keyof DB & string
  ? KyselyTable<DB, S>
  : S extends { readonly table: infer TB extends keyof DB & string, readonly relations: infer Sub }
    ? KyselyTable<DB, TB> & { readonly relations: { readonly [K in keyof Sub]: KyselyRelationTable<DB, Sub[K]> } }
    : never

/** The plan of a relation: its columns, and the plans of its own relations that are needed. */
export type KyselyRelationPlan<DB, S> = S extends keyof DB & string
  ? { readonly columns: ReadonlyArray<KyselyColumn<DB, S>>, readonly relations: Readonly<Record<never, never>> }
  : S extends { readonly table: infer TB extends keyof DB & string, readonly relations: infer Sub }
    ? {
        readonly columns: ReadonlyArray<KyselyColumn<DB, TB>>
        readonly relations: { readonly [K in keyof Sub]?: KyselyRelationPlan<DB, Sub[K]> }
      }
    : never

export interface KyselyOptions<DB, TB extends keyof DB & string, R extends Record<string, KyselyRelation<DB>>>
  extends LoadOptions<KyselyColumn<DB, TB>, NoInfer<keyof R & string>> {
  /** The related tables behind relation fields, by relation name, each with its columns (and its own relations). */
  readonly relations?: { readonly [K in keyof R]: KyselyRelationTable<DB, R[K]> }
}

/**
 * What to load: the table's columns, and each selected relation's columns and
 * relations (absent when none of its fields is selected). Frozen: the same
 * plan answers every request with the same selection.
 */
export interface KyselyPlan<DB, TB extends keyof DB & string, R extends Record<string, KyselyRelation<DB>>> {
  readonly columns: ReadonlyArray<KyselyColumn<DB, TB>>
  readonly relations: { readonly [K in keyof R]?: KyselyRelationPlan<DB, R[K]> }
}

/** A table as the adapter reads it, whatever the database interface. */
interface ListedTable {
  readonly table: string
  readonly columns: readonly string[]
  readonly relations?: Readonly<Record<string, ListedTable>>
}

function shapeOf (table: ListedTable): TableShape {
  return {
    name: table.table,
    columns: table.columns,
    relations: Object.fromEntries(Object.entries(table.relations ?? {}).map(([name, related]) => [name, shapeOf(related)]))
  }
}

/** A plan as the adapter hands it out; `null` for every column listed and every relation. */
function planOf (table: ListedTable, plan: LoadPlan | null): { columns: readonly string[], relations: Record<string, unknown> } {
  const relations = table.relations ?? {}
  const names = plan === null ? Object.keys(relations) : Object.keys(plan.relations)
  return {
    columns: plan === null ? [...table.columns] : plan.columns,
    relations: Object.fromEntries(names.map((name) => [name, planOf(relations[name], plan === null ? null : plan.relations[name])]))
  }
}

/**
 * A function from a selection to the columns that load what it sends, for
 * `.select(plan.columns)`, and the columns (and relations) of each relation
 * it needs, for the subquery that loads it (`jsonObjectFrom`,
 * `jsonArrayFrom`). On a route that is not opted in, the plan holds every
 * column listed and every relation.
 *
 * Checks every source against the lists now, with a coded error naming the
 * field and the column; `restrictFields: { loads }` checks a route's fields.
 */
export function kyselySelect<
  DB,
  TB extends keyof DB & string,
  R extends Record<string, KyselyRelation<DB>> = Record<never, keyof DB & string>
> (
  table: KyselyTable<DB, TB>,
  options: KyselyOptions<DB, TB, R> = {}
): Loader<KyselyPlan<DB, TB, R>> {
  const listed: ListedTable = {
    table: table.table,
    columns: table.columns,
    relations: options.relations as Readonly<Record<string, ListedTable>> | undefined
  }
  return formatted(
    planner(shapeOf(listed), options),
    (plan) => planOf(listed, plan) as unknown as KyselyPlan<DB, TB, R>,
    planOf(listed, null) as unknown as KyselyPlan<DB, TB, R>
  )
}
