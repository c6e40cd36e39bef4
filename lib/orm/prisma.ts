/**
 * `fastify-restricted-fields/prisma`: a request's selection as the `select`
 * of a Prisma query, with a nested `select` for each relation, at any depth.
 * Prisma loads the keys a relation needs by itself.
 */
import { InvalidSourceError, LoadFailedError } from '../errors.js'
import { formatted, planner } from './load.js'
import type { LoadOptions, LoadPlan, Loader, TableShape } from './load.js'

/**
 * A model as the adapter reads it: its name, and its generated scalar field
 * enum (`Prisma.UserScalarFieldEnum`), whose values are the columns it may
 * load; for a relation's model, its own relations too, at any depth.
 */
export interface PrismaModel<Column extends string = string> {
  readonly name: string
  readonly fields: { readonly [key: string]: Column }
  readonly relations?: { readonly [relation: string]: PrismaModel }
}

export interface PrismaOptions<Column extends string, R extends Record<string, PrismaModel>>
  extends LoadOptions<Column, NoInfer<keyof R & string>> {
  /** The models behind relation fields, by relation field name. */
  readonly relations?: R
}

/** The `select` of a query: `true` for each column, a nested `{ select }` for each relation. Frozen. */
export interface PrismaSelect { readonly [field: string]: true | { readonly select: PrismaSelect } }

function shapeOf (model: PrismaModel): TableShape {
  return {
    name: model.name,
    columns: Object.values(model.fields),
    relations: Object.fromEntries(Object.entries(model.relations ?? {}).map(([name, related]) => [name, shapeOf(related)]))
  }
}

function selectOf (plan: LoadPlan, relation?: string): PrismaSelect {
  // Prisma refuses an empty select: a relation kept with none of its fields needs a column that tells a row from none.
  if (relation !== undefined && plan.columns.length === 0 && Object.keys(plan.relations).length === 0) {
    throw new LoadFailedError({ cause: new InvalidSourceError(`Relation '${relation}' is kept with none of its fields and has no always-loaded column to tell a row from none; give the relation \`always\``) })
  }
  const select: Record<string, PrismaSelect[string]> = Object.fromEntries(plan.columns.map((column) => [column, true]))
  for (const [name, inner] of Object.entries(plan.relations)) select[name] = { select: selectOf(inner, name) }
  return select
}

/**
 * A function from a selection to the `select` that loads what it sends
 * (`prisma.user.findMany({ select: load(request.restrictedFields) })`);
 * `undefined` on a route that is not opted in, which Prisma reads as every
 * scalar field.
 *
 * Checks every source against the models now, with a coded error naming the
 * field and the column; `restrictFields: { loads }` checks a route's fields.
 */
export function prismaSelect<Column extends string, R extends Record<string, PrismaModel> = Record<never, PrismaModel>> (
  model: PrismaModel<Column>,
  options: PrismaOptions<NoInfer<Column>, R> = {}
): Loader<PrismaSelect | undefined> {
  const shape = shapeOf({ ...model, relations: { ...model.relations, ...options.relations } })
  return formatted<PrismaSelect | undefined>(planner(shape, options), (plan) => selectOf(plan), undefined)
}
