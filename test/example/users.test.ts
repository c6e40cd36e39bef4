import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateUsers } from '../../example/generate-users.js'
import { loadUsers } from '../../example/users.js'
import { defaultUsersFile } from '../../example/server.js'

test('the committed users file is the generated set of 200 users', async (t) => {
  t.strictSame(JSON.parse(readFileSync(defaultUsersFile, 'utf8')), generateUsers(200))
  t.strictSame(loadUsers(defaultUsersFile).slice(0, 2), [
    {
      id: 1,
      name: 'Ada Lovelace',
      email: 'ada.lovelace.1@example.com',
      is_staff: true,
      last_login: '2026-01-03T13:00:00.000Z',
      profile: { city: 'Boston', phone: '+44 20 7946 0001' },
      posts: [{ id: 1, title: 'Notes on computable numbers' }]
    },
    {
      id: 2,
      name: 'Alan Hopper',
      email: 'alan.hopper.2@example.com',
      is_staff: false,
      last_login: '2026-01-06T02:00:00.000Z',
      profile: { city: 'Berkeley', phone: '+44 20 7946 0002' },
      posts: []
    }
  ])
})

test('the generated users have a profile but every fifth, none to two posts, and post ids that run on from user to user', async (t) => {
  const users = generateUsers(200)
  const withoutProfile = users.filter((user) => user.profile === null).map((user) => user.id)
  t.strictSame(withoutProfile, users.map((user) => user.id).filter((id) => id % 5 === 0))
  t.strictSame(users.map((user) => user.posts.length).slice(0, 8), [1, 0, 2, 2, 1, 0, 2, 2])
  const postIds = users.flatMap((user) => user.posts.map((post) => post.id))
  t.strictSame(postIds, Array.from({ length: postIds.length }, (_, i) => i + 1))
  t.strictSame(generateUsers(200).slice(0, 25), generateUsers(25), 'fewer users are the first of more')
})

test('loadUsers explains a missing or malformed file', async (t) => {
  const dir = t.testdir({
    'text.json': 'not json',
    'object.json': '{}',
    'nulls.json': '[null]',
    'noid.json': '[{"id":"1"}]',
    'noname.json': '[{"id":1}]',
    'email.json': '[{"id":1,"name":"a","email":3}]',
    'staff.json': '[{"id":1,"name":"a","email":null}]',
    'login.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"last_login":"yesterday"}]',
    'login-date.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"last_login":"2026-02-30T25:00:00Z"}]',
    'profile.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"profile":"London"}]',
    'profile-city.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"profile":{"phone":"1"}}]',
    'profile-phone.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"profile":{"city":"London","phone":null}}]',
    'posts.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"posts":{}}]',
    'post.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"posts":[null]}]',
    'post-id.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"posts":[{"id":"1","title":"t"}]}]',
    'post-title.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"posts":[{"id":1}]}]',
    'good.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"extra":1},{"id":2,"name":"b","email":null,"is_staff":true,"last_login":"2026-03-01T08:30:00+01:00","profile":null,"posts":[]},' +
      '{"id":3,"name":"c","email":"c@x","is_staff":true,"last_login":null,"profile":{"city":"Oslo","phone":"1","extra":1},"posts":[{"id":7,"title":"t","extra":1}]}]'
  })
  const file = (name: string): string => join(dir, name)
  const rows: Array<[string, string | RegExp]> = [
    ['missing.json', /^Cannot read users file .*missing\.json: ENOENT/],
    ['text.json', /^Users file .*text\.json is not valid JSON: /],
    ['object.json', /^Users file .*object\.json must hold a JSON array of users$/],
    ['nulls.json', /: user at index 0 is not an object$/],
    ['noid.json', /: user at index 0 has no integer "id"$/],
    ['noname.json', /: user at index 0 has no string "name"$/],
    ['email.json', /: user at index 0 has an "email" that is neither a string nor null$/],
    ['staff.json', /: user at index 0 has no boolean "is_staff"$/],
    ['login.json', /: user at index 0 has a "last_login" that is neither an ISO 8601 date-time nor null$/],
    ['login-date.json', /: user at index 0 has a "last_login" that is neither an ISO 8601 date-time nor null$/],
    ...['profile.json', 'profile-city.json', 'profile-phone.json'].map((name): [string, RegExp] =>
      [name, /: user at index 0 has a "profile" that is neither null nor an object with a string "city" and a string "phone"$/]),
    ...['posts.json', 'post.json', 'post-id.json', 'post-title.json'].map((name): [string, RegExp] =>
      [name, /: user at index 0 has "posts" that are not an array of objects with an integer "id" and a string "title"$/])
  ]
  for (const [name, message] of rows) t.throws(() => loadUsers(file(name)), { message }, name)
  t.strictSame(loadUsers(file('good.json')), [
    { id: 1, name: 'a', email: null, is_staff: false, last_login: null, profile: null, posts: [] },
    { id: 2, name: 'b', email: null, is_staff: true, last_login: '2026-03-01T08:30:00+01:00', profile: null, posts: [] },
    { id: 3, name: 'c', email: 'c@x', is_staff: true, last_login: null, profile: { city: 'Oslo', phone: '1' }, posts: [{ id: 7, title: 't' }] }
  ], 'extra keys are dropped; a user without last_login never logged in, and one without profile or posts has none')
})
