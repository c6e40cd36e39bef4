/**
 * A small YAML writer for JSON data, for `fastify.swagger({ yaml: true })`:
 * block style, strings plain where they cannot read back as anything else
 * (`title: Users`) and quoted as JSON otherwise (a JSON string is a valid
 * YAML double-quoted scalar).
 */
import { isRecord } from '../json.js'

type Json = Record<string, unknown>

const PLAIN_KEY = /^[A-Za-z_$][\w$.-]*$/
const YAML_WORDS = /^(?:y|n|yes|no|on|off|true|false|null)$/i

function yamlKey (key: string): string {
  return PLAIN_KEY.test(key) && !YAML_WORDS.test(key) ? key : JSON.stringify(key)
}

// A letter first (no number, date or indicator), then only characters that
// mean nothing in a plain scalar: no `:`, `#`, quotes or brackets of flow style.
const PLAIN_TEXT = /^[A-Za-z][\w .,/()'+-]*$/

function yamlScalar (value: unknown): string {
  if (Array.isArray(value)) return '[]'
  if (isRecord(value)) return '{}'
  if (typeof value === 'string' && PLAIN_TEXT.test(value) && !value.endsWith(' ') && !YAML_WORDS.test(value)) return value
  return JSON.stringify(value)
}

function isComposite (value: unknown): value is Json | unknown[] {
  return Array.isArray(value) ? value.length > 0 : isRecord(value) && Object.keys(value).length > 0
}

function yamlBlock (value: Json | unknown[], indent: string): string {
  const lines: string[] = []
  if (Array.isArray(value)) {
    for (const item of value) {
      // A mapping or sequence as an item starts on the dash's line: `- key: value`.
      lines.push(isComposite(item) ? `${indent}- ${yamlBlock(item, indent + '  ').slice(indent.length + 2)}` : `${indent}- ${yamlScalar(item)}`)
    }
  } else {
    for (const [key, member] of Object.entries(value)) {
      lines.push(isComposite(member) ? `${indent}${yamlKey(key)}:\n${yamlBlock(member, indent + '  ')}` : `${indent}${yamlKey(key)}: ${yamlScalar(member)}`)
    }
  }
  return lines.join('\n')
}

/**
 * Writes a JSON value as block-style YAML 1.2, strings plain where they may be and quoted as in JSON
 * otherwise; what JSON.stringify leaves out is left out.
 */
export function toYaml (value: unknown): string {
  const json: unknown = JSON.parse(JSON.stringify(value) ?? 'null')
  return (isComposite(json) ? yamlBlock(json, '') : yamlScalar(json)) + '\n'
}
