// No call: the cost of the client's types alone.
import type { RestrictedClient } from '../../../lib/client/types.js'
import type { Routes } from './routes.js'

declare const api: RestrictedClient<Routes>
export const client = api
