import { test } from 'tap'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { closeOnSignals, startServer } from '../../example/server.js'
import { memoryStore } from '../../example/store.js'

/**
 * The environment of a process of the built server. It records no coverage: lib/ and example/ are measured as the
 * tests load them, and the built files' source maps place some functions a column away from that, so that each would
 * count twice. The tests below that import the server cover what the built one runs.
 */
const built = { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0' }

test('the example server answers over real HTTP', async (t) => {
  const app = await startServer({ PORT: '0', PAGE_SIZE: '5', LOG_LEVEL: 'silent' })
  t.teardown(() => app.close())
  const { port } = app.server.address() as { port: number }
  const response = await fetch(`http://127.0.0.1:${port}/api/users/?only=id,name&page=2`)
  t.equal(response.status, 200)
  t.strictSame(await response.json(), {
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

test('MCP_MODE chooses how the MCP endpoint offers the routes', async (t) => {
  const listed = async (env: Record<string, string>): Promise<string[]> => {
    const app = await startServer({ PORT: '0', LOG_LEVEL: 'silent', ...env })
    t.teardown(() => app.close())
    const { port } = app.server.address() as { port: number }
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    })
    return ((await response.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name)
  }
  t.strictSame(await listed({ MCP_MODE: 'discovery' }), ['find_operations', 'list_operations', 'describe_operation', 'call_operation'])
  t.strictSame(await listed({ MCP_MODE: '' }), ['listUsers', 'getUser'])
})

test('bad settings stop the server with a clear message', async (t) => {
  await t.rejects(startServer({ PAGE_SIZE: '0' }), { message: "PAGE_SIZE must be an integer from 1 to 1000, got '0'" })
  await t.rejects(startServer({ PORT: 'http' }), { message: "PORT must be an integer from 0 to 65535, got 'http'" })
  await t.rejects(startServer({ LOG_LEVEL: 'loud' }), { message: "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'" })
  await t.rejects(startServer({ PORT: '0', MCP_MODE: 'tools' }), { message: "MCP_MODE must be routes or discovery, got 'tools'" })
  await t.rejects(startServer({ PORT: '0', USERS_FILE: '/nonexistent/users.json' }), { message: /^Cannot read users file \/nonexistent\/users\.json/ })
  for (const url of ['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?x=1', 'https://api.example.com/#top', 'https://user:pw@api.example.com']) {
    await t.rejects(startServer({ PUBLIC_URL: url }), { message: `PUBLIC_URL must be an http or https URL without a query, fragment or credentials, such as https://api.example.com, got '${url}'` })
  }
})

test('PUBLIC_URL and TRUST_PROXY decide where the links point, over real HTTP', async (t) => {
  const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }
  const settings: Array<[Record<string, string>, (port: number) => string]> = [
    [{ PUBLIC_URL: 'https://api.example.com/' }, () => 'https://api.example.com'],
    [{}, (port) => `http://127.0.0.1:${port}`],
    [{ TRUST_PROXY: 'false' }, (port) => `http://127.0.0.1:${port}`],
    [{ TRUST_PROXY: 'true' }, () => 'https://evil.example'],
    [{ TRUST_PROXY: '1' }, () => 'https://evil.example'],
    [{ TRUST_PROXY: '0' }, (port) => `http://127.0.0.1:${port}`],
    [{ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }, () => 'https://evil.example'],
    [{ TRUST_PROXY: '10.0.0.1' }, (port) => `http://127.0.0.1:${port}`]
  ]
  for (const [env, origin] of settings) {
    const app = await startServer({ PORT: '0', LOG_LEVEL: 'silent', ...env })
    const { port } = app.server.address() as { port: number }
    const body = await (await fetch(`http://127.0.0.1:${port}/api/users/?only=id`, { headers: { ...forged, host: 'other.example' } })).json() as { next: string }
    t.equal(body.next, `${origin(port)}/api/users/?only=id&page=2`, JSON.stringify(env))
    await app.close()
  }
})

test('npm start runs the built entry point, which reports a bad setting and exits 1', async (t) => {
  // npm test builds dist/ before the suite runs.
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...built, USERS_FILE: '/nonexistent.json' } })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.match(stderr, /^Cannot start the example server: Cannot read users file \/nonexistent\.json/)
})

test('the built entry point serves with the logger on', async (t) => {
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main], { env: { ...built, PORT: '0' } })
  t.teardown(() => { child.kill() })
  let stdout = ''
  while (!stdout.includes('\n')) stdout += String((await once(child.stdout, 'data'))[0])
  const line = JSON.parse(stdout.slice(0, stdout.indexOf('\n')))
  t.match(line, { level: 30, msg: /^Server listening at http:\/\/127\.0\.0\.1:\d+$/ })
  const url = line.msg.replace('Server listening at ', '')
  t.strictSame(await (await fetch(`${url}/api/users/1?only=name`)).json(), { name: 'Ada Lovelace' })
})

test('npm run example:db runs its built entry point, which reports a bad setting and exits 1', async (t) => {
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main, 'database'], { env: { ...built, PAGE_SIZE: 'ten' } })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.equal(stderr, "Cannot start the example server: PAGE_SIZE must be an integer from 1 to 1000, got 'ten'\n")
})

/**
 * Starts the built entry point, fetches a path once it listens, then sends it a signal;
 * gives the body fetched, the exit code and the log messages.
 */
async function stopWithSignal (
  args: string[], paths: string[], signal: NodeJS.Signals, env: Record<string, string> = {}
): Promise<{ bodies: unknown[], code: number | null, messages: string[], lines: Array<Record<string, unknown>> }> {
  const main = fileURLToPath(new URL('../../dist/example/main.js', import.meta.url))
  const child = spawn(process.execPath, [main, ...args], { env: { ...built, PORT: '0', ...env } })
  let stdout = ''
  const bodies: unknown[] = []
  let fetched = false
  child.stdout.on('data', (chunk) => {
    stdout += chunk
    // Read what has come so far, not the chunk alone: on a busy machine a line can arrive in pieces.
    const listening = /Server listening at (http:\/\/[^"]+)"/.exec(stdout)
    if (listening !== null && !fetched) {
      fetched = true
      // One request after another, so that the log's statements come in the order of the paths.
      paths.reduce(async (before, path) => {
        await before
        bodies.push(await (await fetch(listening[1] + path)).json())
      }, Promise.resolve()).then(() => child.kill(signal), () => child.kill('SIGKILL'))
    }
  })
  const [code] = await once(child, 'exit')
  const lines = stdout.trim().split('\n').map((line) => JSON.parse(line))
  return { bodies, code, messages: lines.map((line) => line.msg), lines }
}

/**
 * Starts a run now, so that the processes of the tests below start together and share the machine's cores,
 * rather than each waiting for the one before.
 */
function started<T> (run: Promise<T>): Promise<T> {
  run.catch(() => {})
  return run
}

// The database example starts one embedded database, seconds of CPU: one process answers both of its tests.
const stopped = {
  sigint: started(stopWithSignal([], ['/api/users/1?only=name'], 'SIGINT')),
  database: started(stopWithSignal(
    ['database'], ['/api/users/200?defer=email', '/api/users/?only=name,profile.city&page=20'], 'SIGTERM', { LOG_LEVEL: 'debug' }
  ))
}

test('SIGINT closes the example server, which exits 0', async (t) => {
  const { bodies, code, messages } = await stopped.sigint
  t.strictSame(bodies, [{ name: 'Ada Lovelace' }])
  t.equal(code, 0)
  t.strictSame(messages.slice(-2), ['Closing the server', 'Server closed'])
})

test('the database example serves the same API from an embedded database; SIGTERM closes the server and the database, and it exits 0', async (t) => {
  const { bodies: [body], code, messages } = await stopped.database
  t.strictSame(body, { id: 200, name: 'Yukihiro Liskov', is_staff: false, profile: null, posts: [{ id: 249, title: 'Notes on structured programming' }, { id: 250, title: 'More on routing' }] })
  t.equal(code, 0)
  t.strictSame(messages.slice(-3), ['Closing the server', 'Database closed', 'Server closed'])
})

test('at LOG_LEVEL=debug the database example logs each statement, and only=name,profile.city reads the city and no other column of the profile', async (t) => {
  const { bodies: [, body], code, lines } = await stopped.database
  t.strictSame((body as { results: unknown[] }).results.slice(-2), [{ name: 'Whitfield Perlman', profile: { city: 'Boston' } }, { name: 'Yukihiro Liskov', profile: null }])
  t.equal(code, 0)
  t.strictSame(lines.filter((line) => line.msg === 'SQL statement').map((line) => [line.level, line.sql]), [
    // The first request's, user 200 without its email: the user and profile joined, then the posts.
    [20, 'select "users"."id", "users"."name", "users"."is_staff", "profiles"."city" from "users" left join "profiles" on "profiles"."user_id" = "users"."id" where "users"."id" = $1'],
    [20, 'select "id", "user_id", "title" from "posts" where "posts"."user_id" in ($1) order by "posts"."id"'],
    // The page's: only=name,profile.city reads the city and no other column of the profile.
    [20, 'select count(*) from "users"'],
    [20, 'select "users"."id", "users"."name", "profiles"."city" from "users" left join "profiles" on "profiles"."user_id" = "users"."id" order by "users"."id" limit $1 offset $2']
  ])
})

test('the entry point starts the server from the environment, over memory or the database, and says why one cannot start', async (t) => {
  // The built entry point's processes are tested above; here its own lines run, over a stand-in for the server module.
  const started: unknown[][] = []
  const watched: unknown[] = []
  const entry = async (argv: string[], failure?: Error): Promise<void> => {
    t.intercept(process, 'argv', { value: [process.execPath, 'main.js', ...argv] })
    await t.mockImport('../../example/main.js', {
      '../../example/server.js': {
        startServer: async (...args: unknown[]) => {
          started.push(args)
          if (failure !== undefined) throw failure
          return 'the app'
        },
        closeOnSignals: (app: unknown) => { watched.push(app) }
      }
    })
  }
  await entry([])
  await entry(['database'])
  t.strictSame(started, [[process.env, 'memory'], [process.env, 'database']])
  t.strictSame(watched, ['the app', 'the app'], 'each server closes on a signal')
  const errors = t.capture(console, 'error')
  t.teardown(() => { process.exitCode = undefined })
  await entry([], new Error("PAGE_SIZE must be an integer from 1 to 1000, got 'ten'"))
  t.strictSame(errors.args(), [["Cannot start the example server: PAGE_SIZE must be an integer from 1 to 1000, got 'ten'"]])
  t.equal(process.exitCode, 1)
  t.strictSame(watched, ['the app', 'the app'], 'nothing to close')
})

test('a signal closes the database example: the server, then its database', async (t) => {
  // Over a stand-in for the embedded database, whose start costs seconds of CPU: the built server's processes above start it.
  const closings: string[] = []
  const server = await t.mockImport<typeof import('../../example/server.js')>('../../example/server.js', {
    '../../example/database.js': {
      seededDatabase: async () => ({ close: async () => { closings.push('database') } }),
      databaseStore: () => memoryStore([])
    }
  })
  const app = await server.startServer({ PORT: '0', LOG_LEVEL: 'silent' }, 'database')
  const messages: string[] = []
  let closed: () => void
  const done = new Promise<void>((resolve) => { closed = resolve })
  t.intercept(app.log, 'info', {
    value: (...args: unknown[]) => {
      const message = String(args.at(-1))
      messages.push(message)
      if (message === 'Server closed') closed()
    }
  })
  server.closeOnSignals(app)
  const added = process.listeners('SIGTERM').at(-1) as () => void
  t.teardown(() => {
    process.removeListener('SIGINT', added)
    process.removeListener('SIGTERM', added)
  })
  process.emit('SIGTERM')
  await done
  t.strictSame(messages, ['Closing the server', 'Database closed', 'Server closed'])
  t.strictSame(closings, ['database'])
  t.equal(app.server.listening, false)
  t.equal(process.exitCode, undefined)
})

test('a server that cannot close says so and sets the exit code to 1', async (t) => {
  const lines: Array<{ msg: string, err?: { message: string } }> = []
  let failed: () => void
  const logged = new Promise<void>((resolve) => { failed = resolve })
  const stream = new Writable({
    write (chunk, _encoding, callback) {
      const line = JSON.parse(String(chunk))
      lines.push(line)
      if (line.msg === 'Closing the server failed') failed()
      callback()
    }
  })
  const app = Fastify({ logger: { level: 'info', stream } })
  app.addHook('onClose', async function stuck () { throw new Error('stuck') })
  await app.ready()
  const listeners = (): number[] => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]
  const before = listeners()
  closeOnSignals(app)
  const added = process.listeners('SIGTERM').at(-1) as () => void
  t.teardown(() => {
    process.exitCode = undefined
    process.removeListener('SIGINT', added)
    process.removeListener('SIGTERM', added)
  })
  t.strictSame(listeners(), before.map((count) => count + 1))
  process.emit('SIGTERM')
  process.emit('SIGINT')
  await logged
  t.strictSame(lines.map((line) => [line.msg, line.err?.message]), [['Closing the server', undefined], ['Closing the server failed', 'stuck']], 'a signal while closing is ignored')
  t.equal(process.exitCode, 1)
})

test('a signal to npm alone reaches the built server, which closes and logs its shutdown, for npm start and npm run example:db', async (t) => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const runs: Array<[string, NodeJS.Signals, RegExp]> = [
    ['start', 'SIGTERM', /"msg":"Server closed"/],
    ['start', 'SIGINT', /"msg":"Server closed"/],
    ['example:db', 'SIGTERM', /"msg":"Database closed"/],
    ['example:db', 'SIGINT', /"msg":"Database closed"/]
  ]
  // The four runs are independent processes, each on a port of its own: run together, they share the machine's cores.
  await Promise.all(runs.map(async ([script, signal, closed]) => {
    // --ignore-scripts runs the script itself on the built files, without its pre-script's build.
    const npm = spawn('npm', ['run', script, '--ignore-scripts', '--silent'], { cwd: root, env: { ...built, PORT: '0' } })
    const exited = once(npm, 'exit')
    let stdout = ''
    npm.stdout.on('data', (chunk) => { stdout += chunk })
    while (!/Server listening at (\S+)"/.test(stdout)) await once(npm.stdout, 'data')
    const url = /Server listening at (\S+)"/.exec(stdout)![1]
    npm.kill(signal)
    const [code] = await exited
    t.match(stdout, new RegExp(`"signal":"${signal}","msg":"Closing the server"`), `${script}, ${signal}: the server's own shutdown log`)
    t.match(stdout, closed, `${script}, ${signal}: closed`)
    t.equal(code, 0, `${script}, ${signal}: exits 0`)
    await t.rejects(fetch(`${url}/api/users/1`), { name: 'TypeError' }, `${script}, ${signal}: nothing listens any more`)
  }))
})
