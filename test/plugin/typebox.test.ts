import { test } from 'tap'
import Fastify from 'fastify'
import { Type } from '@fastify/type-provider-typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import fastifyRestrictedFields from '../../lib/index.js'
import { records } from '../fixtures.js'

const User = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  profile: Type.Union([Type.Object({ city: Type.String(), phone: Type.String() }), Type.Null()]),
  tags: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() }))
})

const rows: Array<{ url: string, status: number, body: string }> = [
  { url: '/users?only=id&only=name', status: 200, body: '[{"id":1,"name":"Ada"},{"id":2,"name":"Alan"}]' },
  { url: '/users?defer=tags,email,profile.phone', status: 200, body: '[{"id":1,"name":"Ada","profile":{"city":"London"}},{"id":2,"name":"Alan","profile":null}]' },
  { url: '/users?only=tags.label&limit=2', status: 200, body: '[{"tags":[{"label":"math"}]},{"tags":[]}]' },
  { url: '/users?only=password', status: 400, body: '{"statusCode":400,"code":"FST_RESTRICTED_FIELDS_UNKNOWN_FIELD","error":"Bad Request","message":"Unknown field \'password\' in query parameter \'only\'; allowed fields: id, name, email, profile, tags"}' },
  { url: '/users?limit=0&only=id', status: 400, body: '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"querystring/limit must be >= 1"}' }
]

for (const cacheSize of [100, 0]) {
  test(`a TypeBox route restricts like a JSON Schema route, with a strict TypeBox querystring, on the ${cacheSize === 0 ? 'writing' : 'compiled'} path`, async (t) => {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()
    await app.register(fastifyRestrictedFields, { cacheSize })
    t.teardown(() => app.close())
    app.get('/users', {
      restrictFields: true,
      schema: {
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false }),
        response: { 200: Type.Array(User) }
      }
    }, async () => records as never)
    for (const { url, status, body } of rows) {
      for (let i = 0; i < 3; i++) {
        const response = await app.inject(url)
        t.strictSame([response.statusCode, response.body], [status, body], `${url} #${i + 1}`)
      }
    }
  })
}
