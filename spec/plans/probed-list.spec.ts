import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * A relation filter a probe lists (`probedListFilter`, SQLite): posts of three tenants (a guard on posts), comments
 * without a guard of their own. Tenant 1 (5,000 posts) writes `hot` on 2,000 comments, tenant 3 (4,500 posts) on 3;
 * `rare` is on 3 comments of each. Tenant 2 has 500 posts: fewer than four times the probe's cap.
 */
const map = defineRelationMap({
  pl_users: {
    columns: { id: 'integer', name: 'string' },
    relations: { posts: { type: 'hasMany', table: 'pl_posts', foreignKey: 'user_id' } },
  },
  pl_posts: {
    columns: { id: 'integer', tenant_id: 'integer', user_id: { type: 'integer', nullable: false }, title: 'string' },
    relations: {
      author: { type: 'belongsTo', table: 'pl_users', foreignKey: 'user_id', required: true },
      comments: { type: 'hasMany', table: 'pl_comments', foreignKey: 'post_id' },
    },
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, (context as { tenant: number }).tenant)
    },
  },
  pl_comments: { columns: { id: 'integer', post_id: 'integer', body: 'string' } },
})

const TENANTS = [
  { tenant: 1, first: 1, posts: 5_000 },
  { tenant: 2, first: 5_001, posts: 500 },
  { tenant: 3, first: 5_501, posts: 4_500 },
]
const USERS = 300

interface Comment {
  post_id: number
  body: string
}

function comments(): Comment[] {
  const rows: Comment[] = []
  for (let post = 1; post <= 2_000; post++) rows.push({ post_id: post, body: 'hot' })
  for (const { first, posts } of TENANTS) {
    for (let n = 0; n < 3; n++) rows.push({ post_id: first + 7 + n * Math.floor(posts / 3), body: 'rare' })
    if (first > 1) for (let n = 0; n < 3; n++) rows.push({ post_id: first + 11 + n * 97, body: 'hot' })
  }
  for (let post = 1; post <= 10_000; post += 13) rows.push({ post_id: post, body: `other ${post}` })
  return rows
}

const tenantOf = (post: number): number =>
  TENANTS.find(({ first, posts }) => post >= first && post < first + posts)?.tenant ?? 0

/** The ids of a tenant's posts with a comment `body`, by id descending, page `page` of 10. */
function expected(tenant: number, body: string, page = 1): number[] {
  const ids = [...new Set(comments().flatMap((row) => (row.body === body ? [row.post_id] : [])))]
  return ids
    .filter((id) => tenantOf(id) === tenant)
    .sort((a, b) => b - a)
    .slice((page - 1) * 10, page * 10)
}

const request = (body: string, page = 1): string =>
  `wheres[0][column]=comments.body&wheres[0][value]=${body}&orders[0][column]=id&orders[0][direction]=desc&limit=10&page=${page}`

const ids = (result: unknown): number[] => (result as Array<{ id: number }>).map((row) => row.id)

for (const db of testDatabases()) {
  describe(`a relation filter listed when a probe finds few related rows (${db.name})`, function () {
    this.timeout(120_000)
    const page = (tenant: number, query: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('pl_posts'), parseQueryParams(query), map, {
        context: { tenant },
        frequencyMemoMs: 0,
      })
    /** The statements with the body's binding blanked: the same text and bindings means the same statements. */
    const shapes = (queries: readonly QueryEvent[]): string[] =>
      queries.map(
        (query) =>
          `${query.sql} ${JSON.stringify((query.bindings ?? []).map((value) => (value === 'hot' || value === 'rare' ? '<body>' : value)))}`,
      )

    before(async () => {
      for (const table of ['pl_comments', 'pl_posts', 'pl_users']) await db.knex.schema.dropTableIfExists(table)
      await db.knex.schema.createTable('pl_users', (table) => {
        table.increments('id')
        table.string('name', 20)
      })
      await db.knex.schema.createTable('pl_posts', (table) => {
        table.increments('id')
        table.integer('tenant_id').notNullable()
        table.integer('user_id').notNullable().index('pl_posts_user_id')
        table.string('title', 20)
        table.index(['tenant_id', 'id'], 'pl_posts_tenant_id')
      })
      await db.knex.schema.createTable('pl_comments', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('pl_comments_post_id')
        table.string('body', 20).notNullable().index('pl_comments_body')
      })
      await db.knex.batchInsert(
        'pl_users',
        Array.from({ length: USERS }, (_, index) => ({ name: `user ${index + 1}` })),
        500,
      )
      const posts = TENANTS.flatMap(({ tenant, first, posts }) =>
        Array.from({ length: posts }, (_, index) => ({
          tenant_id: tenant,
          user_id: ((first + index) % USERS) + 1,
          title: (first + index) % 1_000 === 0 ? 'milestone' : `post ${first + index}`,
        })),
      )
      await db.knex.batchInsert('pl_posts', posts, 500)
      await db.knex.batchInsert('pl_comments', comments(), 500)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table pl_users, pl_posts, pl_comments' : 'analyze')
    })

    after(async () => {
      for (const table of ['pl_comments', 'pl_posts', 'pl_users']) await db.knex.schema.dropTableIfExists(table)
    })

    it("gives the plain query's rows for a rare and a frequent value, on a first and a later page, for each tenant", async () => {
      for (const tenant of [1, 2, 3])
        for (const body of ['hot', 'rare'])
          for (const number of [1, 3]) {
            const rows = ids(await page(tenant, request(body, number)))
            expect(rows, `tenant ${tenant}, ${body}, page ${number}`).to.deep.equal(expected(tenant, body, number))
          }
    })

    if (db.name !== 'sqlite') {
      it('PostgreSQL sends one statement (it plans the filter by its own statistics); MariaDB probes for a walk', async () => {
        const { queries } = await countQueries(db.knex, () => page(1, request('rare')))
        if (db.name === 'postgres') {
          expect(queries.length).to.equal(1)
          expect(queries[0]?.sql).to.not.match(/kqp_frequent/)
        } else {
          // `Dialect.listedWalk`: the list's 20,000th row, through the posts' guard; a rare value keeps the list.
          expect(queries.length).to.equal(2)
          expect(queries[0]?.sql).to.match(/limit 1 offset 19999\) end as kqp_frequent$/)
          expect(queries[1]?.sql).to.include('`pl_posts`.`id` in (select `pl_comments`.`post_id`')
        }
      })
      return
    }

    it("lists a rare value's posts: the probe, then a page that reads the comments by the index on body", async () => {
      const { queries, result } = await countQueries(db.knex, () => page(1, request('rare')))
      expect(ids(result)).to.deep.equal(expected(1, 'rare'))
      expect(queries.map((query) => query.sql)).to.deep.equal([
        'select case when (select 1 from `pl_posts` where (`pl_posts`.`tenant_id` = ?) limit 1 offset 3999) is null then 1 else (select 1 from `pl_comments` where `pl_comments`.`body` = ? and exists (select 1 from `pl_posts` as `pl_posts_2` where `pl_posts_2`.`id` = `pl_comments`.`post_id` and (`pl_posts_2`.`tenant_id` = ?)) limit 1 offset 999) end as kqp_frequent',
        'select `pl_posts`.`id`, `pl_posts`.`tenant_id`, `pl_posts`.`user_id`, `pl_posts`.`title` from `pl_posts` where (`pl_posts`.`tenant_id` = ?) and (`pl_posts`.`id` in (select `pl_comments`.`post_id` from `pl_comments` where `pl_comments`.`body` = ?)) order by `pl_posts`.`id` desc limit 10',
      ])
      const plan = (await db.knex.raw(`explain query plan ${queries[1]?.sql}`, [1, 'rare'])) as Array<{
        detail: string
      }>
      expect(plan.map(({ detail }) => detail)).to.include('SEARCH pl_comments USING INDEX pl_comments_body (body=?)')
    })

    it("walks the order for a frequent value: the probe, then a page that tests each post's comments", async () => {
      const { queries, result } = await countQueries(db.knex, () => page(1, request('hot')))
      expect(ids(result)).to.deep.equal(expected(1, 'hot'))
      expect(queries.length).to.equal(2)
      expect(queries[1]?.sql).to.contain(
        'exists (select 1 from `pl_comments` where `pl_comments`.`post_id` = `pl_posts`.`id` and `pl_comments`.`body` = ?)',
      )
    })

    it("counts only the caller's rows: tenant 3 lists the value tenant 1 uses on 2,000 comments", async () => {
      const { queries, result } = await countQueries(db.knex, () => page(3, request('hot')))
      expect(ids(result)).to.deep.equal(expected(3, 'hot'))
      expect(queries[1]?.sql).to.contain('`pl_posts`.`id` in (select `pl_comments`.`post_id`')
    })

    it('a tenant of fewer than four times the cap of posts walks them for either value: the same statements', async () => {
      const hot = await countQueries(db.knex, () => page(2, request('hot')))
      const rare = await countQueries(db.knex, () => page(2, request('rare')))
      expect(shapes(hot.queries)).to.deep.equal(shapes(rare.queries))
      expect(hot.queries[0]?.sql).to.match(/^select case when \(select 1 from `pl_posts` where/)
      expect(hot.queries[1]?.sql).to.contain('exists (select 1 from `pl_comments`')
    })

    it('lists through a required belongsTo hop by the foreign key: author.posts.title', async () => {
      const query =
        'wheres[0][column]=author.posts.title&wheres[0][value]=milestone&orders[0][column]=id&orders[0][direction]=desc&limit=10'
      const { queries, result } = await countQueries(db.knex, () => page(1, query))
      const authors = new Set([1_000, 2_000, 3_000, 4_000, 5_000].map((post) => (post % USERS) + 1))
      const want = Array.from({ length: 5_000 }, (_, index) => 5_000 - index)
        .filter((post) => authors.has((post % USERS) + 1))
        .slice(0, 10)
      expect(ids(result)).to.deep.equal(want)
      expect(queries[0]?.sql).to.equal(
        'select case when (select 1 from `pl_posts` where (`pl_posts`.`tenant_id` = ?) limit 1 offset 3999) is null then 1 else (select 1 from `pl_posts` as `pl_posts_2` where `pl_posts_2`.`title` = ? and (`pl_posts_2`.`tenant_id` = ?) limit 1 offset 999) end as kqp_frequent',
      )
      expect(queries[1]?.sql).to.contain(
        '`pl_posts`.`user_id` in (select `pl_posts_2`.`user_id` from `pl_posts` as `pl_posts_2` where `pl_posts_2`.`title` = ? and (`pl_posts_2`.`tenant_id` = ?))',
      )
    })

    it('probes none where the walk is short or listed anyway: an equality on a base column, an `or`, a to-one filter', async () => {
      for (const query of [
        `${request('rare')}&wheres[1][column]=user_id&wheres[1][value]=8`,
        `${request('rare')}&wheres[1][column]=title&wheres[1][value]=x&wheres[1][boolean]=or`,
        'wheres[0][column]=author.name&wheres[0][value]=user%208&orders[0][column]=id&limit=10',
      ]) {
        const { queries } = await countQueries(db.knex, () => page(1, query))
        expect(queries.length, query).to.equal(1)
      }
    })
  })
}
