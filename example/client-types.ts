/**
 * The types of the example's typed client, generated from the document an
 * anonymous caller is served: openapi-typescript's `api.ts`, and the
 * plugin's `restricted.ts` read from the same document. `npm run
 * example:client-types` writes them; a test checks they are up to date.
 */
import openapiTS, { astToString } from 'openapi-typescript'
import { restrictedRoutesSource } from '../lib/client/generate.js'

/** The two generated files, from a document. */
export async function clientTypes (document: unknown): Promise<{ 'api.ts': string, 'restricted.ts': string }> {
  return {
    'api.ts': astToString(await openapiTS(JSON.parse(JSON.stringify(document)))),
    'restricted.ts': restrictedRoutesSource(document, { types: './api.js' })
  }
}
