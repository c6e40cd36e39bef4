/**
 * `npm run bench:db`: the same route over a database at page 100, loading
 * every column and relation, and loading through the Drizzle adapter only
 * what the response sends. A server in its own process (Drizzle on PGlite,
 * 1,000 users, each with a profile and three posts) answers autocannon,
 * slice against slice, back to back; the report gives, for `only=id,name`
 * and for no parameters, the median of the per-pair throughput ratios, with
 * a calibration pair (the adapter route against itself), and the values
 * (columns × rows) each query reads. `--write` saves it to bench/database.json.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { PGlite } from '@electric-sql/pglite'
import { relations } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import fastifyRestrictedFields from '../lib/index.js'
import { drizzleQuery } from '../lib/orm/drizzle.js'

const PAGE = 100
const USERS = 1000
const PAIRS = Number(process.env.BENCH_PAIRS ?? 9)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)

const profiles = pgTable('profiles', { id: integer().primaryKey(), city: text().notNull(), phone: text() })
const users = pgTable('users', {
  id: integer().primaryKey(),
  name: text().notNull(),
  email: text(),
  isStaff: boolean('is_staff').notNull(),
  bio: text().notNull(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  profileId: integer('profile_id')
})
const posts = pgTable('posts', { id: integer().primaryKey(), authorId: integer('author_id').notNull(), title: text().notNull(), body: text().notNull() })
const schema = {
  users,
  profiles,
  posts,
  usersRelations: relations(users, ({ one, many }) => ({
    profile: one(profiles, { fields: [users.profileId], references: [profiles.id] }),
    posts: many(posts)
  })),
  postsRelations: relations(posts, ({ one }) => ({ author: one(users, { fields: [posts.authorId], references: [users.id] }) }))
}

const user = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: ['string', 'null'] },
    isStaff: { type: 'boolean' },
    full_name: { type: 'string' },
    profile: { type: ['object', 'null'], properties: { city: { type: 'string' } } },
    posts: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } }
  }
}

/** How many values a query read: every scalar of every row, relations included. */
function valuesRead (value: unknown): number {
  if (Array.isArray(value)) return value.reduce((total: number, item) => total + valuesRead(item), 0)
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((total: number, item) => total + valuesRead(item), 0)
  return 1
}

async function serve (): Promise<void> {
  const client = await PGlite.create()
  await client.exec(`CREATE TABLE profiles (id integer PRIMARY KEY, city text NOT NULL, phone text);
    CREATE TABLE users (id integer PRIMARY KEY, name text NOT NULL, email text, is_staff boolean NOT NULL, bio text NOT NULL,
      password_hash text NOT NULL, first_name text NOT NULL, last_name text NOT NULL, profile_id integer REFERENCES profiles (id));
    CREATE TABLE posts (id integer PRIMARY KEY, author_id integer NOT NULL REFERENCES users (id), title text NOT NULL, body text NOT NULL);
    CREATE INDEX posts_author ON posts (author_id);
    INSERT INTO profiles SELECT i, 'City ' || i, '555-' || i FROM generate_series(1, ${USERS}) AS i;
    INSERT INTO users SELECT i, 'User ' || i, 'user' || i || '@example.com', i % 10 = 0, repeat('A biography. ', 40),
      md5(i::text), 'First' || i, 'Last' || i, i FROM generate_series(1, ${USERS}) AS i;
    INSERT INTO posts SELECT i, 1 + (i - 1) / 3, 'Post ' || i, repeat('A paragraph. ', 25) FROM generate_series(1, ${USERS * 3}) AS i;`)
  const db = drizzle({ client, schema })
  const load = drizzleQuery(users, { relations: { profile: profiles, posts }, fields: { full_name: { dependsOn: ['firstName', 'lastName'] } } })
  const app = Fastify()
  await app.register(fastifyRestrictedFields)
  const route = { restrictFields: true, schema: { response: { 200: { type: 'array', items: user } } } }
  const toApi = (row: Record<string, any>) => ({ ...row, full_name: row.firstName === undefined ? undefined : `${row.firstName} ${row.lastName}` })
  const read = new Map<string, number>()
  app.get('/everything', route, async (request) => {
    const rows = await db.query.users.findMany({ with: { profile: true, posts: true }, orderBy: users.id, limit: PAGE })
    read.set(request.url, valuesRead(rows))
    return rows.map(toApi)
  })
  app.get('/adapter', route, async (request) => {
    const rows = await db.query.users.findMany({ ...load(request.restrictedFields), orderBy: users.id, limit: PAGE })
    read.set(request.url, valuesRead(rows))
    return rows.map(toApi)
  })
  app.get('/read', async () => Object.fromEntries(read))
  await app.listen({ host: '127.0.0.1', port: 0 })
  process.stdout.write(`${JSON.stringify(app.addresses()[0])}\n`)
}

async function rps (url: string): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: SECONDS, sampleInt: 100 })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return result.requests.total / ((result.finish.getTime() - result.start.getTime()) / 1000)
}

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

async function main (): Promise<void> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = await once(child.stdout, 'data') as [Buffer]
  const { address, port } = JSON.parse(line.toString()) as { address: string, port: number }
  const origin = `http://${address}:${port}`
  try {
    const comparisons = [
      { name: 'only=id,name', over: '/adapter?only=id,name', under: '/everything?only=id,name' },
      { name: 'no parameters', over: '/adapter', under: '/everything' },
      { name: 'calibration (the adapter route against itself)', over: '/adapter', under: '/adapter?again' }
    ]
    // Each pair of routes must send the same bytes before anything is timed.
    for (const { over, under } of comparisons) {
      const [a, b] = await Promise.all([fetch(origin + over).then((r) => r.text()), fetch(origin + under).then((r) => r.text())])
      if (a !== b) throw new Error(`${over} and ${under} send different bodies`)
    }
    // The requests above were each route's first; the read counts below are theirs.
    const read = await (await fetch(`${origin}/read`)).json() as Record<string, number>
    const report = []
    for (const { name, over, under } of comparisons) {
      const ratios: number[] = []
      for (let pair = 0; pair < PAIRS; pair++) {
        // Alternate which goes first, so that drift favours neither.
        const [first, second] = pair % 2 === 0 ? [over, under] : [under, over]
        const a = await rps(origin + first)
        const b = await rps(origin + second)
        const [overRps, underRps] = pair % 2 === 0 ? [a, b] : [b, a]
        ratios.push(overRps / underRps)
      }
      report.push({
        comparison: name,
        over,
        under,
        ratio: Number(median(ratios).toFixed(2)),
        min: Number(Math.min(...ratios).toFixed(2)),
        max: Number(Math.max(...ratios).toFixed(2)),
        valuesRead: { over: read[over], under: read[under] }
      })
      console.log(`${name}: ${over} / ${under} ${median(ratios).toFixed(2)} (pairs ${ratios.map((r) => r.toFixed(2)).join(' ')}); values read ${read[over]} against ${read[under]}`)
    }
    if (process.argv.includes('--write')) {
      writeFileSync(new URL('../../bench/database.json', import.meta.url), JSON.stringify({ node: process.version, page: PAGE, pairs: PAIRS, secondsPerSlice: SECONDS, report }, null, 2) + '\n')
    }
  } finally {
    child.kill()
  }
}

await (process.argv[2] === 'serve' ? serve() : main())
