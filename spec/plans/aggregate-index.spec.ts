import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { explainPlan } from './support/explain-plan.ts'

/**
 * Users, half of them without posts, and posts indexed only on `(views)` and `(user_id)`: a declared `max(views)`
 * could be read as the first row of the `(views)` index filtered by user (for a user without posts, the whole index).
 */
const map = defineRelationMap({
  ag_users: {
    columns: { id: 'integer' },
    relations: { posts: { type: 'hasMany', table: 'ag_posts', foreignKey: 'user_id' } },
    aggregates: {
      postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' },
      postsViewsMin: { relation: 'posts', fn: 'min', column: 'views' },
      postsViewsSum: { relation: 'posts', fn: 'sum', column: 'views' },
    },
  },
  ag_posts: { columns: { id: 'integer', user_id: 'integer', views: { type: 'integer', nullable: false } } },
})

const USERS = 4_000
const WITH_POSTS = 1_000
const POSTS_EACH = 40

const views = (post: number): number => (post * 7919) % 100_000

for (const db of testDatabases()) {
  describe(`declared min and max read through the foreign key's index, not another index of the column (${db.name})`, function () {
    this.timeout(120_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('ag_users'), parseQueryParams(request), map)
    /** Whether the plan reads the `(views)` index, and whether it reads the `(user_id)` one. */
    const indexes = async (
      query: Knex.QueryBuilder | Knex.Sql,
    ): Promise<{ views: boolean; userId: boolean; text: string }> => {
      const { text } = await explainPlan(db.knex, db.name, query)
      return { views: /ag_posts_views\b/.test(text), userId: /ag_posts_user_id\b/.test(text), text }
    }

    before(async () => {
      await db.knex.schema.dropTableIfExists('ag_posts')
      await db.knex.schema.dropTableIfExists('ag_users')
      await db.knex.schema.createTable('ag_users', (table) => {
        table.increments('id')
      })
      await db.knex.schema.createTable('ag_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable()
        table.integer('views').notNullable()
        table.index(['views'], 'ag_posts_views')
        table.index(['user_id'], 'ag_posts_user_id')
      })
      await db.knex.batchInsert(
        'ag_users',
        Array.from({ length: USERS }, (_, index) => ({ id: index + 1 })),
        400,
      )
      const posts = Array.from({ length: WITH_POSTS * POSTS_EACH }, (_, index) => ({
        user_id: (index % WITH_POSTS) + 1,
        views: views(index + 1),
      }))
      await db.knex.batchInsert('ag_posts', posts, 300)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table ag_users, ag_posts' : 'analyze')
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('ag_posts')
      await db.knex.schema.dropTableIfExists('ag_users')
    })

    it('a selected max, a page of users without posts: grouped by the key, the (user_id) index, never the (views) one', async () => {
      const query = apply('with[0]=postsViewsMax&with[1]=postsViewsMin&limit=50&page=40')
      expectSql(db.name, 'plans/aggregate-index/selected max and min', query)
      const plan = await indexes(query)
      expect(plan.views, plan.text).to.equal(false)
      const rows = (await query) as Array<{ id: number; posts_views_max: unknown; posts_views_min: unknown }>
      expect(rows.map((row) => row.id)).to.deep.equal(Array.from({ length: 50 }, (_, index) => 1951 + index))
      expect(rows.every((row) => row.posts_views_max === null && row.posts_views_min === null)).to.equal(true)
    })

    it('a filter and a selected max on users with posts give what the mathematics gives; the filter reads (views) only as its range', async () => {
      const query = apply(
        'wheres[0][column]=posts_views_max&wheres[0][operator]=%3E%3D&wheres[0][value]=99000&with[0]=postsViewsMax&with[1]=postsViewsSum&limit=1000',
      )
      expectSql(db.name, 'plans/aggregate-index/filtered max', query)
      // The filter is whether some post has views >= 99000: the (views) index may serve it, as a range from the bound.
      const plan = await indexes(query)
      expect(plan.text).to.not.match(/Backward ag_posts_views/)
      expect(plan.userId, plan.text).to.equal(true)
      const byUser = new Map<number, number[]>()
      for (let post = 1; post <= WITH_POSTS * POSTS_EACH; post++) {
        const user = ((post - 1) % WITH_POSTS) + 1
        byUser.set(user, [...(byUser.get(user) ?? []), views(post)])
      }
      const expected = [...byUser]
        .filter(([, values]) => Math.max(...values) >= 99000)
        .map(([user, values]) => ({ id: user, max: Math.max(...values), sum: values.reduce((a, b) => a + b, 0) }))
      const rows = (await query) as Array<{ id: number; posts_views_max: unknown; posts_views_sum: unknown }>
      expect(
        rows.map((row) => ({ id: row.id, max: Number(row.posts_views_max), sum: Number(row.posts_views_sum) })),
      ).to.deep.equal(expected)
    })

    it('an order by a max over every user: SQLite scans the posts and sorts their keys (group by +user_id), unless the where keeps few users by declaration', async () => {
      const expected = (ids: number[]): number[] => {
        const max = new Map<number, number>()
        for (let post = 1; post <= WITH_POSTS * POSTS_EACH; post++) {
          const user = ((post - 1) % WITH_POSTS) + 1
          max.set(user, Math.max(max.get(user) ?? 0, views(post)))
        }
        // Users without posts (NULL) sort first, ascending; ties by id, as the library breaks them.
        return [...ids].sort((a, b) => (max.get(a) ?? -1) - (max.get(b) ?? -1) || a - b)
      }
      const all = Array.from({ length: USERS }, (_, index) => index + 1)
      const page = apply('orders[0][column]=postsViewsMax&limit=20&page=50')
      const rows = (await page) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal(expected(all).slice(980, 1000))
      const narrow = apply(
        'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=7&wheres[0][value][1]=3500&orders[0][column]=postsViewsMax&limit=20',
      )
      expect(((await narrow) as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected([7, 3500]))
      const grouping = / group by \+/
      expect(grouping.test(page.toSQL().sql), 'the page over every user').to.equal(db.name === 'sqlite')
      expect(grouping.test(narrow.toSQL().sql), 'two users by id').to.equal(false)
      if (db.name !== 'sqlite') return
      const scanned = await explainPlan(db.knex, db.name, page)
      expect(scanned.lines, scanned.text).to.include.members(['SCAN ag_posts', 'USE TEMP B-TREE FOR GROUP BY'])
      const walked = await explainPlan(db.knex, db.name, narrow)
      expect(walked.text).to.match(/ag_posts USING INDEX ag_posts_user_id/)
    })

    it('a deep page of users with a max computes the aggregate for the page only: a deferred page on every database', async () => {
      const query = apply('with[0]=postsViewsMax&orders[0][column]=id&limit=50&page=40')
      expectSql(db.name, 'plans/aggregate-index/deep page with max', query)
      expect(query.toSQL().sql).to.include('kqp_page')
      const rows = (await query) as Array<{ id: number; posts_views_max: unknown }>
      expect(rows.map((row) => row.id)).to.deep.equal(Array.from({ length: 50 }, (_, index) => 1951 + index))
      const shallow = apply('with[0]=postsViewsMax&orders[0][column]=id&limit=50&page=2').toSQL().sql
      expect(shallow.includes('kqp_page'), 'an offset of 50 keeps the plain page').to.equal(false)
    })

    if (db.name === 'postgres') {
      it('the detector has teeth: the ungrouped max, as the library wrote it before, is a backward scan of the (views) index on PostgreSQL', async () => {
        const before = db.knex
          .raw(
            'select ag_users.id, (select max(ag_posts.views) from ag_posts where ag_posts.user_id = ag_users.id) as m from ag_users order by ag_users.id limit 50 offset 1950',
          )
          .toSQL()
        const plan = await indexes(before)
        expect(plan.views, plan.text).to.equal(true)
      })
    }
  })
}
