import { test } from 'tap'
import {
  addToTrie, bodyTrie, childOf, hiddenTrie, hiddenWhole, hidesPath, mergedTries, pointerReachesHidden, trieKey, wholeNames
} from '../lib/hidden-paths.js'
import type { PathTrie } from '../lib/hidden-paths.js'

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

test('a trie grows a node per new name, and a node with no children yet shares one empty map until it gets one', async (t) => {
  const root: PathTrie = { whole: false, children: new Map() }
  const leaf = addToTrie(root, ['a', 'b'])
  t.equal(addToTrie(root, ['a', 'b']), leaf, 'a path already there is found, not made again')
  t.equal(childOf(root, 'a').children.get('b'), leaf)
  const first = childOf(root, 'x')
  const second = childOf(root, 'y')
  t.equal(first.children, second.children, 'two childless nodes share one map')
  childOf(first, 'z')
  t.equal(second.children.size, 0, 'a child added to one is not added to the other')
})

test('one key per set of hidden paths: the same paths give the same key, whatever the order they were built in, worked out once', async (t) => {
  const trie = hiddenTrie(['c', 'a.b'])
  t.equal(trieKey(trie), '[["a","[[\\"b\\",\\"1\\"]]"],["c","1"]]')
  t.equal(trieKey(trie), trieKey(trie))
  t.equal(trieKey(hiddenTrie(['c', 'a.b', 'a.d'])), trieKey(hiddenTrie(['a.d', 'a.b', 'c'])), 'the order of the paths does not matter')
  t.equal(trieKey(hiddenTrie(['a', 'a.b'])), trieKey(hiddenTrie(['a'])), 'a path below a field hidden whole hides nothing more')
  t.not(trieKey(hiddenTrie(['a'])), trieKey(hiddenTrie(['a.b'])))
  t.equal(trieKey({ whole: true, children: new Map() }), '1')
})

test('a pointer into an instance reaches a hidden path read as written or percent-decoded, through any index of an array', async (t) => {
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
