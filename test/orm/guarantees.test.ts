/**
 * What every adapter guarantees, on its real engine: two selections share a
 * plan only when they load the same columns, whatever their names hold; an
 * answer cannot be changed by a handler; a source that does not fit its table
 * is found when the route is declared (with `loads`), and at request time
 * answers a 500 that names no column or table.
 */
import { end, test } from 'tap'
import type { Test } from 'tap'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { drizzle } from 'drizzle-orm/pglite'
import { integer, pgTable, text } from 'drizzle-orm/pg-core'
import { Kysely } from 'kysely'
import { KyselyPGlite } from 'kysely-pglite'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import type { PGlite } from '@electric-sql/pglite'
import { Prisma, PrismaClient } from './prisma/generated/client.js'
import fastifyRestrictedFields from '../../lib/index.js'
import type { FieldSelection, Loader } from '../../lib/index.js'
import { drizzleQuery, drizzleSelect } from '../../lib/orm/drizzle.js'
import { kyselySelect } from '../../lib/orm/kysely.js'
import { prismaSelect } from '../../lib/orm/prisma.js'
import { seeded } from './fixture.js'

const named = pgTable('t', { id: integer().primaryKey(), x: text(), y: text(), xy: text() })
interface Database { t: { id: number, x: string | null, y: string | null, xy: string | null } }

/** A field named with a newline, loaded from the column `xy`. */
const fields = { 'x\ny': 'xy' } as const

interface Adapter {
  name: string
  /** The loader of `t`, and a query of `t` with its answer that pushes each statement to `sql`. */
  open: (client: PGlite, sql: string[], t: Test) => { load: Loader<any>, run: (answer: any) => Promise<unknown[]> }
  /** Tries to make the answer load `y` too. */
  tamper: (answer: any) => void
}

const adapters: Adapter[] = [
  {
    name: 'drizzleQuery',
    open (client, sql) {
      const db = drizzle({ client, schema: { named }, logger: { logQuery: (query) => { sql.push(query) } } })
      const load = drizzleQuery(named, { fields })
      return { load, run: async (answer: ReturnType<typeof load>) => await db.query.named.findMany({ ...answer, orderBy: named.id }) }
    },
    tamper (answer: ReturnType<ReturnType<typeof drizzleQuery<typeof named>>>) {
      // @ts-expect-error -- an answer is readonly
      answer!.columns.y = true
    }
  },
  {
    name: 'drizzleSelect',
    open (client, sql) {
      const db = drizzle({ client, logger: { logQuery: (query) => { sql.push(query) } } })
      const load = drizzleSelect(named, { fields })
      return { load, run: async (answer: ReturnType<typeof load>) => await db.select(answer).from(named).orderBy(named.id) }
    },
    tamper (answer: ReturnType<ReturnType<typeof drizzleSelect<typeof named>>>) {
      // @ts-expect-error -- an answer is readonly
      answer.y = named.y
    }
  },
  {
    name: 'kyselySelect',
    open (client, sql) {
      const db = new Kysely<Database>({ dialect: new KyselyPGlite(client).dialect, log: (event) => { if (event.level === 'query') sql.push(event.query.sql) } })
      const load = kyselySelect<Database, 't'>({ table: 't', columns: ['id', 'x', 'y', 'xy'] }, { fields })
      return { load, run: async (answer: ReturnType<typeof load>) => await db.selectFrom('t').select(answer.columns).orderBy('t.id').execute() }
    },
    tamper (answer: ReturnType<ReturnType<typeof kyselySelect<Database, 't'>>>) {
      // @ts-expect-error -- an answer is readonly
      answer.columns.push('y')
    }
  },
  {
    name: 'prismaSelect',
    open (client, sql, t) {
      const prisma = new PrismaClient({ adapter: new PrismaPGlite(client), log: [{ emit: 'event', level: 'query' }] })
      t.teardown(() => prisma.$disconnect())
      prisma.$on('query', (event) => { sql.push(event.query) })
      const load = prismaSelect({ name: 'Named', fields: Prisma.NamedScalarFieldEnum }, { fields })
      return { load, run: async (answer: ReturnType<typeof load>) => await prisma.named.findMany({ select: answer, orderBy: { id: 'asc' } }) }
    },
    tamper (answer: ReturnType<ReturnType<typeof prismaSelect>>) {
      // @ts-expect-error -- an answer is readonly
      answer!.y = true
    }
  }
]

const schema = {
  response: {
    200: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, x: { type: 'string' }, y: { type: 'string' }, 'x\ny': { type: 'string' }, nickname: { type: 'string' } } }
    }
  }
}

function isStaff (request: FastifyRequest): boolean {
  return request.headers['x-staff'] === 'yes'
}

/** An app whose `/t` loads through `query` and hides `y` from anonymous callers. */
async function appOver (
  t: Test,
  query: (selection: FieldSelection) => Promise<unknown[]>,
  options: { logs?: string[] } = {}
): Promise<FastifyInstance> {
  const stream = new Writable({ write (chunk, _encoding, done) { options.logs?.push(String(chunk)); done() } })
  const app = Fastify({ logger: options.logs === undefined ? false : { level: 'error', stream } })
  t.teardown(() => app.close())
  await app.register(fastifyRestrictedFields, { hiddenFields: (request) => isStaff(request) ? [] : ['y'] })
  app.get('/t', { restrictFields: true, schema }, async (request) => {
    const rows = await query(request.restrictedFields) as Array<Record<string, unknown>>
    return rows.map((row) => ({ ...row, 'x\ny': row.xy }))
  })
  return app
}

for (const adapter of adapters) {
  test(`${adapter.name}: a name with a newline never shares the plan of the names it joins`, async (t) => {
    const sql: string[] = []
    const { load, run } = adapter.open(await seeded(), sql, t)
    const app = await appOver(t, async (selection) => await run(load(selection)))
    const staff = await app.inject({ url: '/t?only=x,y', headers: { 'x-staff': 'yes' } })
    t.strictSame([staff.statusCode, staff.json()], [200, [{ x: 'x', y: 'y' }]])
    t.match(sql.join(), /"x".*"y"/)
    sql.length = 0
    const anonymous = await app.inject('/t?only=x%0Ay')
    t.strictSame([anonymous.statusCode, anonymous.body], [200, '[{"x\\ny":"xy"}]'])
    t.equal(sql.length, 1)
    t.match(sql[0], /"xy"/)
    t.notMatch(sql[0], /"y"/, 'the hidden column is not loaded')
  })

  test(`${adapter.name}: an answer is frozen, so a handler cannot change what the next request loads`, async (t) => {
    const sql: string[] = []
    const { load, run } = adapter.open(await seeded(), sql, t)
    const errors: unknown[] = []
    const app = await appOver(t, async (selection) => {
      const answer = load(selection)
      try {
        adapter.tamper(answer)
      } catch (error) {
        errors.push(error)
      }
      return await run(answer)
    })
    t.equal((await app.inject({ url: '/t?only=x', headers: { 'x-staff': 'yes' } })).statusCode, 200)
    t.equal(errors.length, 1)
    t.type(errors[0], TypeError)
    sql.length = 0
    const anonymous = await app.inject('/t?only=x')
    t.strictSame([anonymous.statusCode, anonymous.json()], [200, [{ x: 'x' }]])
    t.notMatch(sql.join(), /"y"/)
  })

  test(`${adapter.name}: a field no column can fill fails when the route is declared with loads, and a request is told nothing of the table`, async (t) => {
    const { load, run } = adapter.open(await seeded(), [], t)
    const declared = Fastify()
    t.teardown(() => declared.close())
    await declared.register(fastifyRestrictedFields)
    const table = adapter.name === 'prismaSelect' ? 'Named' : 't'
    t.throws(() => declared.get('/t', { restrictFields: { loads: [load] }, schema }, async () => []), {
      code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE',
      message: `Route GET /t: Field 'nickname' loads column 'nickname', which table '${table}' does not have; its columns are 'id', 'x', 'y', 'xy'`
    })
    const logs: string[] = []
    const app = await appOver(t, async (selection) => await run(load(selection)), { logs })
    const response = await app.inject('/t?only=nickname')
    t.strictSame([response.statusCode, response.json()], [500, {
      statusCode: 500,
      code: 'FST_RESTRICTED_FIELDS_LOAD_FAILED',
      error: 'Internal Server Error',
      message: "The fields of this response could not be loaded: a field's source does not fit the data it is loaded from (the server's log says which)"
    }])
    t.match(logs.join(), /says which\): Field 'nickname' loads column 'nickname', which table '\w+' does not have; its columns are 'id', 'x', 'y', 'xy'/, 'the log says which')
  })
}

// The shared database closes once every test has run.
end()
