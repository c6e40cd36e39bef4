import { test } from 'tap'
import { listensOnLoopback, normalizeOrigin, originAllowed, sameLoopbackOrigin } from '../../lib/mcp/origin.js'

const allowed = new Set(['https://app.example.com', 'http://localhost:5173'].map(normalizeOrigin))

test('only requests without an Origin, or from an allowed one, reach the endpoint', async (t) => {
  const cases: Array<[string | string[] | undefined, boolean]> = [
    [undefined, true],
    ['https://app.example.com', true],
    ['HTTPS://App.Example.com/', true],
    ['http://localhost:5173', true],
    ['http://localhost:5174', false],
    ['https://app.example.com.evil.example', false],
    ['http://app.example.com', false],
    ['null', false],
    ['', false],
    [['https://app.example.com', 'https://app.example.com'], false]
  ]
  for (const [origin, expected] of cases) t.equal(originAllowed(origin, allowed), expected, JSON.stringify(origin))
})

test('an origin is the server\'s own loopback page when it is http or https, with the same loopback name and port as the Host', async (t) => {
  const cases: Array<[string | string[] | undefined, string | undefined, boolean]> = [
    ['http://127.0.0.1:3000', '127.0.0.1:3000', true],
    ['https://127.0.0.1:3000/', '127.0.0.1:3000', true],
    ['http://localhost', 'LocalHost', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://127.0.0.1:3001', '127.0.0.1:3000', false],
    ['http://localhost:3000', '127.0.0.1:3000', false],
    ['http://localhost:80', 'localhost', false],
    ['ws://localhost:3000', 'localhost:3000', false],
    ['http://evil.example:3000', 'evil.example:3000', false],
    ['http://127.0.0.1.evil.example:3000', '127.0.0.1.evil.example:3000', false],
    ['http://localhost:3000/path', 'localhost:3000/path', false],
    ['http://user@localhost:3000', 'user@localhost:3000', false],
    [undefined, 'localhost:3000', false],
    [['http://localhost:3000'], 'localhost:3000', false],
    ['http://localhost:3000', undefined, false]
  ]
  for (const [origin, host, expected] of cases) t.equal(sameLoopbackOrigin(origin, host), expected, `${JSON.stringify(origin)} ${String(host)}`)
})

test('a server is on loopback when every address it listens on is a loopback one, or when it listens on none', async (t) => {
  const cases: Array<[Array<{ address: string } | string>, boolean]> = [
    [[], true],
    [[{ address: '127.0.0.1' }], true],
    [[{ address: '127.0.0.1' }, { address: '::1' }], true],
    [[{ address: '127.8.9.10' }, { address: '::ffff:127.0.0.1' }], true],
    [[{ address: '0.0.0.0' }], false],
    [[{ address: '::' }], false],
    [[{ address: '127.0.0.1' }, { address: '192.168.1.2' }], false],
    [[{ address: '::10' }], false],
    [['/tmp/app.sock'], false]
  ]
  for (const [addresses, expected] of cases) t.equal(listensOnLoopback(addresses), expected, JSON.stringify(addresses))
})
