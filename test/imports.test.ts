import { test } from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const lib = fileURLToPath(new URL('../lib', import.meta.url))

/** Every module of `lib/`, relative to it. */
function modulesUnder (folder: string): string[] {
  return readdirSync(join(lib, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`
    if (entry.isDirectory()) return modulesUnder(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/**
 * The modules of `lib/` that a module imports at its top, type-only imports included unless `loaded` (only
 * what runs); `import()` in code is not one.
 */
function importsOf (module: string, loaded: boolean): string[] {
  const text = readFileSync(join(lib, module), 'utf8')
  const found = [...text.matchAll(/^(?:import|export)\s([^;]*?)\sfrom\s+'(\.{1,2}\/[^']+)'/gms)]
    .filter((match) => !loaded || !match[1].startsWith('type '))
    .map((match) => match[2])
  return found.map((specifier) => normalize(join(dirname(module), specifier)).replace(/\.js$/, '.ts'))
}

const modules = modulesUnder('')
const graph = new Map(modules.map((module) => [module, importsOf(module, false)]))
const loadGraph = new Map(modules.map((module) => [module, importsOf(module, true)]))

/** The modules `from` imports, itself included; with `imports` of `loadGraph`, those it loads. */
function closure (from: string, imports = graph): Set<string> {
  const seen = new Set<string>()
  const pending = [from]
  while (pending.length > 0) {
    const module = pending.pop()!
    if (seen.has(module)) continue
    seen.add(module)
    pending.push(...imports.get(module) ?? [])
  }
  return seen
}

test('every module of lib/ that is imported exists', async (t) => {
  const missing = [...graph].flatMap(([module, imports]) => imports.filter((target) => !graph.has(target)).map((target) => `${module} → ${target}`))
  t.same(missing, [])
  t.ok(graph.size > 50, 'the modules were found')
  t.ok((graph.get('index.ts') ?? []).length > 5, 'and their imports read')
})

test('no module of lib/ imports itself through others, type-only imports included', async (t) => {
  const cycles: string[] = []
  for (const module of graph.keys()) {
    for (const target of graph.get(module)!) if (closure(target).has(module)) cycles.push(`${module} → ${target}`)
  }
  t.same(cycles, [])
})

test('the core entry loads the request path: of the documents, only what records routes and serves the decorators, and nothing of MCP', async (t) => {
  const loaded = [...closure('index.ts', loadGraph)]
  t.same(loaded.filter((module) => module.startsWith('mcp/')), [])
  t.same(loaded.filter((module) => module.startsWith('openapi/')).sort(), ['openapi/callers.ts', 'openapi/swagger-ui.ts', 'openapi/types.ts'])
  t.ok(loaded.includes('serializer.ts') && loaded.includes('selection.ts'), 'the request path is loaded')
  t.ok(closure('index.ts').has('openapi/document-builder.ts'), 'while its types name what documents are made with')
})
