// Generates the Prisma client the ORM tests run on, offline. `prisma generate`
// fetches its schema engine's checksum before it starts, though generating
// does not use the engine; pointing it at any executable skips the download.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const cli = createRequire(import.meta.url).resolve('prisma/build/index.js')
const schema = fileURLToPath(new URL('schema.prisma', import.meta.url))
try {
  execFileSync(process.execPath, [cli, 'generate', '--schema', schema], {
    stdio: 'pipe',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' }
  })
} catch (error) {
  process.stderr.write(`${error.stdout}${error.stderr}`)
  process.exit(1)
}
