import neostandard from 'neostandard'
export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'coverage/**', '.tap/**', 'test/orm/prisma/generated/**', 'tap-snapshots/**', 'example/api.ts', 'example/restricted.ts', 'test/types/generated/**'] }),
  { files: ['lib/**', 'bench/**', 'test/**', 'example/**'], rules: { '@stylistic/max-len': ['error', { code: 140, ignoreUrls: true, ignoreRegExpLiterals: true, ignorePattern: String.raw`(['"\x60])(?:(?!\1).){40,}\1|(['"\x60])(?:(?!\2).){40,}$|^(?:(?!['"\x60]).)*\x60` }] } }
]
