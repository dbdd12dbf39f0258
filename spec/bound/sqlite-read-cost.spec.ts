import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { type CostConnection, SqliteReadCost } from '../../lib/dialect/sqlite-read-cost.ts'

/** The rows `explain query plan` gives `sql` on SQLite, as the routing of bounded reads estimates them. */
describe("SQLite's estimate of the rows a read reads", () => {
  let db: Knex
  let connection: CostConnection & { exec(sql: string): void }

  before(async () => {
    db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
    connection = (await db.client.acquireConnection()) as typeof connection
    connection.exec('create table users (id integer primary key, email text unique, team integer)')
    connection.exec('create table posts (id integer primary key, user_id integer, views integer)')
    connection.exec('create index posts_user on posts (user_id)')
    connection.exec('create table tags (post_id integer, tag text, primary key (post_id, tag)) without rowid')
    connection.exec(
      "insert into users with recursive s(g) as (select 1 union all select g + 1 from s where g < 1000) select g, 'u' || g, g % 10 from s",
    )
    connection.exec(
      'insert into posts with recursive s(g) as (select 1 union all select g + 1 from s where g < 40000) select g, g % 1000 + 1, g % 97 from s',
    )
    connection.exec("insert into tags select id, 't' from posts where id <= 500")
  })

  after(async () => {
    await db.client.releaseConnection(connection)
    await db.destroy()
  })

  const rows = (sql: string, bindings: unknown[] = []): number | undefined =>
    new SqliteReadCost().rows(connection, sql, bindings)

  it('a search by the rowid or a unique key reads one row; a scan, or a range on the rowid, the whole table', () => {
    expect(rows('select * from users where id = ?', [3])).to.equal(1)
    expect(rows('select * from users where email = ?', ['u3'])).to.equal(1)
    expect(rows('select * from tags where post_id = ? and tag = ?', [1, 't'])).to.equal(1)
    expect(rows('select * from users order by id limit 20')).to.equal(1000)
    expect(rows('select * from posts where id > ? order by id limit 20', [5])).to.equal(40000)
    expect(rows('select * from "users" as "u2" order by "u2"."id" limit 20'), 'an alias').to.equal(1000)
  })

  it('an equality on an index that is not unique: √rows without statistics, sqlite_stat1 once analysed', async () => {
    expect(rows('select * from posts where user_id = ?', [3])).to.equal(200)
    connection.exec('analyze')
    try {
      expect(rows('select * from posts where user_id = ?', [3])).to.equal(40)
    } finally {
      connection.exec('drop table sqlite_stat1')
    }
  })

  it('nested loops multiply, a correlated subquery multiplies by the rows around it, a temporary b-tree adds', () => {
    // users scanned (1000), then for each its posts by index (√40000 = 200): 1000 + 1000 × 200
    expect(rows('select * from users join posts on posts.user_id = users.id')).to.equal(1000 + 1000 * 200)
    // users scanned (1000), a sort of 1000, and a correlated max over each user's posts (200 each)
    expect(
      rows('select id, (select max(views) from posts where posts.user_id = users.id) as m from users order by m desc'),
    ).to.equal(1000 + 1000 * 200 + 1000)
  })

  it("a loop over a subquery's rows reads no table: the rows count where the subquery made them", () => {
    // users scanned in the subquery (1000), then one search by the rowid for each of its rows
    expect(
      rows(
        'select users.* from (select id from users order by id limit 20 offset 500) as k join users on users.id = k.id',
      ),
    ).to.equal(1000 + 1000)
  })

  it('a recursive step has no end, and a statement SQLite cannot explain has no estimate', () => {
    expect(
      rows('with recursive n(i) as (select 1 union all select i + 1 from n where i < 5) select count(*) from n'),
    ).to.equal(Number.POSITIVE_INFINITY)
    expect(rows('select * from no_such_table')).to.equal(undefined)
  })
})
