import { test } from 'tap'
import { normalizeOrigin, originAllowed } from '../../lib/mcp/origin.js'

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
