import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** A fenced code block of README.md. */
export interface ReadmeBlock {
  /** The fence's info string: `js`, `ts`, `sh`... */
  language: string
  /** The README line the code starts on. */
  line: number
  code: string
}

/** Every fenced code block of README.md, in order. */
export function readmeBlocks (): ReadmeBlock[] {
  const text = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8')
  // A fence may be indented, inside a list item: its lines lose that indentation.
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((match) => ({
    language: match[2],
    line: text.slice(0, match.index).split('\n').length + 1,
    code: match[3].split('\n').map((line) => line.slice(match[1].length)).join('\n')
  }))
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
