import { test } from 'tap'
import type { Test } from 'tap'
import { buildApp } from '../../example/app.js'
import { generateUsers } from '../../example/generate-users.js'

async function example (t: Test, count = 25, pageSize = 10) {
  const app = await buildApp({ users: generateUsers(count), pageSize })
  t.teardown(() => app.close())
  return app
}

const ids = (body: { results: Array<{ id: number }> }): number[] => body.results.map((user) => user.id)

test('GET /api/users/ returns the first page in an envelope with absolute links', async (t) => {
  const app = await example(t)
  const response = await app.inject({ url: '/api/users/?only=id&only=name', headers: { host: 'api.test:8080' } })
  const body = response.json()
  t.same([response.statusCode, body.count, body.next, body.previous, body.results[0]], [
    200, 25, 'http://api.test:8080/api/users/?only=id&only=name&page=2', null, { id: 1, name: 'Ada Lovelace' }
  ])
  t.equal(body.results.length, 10)
})

test('links keep the restriction parameters in their form and drop page for page 1', async (t) => {
  const app = await example(t)
  const body = (await app.inject('/api/users/?defer=email,is_staff&page=2')).json()
  t.same([body.next, body.previous, body.results[0]], [
    'http://localhost:80/api/users/?defer=email,is_staff&page=3',
    'http://localhost:80/api/users/?defer=email,is_staff',
    { id: 11, name: 'Katherine Johnson' }
  ])
})

test('page=last is the last page, which has no next link', async (t) => {
  const app = await example(t)
  const body = (await app.inject('/api/users/?page=last&only[]=id')).json()
  t.same([ids(body), body.next, body.previous], [[21, 22, 23, 24, 25], null, 'http://localhost:80/api/users/?page=2&only[]=id'])
})

test('a malformed page is a 400 and a page past the end a 404, with clear messages', async (t) => {
  const app = await example(t)
  const bad = await app.inject('/api/users/?page=two')
  t.same([bad.statusCode, bad.json()], [400, { statusCode: 400, error: 'Bad Request', message: "Invalid page 'two': page must be a positive integer or 'last'" }])
  const past = await app.inject('/api/users/?page=4')
  t.same([past.statusCode, past.json()], [404, { statusCode: 404, error: 'Not Found', message: 'Page 4 does not exist: there are 3 pages' }])
})

test('an empty list has page 1 with count 0, and no page 2', async (t) => {
  const app = await example(t, 0)
  t.same((await app.inject('/api/users/')).json(), { count: 0, next: null, previous: null, results: [] })
  t.same((await app.inject('/api/users/?page=2')).json().message, 'Page 2 does not exist: there is 1 page')
})

test('GET /api/users/:id returns one user, restricted, or a 404', async (t) => {
  const app = await example(t)
  t.same((await app.inject('/api/users/3?defer=email')).json(), { id: 3, name: 'Barbara Wirth', is_staff: false })
  const missing = await app.inject('/api/users/999')
  t.same([missing.statusCode, missing.json().message], [404, 'User 999 not found'])
  t.equal((await app.inject('/api/users/0')).statusCode, 400)
})

test('an unknown field on the example is a coded 400 listing the allowed names', async (t) => {
  const app = await example(t)
  const response = await app.inject('/api/users/?only=password')
  t.same([response.statusCode, response.json()], [400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD',
    error: 'Bad Request',
    message: "Unknown field 'password' in query parameter 'only'; allowed fields: id, name, email, is_staff"
  }])
})
