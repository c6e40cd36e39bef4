import t from 'tap'
import { brokenLinks, documentationFiles, headingAnchors } from './readme.js'

// The README and the pages of docs/ link to each other, to their sections and to files of the project: each such link
// must lead somewhere, as GitHub renders it.

t.test('every relative link and #anchor of the README and of docs/ leads to a file and a heading that exist', async (t) => {
  t.ok(documentationFiles().includes('docs/orm.md'))
  t.strictSame(brokenLinks(documentationFiles()), [])
})

t.test('headings give the anchors GitHub gives them', async (t) => {
  const text = [
    '# fastify-restricted-fields',
    '## Each caller\'s document',
    '### Loading only what is sent, with an ORM',
    '## `only` and `defer`',
    '## snake_case and kebab-case ##',
    '## See [Usage](#usage)',
    '## Usage', '## Usage', '## Usage',
    '```sh',
    '# a comment, not a heading',
    '```',
    '#not a heading'
  ].join('\n')
  t.strictSame([...headingAnchors(text)], [
    'fastify-restricted-fields', 'each-callers-document', 'loading-only-what-is-sent-with-an-orm', 'only-and-defer',
    'snake_case-and-kebab-case', 'see-usage', 'usage', 'usage-1', 'usage-2'
  ])
})

t.test('a link to a missing file, a missing heading or out of the project is reported with its file and line', async (t) => {
  const files: Record<string, string> = {
    'README.md': [
      '# Title', '## Usage', '',
      'See [usage](#usage), [the page](docs/page.md), [its section](docs/page.md#a-section), [lib](lib), [npm](https://www.npmjs.com/#x).',
      'Broken: [a](#nowhere), [b](docs/missing.md), [c](docs/page.md#usage), [d](../outside.md).',
      '`[not a link](#nowhere)`',
      '```md', '[not a link either](#nowhere)', '```'
    ].join('\n'),
    'docs/page.md': '# Page\n\n## A section\n\nBack to [the README](../README.md#usage); [broken](../README.md#a-section).\n',
    lib: ''
  }
  t.strictSame(brokenLinks(['README.md', 'docs/page.md'], (file) => files[file]), [
    'README.md:5: #nowhere (no heading of README.md has the anchor #nowhere)',
    'README.md:5: docs/missing.md (no file docs/missing.md)',
    'README.md:5: docs/page.md#usage (no heading of docs/page.md has the anchor #usage)',
    'README.md:5: ../outside.md (no file ../outside.md)',
    'docs/page.md:5: ../README.md#a-section (no heading of README.md has the anchor #a-section)'
  ])
})
