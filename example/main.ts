import { closeOnSignals, startServer } from './server.js'

// `node main.js` serves users from memory; `node main.js database` from an embedded database.
const storage = process.argv[2] === 'database' ? 'database' : 'memory'
try {
  closeOnSignals(await startServer(process.env, storage))
} catch (error) {
  console.error(`Cannot start the example server: ${(error as Error).message}`)
  process.exitCode = 1
}
