/**
 * The most a tool result may weigh. Agent hosts cap what one result may put
 * in a model's context (Claude Code: 25,000 tokens) and cut or refuse the
 * rest; one page of GitHub's issues is a third of that. So a reply past the
 * budget is not sent: the call answers what the reply would have cost, which
 * of its fields weigh most, and how to ask for less, so that the agent's next
 * call fits.
 */
import { Buffer } from 'node:buffer'
import { ResultTooLargeError } from '../errors.js'
import { isRecord } from '../json.js'
import type { RouteFieldsDescription } from '../openapi/route-fields.js'

/**
 * Bytes of compact JSON per token, erring low: tokenizers such as o200k
 * read about 3.5 to 4 bytes of an API's JSON a token, and an estimate that
 * errs low refuses a reply that fits rather than send one that does not.
 */
export const BYTES_PER_TOKEN = 3

/** The default budget of one result, in tokens: Claude Code's cap. */
export const RESULT_TOKENS = 25_000

/** How many of the heaviest fields the message names. */
const HEAVIEST = 5

/** Query arguments by which routes commonly page, as the message names them. */
const PAGING = /^(page|per_?page|page_?size|limit|offset|cursor|after|before|starting_after|ending_before|skip|top|count|size)$/i

/** A reply's estimated tokens: its bytes over BYTES_PER_TOKEN. */
export function estimatedTokens (body: string): number {
  return Math.ceil(Buffer.byteLength(body) / BYTES_PER_TOKEN)
}

/** The records of a reply, where the route's description says they sit; the reply itself when it says nothing. */
function recordsOf (reply: unknown, fields: RouteFieldsDescription | undefined): unknown[] {
  const where = fields === undefined ? undefined : Object.values(fields.statuses)[0]
  if (where?.records === 'envelope' && isRecord(reply) && where.key !== undefined) reply = reply[where.key]
  return Array.isArray(reply) ? reply : [reply]
}

/**
 * The top-level fields of the records that weigh most, heaviest first, with
 * their share of the records' bytes in whole percents. Only what the reply
 * holds is named: it was sent to this caller, so it names no hidden field.
 */
export function heaviestFields (reply: unknown, fields: RouteFieldsDescription | undefined): Array<{ name: string, percent: number }> {
  const weights = new Map<string, number>()
  let total = 0
  for (const record of recordsOf(reply, fields)) {
    if (!isRecord(record)) continue
    for (const [name, value] of Object.entries(record)) {
      const weight = name.length + 3 + JSON.stringify(value).length
      weights.set(name, (weights.get(name) ?? 0) + weight)
      total += weight
    }
  }
  return [...weights].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).slice(0, HEAVIEST)
    .map(([name, weight]) => ({ name, percent: Math.round(100 * weight / total) }))
}

/**
 * The error result of a reply of `body` past `budget` tokens: its size, its
 * heaviest fields, the route's field sets and default fields as the caller's
 * own description has them, and the arguments that page it; null when the
 * reply fits.
 */
export function oversizedResult (
  body: string, budget: number, fields: RouteFieldsDescription | undefined, queryArguments: readonly string[]
): InstanceType<typeof ResultTooLargeError> | null {
  const tokens = estimatedTokens(body)
  if (tokens <= budget) return null
  let reply: unknown
  try {
    reply = JSON.parse(body)
  } catch {}
  const parts = [`The reply is about ${tokens} tokens (${Buffer.byteLength(body)} bytes), more than the ${budget} one result may hold.`]
  const heaviest = heaviestFields(reply, fields)
  if (heaviest.length > 0) parts.push(`Its heaviest fields: ${heaviest.map(({ name, percent }) => `${name} (${percent}%)`).join(', ')}.`)
  if (fields !== undefined) {
    const sets = Object.entries(fields.sets)
    const heaviestOut = heaviest.length === 0 ? '' : `, or leave the heaviest out with \`${fields.defer}\` (${JSON.stringify([heaviest[0].name])})`
    parts.push(`Ask for the fields you need with \`${fields.only}\`${heaviestOut}${sets.length === 0 ? '' : `; field sets: ${sets.map(([name, members]) => `@${name} (${members.join(', ')})`).join('; ')}`}.`)
    if (fields.defaultFields !== undefined) parts.push(`Without \`${fields.only}\` the route sends ${fields.defaultFields.join(', ')}.`)
  }
  const paging = queryArguments.filter((name) => PAGING.test(name))
  if (paging.length > 0) parts.push(`Or ask for less at a time: ${paging.join(', ')}.`)
  return new ResultTooLargeError(parts.join(' '))
}
