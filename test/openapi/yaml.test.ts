import { test } from 'tap'
import { parse } from 'yaml'
import { toYaml } from '../../lib/openapi/yaml.js'

test('toYaml writes block YAML that reads back as the same value', async (t) => {
  const value = {
    openapi: '3.0.3',
    'x-key': 'a "quoted" text\nover two lines',
    paths: { '/users/{id}': { get: { parameters: [{ name: 'only', in: 'query' }], responses: { 200: { description: 'ok' } } } } },
    list: [1, 2.5, true, null, 'yes', [], {}, [['a', 'b'], []], [{ a: 1 }]],
    empty: {},
    none: [],
    words: { yes: 1, No: 2, on: 3, null: 4, '': 5, 7: 6, $ref: 7, 'a b': 8 },
    skipped: undefined,
    onlyUndefined: { a: undefined }
  }
  const text = toYaml(value)
  t.strictSame(parse(text), JSON.parse(JSON.stringify(value)))
  t.equal(toYaml({ a: { b: [1, { c: 'd', e: [] }] } }), 'a:\n  b:\n    - 1\n    - c: d\n      e: []\n')
  t.equal(toYaml('text'), 'text\n')
  t.equal(toYaml([]), '[]\n')
  t.equal(toYaml([undefined]), '- null\n')
  t.equal(toYaml(undefined), 'null\n')
  t.equal(toYaml({ at: new Date(0) }), 'at: "1970-01-01T00:00:00.000Z"\n', 'as JSON.stringify writes it')
})

test('toYaml leaves a string plain only where it cannot read back as something else', async (t) => {
  const plain = ['Users', 'A list of users, a page at a time.', 'application/json', 'x-y_z (b) + c', "it's"]
  const quoted = ['yes', 'No', 'null', 'true', '1.0.0', '2026-01-01', '.inf', '-a', 'a: b', 'a #b', 'a ', '', '~', '*x', '[a]', '{a}', '`code`', 'a"b', 'ü', '@summary']
  for (const text of plain) t.equal(toYaml({ text }), `text: ${text}\n`, text)
  for (const text of quoted) t.equal(toYaml({ text }), `text: ${JSON.stringify(text)}\n`, text)
  t.strictSame(parse(toYaml([...plain, ...quoted])), [...plain, ...quoted], 'every one reads back as the same string')
})
