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

/** The modules of `lib/` that a module imports at its top, type-only imports included; `import()` in code is not one. */
function importsOf (module: string): string[] {
  const text = readFileSync(join(lib, module), 'utf8')
  const found = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gms)].map((match) => match[1])
  return found.map((specifier) => normalize(join(dirname(module), specifier)).replace(/\.js$/, '.ts'))
}

const graph = new Map(modulesUnder('').map((module) => [module, importsOf(module)]))

/** The modules `from` loads, itself included. */
function closure (from: string): Set<string> {
  const seen = new Set<string>()
  const pending = [from]
  while (pending.length > 0) {
    const module = pending.pop()!
    if (seen.has(module)) continue
    seen.add(module)
    pending.push(...graph.get(module) ?? [])
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
