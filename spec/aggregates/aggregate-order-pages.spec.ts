import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * Pages ordered by an aggregate on SQLite and PostgreSQL (the dialects with `correlatedAggregateOrder`):
 * - read as a deferred page, the inner query finds the page's keys through the grouped join, and the outer query
 *   reads the aggregates of the page's rows alone as correlated subqueries instead of grouping every related row a
 *   second time (figure 16's users by `postsViewsMax`, page 12 of 100: 2.9 s on SQLite with the second grouped
 *   join, 1.7 s without);
 * - a where testing an aggregate the page is not ordered by, or a first order on a column, makes the page correlated
 *   without a probe (the probe would cost as much as the page, or walk further than it); a where testing the
 *   aggregate the page is ordered by reads the order's grouped join, without a probe either.
 */
const map = defineRelationMap({
  dap_users: {
    columns: { id: 'integer', name: { type: 'string', nullable: false }, grp: { type: 'integer', nullable: false } },
    relations: { posts: { type: 'hasMany', table: 'dap_posts', foreignKey: 'user_id' } },
    aggregates: { postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' } },
  },
  dap_posts: { columns: { id: 'integer', user_id: { type: 'integer', nullable: false }, views: 'integer' } },
})

const USERS = 1_200
/** Users 1–1,100 have posts: user u has u % 4 + 1 of them. */
const postsOf = (user: number): number[] =>
  user > 1_100 ? [] : Array.from({ length: (user % 4) + 1 }, (_, k) => (user * 31 + k * 17) % 500)
const maxOf = (user: number): number | null => {
  const views = postsOf(user)
  return views.length === 0 ? null : Math.max(...views)
}

/** The users in the page's order: the max views, most first (NULL last descending, as everywhere here), then id. */
const ordered = (): number[] =>
  Array.from({ length: USERS }, (_, i) => i + 1).sort(
    (a, b) => (maxOf(b) ?? -Infinity) - (maxOf(a) ?? -Infinity) || a - b,
  )

const REQUEST =
  'with[0]=postsViewsMax&orders[0][column]=postsViewsMax&orders[0][direction]=desc&orders[1][column]=id&limit=5'

for (const db of testDatabases()) {
  describe(`pages ordered by an aggregate (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('dap_users'), parseQueryParams(request), map)

    before(async () => {
      await db.knex.schema.dropTableIfExists('dap_posts')
      await db.knex.schema.dropTableIfExists('dap_users')
      await db.knex.schema.createTable('dap_users', (table) => {
        table.increments('id')
        table.string('name', 20).notNullable()
        table.integer('grp').notNullable()
      })
      await db.knex.schema.createTable('dap_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('dap_posts_user_id')
        table.integer('views').notNullable()
      })
      const users = Array.from({ length: USERS }, (_, i) => ({ id: i + 1, name: `user ${i + 1}`, grp: (i + 1) % 7 }))
      await db.knex.batchInsert('dap_users', users, 400)
      const posts = users.flatMap(({ id }) => postsOf(id).map((views) => ({ user_id: id, views })))
      await db.knex.batchInsert('dap_posts', posts, 400)
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('dap_posts')
      await db.knex.schema.dropTableIfExists('dap_users')
    })

    it("reads the page's aggregates for its rows alone: one grouped join, in the inner query", async () => {
      const offset = 1_097
      const { queries, result } = await countQueries(db.knex, async () =>
        rowsOf(await apply(`${REQUEST}&offset=${offset}`)),
      )
      const expected = ordered().slice(offset, offset + 5)
      expect(result.map((row) => [row.id, row.posts_views_max])).to.deep.equal(expected.map((id) => [id, maxOf(id)]))
      expect(expected.some((id) => maxOf(id) !== null) && expected.some((id) => maxOf(id) === null)).to.equal(true)
      const page = queries.find(({ sql }) => /kqp_page/.test(sql))?.sql ?? ''
      expect(page, 'a deferred page').to.not.equal('')
      // SQLite groups by `+key` (a scan and a sort: see `Dialect.groupedJoinScan`).
      const by = db.name === 'sqlite' ? '\\+' : ''
      const grouped =
        page.match(
          new RegExp(`group by ${by}[\`"]dap_posts[\`"]\\.[\`"]user_id[\`"]\\) as [\`"]kqp_aggregate[\`"]`, 'g'),
        ) ?? []
      if (db.name === 'mysql') {
        expect(grouped, 'MariaDB: no correlated orders, the grouped join in both queries').to.have.length(2)
      } else {
        expect(grouped).to.have.length(1)
        const outer = page.split(/ as [`"]kqp_page[`"] /)[1] ?? ''
        expect(outer).to.match(/order by \(select max\([`"]dap_posts[`"]\.[`"]views[`"]\) from [`"]dap_posts[`"] where/)
        expect(outer).to.not.match(/kqp_aggregate/)
      }
    })

    it('a where testing another aggregate: one statement, its orders correlated; the same aggregate reads the grouped join', async () => {
      const testsMax = 'wheres[0][column]=posts_views_max&wheres[0][operator]=%3C&wheres[0][value]=300&limit=5&page=3'
      const { queries, result } = await countQueries(db.knex, async () =>
        rowsOf(await apply(`${testsMax}&orders[0][column]=postsCount&orders[0][direction]=desc&orders[1][column]=id`)),
      )
      const kept = Array.from({ length: USERS }, (_, i) => i + 1).filter((id) => (maxOf(id) ?? Infinity) < 300)
      const expected = kept.sort((a, b) => postsOf(b).length - postsOf(a).length || a - b).slice(10, 15)
      expect(result.map((row) => row.id)).to.deep.equal(expected)
      const correlates = db.name !== 'mysql'
      expect(queries.map(({ sql }) => /kqp_frequent/.test(sql))).to.deep.equal([false])
      expect(/kqp_aggregate/.test(queries[0]?.sql ?? '')).to.equal(!correlates)
      if (correlates) expect(queries[0]?.sql).to.match(/order by \(select count\(\*\) from [`"]dap_posts[`"]/)
      const byMax = await countQueries(db.knex, async () =>
        rowsOf(await apply(`${testsMax}&orders[0][column]=postsViewsMax&orders[1][column]=id`)),
      )
      const maxKept = kept.sort((a, b) => (maxOf(a) ?? -Infinity) - (maxOf(b) ?? -Infinity) || a - b).slice(10, 15)
      expect(byMax.result.map((row) => row.id)).to.deep.equal(maxKept)
      // The aggregate the page is ordered by: the where reads the order's grouped join, with no probe anywhere.
      expect(byMax.queries).to.have.length(1)
      expect(byMax.queries[0]?.sql).to.match(/where \([`"]kqp_aggregate[`"]\.[`"]kqp_value[`"] < /)
    })

    it('a first order on a column: the aggregate only breaks its ties, correlated, with no probe and no grouped join', async () => {
      const { queries, result } = await countQueries(db.knex, async () =>
        rowsOf(
          await apply(
            'orders[0][column]=grp&orders[1][column]=postsViewsMax&orders[1][direction]=desc&orders[2][column]=id&limit=5&page=40',
          ),
        ),
      )
      const expected = Array.from({ length: USERS }, (_, i) => i + 1)
        .sort((a, b) => (a % 7) - (b % 7) || (maxOf(b) ?? -Infinity) - (maxOf(a) ?? -Infinity) || a - b)
        .slice(195, 200)
      expect(result.map((row) => row.id)).to.deep.equal(expected)
      expect(queries).to.have.length(1)
      const sql = queries[0]?.sql ?? ''
      expect(/kqp_aggregate/.test(sql)).to.equal(db.name === 'mysql')
      if (db.name !== 'mysql') expect(sql).to.match(/order by [`"]dap_users[`"]\.[`"]grp[`"] asc, \(select max\(/)
    })

    it('MariaDB defers every page ordered by an aggregate, the first one too: it sorts the keys, not every column', async () => {
      const query = apply('orders[0][column]=postsViewsMax&orders[0][direction]=desc&orders[1][column]=id&limit=5')
      const { sql } = query.toSQL()
      expect(/kqp_page/.test(sql), 'a deferred page').to.equal(db.name === 'mysql')
      expect(rowsOf(await query).map((row) => row.id)).to.deep.equal(ordered().slice(0, 5))
      const byColumn = apply('orders[0][column]=name&limit=5').toSQL().sql
      expect(byColumn, 'a page by a column keeps the plain page').to.not.include('kqp_page')
    })

    it('a page before the deferred offset, and a later page, give the same rows as the whole order', async () => {
      for (const offset of [0, 1_095, 1_195]) {
        const rows = rowsOf(await apply(`${REQUEST}&offset=${offset}`))
        const expected = ordered().slice(offset, offset + 5)
        expect(
          rows.map((row) => [row.id, row.posts_views_max]),
          `offset ${offset}`,
        ).to.deep.equal(expected.map((id) => [id, maxOf(id)]))
      }
    })
  })
}
