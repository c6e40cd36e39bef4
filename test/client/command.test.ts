import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'tap'
import { USAGE, parseArguments, processIo, runCommand } from '../../lib/client/command.js'
import { restrictedRoutesSource } from '../../lib/client/generate.js'

const document = {
  openapi: '3.1.0',
  paths: {
    '/users/{id}': {
      get: {
        'x-restricted-fields': { statuses: { 200: { record: { $ref: '#/components/schemas/user' }, records: 'object' } }, only: 'only', defer: 'defer', sets: {}, maxDepth: 8 },
        responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/user' } } } } }
      }
    }
  }
}

test('the arguments are read into a command, or refused with the reason', async (t) => {
  const command = (more: object) => ({ command: { source: 'openapi.json', output: null, headers: {}, types: './api.js', document: null, ...more } })
  const table: Array<[string[], unknown]> = [
    [['generate', 'openapi.json'], command({})],
    [['generate', 'openapi.json', '-o', 'restricted.ts', '--types', './gen/api.js', '--document', 'copy.json'], command({ output: 'restricted.ts', types: './gen/api.js', document: 'copy.json' })],
    [['generate', 'https://api.example/doc', '-H', 'Authorization: Bearer a:b ', '--header', 'X-Tenant:7'], command({ source: 'https://api.example/doc', headers: { Authorization: 'Bearer a:b', 'X-Tenant': '7' } })],
    [['--help'], { help: true }],
    [['generate', '-h'], { help: true }],
    [[], { error: 'a command is expected: generate' }],
    [['make', 'openapi.json'], { error: 'unknown command \'make\': the command is generate' }],
    [['generate'], { error: 'generate reads a document: give its URL or file' }],
    [['generate', ''], { error: 'generate reads a document: give its URL or file' }],
    [['generate', 'a.json', 'b.json'], { error: 'generate reads one document, not also \'b.json\'' }],
    [['generate', 'http://h/doc', '-H', 'Authorization'], { error: '--header takes \'Name: value\', not \'Authorization\'' }],
    [['generate', 'http://h/doc', '-H', ': x'], { error: '--header takes \'Name: value\', not \': x\'' }],
    [['generate', 'http://h/doc', '-H', 'Bad name: x'], { error: '--header takes \'Name: value\', not \'Bad name: x\'' }],
    [['generate', 'openapi.json', '-H', 'Authorization: Bearer x'], { error: '--header is sent with a URL\'s request; the document is read from a file' }],
    // Node's own messages, which vary between its versions.
    [['generate', 'openapi.json', '--out', 'x.ts'], { error: /^Unknown option '--out'/ }],
    [['generate', 'openapi.json', '-o'], { error: /^Option '-o, --output <value>' argument missing/ }]
  ]
  for (const [argv, expected] of table) {
    const parsed = parseArguments(argv)
    if ((expected as { error?: unknown }).error instanceof RegExp) t.match(parsed, expected, argv.join(' '))
    else t.strictSame(parsed, expected, argv.join(' '))
  }
})

/** Runs the command with the process's fetch and files, and its output and errors kept. */
async function run (argv: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCommand(argv, { ...processIo, stdout: (text) => { stdout += text }, stderr: (text) => { stderr += text } })
  return { code, stdout, stderr }
}

test('the command writes the types of a document read from a file or a URL, sending the caller\'s headers', async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'restricted-fields-command-'))
  t.teardown(() => rmSync(directory, { recursive: true, force: true }))
  const file = (name: string): string => join(directory, name)
  const text = JSON.stringify(document)
  writeFileSync(file('openapi.json'), text)
  writeFileSync(file('openapi.yaml'), 'openapi: 3.1.0\n')
  writeFileSync(file('swagger.json'), '{"swagger":"2.0"}')
  const seen: Array<string | undefined> = []
  const server = createServer((request, response) => {
    seen.push(request.headers.authorization)
    const allowed = request.url === '/documentation/json' && request.headers.authorization === 'Bearer staff'
    response.writeHead(allowed ? 200 : 401, { 'content-type': 'application/json' }).end(allowed ? text : '{"message":"no"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/documentation/json`
  const types = restrictedRoutesSource(document)

  t.strictSame(await run(['generate', file('openapi.json')]), { code: 0, stdout: types, stderr: '' }, 'a file, to standard output')
  t.strictSame(await run(['generate', url, '-H', 'Authorization: Bearer staff', '-o', file('restricted.ts'), '--document', file('copy.json'), '--types', './gen.js']), { code: 0, stdout: '', stderr: '' }, 'a URL, to files')
  t.equal(readFileSync(file('restricted.ts'), 'utf8'), restrictedRoutesSource(document, { types: './gen.js' }))
  t.equal(readFileSync(file('copy.json'), 'utf8'), text, 'the document as it was read, for openapi-typescript')
  t.strictSame(await run(['generate', url]), { code: 1, stdout: '', stderr: `fastify-restricted-fields: ${url} answered 401\n` }, 'without the credentials')
  t.strictSame(seen, ['Bearer staff', undefined], 'the headers are sent as given')

  const failures: Array<[string[], string]> = [
    [['generate', file('missing.json')], `ENOENT: no such file or directory, open '${file('missing.json')}'`],
    [['generate', file('openapi.yaml')], `${file('openapi.yaml')} is not JSON: the command reads the JSON document (/documentation/json)`],
    [['generate', file('swagger.json')], 'restrictedRoutesSource reads OpenAPI 3 documents, as openapi-typescript does'],
    [['generate', 'http://127.0.0.1:1/documentation/json'], 'fetch failed'],
    [['generate', file('openapi.json'), '-o', join(directory, 'no', 'such', 'dir.ts')], `ENOENT: no such file or directory, open '${join(directory, 'no', 'such', 'dir.ts')}'`]
  ]
  for (const [argv, message] of failures) t.strictSame(await run(argv), { code: 1, stdout: '', stderr: `fastify-restricted-fields: ${message}\n` }, argv[1])
})

test('the usage is shown when asked for, and with the reason and exit code 2 when the arguments are refused', async (t) => {
  t.strictSame(await run(['--help']), { code: 0, stdout: USAGE, stderr: '' })
  t.strictSame(await run(['generate']), { code: 2, stdout: '', stderr: `fastify-restricted-fields: generate reads a document: give its URL or file\n\n${USAGE}` })
  t.match(USAGE, /^Usage: fastify-restricted-fields generate <url or file> \[options\]\n/)
})
