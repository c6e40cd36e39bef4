import { test } from 'tap'
import { build } from '../helpers.js'
import { records, userSchema } from '../fixtures.js'

async function usersApp (t: Parameters<typeof build>[0], options = {}) {
  const app = await build(t, options)
  app.get('/users', { restrictFields: true, schema: { response: { 200: { type: 'array', items: userSchema } } } }, async () => records)
  return app
}

const ALLOWED = 'allowed fields: id, name, email, role, profile, tags'

const rows: Array<{ title: string, query: string, status: number, body: unknown }> = [
  { title: 'repeated only', query: 'only=id&only=name', status: 200, body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  { title: 'comma only', query: 'only=id,name', status: 200, body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  { title: 'bracket only', query: 'only[]=id&only[]=name', status: 200, body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  { title: 'percent-encoded brackets', query: 'only%5B%5D=id&only%5B%5D=name', status: 200, body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  { title: 'all forms mixed', query: 'only[]=name&only=email,id&only=role', status: 200, body: [{ id: 1, name: 'Ada', email: 'ada@example.com', role: 'member' }, { id: 2, name: 'Alan', email: null, role: 'admin' }] },
  {
    title: 'defer, three forms',
    query: 'defer=email&defer[]=role&defer=profile,tags',
    status: 200,
    body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }]
  },
  { title: 'only then defer', query: 'only=id,name&defer=name', status: 200, body: [{ id: 1 }, { id: 2 }] },
  { title: 'output in declared order', query: 'only=tags.label&only=email&only=id', status: 200, body: [{ id: 1, email: 'ada@example.com', tags: [{ label: 'math' }] }, { id: 2, email: null, tags: [] }] },
  { title: 'whitespace, empty segments and duplicates', query: 'only=%20id%20,,name&only=id', status: 200, body: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }] },
  { title: 'only naming nothing', query: 'only=', status: 200, body: [{}, {}] },
  { title: 'nested field', query: 'only=profile.city', status: 200, body: [{ profile: { city: 'London' } }, { profile: null }] },
  { title: 'nested defer', query: 'only=id,profile&defer=profile.phone', status: 200, body: [{ id: 1, profile: { city: 'London' } }, { id: 2, profile: null }] },
  {
    title: 'unknown name',
    query: 'only=id&only=password',
    status: 400,
    body: { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message: `Unknown field 'password' in query parameter 'only'; ${ALLOWED}` }
  },
  {
    title: 'names are case-sensitive',
    query: 'defer=ID',
    status: 400,
    body: { statusCode: 400, code: 'FST_RESTRICTED_FIELDS_UNKNOWN_FIELD', error: 'Bad Request', message: `Unknown field 'ID' in query parameter 'defer'; ${ALLOWED}` }
  }
]

test('the request syntax, row by row', async (t) => {
  const app = await usersApp(t)
  for (const { title, query, status, body } of rows) {
    const response = await app.inject(`/users?${query}`)
    t.strictSame([response.statusCode, response.json()], [status, body], title)
  }
})

test('neither parameter leaves the bytes exactly as a route without the option', async (t) => {
  const app = await usersApp(t)
  app.get('/plain', { schema: { response: { 200: { type: 'array', items: userSchema } } } }, async () => records)
  const restricted = await app.inject('/users?page=1')
  const plain = await app.inject('/plain?page=1')
  t.equal(restricted.body, plain.body)
  t.match(restricted.body, /"role":"member"/, 'defaults are written as usual')
})

test('repeated names count once against maxFields: 300 repetitions of two names answer 200', async (t) => {
  const app = await usersApp(t, { maxFields: 2 })
  const query = Array.from({ length: 300 }, () => 'only=id&only=name').join('&')
  const response = await app.inject(`/users?${query}`)
  t.strictSame([response.statusCode, response.json()], [200, [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }]])
  const three = await app.inject(`/users?${query}&defer=name`)
  t.strictSame([three.statusCode, three.json().code], [400, 'FST_RESTRICTED_FIELDS_TOO_MANY_FIELDS'], 'a third distinct name is one too many')
})

test('an unknown name is rejected before the handler runs', async (t) => {
  const app = await build(t)
  let calls = 0
  app.get('/x', { restrictFields: true, schema: { response: { 200: userSchema } } }, async () => { calls++; return records[0] })
  t.equal((await app.inject('/x?only=nope')).statusCode, 400)
  t.equal(calls, 0)
})

test('unknownFields ignore drops unknown names', async (t) => {
  const app = await usersApp(t, { unknownFields: 'ignore' })
  t.strictSame((await app.inject('/users?only=id,password,profile.zip')).json(), [{ id: 1 }, { id: 2 }])
})

test('parameter names are options', async (t) => {
  const app = await usersApp(t, { onlyParam: 'fields', deferParam: 'exclude' })
  t.strictSame((await app.inject('/users?fields=id,name&exclude=name&only=zzz')).json(), [{ id: 1 }, { id: 2 }])
})

test('a qs-style object parameter is a coded 400', async (t) => {
  const app = await build(t, {}, { routerOptions: { querystringParser: () => ({ only: { a: 'b' } }) } })
  app.get('/users', { restrictFields: true, schema: { response: { 200: userSchema } } }, async () => records[0])
  const response = await app.inject('/users?only[a]=b')
  t.strictSame([response.statusCode, response.json()], [400, {
    statusCode: 400,
    code: 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER',
    error: 'Bad Request',
    message: "Query parameter 'only' must be a field name or a list of field names, got object"
  }])
})

test('indexed and keyed forms of the parameters are refused with a coded 400 naming the accepted forms, never read as nothing', async (t) => {
  const onlyForms = 'send only=a&only=b, only=a,b or only[]=a&only[]=b'
  const deferForms = 'send defer=a&defer=b, defer=a,b or defer[]=a&defer[]=b'
  const rows: Array<[string, string, string]> = [
    ['only[0]=id&only[1]=name', 'only[0]', onlyForms],
    ['only%5B0%5D=id', 'only[0]', onlyForms],
    ['only%5b0%5d=id', 'only[0]', onlyForms],
    ['only[a]=id', 'only[a]', onlyForms],
    ['defer[0]=email', 'defer[0]', deferForms],
    ['only=id&defer[1]=name', 'defer[1]', deferForms],
    ['only[]=id&only[2]=name', 'only[2]', onlyForms]
  ]
  for (const options of [{}, { unknownFields: 'ignore' as const }, { hiddenFields: () => ['email'] }]) {
    const app = await usersApp(t, options)
    for (const [query, key, forms] of rows) {
      const response = await app.inject(`/users?${query}`)
      t.strictSame([response.statusCode, response.json()], [400, {
        statusCode: 400,
        code: 'FST_RESTRICTED_FIELDS_INVALID_PARAMETER',
        error: 'Bad Request',
        message: `Query parameter '${key}' must be a field name or a list of field names, got an indexed or keyed form; ${forms}`
      }], `${query} ${JSON.stringify(Object.keys(options))}`)
    }
    t.equal((await app.inject('/users?other[0]=x&page[size]=2')).statusCode, 200, 'other bracketed keys are the route\'s business')
    t.strictSame((await app.inject('/users?only=id&tag=[x]')).json(), [{ id: 1 }, { id: 2 }])
    t.strictSame((await app.inject('/users?only=id&price=%5E5')).json(), [{ id: 1 }, { id: 2 }], 'a %5 that opens no bracket')
  }
})
