import { test } from 'tap'
import { fieldList, isBounded, isFieldList, keepNames, listedNames } from '../../lib/openapi/field-lists.js'

const top = Array.from({ length: 60 }, (_, index) => `f${index}`)
const second = top.slice(0, 30).map((name) => `${name}.x`)
const third = second.map((name) => `${name}.y`)
const deeper = (depth: number): Record<string, string> => ({ type: 'string', pattern: `^[^.]+(\\.[^.]+){${depth},}$` })

test('a list of names within its bound is an enum of them all; past it, the depths that fit and a pattern of deeper paths', async (t) => {
  const table: Array<[string, string[], number, unknown]> = [
    ['a list that fits is kept whole', ['a', 'a.b', '*'], 3, { type: 'string', enum: ['a', 'a.b', '*'] }],
    ['an empty list', [], 1, { type: 'string', enum: [] }],
    ['the deepest depth that fits, `*` and the sets kept', [...top, ...second, ...third, '*', '@summary'], 100,
      { anyOf: [{ type: 'string', enum: [...top, ...second, '*', '@summary'] }, deeper(2)] }],
    ['at least the top level, however many names it has', [...top, 'f0.x'], 10, { anyOf: [{ type: 'string', enum: top }, deeper(1)] }],
    ['a depth without names of its own is passed over', ['a', 'b', 'a.b.c'], 2, { anyOf: [{ type: 'string', enum: ['a', 'b'] }, deeper(2)] }]
  ]
  for (const [title, names, limit, expected] of table) t.strictSame(fieldList(names, limit), expected, title)
  const many = Array.from({ length: 500_000 }, (_, index) => `a.f${index}`)
  t.strictSame(fieldList(['a', ...many], 10), { anyOf: [{ type: 'string', enum: ['a'] }, deeper(1)] }, 'half a million names, without a stack overflow')
})

test('the pattern takes every path deeper than the listed ones, and nothing the list could have named', async (t) => {
  const { anyOf: [, { pattern }] } = fieldList([...top, ...second, ...third], 100)
  const table: Array<[string, boolean]> = [['f0.x.y', true], ['f0.x.y.z.w', true], ['a.b.c', true], ['f0.x', false], ['f0', false], ['f0..y', false], ['*', false]]
  for (const [name, taken] of table) t.equal(new RegExp(pattern).test(name), taken, name)
})

test('a list is read, and its names filtered, whether it is bounded or not; another schema is left as it is', async (t) => {
  const plain = fieldList(['a', 'b', '*'], 3)
  const bounded = fieldList(['a', 'b', '*', 'a.c'], 3)
  const table: Array<[string, unknown, boolean, boolean, string[]]> = [
    ['a plain list', plain, true, false, ['a', 'b', '*']],
    ['a bounded list', bounded, true, true, ['a', 'b', '*']],
    ['a string', { type: 'string' }, false, false, []],
    ['an anyOf of other schemas', { anyOf: [{ type: 'integer' }] }, false, false, []],
    ['an empty anyOf', { anyOf: [] }, false, false, []],
    ['no schema', null, false, false, []]
  ]
  for (const [title, list, isList, bound, names] of table) {
    t.strictSame([isFieldList(list), isBounded(list), listedNames(list)], [isList, bound, names], title)
  }
  const keep = (name: string): boolean => name !== '*'
  t.strictSame(keepNames(plain, keep), { type: 'string', enum: ['a', 'b'] })
  t.strictSame(keepNames(bounded, keep), { anyOf: [{ type: 'string', enum: ['a', 'b'] }, deeper(1)] })
  const other = { type: 'string' }
  t.equal(keepNames(other, keep), other)
})
