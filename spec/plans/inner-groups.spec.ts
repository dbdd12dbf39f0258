import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/**
 * A page ordered by an aggregate over a relation its `relations_exists` requires inner-joins the aggregate's groups
 * (`PagePlan.innerGroups`): every post it keeps has visible comments. Comments carry a tenant (a guard) and an
 * `approved` flag (the scope of `approvedCount`). Posts 1–40: those with `id % 4 = 0` have no comments, those with
 * `id % 4 = 1` only comments of tenant 2, those with `id % 8 = 2` only unapproved ones, and of the others some are
 * unapproved.
 */
const map = defineRelationMap({
  ig_posts: {
    columns: { id: 'integer', title: 'string' },
    relations: { comments: { type: 'hasMany', table: 'ig_comments', foreignKey: 'post_id' } },
    aggregates: {
      approvedCount: { relation: 'comments', fn: 'count', scope: 'approved' },
      commentsIdMax: { relation: 'comments', fn: 'max', column: 'id' },
    },
  },
  ig_comments: {
    columns: { id: 'integer', post_id: 'integer', tenant_id: 'integer', approved: 'boolean' },
    scopes: {
      approved: (query) => {
        query.where('ig_comments.approved', true)
      },
    },
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, (context as { tenant: number }).tenant)
    },
  },
})

const POSTS = 40
const comments = Array.from({ length: 160 }, (_, index) => {
  const id = index + 1
  const post = ((id * 13) % POSTS) + 1
  return { id, post_id: post, tenant_id: post % 4 === 1 ? 2 : 1, approved: post % 8 !== 2 && id % 3 !== 0 }
}).filter((comment) => comment.post_id % 4 !== 0)
const posts = Array.from({ length: POSTS }, (_, index) => index + 1)
const visible = (post: number): typeof comments =>
  comments.filter((comment) => comment.post_id === post && comment.tenant_id === 1)

for (const db of testDatabases()) {
  describe(`a page ordered by an aggregate of a relation its relations_exists requires (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (query: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('ig_posts'), parseQueryParams(query), map, {
        context: { tenant: 1 },
        frequencyMemoMs: 0,
      })
    const rowsOf = async (query: Knex.QueryBuilder): Promise<Array<{ id: number; count: number }>> =>
      ((await query) as Array<{ id: number; comments_count?: unknown; approved_count?: unknown }>).map((row) => ({
        id: row.id,
        count: Number(row.comments_count ?? row.approved_count),
      }))

    before(async () => {
      await db.knex.schema.dropTableIfExists('ig_comments')
      await db.knex.schema.dropTableIfExists('ig_posts')
      await db.knex.schema.createTable('ig_posts', (table) => {
        table.increments('id')
        table.string('title', 40)
      })
      await db.knex.schema.createTable('ig_comments', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('ig_comments_post_id')
        table.integer('tenant_id').notNullable()
        table.boolean('approved').notNullable()
      })
      await db.knex.batchInsert(
        'ig_posts',
        posts.map((id) => ({ id, title: `post ${id}` })),
        100,
      )
      await db.knex.batchInsert('ig_comments', comments, 100)
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('ig_comments')
      await db.knex.schema.dropTableIfExists('ig_posts')
    })

    for (const direction of ['desc', 'asc'] as const) {
      it(`by commentsCount ${direction}: the posts with visible comments, their groups inner-joined`, async () => {
        const query = apply(
          `relations_exists[0]=comments&orders[0][column]=commentsCount&orders[0][direction]=${direction}&with[0]=commentsCount&limit=6&page=2`,
        )
        expectSql(db.name, `plans/inner-groups/by commentsCount ${direction}`, query)
        expect(query.toSQL().sql).to.include('inner join (select ')
        expect(query.toSQL().sql).to.not.include('left join (select ')
        const sign = direction === 'desc' ? -1 : 1
        const expected = posts
          .map((id) => ({ id, count: visible(id).length }))
          .filter(({ count }) => count > 0)
          // Ties by id in the order's direction, as the library breaks them.
          .sort((a, b) => sign * (a.count - b.count) || sign * (a.id - b.id))
          .slice(6, 12)
        expect(expected).to.have.length(6)
        expect(await rowsOf(query)).to.deep.equal(expected)
      })
    }

    it("aggregates over the same visible comments share one grouped join, the guard's binding once; a scope's have their own", async () => {
      const byCountThenMax = apply(
        'orders[0][column]=commentsCount&orders[0][direction]=desc&orders[1][column]=commentsIdMax&orders[1][direction]=desc&limit=40',
      )
      const shared = byCountThenMax.toSQL()
      expect(shared.sql).to.match(/count\(\*\) as .kqp_value., max\(.ig_comments.\..id.\) as .kqp_value_2. from /)
      expect(shared.sql).to.not.include('kqp_aggregate_2')
      // The tenant's binding as often as for the count alone (MariaDB's deferred page writes the join twice).
      const alone = apply('orders[0][column]=commentsCount&orders[0][direction]=desc&limit=40').toSQL()
      const tenants = (sql: Knex.Sql): number => sql.bindings.filter((binding) => binding === 1).length
      expect(tenants(shared)).to.equal(tenants(alone))
      const maxOf = (post: number): number => Math.max(-1, ...visible(post).map((comment) => comment.id))
      const expected = [...posts].sort((a, b) => visible(b).length - visible(a).length || maxOf(b) - maxOf(a) || b - a)
      expect(((await byCountThenMax) as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected)
      const scoped = apply(
        'orders[0][column]=commentsCount&orders[0][direction]=desc&orders[1][column]=approvedCount&limit=40',
      ).toSQL().sql
      expect(scoped).to.include('kqp_aggregate_2')
    })

    it('without relations_exists, the groups are left-joined: posts without visible comments count 0', async () => {
      const query = apply('orders[0][column]=commentsCount&orders[0][direction]=asc&with[0]=commentsCount&limit=12')
      expect(query.toSQL().sql).to.include('left join (select ')
      const expected = posts
        .map((id) => ({ id, count: visible(id).length }))
        .sort((a, b) => a.count - b.count || a.id - b.id)
        .slice(0, 12)
      expect(expected[0]?.count).to.equal(0)
      expect(await rowsOf(query)).to.deep.equal(expected)
    })

    it('an aggregate with a scope stays left-joined: a post with comments may have no approved one', async () => {
      const query = apply(
        'relations_exists[0]=comments&orders[0][column]=approvedCount&orders[0][direction]=asc&with[0]=approvedCount&limit=40',
      )
      expect(query.toSQL().sql).to.include('left join (select ')
      const expected = posts
        .filter((id) => visible(id).length > 0)
        .map((id) => ({ id, count: visible(id).filter((comment) => comment.approved).length }))
        .sort((a, b) => a.count - b.count || a.id - b.id)
      expect(expected.some(({ count }) => count === 0)).to.equal(true)
      expect(await rowsOf(query)).to.deep.equal(expected)
    })
  })
}
