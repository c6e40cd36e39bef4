import { test } from 'tap'
import { bodyTrie, decodePointerToken, encodePointerToken, fragmentReadings, hiddenTrie, hiddenWhole, hidesPath, mergedTries, pointerReachesHidden, trieText, wholeNames } from '../lib/hidden-paths.js'

const hidden = hiddenTrie(['ssn', 'owner.email', 'owner.address.city', 'a/b', 'm~n'])

test('a trie marks each hidden path, a field hidden whole stays hidden whole, and whole names are read per level', async (t) => {
  t.strictSame(hiddenTrie(['owner', 'owner.email']), hiddenTrie(['owner.email', 'owner']), 'the order of the paths does not matter to what is hidden')
  t.equal(hiddenTrie(['owner', 'owner.email']).children.get('owner')?.whole, true)
  t.strictSame([hiddenWhole(hidden, 'ssn'), hiddenWhole(hidden, 'owner'), hiddenWhole(hidden, 'id'), hiddenWhole(hidden, 7)], [true, false, false, false])
  t.strictSame(wholeNames(hidden), ['ssn', 'a/b', 'm~n'])
  const rows: Array<[string, boolean]> = [['ssn', true], ['ssn.x', true], ['owner', false], ['owner.email', true], ['owner.address', false], ['owner.address.city', true], ['id', false]]
  for (const [path, expected] of rows) t.equal(hidesPath(hidden, path), expected, path)
})

test('tries merge into what either hides, and a body\'s trie puts the records where its shape says', async (t) => {
  t.strictSame(mergedTries(hiddenTrie(['a.x', 'b']), hiddenTrie(['a.y', 'c'])), hiddenTrie(['a.x', 'a.y', 'b', 'c']))
  t.strictSame(mergedTries(hiddenTrie(['a']), hiddenTrie(['a.y'])).children.get('a')?.whole, true, 'a path hidden whole by one stays whole')
  const records = hiddenTrie(['ssn'])
  t.equal(bodyTrie(records, { kind: 'object' }), records)
  t.equal(bodyTrie(records, { kind: 'array' }), records)
  t.strictSame(bodyTrie(records, { kind: 'envelope', key: 'results' }), hiddenTrie(['results.ssn']))
  t.strictSame(bodyTrie(records, { kind: 'auto', key: 'results' }), hiddenTrie(['ssn', 'results.ssn']))
})

test('one text per trie, worked out once', async (t) => {
  const trie = hiddenTrie(['a.b', 'c'])
  t.equal(trieText(trie), '[["a","[[\\"b\\",1]]"],["c",1]]')
  t.equal(trieText(trie), trieText(trie))
  t.not(trieText(hiddenTrie(['a'])), trieText(hiddenTrie(['a.b'])))
})

test('JSON pointers are decoded per RFC 6901, and in a URI fragment percent-decoded first', async (t) => {
  t.equal(decodePointerToken('a~1b~0c~01'), 'a/b~c~1')
  t.equal(encodePointerToken('a/b~c'), 'a~1b~0c')
  t.strictSame(fragmentReadings('/s%73n/a~1b/%7E1'), [['ssn', 'a/b', '/'], ['s%73n', 'a/b', '%7E1']], 'percent-decoded first, then as it stands')
  t.strictSame(fragmentReadings('/owner%2Fssn'), [['owner', 'ssn'], ['owner%2Fssn']], 'a percent-encoded slash separates two names once decoded')
  t.strictSame(fragmentReadings('/ssn/%E0%A4%A'), [['ssn', '%E0%A4%A']], 'malformed percent-encoding: one reading, as it stands')
  t.strictSame(fragmentReadings(''), [[]])
  const rows: Array<[string, boolean]> = [
    ['/ssn', true],
    ['/s%73n', true],
    ['/owner', false],
    ['/owner/email', true],
    ['/owner/address/city/x', true],
    ['/owner/address/zip', false],
    ['/0/ssn', true],
    ['/-/owner/email', true],
    ['/x/ssn', false],
    ['/a~1b', true],
    ['/a%2Fb', false],
    ['/owner%2Femail', true],
    ['/a~1b%2Fx', true],
    ['/m~0n', true],
    ['', false]
  ]
  for (const [pointer, expected] of rows) t.equal(pointerReachesHidden(pointer, hidden), expected, pointer)
})
