import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateUsers } from '../../example/generate-users.js'
import { loadUsers } from '../../example/users.js'
import { defaultUsersFile } from '../../example/server.js'

test('the committed users file is the generated set of 200 users', async (t) => {
  t.same(JSON.parse(readFileSync(defaultUsersFile, 'utf8')), generateUsers(200))
  t.same(loadUsers(defaultUsersFile).slice(0, 2), [
    { id: 1, name: 'Ada Lovelace', email: 'ada.lovelace.1@example.com', is_staff: true },
    { id: 2, name: 'Alan Hopper', email: 'alan.hopper.2@example.com', is_staff: false }
  ])
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
    'good.json': '[{"id":1,"name":"a","email":null,"is_staff":false,"extra":1}]'
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
    ['staff.json', /: user at index 0 has no boolean "is_staff"$/]
  ]
  for (const [name, message] of rows) t.throws(() => loadUsers(file(name)), { message }, name)
  t.same(loadUsers(file('good.json')), [{ id: 1, name: 'a', email: null, is_staff: false }], 'extra keys are dropped')
})
