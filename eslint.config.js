import neostandard from 'neostandard'

export default neostandard({
  ts: true,
  ignores: ['dist/**', 'coverage/**', '.tap/**', 'test/orm/prisma/generated/**', 'tap-snapshots/**', 'example/api.ts', 'example/restricted.ts', 'test/types/generated/**']
})
