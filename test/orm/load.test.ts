import { test } from 'tap'
import { checkLoaders, planner } from '../../lib/orm/load.js'
import type { FieldSelection } from '../../lib/index.js'

const profiles = { name: 'profiles', columns: ['id', 'city', 'phone'] }
const posts = { name: 'posts', columns: ['post_id', 'title', 'body'] }
const users = {
  name: 'users',
  columns: ['id', 'name', 'email', 'first_name', 'last_name', 'settings', 'password_hash'],
  relations: { profile: profiles, posts }
}

/** A selection as the plugin hands it over: restricted, with these paths. */
function selection (...paths: string[]): FieldSelection {
  return { restricted: true, fields: paths.filter((path) => !path.includes('.')), paths, has: (path) => paths.includes(path) }
}

test('a plan loads the always-loaded columns and what each selected field comes from', async (t) => {
  const plans = planner(users, {
    fields: {
      full_name: { dependsOn: ['first_name', 'last_name'] },
      city: { dependsOn: ['profile.city'] },
      mail: 'email',
      badge: false,
      latest: { relation: 'posts', fields: { heading: 'title' }, always: [] }
    }
  })
  const cases: Array<[string[], unknown]> = [
    [['name'], { columns: ['id', 'name'], relations: {} }],
    [['mail', 'badge'], { columns: ['id', 'email'], relations: {} }],
    [['full_name'], { columns: ['id', 'first_name', 'last_name'], relations: {} }],
    [['city'], { columns: ['id'], relations: { profile: { columns: ['id', 'city'], relations: {} } } }],
    [['city', 'profile', 'profile.phone'], { columns: ['id'], relations: { profile: { columns: ['id', 'city', 'phone'], relations: {} } } }],
    [['latest', 'latest.heading'], { columns: ['id'], relations: { posts: { columns: ['title'], relations: {} } } }],
    [['posts', 'posts.title'], { columns: ['id'], relations: { posts: { columns: ['title'], relations: {} } } }],
    [['settings', 'settings.theme', 'settings.theme.dark'], { columns: ['id', 'settings'], relations: {} }],
    [[], { columns: ['id'], relations: {} }]
  ]
  for (const [paths, plan] of cases) t.strictSame(plans.plan(selection(...paths)), plan, paths.join(', '))
})

test('a related table without an id loads none by default, and always can be set for each level', async (t) => {
  t.strictSame(planner(users).plan(selection('posts', 'posts.title')), { columns: ['id'], relations: { posts: { columns: ['title'], relations: {} } } })
  const plans = planner(users, { always: ['id', 'email'], fields: { posts: { relation: 'posts', always: ['post_id'] } } })
  t.strictSame(plans.plan(selection('posts', 'posts.title')), { columns: ['id', 'email'], relations: { posts: { columns: ['post_id', 'title'], relations: {} } } })
})

test('a route that is not opted in has no plan; a selection met again, as the same object or by its paths, has the same one', async (t) => {
  const plans = planner(users)
  t.equal(plans.plan({ restricted: false, fields: [], paths: [], has: () => true }), null)
  const first = plans.plan(selection('name'))
  t.equal(plans.plan(selection('name')), first)
  const unrestricted = { restricted: false, fields: ['name'], paths: ['name'], has: () => true }
  t.equal(plans.plan(unrestricted), first)
  t.equal(plans.plan(unrestricted), first)
  t.not(plans.plan(selection('email')), first)
})

test('selections whose names hold a newline or any other character but . and , never share a plan', async (t) => {
  const plans = planner({ name: 't', columns: ['id', 'x', 'y', 'xy', 'a', 'b', 'ab'] }, { fields: { 'x\ny': 'xy', 'a","b': 'ab' } })
  t.strictSame(plans.plan(selection('x', 'y')), { columns: ['id', 'x', 'y'], relations: {} })
  t.strictSame(plans.plan(selection('x\ny')), { columns: ['id', 'xy'], relations: {} })
  t.strictSame(plans.plan(selection('a', 'b')), { columns: ['id', 'a', 'b'], relations: {} })
  t.strictSame(plans.plan(selection('a","b')), { columns: ['id', 'ab'], relations: {} })
})

test('a relation the route declares no fields inside is refused by the check; one a request keeps with none of its fields loads its always-loaded columns', async (t) => {
  const plans = planner(users)
  const message = "Field 'posts' loads relation 'posts', but the response declares no fields inside it (deeper than maxDepth, or a free-form object); declare its fields, or give it a column or dependsOn source"
  t.throws(() => plans.check(['id', 'posts']), { code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE', message })
  t.strictSame(plans.plan(selection('profile')), { columns: ['id'], relations: { profile: { columns: ['id'], relations: {} } } }, 'its key tells {} from null')
  t.strictSame(plans.plan(selection('posts')), { columns: ['id'], relations: { posts: { columns: [], relations: {} } } }, 'a table without an id has none')
})

test('relations of relations are planned at any depth, each with its own sources and always-loaded columns', async (t) => {
  const comments = { name: 'comments', columns: ['id', 'post_id', 'body', 'flagged'], relations: { author: { name: 'users', columns: ['id', 'name'] } } }
  const deep = { name: 'users', columns: ['id', 'name'], relations: { posts: { name: 'posts', columns: ['id', 'title'], relations: { comments } } } }
  const plans = planner(deep, { fields: { posts: { relation: 'posts', fields: { comments: { relation: 'comments', fields: { text: 'body' }, always: [] } } } } })
  t.strictSame(plans.plan(selection('posts', 'posts.comments', 'posts.comments.text', 'posts.comments.author', 'posts.comments.author.name')), {
    columns: ['id'],
    relations: { posts: { columns: ['id'], relations: { comments: { columns: ['body'], relations: { author: { columns: ['id', 'name'], relations: {} } } } } } }
  })
})

test('a plan remembers a bounded number of selections by their paths', async (t) => {
  const plans = planner({ name: 'wide', columns: Array.from({ length: 1100 }, (_, index) => `c${index}`) }, { always: [] })
  const first = plans.plan(selection('c0'))
  for (let index = 1; index < 1100; index++) plans.plan(selection(`c${index}`))
  t.not(plans.plan(selection('c0')), first, 'forgotten after 1024 others')
  t.strictSame(plans.plan(selection('c0')), first)
})

test('a field with no source and no column of its name fails when planned or checked, naming the field and the column', async (t) => {
  const plans = planner(users)
  const error = { code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE', message: "Field 'profile.town' loads column 'town', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'" }
  // A request is told that loading failed, never the table's columns: the cause, which the log shows, names them.
  t.throws(() => plans.plan(selection('profile', 'profile.town')), {
    code: 'FST_RESTRICTED_FIELDS_LOAD_FAILED',
    statusCode: 500,
    message: "The fields of this response could not be loaded: a field's source does not fit the data it is loaded from (the server's log says which)",
    cause: error
  })
  t.throws(() => plans.check(['id', 'profile', 'profile.town']), error)
  t.doesNotThrow(() => plans.check(['id', 'profile', 'profile.city']))
  t.throws(() => planner(users, { fields: { profile: { relation: 'profile', always: ['key'] } } }), {
    message: "Field 'profile.(always)' loads column 'key', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'"
  })
  t.throws(() => planner(users, { fields: { place: { dependsOn: ['profile.town'] } } }), {
    message: "Field 'place' loads column 'town', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'"
  })
  t.throws(() => planner(users, { fields: { place: { relation: 'place' } } }), {
    message: "Field 'place' loads relation 'place', which table 'users' does not have; its relations are 'profile', 'posts'"
  })
  t.throws(() => planner(users, { fields: { full_name: { dependsOn: ['first', 'last_name'] } } }), {
    message: "Field 'full_name' loads column 'first', which table 'users' does not have; its columns are 'id', 'name', 'email', 'first_name', 'last_name', 'settings', 'password_hash'"
  })
  t.throws(() => planner(profiles, { fields: { owner: { relation: 'user' } } }), {
    message: "Field 'owner' loads relation 'user', which table 'profiles' does not have; it has none"
  })
  t.throws(() => planner(users, { fields: { place: { dependsOn: ['id.x'] } } }), {
    message: "Field 'place' depends on 'id.x', but 'id' is not a relation of table 'users'"
  })
})

test('a route\'s loaders are checked against its declared paths, naming the route', async (t) => {
  t.throws(() => checkLoaders([planner(users), planner(profiles)], ['id', 'name'], 'GET /users'), {
    code: 'FST_RESTRICTED_FIELDS_INVALID_SOURCE',
    message: "Route GET /users: Field 'name' loads column 'name', which table 'profiles' does not have; its columns are 'id', 'city', 'phone'"
  })
  t.doesNotThrow(() => checkLoaders([planner(users)], ['id', 'name', 'profile', 'profile.city'], 'GET /users'))
  t.throws(() => checkLoaders([{ check: () => { throw new RangeError('not mine') } }], ['id'], 'GET /users'), new RangeError('not mine'), 'any other error as it is')
})
