/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/orm/prisma.test.ts > TAP > prismaSelect nests a select for relations of relations, at any depth, with their own sources and hidden fields > the statements of each request 1`] = `
Array [
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"title\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\", \\"public\\".\\"users\\".\\"first_name\\", \\"public\\".\\"users\\".\\"last_name\\", \\"public\\".\\"users\\".\\"profile_id\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"comments\\".\\"id\\", \\"public\\".\\"comments\\".\\"body\\", \\"public\\".\\"comments\\".\\"author_id\\", \\"public\\".\\"comments\\".\\"post_id\\" FROM \\"public\\".\\"comments\\" WHERE \\"public\\".\\"comments\\".\\"post_id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"profiles\\".\\"id\\", \\"public\\".\\"profiles\\".\\"city\\" FROM \\"public\\".\\"profiles\\" WHERE \\"public\\".\\"profiles\\".\\"id\\" IN ($1,$2) OFFSET $3",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"title\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\", \\"public\\".\\"users\\".\\"first_name\\", \\"public\\".\\"users\\".\\"last_name\\", \\"public\\".\\"users\\".\\"profile_id\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"comments\\".\\"id\\", \\"public\\".\\"comments\\".\\"body\\", \\"public\\".\\"comments\\".\\"flagged\\", \\"public\\".\\"comments\\".\\"author_id\\", \\"public\\".\\"comments\\".\\"post_id\\" FROM \\"public\\".\\"comments\\" WHERE \\"public\\".\\"comments\\".\\"post_id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"profiles\\".\\"id\\", \\"public\\".\\"profiles\\".\\"city\\", \\"public\\".\\"profiles\\".\\"phone\\" FROM \\"public\\".\\"profiles\\" WHERE \\"public\\".\\"profiles\\".\\"id\\" IN ($1,$2) OFFSET $3",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"title\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"profile_id\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"profiles\\".\\"id\\", \\"public\\".\\"profiles\\".\\"city\\" FROM \\"public\\".\\"profiles\\" WHERE \\"public\\".\\"profiles\\".\\"id\\" IN ($1,$2) OFFSET $3",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"comments\\".\\"id\\", \\"public\\".\\"comments\\".\\"author_id\\", \\"public\\".\\"comments\\".\\"post_id\\" FROM \\"public\\".\\"comments\\" WHERE \\"public\\".\\"comments\\".\\"post_id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"first_name\\", \\"public\\".\\"users\\".\\"last_name\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"comments\\".\\"id\\", \\"public\\".\\"comments\\".\\"body\\", \\"public\\".\\"comments\\".\\"post_id\\" FROM \\"public\\".\\"comments\\" WHERE \\"public\\".\\"comments\\".\\"post_id\\" IN ($1,$2,$3) OFFSET $4",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"profile_id\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
    "SELECT \\"public\\".\\"profiles\\".\\"id\\", \\"public\\".\\"profiles\\".\\"city\\", \\"public\\".\\"profiles\\".\\"phone\\" FROM \\"public\\".\\"profiles\\" WHERE \\"public\\".\\"profiles\\".\\"id\\" IN ($1,$2) OFFSET $3",
  ],
  Array [],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"comments\\".\\"id\\", \\"public\\".\\"comments\\".\\"flagged\\", \\"public\\".\\"comments\\".\\"post_id\\" FROM \\"public\\".\\"comments\\" WHERE \\"public\\".\\"comments\\".\\"post_id\\" IN ($1,$2,$3) OFFSET $4",
  ],
  Array [
    "SELECT \\"public\\".\\"posts\\".\\"id\\", \\"public\\".\\"posts\\".\\"title\\", \\"public\\".\\"posts\\".\\"author_id\\" FROM \\"public\\".\\"posts\\" WHERE 1=1 ORDER BY \\"public\\".\\"posts\\".\\"id\\" ASC OFFSET $1",
    "SELECT \\"public\\".\\"users\\".\\"id\\", \\"public\\".\\"users\\".\\"name\\", \\"public\\".\\"users\\".\\"first_name\\", \\"public\\".\\"users\\".\\"last_name\\" FROM \\"public\\".\\"users\\" WHERE \\"public\\".\\"users\\".\\"id\\" IN ($1,$2,$3) OFFSET $4",
  ],
]
`
