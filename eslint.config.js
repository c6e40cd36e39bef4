import neostandard from 'neostandard'

export default neostandard({
  ts: true,
  ignores: ['dist/**', 'coverage/**', '.tap/**', 'test/orm/prisma/generated/**', 'example/api.ts', 'example/restricted.ts']
})
