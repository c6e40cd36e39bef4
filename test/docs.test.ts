import { test } from 'tap'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

/** Names the docs write in code spans that are no file of this repository: a user's own files, and an import as written in code. */
const NOT_OURS = new Set(['.mcp.json', './api.js'])

/** Every file of the folders the docs speak of, relative to the root. */
function filesUnder (folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : filesUnder(path)
    return [path]
  })
}
const files = ['lib', 'test', 'bench', 'example', 'scripts'].flatMap(filesUnder)

/**
 * Whether a file named in the docs exists: at that path from the root, under
 * `lib/` (the docs name modules from there, `openapi/callers.ts`), or as the
 * end of one path (`relax/names.ts`, or a name alone, `route-shape.ts`).
 */
function exists (name: string): boolean {
  if (existsSync(join(root, name)) || existsSync(join(root, 'lib', name))) return true
  return files.some((file) => file.endsWith(`/${name}`))
}

test('every file the README and the docs name in code exists', async (t) => {
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8')
    const named = [...text.matchAll(/`([\w./-]+\.(?:ts|js|mjs|json|md|sh))`/g)].map((match) => match[1])
    const missing = [...new Set(named)].filter((name) => !NOT_OURS.has(name) && !exists(name))
    t.same(missing, [], `${page} names only files that exist`)
  }
})
