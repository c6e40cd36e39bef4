/**
 * `npm run soak`: runs the example server in its own process and drives it
 * with autocannon for SOAK_SECONDS (default 60) with a mix of valid, invalid
 * and ever-new field selections, then prints the requests, the non-2xx
 * answers by status, errors and timeouts (which must be 0), p99 latency and
 * the server's resident memory over the run. Exits 1 on any error, timeout
 * or 5xx, or when memory keeps growing through the second half of the run.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const seconds = Number(process.env.SOAK_SECONDS ?? 60)
const FIELDS = ['id', 'name', 'email', 'is_staff']

async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

function rssMiB (pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

// A deterministic generator, so that two runs send the same requests.
let seed = 42
function random (): number {
  seed = (seed * 48271) % 2147483647
  return seed / 2147483647
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]

let counter = 0
function nextPath (): string {
  counter++
  const subset = FIELDS.filter(() => random() < 0.5)
  const page = 1 + Math.floor(random() * 20)
  const roll = random()
  if (roll < 0.5) {
    // Valid, in a random spelling.
    const param = pick(['only', 'defer'])
    const spelled = pick([
      () => subset.map((f) => `${param}=${f}`).join('&'),
      () => `${param}=${subset.join(',')}`,
      () => subset.map((f) => `${param}[]=${f}`).join('&')
    ])()
    return `/api/users/?${spelled}&page=${page}`
  }
  if (roll < 0.7) {
    // Invalid: an unknown field, a path too deep, a malformed page, a page past the end, a missing user.
    return pick([
      `/api/users/?only=password${counter}`,
      `/api/users/?only=${'id.'.repeat(20)}id`,
      '/api/users/?page=zero',
      '/api/users/?page=999',
      `/api/users/${1000 + counter}?only=id`
    ])
  }
  // Ever new: a query string never sent before, so nothing remembered can answer it.
  return `/api/users/${1 + Math.floor(random() * 200)}?only=${subset.join(',')}&nonce=${counter}`
}

const port = await freePort()
const main = fileURLToPath(new URL('../example/main.js', import.meta.url))
const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' }, stdio: ['ignore', 'inherit', 'inherit'] })
for (let i = 0; i < 50; i++) {
  try {
    await fetch(`http://127.0.0.1:${port}/api/users/1`)
    break
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const rss: Array<{ second: number, mib: number }> = [{ second: 0, mib: rssMiB(child.pid!) }]
const sampler = setInterval(() => { rss.push({ second: rss.length * 5, mib: rssMiB(child.pid!) }) }, 5000)
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: 32,
  duration: seconds,
  requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }]
})
clearInterval(sampler)
rss.push({ second: seconds, mib: rssMiB(child.pid!) })
child.kill()

const statusCodeStats = result.statusCodeStats as Record<string, { count?: number }>
const byStatus = Object.entries(statusCodeStats).map(([status, stats]) => [status, stats.count ?? 0] as const)
const statuses = byStatus.map(([status, count]) => `${status}: ${count}`).join(', ')
const fiveXx = byStatus.filter(([status]) => status.startsWith('5')).reduce((n, [, count]) => n + count, 0)
const middle = rss[Math.floor(rss.length / 2)].mib
const end = rss[rss.length - 1].mib
const growth = (end - middle) / middle
console.log(`requests: ${result.requests.total} in ${seconds} s (${Math.round(result.requests.average)} req/s)`)
console.log(`statuses: ${statuses}`)
console.log(`errors: ${result.errors}, timeouts: ${result.timeouts}, 5xx: ${fiveXx}`)
console.log(`latency p99: ${result.latency.p99} ms, max: ${result.latency.max} ms`)
console.log(`server RSS (MiB): start ${rss[0].mib.toFixed(1)}, middle ${middle.toFixed(1)}, end ${end.toFixed(1)}; every 5 s: ${rss.map((s) => s.mib.toFixed(0)).join(' ')}`)
console.log(`growth through the second half: ${(growth * 100).toFixed(1)}%`)
if (result.errors > 0 || result.timeouts > 0 || fiveXx > 0 || growth > 0.1) {
  console.log('FAILED')
  process.exitCode = 1
}
