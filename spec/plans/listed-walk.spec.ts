import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * A listed relation filter walked when its list is long (`Dialect.listedWalk`, MariaDB): users of two tenants (a
 * guard on users), posts without a guard of their own. Tenant 1 has 4,500 users, tenant 2 has 500: fewer than four
 * times the frequency guard's cap, so tenant 2 always walks. Each user has six posts; `views < 900` holds for 90 % of
 * them (over 20,000 of tenant 1's), `views < 5` for 150 posts, `title = 'rare'` for 12.
 */
const map = defineRelationMap({
  lw_users: {
    columns: { id: 'integer', tenant_id: 'integer', name: 'string' },
    relations: { posts: { type: 'hasMany', table: 'lw_posts', foreignKey: 'user_id' } },
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, (context as { tenant: number }).tenant)
    },
  },
  lw_posts: { columns: { id: 'integer', user_id: 'integer', views: 'integer', title: 'string' } },
})

const USERS = 5_000
const POSTS = 30_000
const tenantOf = (user: number): number => (user <= 4_500 ? 1 : 2)
const posts = Array.from({ length: POSTS }, (_, index) => ({
  user_id: (index % USERS) + 1,
  views: index % 1_000,
  title: index % 2_500 === 7 ? 'rare' : `post ${index}`,
}))

type Post = (typeof posts)[number]
const postsOf = new Map<number, Post[]>()
for (const post of posts) postsOf.set(post.user_id, [...(postsOf.get(post.user_id) ?? []), post])

/** The ids of a tenant's users with posts that pass each of `all` (or any of the branches of `any`), by id. */
function expected(
  tenant: number,
  branches: ReadonlyArray<ReadonlyArray<(post: Post) => boolean>>,
  direction: 'asc' | 'desc',
  page: number,
  limit = 10,
): number[] {
  const passes = (user: number, tests: ReadonlyArray<(post: Post) => boolean>): boolean =>
    tests.every((test) => (postsOf.get(user) ?? []).some(test))
  const ids = Array.from({ length: USERS }, (_, index) => index + 1).filter(
    (user) => tenantOf(user) === tenant && branches.some((tests) => passes(user, tests)),
  )
  if (direction === 'desc') ids.reverse()
  return ids.slice((page - 1) * limit, page * limit)
}

const below = (views: number) => (post: Post) => post.views < views
const rare = (post: Post) => post.title === 'rare'
const where = (index: number, column: string, operator: string, value: string | number, or = false): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${value}${or ? `&wheres[${index}][boolean]=or` : ''}`
const page = (wheres: string, direction: 'asc' | 'desc', number: number): string =>
  `${wheres}&orders[0][column]=id&orders[0][direction]=${direction}&limit=10&page=${number}`
const ids = (result: unknown): number[] => (result as Array<{ id: number }>).map((row) => row.id)

const CASES = [
  { name: 'a common value', wheres: where(0, 'posts.views', '<', 900), branches: [[below(900)]] },
  { name: 'a rare value', wheres: where(0, 'posts.views', '<', 5), branches: [[below(5)]] },
  {
    name: 'a rare value beside a common one',
    wheres: `${where(0, 'posts.views', '<', 900)}&${where(1, 'posts.title', '=', 'rare')}`,
    branches: [[below(900), rare]],
  },
  {
    name: 'an or of a common and a rare branch',
    wheres: `${where(0, 'posts.views', '<', 5)}&${where(1, 'posts.views', '<', 900, true)}&${where(2, 'name', 'like', 'user%25')}`,
    branches: [[below(5)], [below(900)]],
  },
  {
    name: 'an or of two rare branches',
    wheres: `${where(0, 'posts.views', '<', 5)}&${where(1, 'posts.title', '=', 'rare', true)}`,
    branches: [[below(5)], [rare]],
  },
] as const

for (const db of testDatabases()) {
  describe(`a listed relation filter walked when its list is long (${db.name})`, function () {
    this.timeout(180_000)
    const apply = (tenant: number, query: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('lw_users'), parseQueryParams(query), map, { context: { tenant }, frequencyMemoMs: 0 })
    /** The statements with the filter's values blanked: the same text and bindings means the same statements. */
    const shapes = (queries: readonly QueryEvent[]): string[] =>
      queries.map(
        (query) =>
          `${query.sql} ${JSON.stringify((query.bindings ?? []).map((value) => (value === 5 || value === 900 ? '<views>' : value)))}`,
      )

    before(async () => {
      for (const table of ['lw_posts', 'lw_users']) await db.knex.schema.dropTableIfExists(table)
      await db.knex.schema.createTable('lw_users', (table) => {
        table.increments('id')
        table.integer('tenant_id').notNullable()
        table.string('name', 20)
        table.index(['tenant_id', 'id'], 'lw_users_tenant_id')
      })
      await db.knex.schema.createTable('lw_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('lw_posts_user_id')
        table.integer('views').notNullable().index('lw_posts_views')
        table.string('title', 20).notNullable().index('lw_posts_title')
      })
      await db.knex.batchInsert(
        'lw_users',
        Array.from({ length: USERS }, (_, index) => ({ tenant_id: tenantOf(index + 1), name: `user ${index + 1}` })),
        400,
      )
      await db.knex.batchInsert('lw_posts', posts, 400)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table lw_users, lw_posts' : 'analyze')
    })

    after(async () => {
      for (const table of ['lw_posts', 'lw_users']) await db.knex.schema.dropTableIfExists(table)
    })

    it("gives the plain query's rows for common and rare values, an or, both directions, pages 1 and 4, each tenant", async () => {
      for (const { name, wheres, branches } of CASES)
        for (const tenant of [1, 2])
          for (const direction of ['asc', 'desc'] as const)
            for (const number of [1, 4]) {
              const rows = ids(await apply(tenant, page(wheres, direction, number)))
              expect(rows, `${name}, tenant ${tenant}, ${direction}, page ${number}`).to.deep.equal(
                expected(tenant, branches, direction, number),
              )
            }
    })

    if (db.name === 'postgres') {
      it('PostgreSQL reads the page in one statement as written: no list is probed', async () => {
        for (const { name, wheres } of CASES) {
          const { queries } = await countQueries(db.knex, () => apply(1, page(wheres, 'asc', 1)))
          expect(queries, name).to.have.length(1)
          expect(queries[0]?.sql, name).to.not.match(/limit 1 offset \d+\)|kqp_listed/)
        }
      })
      return
    }

    if (db.name === 'sqlite') {
      it('SQLite lists the one filter of each branch of an or while its list is short, in the one statement', async () => {
        const { queries } = await countQueries(db.knex, () => apply(1, page(CASES[4].wheres, 'desc', 4)))
        expect(queries).to.have.length(1)
        const [statement] = queries
        // Up to 1,000 related rows (the frequency guard's cap), or 8 × the branch's 40 rows.
        expect(
          statement?.sql.match(/limit 1 offset 999\) end is null then \? else 0 end\) as `kqp_listed`/g),
        ).to.have.length(2)
        expect(statement?.sql).to.include(
          '(exists (select 1 from `lw_posts` where `lw_posts`.`user_id` = `lw_users`.`id`',
        )
        const deep = await countQueries(db.knex, () =>
          apply(1, `${CASES[4].wheres}&orders[0][column]=id&limit=100&page=20`),
        )
        expect(deep.queries[0]?.sql, '8 × 2,000 rows').to.include('limit 1 offset 15999) end is null')
      })
      return
    }

    const probe =
      'select case when (select 1 from `lw_users` where (`lw_users`.`tenant_id` = ?) limit 1 offset 3999) is null then 1 else (select 1 from `lw_posts` where `lw_posts`.`views` < ? and exists (select 1 from `lw_users` as `lw_users_2` where `lw_users_2`.`id` = `lw_posts`.`user_id` and (`lw_users_2`.`tenant_id` = ?)) limit 1 offset 19999) end as kqp_frequent'
    const columns = 'select `lw_users`.`id`, `lw_users`.`tenant_id`, `lw_users`.`name` from `lw_users`'

    it("walks the order for a common value: the probe of the list, then a page that tests each user's posts", async () => {
      const { queries } = await countQueries(db.knex, () => apply(1, page(CASES[0].wheres, 'asc', 1)))
      expect(queries.map(({ sql }) => sql)).to.deep.equal([
        probe,
        `${columns} where (\`lw_users\`.\`tenant_id\` = ?) and ((select 1 from \`lw_posts\` where \`lw_posts\`.\`user_id\` = \`lw_users\`.\`id\` and \`lw_posts\`.\`views\` < ? limit 1) is not null) order by \`lw_users\`.\`id\` asc limit ?`,
      ])
    })

    it('lists a rare value: the same probe, then the page as written', async () => {
      const { queries } = await countQueries(db.knex, () => apply(1, page(CASES[1].wheres, 'asc', 1)))
      expect(queries.map(({ sql }) => sql)).to.deep.equal([
        probe,
        `${columns} where (\`lw_users\`.\`tenant_id\` = ?) and (\`lw_users\`.\`id\` in (select \`lw_posts\`.\`user_id\` from \`lw_posts\` where \`lw_posts\`.\`views\` < ?)) order by \`lw_users\`.\`id\` asc limit ?`,
      ])
    })

    it('probes every list of a conjunction: a rare one beside a common one keeps the listing form', async () => {
      const { queries } = await countQueries(db.knex, () => apply(1, page(CASES[2].wheres, 'asc', 1)))
      expect(queries).to.have.length(2)
      expect(queries[0]?.sql).to.match(
        /^select case when .* else \(case when \(select 1 from `lw_posts` where `lw_posts`\.`views` < \? .* limit 1 offset 19999\) is not null and \(select 1 from `lw_posts` where `lw_posts`\.`title` = \? .* limit 1 offset 19999\) is not null then 1 end\) end as kqp_frequent$/,
      )
      expect(queries[1]?.sql).to.include('`lw_users`.`id` in (select `lw_posts`.`user_id`')
    })

    it('reads each branch of an or in the form its own probe picks, within one statement', async () => {
      const { queries } = await countQueries(db.knex, () => apply(1, page(CASES[3].wheres, 'desc', 4)))
      expect(queries).to.have.length(1)
      const [statement] = queries
      expect(
        statement?.sql.match(
          /as `kqp_walked` where case when \(select 1 from `lw_users` where .{0,300}`lw_posts`\.`views` < \? .{0,200} limit 1 offset 19999\) end is not null/g,
        ),
      ).to.have.length(2)
      expect(statement?.sql).to.include(
        '(select 1 from `lw_posts` where `lw_posts`.`user_id` = `lw_users`.`id` and `lw_posts`.`views` < ? limit 1) is not null',
      )
      const rare = await countQueries(db.knex, () => apply(1, page(CASES[4].wheres, 'desc', 4)))
      expect(rare.queries).to.have.length(1)
      expect(rare.queries[0]?.sql.match(/kqp_walked/g), 'each branch has both forms').to.have.length(2)
    })

    it('a small tenant walks whatever the value: the same statements for a common and a rare one', async () => {
      const common = await countQueries(db.knex, () => apply(2, page(where(0, 'posts.views', '<', 900), 'asc', 1)))
      const few = await countQueries(db.knex, () => apply(2, page(where(0, 'posts.views', '<', 5), 'asc', 1)))
      expect(shapes(few.queries)).to.deep.equal(shapes(common.queries))
      expect(common.queries[1]?.sql).to.include('is not null')
      expect(common.queries[1]?.sql).to.not.include(' in (select')
    })
  })
}

/**
 * The same walk on a page cut off at its first order through a join (`Dialect.cutoffJoinedOrder`): posts by their
 * author's email, filtered by the author's other posts. 4,000 users, 24,000 posts; `author.posts.views > 10` holds for
 * 99 % of the posts, `views < 3` for 72.
 */
const cutMap = defineRelationMap({
  lwc_users: {
    columns: { id: 'integer', email: { type: 'string', nullable: false } },
    relations: { posts: { type: 'hasMany', table: 'lwc_posts', foreignKey: 'user_id' } },
  },
  lwc_posts: {
    columns: { id: 'integer', user_id: { type: 'integer', nullable: false }, views: 'integer' },
    relations: {
      author: { type: 'belongsTo', table: 'lwc_users', foreignKey: 'user_id', required: true },
      notes: { type: 'hasMany', table: 'lwc_notes', foreignKey: 'post_id' },
    },
  },
  lwc_notes: { columns: { id: 'integer', post_id: 'integer' } },
})
const CUT_USERS = 4_000
const cutPosts = Array.from({ length: 24_000 }, (_, index) => ({
  id: index + 1,
  user_id: ((index * 7) % CUT_USERS) + 1,
  views: index % 1_000,
}))
const notesOf = (post: number): number => (post % 7 === 0 ? 2 : post % 5 === 0 ? 1 : 0)
const emailOf = (user: number): string => `user${String((user * 37) % CUT_USERS).padStart(5, '0')}@example.com`
const BY_EMAIL = 'orders[0][column]=author.email&orders[0][direction]=desc&limit=10&page=5'

for (const db of testDatabases()) {
  describe(`a long listed filter walked on a cut-off page (${db.name})`, function () {
    this.timeout(180_000)
    const apply = (query: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('lwc_posts'), parseQueryParams(query), cutMap, { frequencyMemoMs: 0 })
    /** Posts whose author has a post passing `test`, and that pass `own`, by email descending then id descending. */
    const expectedPosts = (
      test: (views: number) => boolean,
      own: (views: number) => boolean = () => true,
    ): number[] => {
      const authors = new Set(cutPosts.filter((post) => test(post.views)).map((post) => post.user_id))
      return cutPosts
        .filter((post) => authors.has(post.user_id) && own(post.views))
        .sort((a, b) => emailOf(b.user_id).localeCompare(emailOf(a.user_id)) || b.id - a.id)
        .slice(40, 50)
        .map((post) => post.id)
    }

    before(async () => {
      for (const table of ['lwc_notes', 'lwc_posts', 'lwc_users']) await db.knex.schema.dropTableIfExists(table)
      await db.knex.schema.createTable('lwc_notes', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('lwc_notes_post_id')
      })
      await db.knex.schema.createTable('lwc_users', (table) => {
        table.increments('id')
        table.string('email', 40).notNullable().index('lwc_users_email')
      })
      await db.knex.schema.createTable('lwc_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('lwc_posts_user_id')
        table.integer('views').notNullable().index('lwc_posts_views')
      })
      const users = Array.from({ length: CUT_USERS }, (_, index) => ({ id: index + 1, email: emailOf(index + 1) }))
      await db.knex.batchInsert('lwc_users', users, 400)
      await db.knex.batchInsert('lwc_posts', cutPosts, 400)
      const notes = cutPosts.flatMap(({ id }) => Array.from({ length: notesOf(id) }, () => ({ post_id: id })))
      await db.knex.batchInsert('lwc_notes', notes, 400)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table lwc_users, lwc_posts, lwc_notes' : 'analyze')
    })

    after(async () => {
      for (const table of ['lwc_notes', 'lwc_posts', 'lwc_users']) await db.knex.schema.dropTableIfExists(table)
    })

    const common = `wheres[0][column]=author.posts.views&wheres[0][operator]=%3E&wheres[0][value]=10&${BY_EMAIL}`
    const beside = `${common}&wheres[1][column]=views&wheres[1][operator]=%3C&wheres[1][value]=3`

    const thenNotes = common.replace(BY_EMAIL, `${BY_EMAIL}&orders[1][column]=notesCount`)

    it("gives the plain query's rows, alone, then by a count, and beside a rare column test", async () => {
      expect(ids(await apply(common))).to.deep.equal(expectedPosts((views) => views > 10))
      const authors = new Set(cutPosts.filter((post) => post.views > 10).map((post) => post.user_id))
      expect(ids(await apply(thenNotes)), 'then by notesCount').to.deep.equal(
        cutPosts
          .filter((post) => authors.has(post.user_id))
          .sort(
            (a, b) =>
              emailOf(b.user_id).localeCompare(emailOf(a.user_id)) || notesOf(a.id) - notesOf(b.id) || a.id - b.id,
          )
          .slice(40, 50)
          .map((post) => post.id),
      )
      expect(ids(await apply(beside))).to.deep.equal(
        expectedPosts(
          (views) => views > 10,
          (views) => views < 3,
        ),
      )
    })

    if (db.name !== 'mysql') return

    it('MariaDB: probes the list, then walks the cut-off order with a scalar probe per post', async () => {
      const { queries } = await countQueries(db.knex, () => apply(common))
      expect(queries).to.have.length(2)
      expect(queries[0]?.sql).to.match(/limit 1 offset 19999\) as kqp_frequent$/)
      expect(queries[1]?.sql).to.include('`kqp_cutoff`')
      expect(queries[1]?.sql).to.include('`lwc_posts_2`.`views` > ? limit 1) is not null')
      expect(queries[1]?.sql).to.not.include(' in (select')
      const counted = await countQueries(db.knex, () => apply(thenNotes))
      expect(counted.queries, 'then by a count').to.have.length(2)
      expect(counted.queries[1]?.sql).to.include('`lwc_posts_2`.`views` > ? limit 1) is not null')
      expect(counted.queries[1]?.sql).to.include('count(*) as `kqp_value`')
    })

    it('MariaDB: a column test beside the filter keeps the page as it was: no list probed', async () => {
      const { queries } = await countQueries(db.knex, () => apply(beside))
      expect(queries.map(({ sql }) => sql).filter((sql) => /offset 19999/.test(sql))).to.deep.equal([])
    })
  })
}
