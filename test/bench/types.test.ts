import { test } from 'tap'
import { readFileSync } from 'node:fs'
import { typesSection, updateTypesSection } from '../../bench/types-section.js'
import type { TypesResults } from '../../bench/types-section.js'

const file = (name: string): string => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')

test('the type-level bench\'s figures in docs/typescript.md are those of the committed bench/types.json', async (t) => {
  const page = file('docs/typescript.md')
  t.equal(updateTypesSection(page, JSON.parse(file('bench/types.json'))), page, 'npm run bench:types writes the table from the committed file')
})

const results: TypesResults = {
  date: '2026-11-27T21:00:00.000Z',
  machine: { cpus: 2, model: 'Test CPU', node: 'v20.19.0', typescript: '5.9.3', loadavg: 7.25 },
  description: { title: 'GitHub', restrictedRoutes: 410, generatedBytes: 219_136 },
  base: { restricted: { instantiations: 1000, checkMs: 900 }, plain: { instantiations: 800, checkMs: 850 } },
  runs: [
    {
      calls: 1,
      enumParameters: 0,
      restricted: { instantiations: 16_419, checkMs: 1200 },
      plain: { instantiations: 38_850, checkMs: 2900 }
    },
    {
      calls: 200,
      enumParameters: 61,
      restricted: { instantiations: 224_817, checkMs: 4761.4 },
      plain: { instantiations: 179_965, checkMs: 36_032 }
    }
  ]
}

test('the section gives the run\'s settings, the file without calls, and each count of calls for both clients with the cost per call', async (t) => {
  t.equal(typesSection(results), [
    'The committed run, `bench/types.json`, of 2026-11-27: GitHub\'s description served by the plugin (410 restricted GET routes; the generated `RestrictedRoutes` is 214 KB), ' +
      'TypeScript 5.9.3, Node v20.19.0, 2 cores (Test CPU) at a load average of 7.3. ' +
      'Each call selects three fields of a different route and passes its path parameters, and its first enum query parameter as a plain literal where it has one. ' +
      'Instantiations are the file\'s less those of the same file without a call (1,000 through the restricted client, 800 through openapi-fetch); ' +
      'check times are the whole file\'s (without a call: 900 and 850 ms).',
    '',
    '| calls | of them with an enum literal | restricted client: instantiations | check (ms) | per call | openapi-fetch: instantiations | check (ms) | per call |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    '| 1 | 0 | 16,419 | 1,200 | 16,419 | 38,850 | 2,900 | 38,850 |',
    '| 200 | 61 | 224,817 | 4,761 | 1,124 | 179,965 | 36,032 | 900 |'
  ].join('\n'))
})

test('a page without the section is refused, and the section is replaced between its markers', async (t) => {
  t.throws(() => updateTypesSection('# Typed selection\n', results), { message: 'the page has no <!-- bench:types --> … <!-- /bench:types --> section' })
  t.equal(updateTypesSection('a\n<!-- bench:types -->\nold\n<!-- /bench:types -->\nb\n', results), `a\n<!-- bench:types -->\n${typesSection(results)}\n<!-- /bench:types -->\nb\n`)
})
