import { test } from 'tap'
import { pageCount, pageLink, parsePage } from '../../example/pagination.js'

test('pageCount: an empty list still has page 1', async (t) => {
  t.strictSame([pageCount(0, 10), pageCount(1, 10), pageCount(10, 10), pageCount(11, 10)], [1, 1, 1, 2])
})

test('parsePage reads a positive integer or last, and explains anything else', async (t) => {
  const rows: Array<[unknown, unknown]> = [
    [undefined, { ok: true, page: 1 }],
    ['3', { ok: true, page: 3 }],
    ['last', { ok: true, page: 20 }],
    ['0', { ok: false, message: "Invalid page '0': page must be an integer from 1 to 999999999, or 'last'" }],
    ['-1', { ok: false, message: "Invalid page '-1': page must be an integer from 1 to 999999999, or 'last'" }],
    ['1.5', { ok: false, message: "Invalid page '1.5': page must be an integer from 1 to 999999999, or 'last'" }],
    ['01', { ok: false, message: "Invalid page '01': page must be an integer from 1 to 999999999, or 'last'" }],
    ['9999999999', { ok: false, message: "Invalid page '9999999999': page must be an integer from 1 to 999999999, or 'last'" }],
    ['', { ok: false, message: "Invalid page '': page must be an integer from 1 to 999999999, or 'last'" }],
    [['1', '2'], { ok: false, message: "Invalid page '1,2': page must be an integer from 1 to 999999999, or 'last'" }]
  ]
  for (const [raw, expected] of rows) t.strictSame(parsePage(raw, 20), expected, String(raw))
})

test('pageLink keeps every other parameter in its order and form, and sets or drops page', async (t) => {
  const base = 'http://h/api/users/'
  const rows: Array<[string, number, string]> = [
    ['', 2, 'http://h/api/users/?page=2'],
    ['only=id&only=name', 2, 'http://h/api/users/?only=id&only=name&page=2'],
    ['only=id,name&page=3&defer[]=x', 4, 'http://h/api/users/?only=id,name&page=4&defer[]=x'],
    ['page=2&only=id', 1, 'http://h/api/users/?only=id'],
    ['page=2', 1, 'http://h/api/users/'],
    ['only%5B%5D=id&pa%67e=5&&q=a+b', 6, 'http://h/api/users/?only%5B%5D=id&page=6&q=a+b'],
    ['bad%zz=1&page', 2, 'http://h/api/users/?bad%zz=1&page=2']
  ]
  for (const [query, page, expected] of rows) t.equal(pageLink(base, query, page), expected, `${query} -> ${page}`)
})
