/**
 * The example server for `npm run bench:tokens`, in a process of its own so
 * that its CPU time is its own: it reports its port once it listens, and
 * answers each 'cpu' message with the CPU time it has used so far.
 */
import { buildApp } from '../example/app.js'
import { defaultUsersFile } from '../example/server.js'
import { memoryStore } from '../example/store.js'
import { loadUsers } from '../example/users.js'

// The staff token is the first argument: the bench sends it as a staff caller would.
const app = await buildApp({ store: memoryStore(loadUsers(defaultUsersFile)), pageSize: 10, staffToken: process.argv[2] })
await app.listen({ port: 0, host: '127.0.0.1' })
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() })
  if (message === 'close') app.close().then(() => process.exit(0), () => process.exit(1))
})
process.send?.({ origin: app.listeningOrigin })
