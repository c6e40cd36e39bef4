import { test } from 'tap'
import { readFileSync } from 'node:fs'

const file = (name: string): string => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')

interface TaskRow { task: string, calls: string[], tokens: { wholePretty: number, wholeCompact: number, chosen: number, compact: number }, chosenOverWhole: number }

test('the token tables of docs/agents.md are those of the committed bench/tokens.json, and a list task\'s chosen fields cost at most a fifth of the whole page', async (t) => {
  const results = JSON.parse(file('bench/tokens.json'))
  const page = file('docs/agents.md')
  for (const row of results.tasks as TaskRow[]) {
    const { wholePretty, wholeCompact, chosen, compact } = row.tokens
    const line = `| ${row.task} | ${row.calls.length} | ${wholePretty} | ${wholeCompact} | ${chosen} | ${compact} | ${row.chosenOverWhole.toFixed(2)} |`
    t.ok(page.includes(line), line)
  }
  for (const caller of ['anonymous', 'staff']) {
    const { generic, withFieldChoicesWithoutEnums, withFieldChoices, withOutputSchemas } = results.definitions[caller]
    const line = `| ${caller} | ${generic} | ${withFieldChoicesWithoutEnums} | ${withFieldChoices} | ${withOutputSchemas} |`
    t.ok(page.includes(line), line)
  }
  const names = (results.tasks as TaskRow[]).find((row) => row.task === 'a page of names') as TaskRow
  t.ok(names.tokens.chosen * 5 <= names.tokens.wholeCompact, `${names.tokens.chosen} tokens against ${names.tokens.wholeCompact}`)
})
