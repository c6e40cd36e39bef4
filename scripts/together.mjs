/**
 * `node scripts/together.mjs lint build:test`: runs those npm scripts at once,
 * each printing as it goes, and fails when one of them fails. npm test runs the
 * linter beside the type-checking build: each of them keeps one core busy for
 * half a minute, and one after the other they left the second core idle.
 */
import { spawn } from 'node:child_process'

const runs = process.argv.slice(2).map(async (script) => await new Promise((resolve) => {
  const child = spawn('npm', ['run', script], { stdio: 'inherit', shell: process.platform === 'win32' })
  child.on('error', () => resolve(false))
  child.on('exit', (code) => resolve(code === 0))
}))
process.exitCode = (await Promise.all(runs)).every(Boolean) ? 0 : 1
