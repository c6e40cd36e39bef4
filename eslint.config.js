import neostandard from 'neostandard'
import local from './scripts/eslint-code-length.js'

export default [
  ...neostandard({
    ts: true,
    ignores: [
      'dist/**', 'coverage/**', '.tap/**', 'test/orm/prisma/generated/**', 'tap-snapshots/**',
      'example/api.ts', 'example/restricted.ts', 'test/types/generated/**'
    ]
  }),
  {
    // A reader follows a line of 140 characters; a string, a template or a URL may run past it, where breaking it would hurt more.
    files: ['bench/**', 'test/**', 'example/**'],
    rules: {
      '@stylistic/max-len': ['error', {
        code: 140,
        ignoreStrings: true,
        ignoreTemplateLiterals: true,
        ignoreUrls: true,
        ignoreRegExpLiterals: true
      }]
    }
  },
  {
    // The library's own lines are counted outside their strings, templates and URLs: `max-len` lets through any line that holds a
    // string, an `import` or `export … from` of any length among them.
    files: ['lib/**', 'scripts/**'],
    plugins: { local },
    rules: { 'local/code-length': ['error', 140] }
  }
]
