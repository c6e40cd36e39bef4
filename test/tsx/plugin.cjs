/**
 * A tap plugin (package.json's `tap.plugin`) that loads TypeScript through
 * tsx instead of tap's default ts-node plugin. tap's own @tapjs/tsx plugin
 * waits on a release for tap 21.8, and on Node 20 it registers tsx in the
 * main thread only. `preload` puts this loader before tap's mock and
 * coverage loaders, which must see each module as tsx resolves it.
 */
exports.importLoader = 'tap-tsx-loader/register.mjs'
exports.preload = true
exports.testFileExtensions = ['ts']
