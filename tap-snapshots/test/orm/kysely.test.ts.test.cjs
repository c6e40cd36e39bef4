/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/orm/kysely.test.ts > TAP > kyselySelect plans relations of relations, at any depth, with their own sources and hidden fields > the statements of each request 1`] = `
Array [
  Array [
    "select \\"id\\", \\"title\\", (select to_json(obj) from (select \\"id\\", \\"name\\", \\"first_name\\", \\"last_name\\", (select to_json(obj) from (select \\"id\\", \\"city\\" from \\"profiles\\" where \\"profiles\\".\\"id\\" = \\"users\\".\\"profile_id\\") as obj) as \\"profile\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\", (select coalesce(json_agg(agg), '[]') from (select \\"id\\", \\"body\\", (select to_json(obj) from (select \\"id\\", \\"name\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"comments\\".\\"author_id\\") as obj) as \\"author\\" from \\"comments\\" where \\"comments\\".\\"post_id\\" = \\"posts\\".\\"id\\" order by \\"comments\\".\\"id\\") as agg) as \\"comments\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", \\"title\\", (select to_json(obj) from (select \\"id\\", \\"name\\", \\"first_name\\", \\"last_name\\", (select to_json(obj) from (select \\"id\\", \\"city\\", \\"phone\\" from \\"profiles\\" where \\"profiles\\".\\"id\\" = \\"users\\".\\"profile_id\\") as obj) as \\"profile\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\", (select coalesce(json_agg(agg), '[]') from (select \\"id\\", \\"body\\", \\"flagged\\", (select to_json(obj) from (select \\"id\\", \\"name\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"comments\\".\\"author_id\\") as obj) as \\"author\\" from \\"comments\\" where \\"comments\\".\\"post_id\\" = \\"posts\\".\\"id\\" order by \\"comments\\".\\"id\\") as agg) as \\"comments\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", \\"title\\", (select to_json(obj) from (select \\"id\\", (select to_json(obj) from (select \\"id\\", \\"city\\" from \\"profiles\\" where \\"profiles\\".\\"id\\" = \\"users\\".\\"profile_id\\") as obj) as \\"profile\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", (select coalesce(json_agg(agg), '[]') from (select (select to_json(obj) from (select \\"id\\", \\"name\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"comments\\".\\"author_id\\") as obj) as \\"author\\" from \\"comments\\" where \\"comments\\".\\"post_id\\" = \\"posts\\".\\"id\\" order by \\"comments\\".\\"id\\") as agg) as \\"comments\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", (select to_json(obj) from (select \\"id\\", \\"first_name\\", \\"last_name\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\", (select coalesce(json_agg(agg), '[]') from (select \\"body\\" from \\"comments\\" where \\"comments\\".\\"post_id\\" = \\"posts\\".\\"id\\" order by \\"comments\\".\\"id\\") as agg) as \\"comments\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", (select to_json(obj) from (select \\"id\\", (select to_json(obj) from (select \\"id\\", \\"city\\", \\"phone\\" from \\"profiles\\" where \\"profiles\\".\\"id\\" = \\"users\\".\\"profile_id\\") as obj) as \\"profile\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [],
  Array [
    "select \\"id\\", (select coalesce(json_agg(agg), '[]') from (select \\"flagged\\" from \\"comments\\" where \\"comments\\".\\"post_id\\" = \\"posts\\".\\"id\\" order by \\"comments\\".\\"id\\") as agg) as \\"comments\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
  Array [
    "select \\"id\\", \\"title\\", (select to_json(obj) from (select \\"id\\", \\"name\\", \\"first_name\\", \\"last_name\\" from \\"users\\" where \\"users\\".\\"id\\" = \\"posts\\".\\"author_id\\") as obj) as \\"author\\" from \\"posts\\" order by \\"posts\\".\\"id\\"",
  ],
]
`
