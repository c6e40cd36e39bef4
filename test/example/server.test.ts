import { test } from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { startServer } from '../../example/server.js'

test('the example server answers over real HTTP', async (t) => {
  const app = await startServer({ PORT: '0', PAGE_SIZE: '5', LOG_LEVEL: 'silent' })
  t.teardown(() => app.close())
  const { port } = app.server.address() as { port: number }
  const response = await fetch(`http://127.0.0.1:${port}/api/users/?only=id,name&page=2`)
  t.equal(response.status, 200)
  t.same(await response.json(), {
    count: 200,
    next: `http://127.0.0.1:${port}/api/users/?only=id,name&page=3`,
    previous: `http://127.0.0.1:${port}/api/users/?only=id,name`,
    results: [
      { id: 6, name: 'Edsger Perlman' },
      { id: 7, name: 'Frances Liskov' },
      { id: 8, name: 'Grace Backus' },
      { id: 9, name: 'Hedy Goldwasser' },
      { id: 10, name: 'John Shannon' }
    ]
  })
})

test('bad settings stop the server with a clear message', async (t) => {
  await t.rejects(startServer({ PAGE_SIZE: '0' }), { message: "PAGE_SIZE must be an integer from 1 to 1000, got '0'" })
  await t.rejects(startServer({ PORT: 'http' }), { message: "PORT must be an integer from 0 to 65535, got 'http'" })
  await t.rejects(startServer({ LOG_LEVEL: 'loud' }), { message: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'" })
  await t.rejects(startServer({ PORT: '0', USERS_FILE: '/nonexistent/users.json' }), { message: /^Cannot read users file \/nonexistent\/users\.json/ })
})

test('npm start runs the built entry point, which reports a bad setting and exits 1', async (t) => {
  // npm test builds dist/ before the suite runs.
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...process.env, USERS_FILE: '/nonexistent.json' } })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.match(stderr, /^Cannot start the example server: Cannot read users file \/nonexistent\.json/)
})

test('the built entry point serves with the logger on', async (t) => {
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0' } })
  t.teardown(() => { child.kill() })
  const [chunk] = await once(child.stdout, 'data')
  const line = JSON.parse(String(chunk))
  t.match(line, { level: 30, msg: /^Server listening at http:\/\/127\.0\.0\.1:\d+$/ })
  const url = line.msg.replace('Server listening at ', '')
  t.same(await (await fetch(`${url}/api/users/1?only=name`)).json(), { name: 'Ada Lovelace' })
})

test('the database example serves the same API from an embedded database', async (t) => {
  const app = await startServer({ PORT: '0', LOG_LEVEL: 'silent' }, 'database')
  t.teardown(() => app.close())
  const { port } = app.server.address() as { port: number }
  t.same(await (await fetch(`http://127.0.0.1:${port}/api/users/200?defer=email`)).json(), { id: 200, name: 'Yukihiro Liskov', is_staff: false })
})

test('npm run example:db runs its built entry point, which reports a bad setting and exits 1', async (t) => {
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main, 'database'], { env: { ...process.env, PAGE_SIZE: 'ten' } })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.equal(stderr, "Cannot start the example server: PAGE_SIZE must be an integer from 1 to 1000, got 'ten'\n")
})
