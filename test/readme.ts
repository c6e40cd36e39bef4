import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = new URL('..', import.meta.url)

/** README.md and every page of docs/, as paths from the project's root: the README first, then the pages by name. */
export function documentationFiles (): string[] {
  const pages = readdirSync(new URL('docs/', root)).filter((name) => name.endsWith('.md')).sort()
  return ['README.md', ...pages.map((name) => `docs/${name}`)]
}

/** A documentation file's text, by its path from the project's root. */
export const documentationText = (file: string): string => readFileSync(fileURLToPath(new URL(file, root)), 'utf8')

/** A fenced code block of the README or of a page of docs/. */
export interface ReadmeBlock {
  /** The file it is in, from the project's root: `README.md`, `docs/orm.md`... */
  file: string
  /** The fence's info string: `js`, `ts`, `sh`... */
  language: string
  /** The line of its file the code starts on. */
  line: number
  code: string
}

/** Every fenced code block of one Markdown text, in order. */
export function markdownBlocks (text: string, file: string): ReadmeBlock[] {
  // A fence may be indented, inside a list item: its lines lose that indentation.
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((match) => ({
    file,
    language: match[2],
    line: text.slice(0, match.index).split('\n').length + 1,
    code: match[3].split('\n').map((line) => line.slice(match[1].length)).join('\n')
  }))
}

/** Every fenced code block of the README and of the pages of docs/, the README's first, each file's in order. */
export function readmeBlocks (): ReadmeBlock[] {
  return documentationFiles().flatMap((file) => markdownBlocks(documentationText(file), file))
}

/** A block that a client compiles against the types generated from the document: it imports them from './api.js'. */
export const isClientBlock = (block: ReadmeBlock): boolean => block.code.includes("from './api.js'")

/** The output a snippet shows in the comment lines that end it, one `// ` line per printed line. */
export function shownOutput (code: string): string {
  const lines = code.trimEnd().split('\n')
  const shown: string[] = []
  while (lines.length > 0 && lines[lines.length - 1].startsWith('// ')) shown.unshift(lines.pop()!.slice(3))
  return shown.map((line) => line + '\n').join('')
}

/**
 * The anchors GitHub gives a Markdown text's headings: the heading's text without its markup, lowercased, every
 * character but letters, digits, '-', '_' and spaces dropped, each space a '-'; a repeated anchor gets -1, -2...
 */
export function headingAnchors (text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of withoutFences(text).split('\n')) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)
    if (heading === null) continue
    const words = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, '')
    const slug = words.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** A Markdown text with its fenced blocks blanked, their lines kept so that line numbers stay. */
function withoutFences (text: string): string {
  return text.replace(/^( *)```\w*\n[\s\S]*?^\1```$/gm, (block) => block.replace(/[^\n]/g, ''))
}

/** A Markdown text without its fenced blocks and with its code spans emptied: what is left of it is prose. */
function withoutCode (text: string): string {
  return withoutFences(text).split('\n').map((line) => line.replace(/(`+)[\s\S]*?\1/g, '``')).join('\n')
}

/** A project file's text: undefined when there is no such file, '' for a folder. */
function readProjectFile (file: string): string | undefined {
  const url = new URL(file, root)
  if (!existsSync(url)) return undefined
  return statSync(url).isDirectory() ? '' : readFileSync(url, 'utf8')
}

/**
 * The relative links and `#anchors` of some Markdown files (paths from the project's root) that lead nowhere: to a file
 * or folder the project does not have, or to an anchor that no heading of the target file gives. Links with a scheme
 * (https:, mailto:) are not followed. `read` gives a project file's text (undefined when it does not exist, '' for a folder).
 */
export function brokenLinks (files: string[], read: (file: string) => string | undefined = readProjectFile): string[] {
  const broken: string[] = []
  for (const file of files) {
    const lines = withoutCode(read(file) ?? '').split('\n')
    lines.forEach((line, index) => {
      for (const [, target] of line.matchAll(/\]\(<?([^)\s>]*)>?(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue
        const [path, anchor] = target.split('#', 2)
        const where = `${file}:${index + 1}: ${target}`
        const destination = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)))
        const text = destination.startsWith('../') ? undefined : read(destination)
        if (text === undefined) broken.push(`${where} (no file ${destination})`)
        else if (anchor !== undefined && !headingAnchors(text).has(anchor)) broken.push(`${where} (no heading of ${destination} has the anchor #${anchor})`)
      }
    })
  }
  return broken
}
