/**
 * Registers tsx in the thread that imports this: each test process, and each
 * worker thread it starts, which inherits its `--import`s. tsx's own
 * `--import=tsx` registers itself in the main thread only on Node 20, where the
 * document thread (lib/openapi/document-builder.ts) could not load its `.ts`
 * file then.
 */
import { register as registerHooks } from 'node:module'
import { register as registerCommonJs } from 'tsx/cjs/api'
import { register } from 'tsx/esm/api'

register()
registerCommonJs()
// After tsx, so that it reads what tsx wrote.
registerHooks('./sources.mjs', import.meta.url)
