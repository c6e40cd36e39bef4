import { test } from 'tap'
import { decodePointerToken, encodePointerToken, fragmentReadings, pointerNames, pointerTo, valueAtPointer } from '../lib/json.js'

test('JSON pointers are decoded per RFC 6901, and in a URI fragment percent-decoded first', async (t) => {
  t.equal(decodePointerToken('a~1b~0c~01'), 'a/b~c~1')
  t.equal(encodePointerToken('a/b~c'), 'a~1b~0c')
  t.strictSame(pointerNames('/owner/a~1b'), ['owner', 'a/b'])
  t.strictSame(fragmentReadings('/s%73n/a~1b/%7E1'), [['ssn', 'a/b', '/'], ['s%73n', 'a/b', '%7E1']], 'percent-decoded first, then as it stands')
  t.strictSame(fragmentReadings('/owner%2Fssn'), [['owner', 'ssn'], ['owner%2Fssn']], 'a percent-encoded slash separates two names once decoded')
  t.strictSame(fragmentReadings('/ssn/%E0%A4%A'), [['ssn', '%E0%A4%A']], 'malformed percent-encoding: one reading, as it stands')
  t.strictSame(fragmentReadings(''), [[]])
})

test('a pointer one token deeper encodes only the tokens that need it, and a local pointer is read back to its value', async (t) => {
  t.equal(pointerTo('/a', 'b/c~d'), '/a/b~1c~0d')
  t.equal(pointerTo('/a', 0), '/a/0')
  const root = { a: { 'b/c~d': [1, 2] } }
  t.strictSame(valueAtPointer(root, pointerTo(pointerTo('/a', 'b/c~d'), 1)), 2)
  t.equal(valueAtPointer(root, '/a/x'), undefined)
  t.equal(valueAtPointer(root, '/a/b~1c~0d/0/x'), undefined)
})
