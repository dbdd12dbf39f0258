import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * Users ordered by an aggregate whose where tests another one: MariaDB reads the tested aggregate from a grouped join
 * of its own (`Dialect.joinedAggregateTests`), where a correlated subquery ran once per user. A page whose wheres keep
 * few rows by declaration (`id = ?`) has its aggregates correlated on every dialect, with no probe.
 */
const map = defineRelationMap({
  ja_users: {
    columns: { id: 'integer', name: { type: 'string', nullable: false } },
    relations: { posts: { type: 'hasMany', table: 'ja_posts', foreignKey: 'user_id' } },
    aggregates: { postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' } },
  },
  ja_posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', nullable: false },
      views: { type: 'integer', nullable: false },
    },
  },
})

const USERS = 600
const POSTS = 6_000
// Users 1 to 500 have posts, most 12, some 24 (a hash); 501 to 600 have none. Ties go by id, as the last order.
const userOf = (post: number): number => (((post * 7919) % 997) % 500) + 1
const viewsOf = (post: number): number => (post * 104_729) % 10_000
const posts = Array.from({ length: POSTS }, (_, index) => index + 1)
const users = Array.from({ length: USERS }, (_, index) => index + 1)
const countOf = (user: number): number => posts.filter((post) => userOf(post) === user).length
const maxOf = (user: number): number | null => {
  const views = posts.filter((post) => userOf(post) === user).map(viewsOf)
  return views.length === 0 ? null : Math.max(...views)
}
const TESTED =
  'wheres[0][column]=posts_views_max&wheres[0][operator]=>=&wheres[0][value]=9900&orders[0][column]=postsCount&orders[0][direction]=desc'

for (const db of testDatabases()) {
  describe(`a where on an aggregate of a page ordered by another (${db.name})`, function () {
    this.timeout(120_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('ja_users'), parseQueryParams(request), map, { frequencyMemoMs: 0 })

    before(async () => {
      await db.knex.schema.dropTableIfExists('ja_posts')
      await db.knex.schema.dropTableIfExists('ja_users')
      await db.knex.schema.createTable('ja_users', (table) => {
        table.increments('id')
        table.string('name', 40).notNullable()
      })
      await db.knex.schema.createTable('ja_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('ja_posts_user_id')
        table.integer('views').notNullable().index('ja_posts_views')
      })
      await db.knex.batchInsert(
        'ja_users',
        users.map((id) => ({ id, name: `user ${id}` })),
        500,
      )
      await db.knex.batchInsert(
        'ja_posts',
        posts.map((id) => ({ id, user_id: userOf(id), views: viewsOf(id) })),
        500,
      )
      await db.knex.raw(db.name === 'mysql' ? 'analyze table ja_users, ja_posts' : 'analyze')
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('ja_posts')
      await db.knex.schema.dropTableIfExists('ja_users')
    })

    it('returns the users whose largest views pass, by their post count', async () => {
      const expected = users
        .filter((user) => (maxOf(user) ?? -1) >= 9_900)
        .sort((a, b) => countOf(b) - countOf(a) || b - a)
      expect(expected.length).to.be.greaterThan(30)
      const rows = (await apply(`${TESTED}&limit=10&page=2`)) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal(expected.slice(10, 20))
    })

    it('a page of one user by id has its aggregate correlated, in one statement without a probe', async () => {
      const query = apply(
        'wheres[0][column]=id&wheres[0][value]=7&orders[0][column]=postsViewsMax&with[0]=postsViewsMax&limit=10',
      )
      const ran = await countQueries(db.knex, async () => (await query) as Array<{ id: number }>)
      expect(ran.queries).to.have.length(1)
      expect(ran.queries[0]?.sql).to.not.include('kqp_aggregate')
      expect(ran.queries[0]?.sql).to.match(/order by \(select max\(/)
      expect(ran.result.map((row) => row.id)).to.deep.equal([7])
    })

    if (db.name !== 'mysql') {
      it('SQLite and PostgreSQL: the tested aggregate stays a correlated test of the matches, whether some post reaches the bound', async () => {
        const ran = await countQueries(db.knex, async () => await apply(`${TESTED}&limit=10&page=2`))
        const page = ran.queries[ran.queries.length - 1]?.sql ?? ''
        expect(page).to.match(
          /exists \(select 1 from [`"]ja_posts[`"] where [`"]ja_posts[`"]\.[`"]user_id[`"] = [`"]ja_users[`"]\.[`"]id[`"] and [`"]ja_posts[`"]\.[`"]views[`"] >= (\?|\$\d+)\)/,
        )
        expect(page).to.not.match(/\(select max\(/)
      })
      return
    }

    it("MariaDB: the tested aggregate is read from the order's grouped join over the same posts, in one statement", async () => {
      const ran = await countQueries(db.knex, async () => await apply(`${TESTED}&limit=10&page=2`))
      expect(ran.queries).to.have.length(1)
      const page = ran.queries[0]?.sql ?? ''
      expect(page).to.include(
        'left join (select `ja_posts`.`user_id` as `kqp_key`, count(*) as `kqp_value`, max(`ja_posts`.`views`) as `kqp_value_2` from `ja_posts` group by `ja_posts`.`user_id`) as `kqp_aggregate` on `kqp_aggregate`.`kqp_key` = `ja_users`.`id`',
      )
      expect(page).to.include('where (`kqp_aggregate`.`kqp_value_2` >= ?)')
      expect(page).to.not.include('kqp_aggregate_2')
      expect(page).to.not.match(/\(select max\(/)
    })

    it('MariaDB: a page by id, which stops early, keeps the correlated test and no grouped join for it', async () => {
      const query = apply(
        'wheres[0][column]=posts_views_max&wheres[0][operator]=>=&wheres[0][value]=9900&orders[0][column]=id&limit=10',
      )
      const ran = await countQueries(db.knex, async () => await query)
      expect(ran.queries[0]?.sql).to.include(
        'where (((select 1 from `ja_posts` where `ja_posts`.`user_id` = `ja_users`.`id` and `ja_posts`.`views` >= ? limit 1) is not null))',
      )
      expect(ran.queries[0]?.sql).to.not.include('kqp_aggregate')
    })
  })
}
