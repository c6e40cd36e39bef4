import { startServer } from './server.js'

try {
  await startServer(process.env)
} catch (error) {
  console.error(`Cannot start the example server: ${(error as Error).message}`)
  process.exitCode = 1
}
