/**
 * Run before tap by `npm run test:unit`: builds tap's Test class for the
 * plugins of package.json's `tap.plugin` when the installed one was built for
 * another set, as it is after `npm ci` (the suite leaves out tap's default
 * TypeScript plugin for test/tsx, which loads tsx). tap would rebuild the
 * class by itself, but the run that rebuilds it still gives its test files
 * the old set's loaders: the first run after an install would load ts-node.
 */
import '@tapjs/core'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { TapConfig } from '@tapjs/config'
import { signature } from '@tapjs/test'

const config = await TapConfig.load()
if (config.pluginSignature !== signature) {
  const require = createRequire(import.meta.url)
  const tap = join(dirname(require.resolve('tap/package.json')), require('tap/package.json').bin.tap)
  const { status } = spawnSync(process.execPath, [tap, 'build'], { stdio: 'inherit' })
  process.exitCode = status ?? 1
}
