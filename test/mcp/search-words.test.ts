import { test } from 'tap'
import { COUNTERPARTS, PLURAL_WORDS, RELATED, RETIRED_WORDS, SELF_WORDS, SINGULAR_WORDS, STOP_WORDS, SYNONYMS, TUNED }
  from '../../lib/mcp/search-words.js'

const SOURCES = ['abbreviation', 'inflection', 'derivation', 'thesaurus', 'HTTP semantics', 'API usage']

test('every entry of a word table is a lower-case word that searches other lower-case words, and says where it comes from', async (t) => {
  for (const [name, table] of Object.entries({ COUNTERPARTS, SYNONYMS, RELATED })) {
    for (const [word, { words, source }] of Object.entries(table)) {
      t.match(word, /^[a-z]+$/, `${name}: ${word}`)
      t.ok(words.length > 0 && words.every((other) => /^[a-z]+$/.test(other) && other !== word), `${name}: ${word} searches other words`)
      t.ok(SOURCES.includes(source), `${name}: ${word} comes from ${source}`)
    }
  }
})

test('the word lists are lower-case words, each once', async (t) => {
  for (const [name, list] of Object.entries({ STOP_WORDS, SINGULAR_WORDS, PLURAL_WORDS, RETIRED_WORDS, SELF_WORDS })) {
    t.ok(list.every((word) => /^[a-z]+$/.test(word)), name)
    t.equal(new Set(list).size, list.length, `${name} has no repeated word`)
  }
})

test('the tuned numbers are positive, and weigh a word\'s relatives below the word itself', async (t) => {
  for (const [field, boost] of Object.entries(TUNED.boost)) t.ok(boost > 0, field)
  t.ok(TUNED.counterpart < 1 && TUNED.related < 1 && TUNED.prefix < 1 && TUNED.proseMatch < 1)
  t.ok(TUNED.shape > 1 && TUNED.self > 1 && TUNED.value > 1 && TUNED.retired < 1 && TUNED.others < 1)
})
