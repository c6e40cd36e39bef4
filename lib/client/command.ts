/**
 * The `fastify-restricted-fields generate` command: reads the OpenAPI
 * document a caller is served, from a URL (with that caller's headers) or a
 * file, and writes the `RestrictedRoutes` type of a typed client. The
 * command's work is here, with its reading and writing handed in, so that a
 * test can watch them; `bin.ts` only runs it with the process's.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { restrictedRoutesSource } from './generate.js'

export const USAGE = `Usage: fastify-restricted-fields generate <url or file> [options]

Writes the RestrictedRoutes type of fastify-restricted-fields/client from the
OpenAPI 3 document (JSON) that the plugin serves a caller: beside the types
openapi-typescript writes from the same document.

Options:
  -o, --output <file>    Where to write the types. Default: standard output.
  -H, --header <header>  A header sent with the request for a URL, as 'Name: value'
                         (the caller's credentials: 'Authorization: Bearer ...'). Repeatable.
  --types <module>       The module of openapi-typescript's output, as the types import it.
                         Default: ./api.js
  --document <file>      Also write the document read, for openapi-typescript to read the same.
  -h, --help             Show this message.

Example:
  fastify-restricted-fields generate http://127.0.0.1:3000/documentation/json -o restricted.ts --document openapi.json
  openapi-typescript openapi.json -o api.ts
`

/** What the command was asked to do. */
export interface GenerateCommand {
  /** A URL (`http:`, `https:`) or a file path. */
  readonly source: string
  /** The file to write the types to; null for standard output. */
  readonly output: string | null
  /** The headers sent with a URL's request, by name. */
  readonly headers: Readonly<Record<string, string>>
  /** The module the types import openapi-typescript's output from. */
  readonly types: string
  /** The file to write the document to; null for none. */
  readonly document: string | null
}

/** The arguments read: a command, the usage asked for, or why they are refused. */
export type ParsedArguments = { readonly command: GenerateCommand } | { readonly help: true } | { readonly error: string }

const isUrl = (source: string): boolean => /^https?:\/\//i.test(source)

/** A header as `Name: value`, or null when it is not one. */
function headerOf (text: string): [string, string] | null {
  const colon = text.indexOf(':')
  const name = text.slice(0, colon).trim()
  return colon <= 0 || !/^[!#$%&'*+.^`|~\w-]+$/.test(name) ? null : [name, text.slice(colon + 1).trim()]
}

/** Reads the command's arguments (those after the program's name). */
export function parseArguments (argv: readonly string[]): ParsedArguments {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        header: { type: 'string', short: 'H', multiple: true },
        types: { type: 'string' },
        document: { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      }
    })
  } catch (error) {
    return { error: (error as Error).message }
  }
  const { values, positionals } = parsed
  if (values.help === true) return { help: true }
  const [name, source, ...more] = positionals
  if (name !== 'generate') return { error: name === undefined ? 'a command is expected: generate' : `unknown command '${name}': the command is generate` }
  if (source === undefined || source === '') return { error: 'generate reads a document: give its URL or file' }
  if (more.length > 0) return { error: `generate reads one document, not also '${more.join(' ')}'` }
  const headers: Record<string, string> = {}
  for (const text of values.header ?? []) {
    const header = headerOf(text)
    if (header === null) return { error: `--header takes 'Name: value', not '${text}'` }
    headers[header[0]] = header[1]
  }
  if (Object.keys(headers).length > 0 && !isUrl(source)) return { error: '--header is sent with a URL\'s request; the document is read from a file' }
  return {
    command: { source, output: values.output ?? null, headers, types: values.types ?? './api.js', document: values.document ?? null }
  }
}

/** What the command reads and writes with: the process's, or a test's. */
export interface CommandIo {
  readonly fetch: (
    url: string,
    init: { headers: Record<string, string> }
  ) => Promise<{ ok: boolean, status: number, text: () => Promise<string> }>
  readonly readFile: (path: string) => Promise<string>
  readonly writeFile: (path: string, text: string) => Promise<void>
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
}

/** The process's: the global fetch, the file system, the standard streams. */
export const processIo: CommandIo = {
  fetch: async (url, init) => await fetch(url, init),
  readFile: async (path) => await readFile(path, 'utf8'),
  writeFile: async (path, text) => await writeFile(path, text),
  stdout: process.stdout.write.bind(process.stdout),
  stderr: process.stderr.write.bind(process.stderr)
}

/** The document's text, from its URL or file. */
async function documentText (command: GenerateCommand, io: CommandIo): Promise<string> {
  if (!isUrl(command.source)) return await io.readFile(command.source)
  const response = await io.fetch(command.source, { headers: { accept: 'application/json', ...command.headers } })
  if (!response.ok) throw new Error(`${command.source} answered ${response.status}`)
  return await response.text()
}

/** Runs the command and returns the process's exit code: 0 done, 1 failed, 2 bad arguments. */
export async function runCommand (argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseArguments(argv)
  if ('help' in parsed) {
    io.stdout(USAGE)
    return 0
  }
  if ('error' in parsed) {
    io.stderr(`fastify-restricted-fields: ${parsed.error}\n\n${USAGE}`)
    return 2
  }
  const { command } = parsed
  try {
    const text = await documentText(command, io)
    let document: unknown
    try {
      document = JSON.parse(text)
    } catch {
      throw new Error(`${command.source} is not JSON: the command reads the JSON document (/documentation/json)`)
    }
    const source = restrictedRoutesSource(document, { types: command.types })
    if (command.document !== null) await io.writeFile(command.document, text)
    if (command.output === null) io.stdout(source)
    else await io.writeFile(command.output, source)
    return 0
  } catch (error) {
    io.stderr(`fastify-restricted-fields: ${(error as Error).message}\n`)
    return 1
  }
}
