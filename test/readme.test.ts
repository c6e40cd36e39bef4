import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { cp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../example/app.js'
import { defaultUsersFile } from '../example/server.js'
import { memoryStore } from '../example/store.js'
import { loadUsers } from '../example/users.js'
import { isClientBlock, readmeBlocks, shownOutput } from './readme.js'

// Every JavaScript and TypeScript block of the README and of the pages of docs/ as a user would paste it: the
// TypeScript ones type-checked, all of them run, and what a block shows it prints (in the comment lines that end it)
// compared with what it prints. The package is the build of lib/ (npm test builds before the suite;
// test/package.test.ts checks that the packed package is that build). The client blocks, which need
// the generated OpenAPI types, are compiled by test/example/contract.test.ts.

const root = fileURLToPath(new URL('..', import.meta.url))
// Inside the project, so that the snippets find its node_modules: fastify, zod, typebox...
const directory = mkdtempSync(join(root, 'dist', 'readme-'))
t.teardown(() => rm(directory, { recursive: true, force: true }))

const blocks = readmeBlocks()
const snippets = blocks.filter((block) => (block.language === 'js' || block.language === 'ts') && !isClientBlock(block)).map((block) => {
  const commonJs = block.language === 'js' && block.code.includes('require(') && !/^import /m.test(block.code)
  const name = `${block.file.replace(/\.md$/, '').replace(/\W/g, '-')}-${block.line}.${block.language === 'ts' ? 'ts' : commonJs ? 'cjs' : 'mjs'}`
  return { ...block, name, run: name.replace(/\.ts$/, '.js'), where: `${block.language} at ${block.file}:${block.line}` }
})

/**
 * Runs a command to its end, without coverage (coverage of tsc and of the snippets would only slow them down). Dropping
 * tap's NODE_OPTIONS is not enough, since tap puts its loader back into every child's NODE_OPTIONS;
 * _TAPJS_PROCESSINFO_COVERAGE_=0 is how it is told to record no coverage.
 */
async function run (command: string, args: string[]): Promise<{ code: number | string | null, stdout: string, stderr: string }> {
  const { NODE_OPTIONS, ...rest } = process.env
  const env = { ...rest, _TAPJS_PROCESSINFO_COVERAGE_: '0' }
  return await new Promise((resolve) => {
    execFile(command, args, { cwd: directory, env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : error.code ?? null, stdout, stderr })
    })
  })
}

// The TypeBox block shows a strict querystring with ajv's removeAdditional turned off; docs/schemas.md says what Fastify's default does.
const typeBox = snippets.find((snippet) => snippet.code.includes('TypeBoxTypeProvider'))!
const strictSetting = 'Fastify({ ajv: { customOptions: { removeAdditional: false } } })'

/** A block's code with the package's imports, its ORM adapters' and its MCP endpoint's included, pointed at its build. */
function asInProject (code: string): string {
  return code.replaceAll("'fastify-restricted-fields'", "'../lib/index.js'").replace(/'fastify-restricted-fields\/(drizzle|kysely|prisma)'/g, "'../lib/orm/$1.js'")
    .replaceAll("'fastify-restricted-fields/mcp'", "'../lib/mcp/index.js'")
}

t.before(async () => {
  // The Prisma block imports the client `prisma generate` writes: the ORM tests' own, for the same models.
  await cp(join(root, 'test/orm/prisma/generated'), join(directory, 'generated/prisma'), { recursive: true })
  for (const snippet of snippets) {
    await writeFile(join(directory, snippet.name), asInProject(snippet.code))
  }
  await writeFile(join(directory, 'typebox-defaults.ts'), typeBox.code.replace(strictSetting, 'Fastify()').replaceAll("'fastify-restricted-fields'", "'../lib/index.js'"))
  await writeFile(join(directory, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: ['node'], strict: true, skipLibCheck: true
    },
    files: [...snippets.filter((snippet) => snippet.language === 'ts').map((snippet) => snippet.name), 'typebox-defaults.ts']
  }))
})

t.test('every code block of the README and of docs/ is fenced as sh, js, ts or json, so none escapes these tests', async (t) => {
  t.strictSame(blocks.filter((block) => !['sh', 'js', 'ts', 'json', ''].includes(block.language)).map((block) => `${block.language} at ${block.file}:${block.line}`), [])
  t.strictSame(blocks.filter((block) => block.language === 'json').map((block) => block.file), ['docs/options.md'], 'one JSON block, an error body the usage block prints')
  t.strictSame(blocks.filter(isClientBlock).map((block) => block.file), ['docs/openapi.md', 'docs/typescript.md'], 'two client blocks, compiled by the contract test')
  t.strictSame(snippets.map((snippet) => snippet.name.replace(/-\d+\./, '.')), [
    'README.mjs', 'README.cjs',
    'docs-agents.mjs',
    'docs-field-sets.mjs',
    'docs-openapi.mjs', 'docs-openapi.mjs',
    'docs-options.mjs',
    'docs-orm.mjs', 'docs-orm.ts', 'docs-orm.ts', 'docs-orm.ts',
    'docs-schemas.ts', 'docs-schemas.ts',
    'docs-security.mjs',
    'docs-typescript.ts', 'docs-typescript.ts',
    'docs-visibility.mjs', 'docs-visibility.mjs'
  ], 'usage, CommonJS; MCP tools; field sets; OpenAPI component names, each caller\'s document; options; fetching only what is sent, Drizzle, Kysely, ' +
    'Prisma; TypeBox, Zod; security; typed selection (twice); fields that depend on who asks, and the routes a rule covers')
})

t.test('the TypeScript blocks type-check in strict mode against the package', async (t) => {
  const tsc = join(root, 'node_modules/typescript/bin/tsc')
  const { code, stdout, stderr } = await run(process.execPath, [tsc, '-p', 'tsconfig.json'])
  t.strictSame({ code, output: stdout + stderr }, { code: 0, output: '' })
})

// The ORM blocks each start PGlite, some seconds of CPU apiece: npm test runs the first and type-checks them all;
// test:deep (FST_DEEP) runs every one.
const startsDatabase = (snippet: { code: string }): boolean => snippet.code.includes('new PGlite(')
const runnable = process.env.FST_DEEP === undefined
  ? snippets.filter((snippet) => !startsDatabase(snippet) || snippet === snippets.find(startsDatabase))
  : snippets

t.test('each block runs as pasted and prints what it shows', async (t) => {
  const skipped = process.env.FST_DEEP === undefined ? snippets.filter(startsDatabase).length - 1 : 0
  t.equal(snippets.length - runnable.length, skipped, 'all but one ORM block, or all of them')
  const outcomes = await Promise.all(runnable.map(async (snippet) => {
    const { code, stdout, stderr } = await run(process.execPath, [snippet.run])
    return { block: snippet.where, code, stdout, stderr }
  }))
  t.strictSame(outcomes, runnable.map((snippet) => ({ block: snippet.where, code: 0, stdout: shownOutput(snippet.code), stderr: '' })))
})

t.test('under Fastify\'s default removeAdditional, the TypeBox block\'s strict querystring drops an unknown key instead of rejecting it', async (t) => {
  t.ok(typeBox.code.includes(strictSetting))
  const { code, stdout } = await run(process.execPath, ['typebox-defaults.js'])
  t.strictSame({ code, stdout }, { code: 0, stdout: '[{"id":1,"email":"ada@example.com"}]\n200\n' })
})

t.test('each curl example of the README and of docs/ answers, from the example server, what it shows', async (t) => {
  // The pages wrap long bodies (a continuation line starts with a space) and elides the rest of a list with ' …'.
  const examples = blocks.filter((block) => block.language === '' && block.code.startsWith('$ ')).flatMap((block) =>
    block.code.split(/^(?=\$ )/m).filter((part) => part.startsWith('$ curl ')).map((part) => {
      const [command, ...output] = part.trimEnd().split('\n')
      const url = /'(http:\/\/127\.0\.0\.1:3000[^']+)'$/.exec(command)![1]
      const token = /-H 'Authorization: Bearer ([^']+)'/.exec(command)?.[1]
      return { command, url, token, shown: output.join('\n').replace(/\n /g, '') }
    }))
  t.equal(examples.length, 15)
  const app = await buildApp({ store: memoryStore(loadUsers(defaultUsersFile)), pageSize: 10, staffToken: 's3cret', publicUrl: 'http://127.0.0.1:3000' })
  t.teardown(() => app.close())
  for (const { command, url, token, shown } of examples) {
    const { pathname, search } = new URL(url)
    const response = await app.inject({
      url: pathname + search,
      headers: { host: '127.0.0.1:3000', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }
    })
    const [head, tail] = shown.split(' …')
    if (tail === undefined) t.equal(response.body, shown, command)
    else t.ok(response.body.startsWith(head) && response.body.endsWith(tail), command, { found: response.body })
  }
})

t.test('the error body docs/options.md shows is one the README\'s usage block prints', async (t) => {
  const [json] = blocks.filter((block) => block.language === 'json')
  const usage = snippets[0]
  t.ok(shownOutput(usage.code).split('\n').includes(json.code.trimEnd()))
})
