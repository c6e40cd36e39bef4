/**
 * The thread that builds callers' documents of a large API, so that the
 * event loop of the server does not wait for them (document-builder.ts starts it).
 * It runs the same build as the server's thread (`buildDocument`: document.ts,
 * whole, with its last check), on the JSON text of the generated document,
 * and answers the caller's document as pieced JSON text, or the refusal.
 */
import { parentPort } from 'node:worker_threads'
import { buildDocument } from './document-builder.js'
import type { WorkerAnswer, WorkerRequest } from './document-builder.js'
import type { RestrictedRoute } from './types.js'
import { toYaml } from './yaml.js'

/** The generated document, as the last `source` request gave it, and the routes sent since. */
interface Source { document: unknown, routes: Map<string, RestrictedRoute> }

/**
 * Answers one request; a `source` or `route` request has no answer. A failure of the build is made
 * again by the server's thread, where its error is logged.
 */
export function answer (source: Source, request: Exclude<WorkerRequest, { kind: 'close' }>): WorkerAnswer | null {
  if (request.kind === 'source') {
    source.document = JSON.parse(request.text)
    source.routes = new Map()
    return null
  }
  if (request.kind === 'route') {
    source.routes.set(request.id, request.route)
    return null
  }
  const { id } = request
  try {
    if (request.kind === 'yaml') return { id, yaml: toYaml(JSON.parse(request.text)) }
    // The object stays here: only its text crosses.
    const built = buildDocument(source.document, source.routes, request.hidden)
    return { id, built: 'refused' in built ? built : { json: built.json } }
  } catch {
    return { id, failed: true }
  }
}

const port = parentPort
if (port !== null) {
  const source: Source = { document: null, routes: new Map() }
  port.on('message', (request: WorkerRequest) => {
    // Closed, the thread ends once its last answer is sent, as a thread that ends by itself does.
    if (request.kind === 'close') return port.close()
    const reply = answer(source, request)
    if (reply !== null) port.postMessage(reply)
  })
}
