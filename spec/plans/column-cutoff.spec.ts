import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { explainPlan } from './support/explain-plan.ts'

/**
 * Posts by `created_at`, then by their author's name or their notes count: MariaDB sorts the whole join as soon as an
 * order reads a joined table, so such a page is cut off at the `created_at` of its last row, found by a walk of
 * `posts (created_at)` (`Dialect.cutoffColumnOrder`). SQLite and PostgreSQL walk the index and sort only the ties,
 * except that SQLite sorts every match when a later order is an aggregate's correlated subquery: there it cuts the
 * page off too and reads the aggregate for the rows it keeps (`Dialect.correlatedAggregateOrder.cutoff`).
 */
const map = defineRelationMap({
  cc_users: { columns: { id: 'integer', name: { type: 'string', nullable: false } } },
  cc_posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', nullable: false },
      created_at: { type: 'integer', nullable: false },
    },
    relations: {
      author: { type: 'belongsTo', table: 'cc_users', foreignKey: 'user_id', required: true },
      notes: { type: 'hasMany', table: 'cc_notes', foreignKey: 'post_id' },
    },
  },
  cc_notes: { columns: { id: 'integer', post_id: 'integer', kind: 'string' } },
})

const USERS = 2_000
const POSTS = 20_000
const userOf = (post: number): number => ((post * 7) % USERS) + 1
const nameOf = (user: number): string => `user ${String((user * 37) % USERS).padStart(5, '0')}`
// Every tenth created_at is shared by two posts, so the page's last value has ties the cutoff must keep.
const createdOf = (post: number): number => (post % 10 === 0 ? post - 1 : post) * 30
const notesOf = (post: number): number => (post % 3 === 0 ? 2 : post % 5 === 0 ? 1 : 0)
// Three posts' first note is `rare`; every other note is `common`.
const RARE = new Set([4_503, 9_006, 15_003])
const kindOf = (post: number, index: number): string => (index === 0 && RARE.has(post) ? 'rare' : 'common')
const BY_NAME_NOTES =
  'orders[0][column]=author.name&orders[0][direction]=desc&orders[1][column]=notesCount&orders[1][direction]=desc'
const ofKind = (kind: string): string => `wheres[0][column]=notes.kind&wheres[0][operator]=%3D&wheres[0][value]=${kind}`
const BY_NAME = 'orders[0][column]=created_at&orders[0][direction]=desc&orders[1][column]=author.name'
const BY_NOTES =
  'orders[0][column]=created_at&orders[0][direction]=asc&orders[1][column]=notesCount&orders[1][direction]=desc'
const NAMED = 'wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 01%25'
// Two base columns: MariaDB cannot read `(created_at)` in the order of `created_at, user_id` and sorted every match.
const BY_USER =
  'orders[0][column]=created_at&orders[0][direction]=asc&orders[1][column]=user_id&orders[1][direction]=desc&wheres[0][column]=user_id&wheres[0][operator]=%3E&wheres[0][value]=100'

const posts = Array.from({ length: POSTS }, (_, index) => index + 1)
const byCreatedDescThenName = (a: number, b: number): number =>
  createdOf(b) - createdOf(a) || nameOf(userOf(a)).localeCompare(nameOf(userOf(b))) || a - b
const byCreatedThenUser = (a: number, b: number): number =>
  createdOf(a) - createdOf(b) || userOf(b) - userOf(a) || a - b
// The key breaks ties in the last order's direction.
const byNameDescThenNotes = (a: number, b: number): number =>
  nameOf(userOf(b)).localeCompare(nameOf(userOf(a))) || notesOf(b) - notesOf(a) || b - a
const byCreatedThenNotes = (a: number, b: number): number =>
  createdOf(a) - createdOf(b) || notesOf(b) - notesOf(a) || a - b

for (const db of testDatabases()) {
  describe(`a page ordered by a base column, then through a join (${db.name})`, function () {
    this.timeout(120_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('cc_posts'), parseQueryParams(request), map, { frequencyMemoMs: 0 })
    // The statements of a page whose probe comes first: the probe, then the page's SQL.
    const probedPage = async (request: string): Promise<string> => {
      const ran = await countQueries(db.knex, async () => await apply(request))
      expect(ran.queries, request).to.have.length(2)
      return (ran.queries[1] as Knex.Sql).sql
    }
    const ids = async (query: Knex.QueryBuilder): Promise<number[]> =>
      ((await query) as Array<{ id: number }>).map((row) => row.id)

    before(async () => {
      for (const table of ['cc_notes', 'cc_posts', 'cc_users']) await db.knex.schema.dropTableIfExists(table)
      await db.knex.schema.createTable('cc_users', (table) => {
        table.increments('id')
        table.string('name', 40).notNullable()
      })
      await db.knex.schema.createTable('cc_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('cc_posts_user_id')
        table.integer('created_at').notNullable().index('cc_posts_created_at')
      })
      await db.knex.schema.createTable('cc_notes', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('cc_notes_post_id')
        table.string('kind', 10).notNullable().index('cc_notes_kind')
      })
      const users = Array.from({ length: USERS }, (_, index) => ({ id: index + 1, name: nameOf(index + 1) }))
      await db.knex.batchInsert('cc_users', users, 500)
      const rows = posts.map((post) => ({ id: post, user_id: userOf(post), created_at: createdOf(post) }))
      await db.knex.batchInsert('cc_posts', rows, 500)
      const notes = posts.flatMap((post) =>
        Array.from({ length: notesOf(post) }, (_, index) => ({ post_id: post, kind: kindOf(post, index) })),
      )
      await db.knex.batchInsert('cc_notes', notes, 500)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table cc_users, cc_posts, cc_notes' : 'analyze')
    })

    after(async () => {
      for (const table of ['cc_notes', 'cc_posts', 'cc_users']) await db.knex.schema.dropTableIfExists(table)
    })

    it('returns the rows of the order, ties on the last created_at kept, then by name', async () => {
      // Page 15 of 20 ends on post 19,700's created_at, which post 19,699 shares.
      const expected = [...posts].sort(byCreatedDescThenName).slice(280, 300)
      expect(await ids(apply(`${BY_NAME}&limit=20&page=15`))).to.deep.equal(expected)
    })

    it('returns the rows of the order with a filter through the author, then by a count', async () => {
      const named = posts.filter((post) => nameOf(userOf(post)).startsWith('user 01'))
      expect(await ids(apply(`${BY_NAME}&${NAMED}&limit=10&page=3`))).to.deep.equal(
        [...named].sort(byCreatedDescThenName).slice(20, 30),
      )
      expect(await ids(apply(`${BY_NOTES}&limit=20&page=40`))).to.deep.equal(
        [...posts].sort(byCreatedThenNotes).slice(780, 800),
      )
    })

    it('returns the rows of the order with a rare and a common note kind, then by the notes count', async () => {
      expect(await ids(apply(`${BY_NOTES}&${ofKind('rare')}&limit=20`))).to.deep.equal(
        [...RARE].sort(byCreatedThenNotes),
      )
      const common = posts.filter((post) => notesOf(post) > (RARE.has(post) ? 1 : 0))
      expect(await ids(apply(`${BY_NOTES}&${ofKind('common')}&limit=20&page=30`))).to.deep.equal(
        [...common].sort(byCreatedThenNotes).slice(580, 600),
      )
      expect(await ids(apply(`${BY_NAME_NOTES}&${ofKind('rare')}&limit=20`))).to.deep.equal(
        [...RARE].sort(byNameDescThenNotes),
      )
      expect(await ids(apply(`${BY_NAME_NOTES}&${ofKind('common')}&limit=20&page=30`))).to.deep.equal(
        [...common].sort(byNameDescThenNotes).slice(580, 600),
      )
    })

    it('returns the rows of an order by two base columns with a column test, ties on the last created_at kept', async () => {
      const expected = posts.filter((post) => userOf(post) > 100).sort(byCreatedThenUser)
      for (const page of [1, 40])
        expect(await ids(apply(`${BY_USER}&limit=20&page=${page}`)), `page ${page}`).to.deep.equal(
          expected.slice((page - 1) * 20, page * 20),
        )
    })

    if (db.name === 'sqlite') {
      it('SQLite: a later count: a range of (created_at) up to its bound, the count correlated for its rows', async () => {
        const query = apply(`${BY_NOTES}&limit=20&page=40`)
        const ran = await countQueries(db.knex, async () => await query)
        expect(ran.queries.map((statement) => statement.sql)).to.deep.equal([
          'select `cc_posts`.`id`, `cc_posts`.`user_id`, `cc_posts`.`created_at` from `cc_posts` where `cc_posts`.`created_at` <= coalesce((select `cc_posts`.`created_at` from `cc_posts` order by `cc_posts`.`created_at` asc limit ? offset ?), (select max(`cc_posts`.`created_at`) from `cc_posts`)) order by `cc_posts`.`created_at` asc, (select count(*) from `cc_notes` where `cc_notes`.`post_id` = `cc_posts`.`id`) desc, `cc_posts`.`id` desc limit 20 offset 780',
        ])
        const { text } = await explainPlan(db.knex, 'sqlite', ran.queries[0] as Knex.Sql)
        expect(text).to.match(/SEARCH cc_posts USING INDEX cc_posts_created_at \(created_at<\?\)/)
        // The bound reads `cc_posts_created_at` alone; no pass reads every post, and only the ties are sorted.
        expect(text).to.not.match(/SCAN cc_posts(?! USING COVERING INDEX cc_posts_created_at)/)
        expect(text).to.not.match(/USE TEMP B-TREE FOR ORDER BY/)
      })

      it('the detector has teeth: the page as written scans every post and sorts them', async () => {
        const { text } = await explainPlan(db.knex, 'sqlite', apply(`${BY_NOTES}&limit=20&page=40`).clone().toSQL())
        expect(text).to.match(/SCAN cc_posts\b/)
        expect(text).to.match(/USE TEMP B-TREE FOR ORDER BY/)
      })

      it('SQLite: a rare note kind is listed, a common one walked and cut off, the count correlated in both', async () => {
        const count = '(select count(*) from `cc_notes` where `cc_notes`.`post_id` = `cc_posts`.`id`) desc'
        const listed = await probedPage(`${BY_NOTES}&${ofKind('rare')}&limit=20`)
        expect(listed).to.include(
          'where (`cc_posts`.`id` in (select `cc_notes`.`post_id` from `cc_notes` where `cc_notes`.`kind` = ?))',
        )
        expect(listed).to.include(count)
        expect(listed).to.not.include('kqp_aggregate')
        expect(listed).to.not.include('coalesce((select')
        const walked = await probedPage(`${BY_NOTES}&${ofKind('common')}&limit=20&page=30`)
        expect(walked).to.include(
          'where (exists (select 1 from `cc_notes` where `cc_notes`.`post_id` = `cc_posts`.`id`',
        )
        expect(walked).to.include('and `cc_posts`.`created_at` <= coalesce((select `cc_posts`.`created_at` from')
        expect(walked).to.include(count)
        expect(walked).to.not.include('kqp_aggregate')
      })

      it('SQLite: by author.name, then the count: a rare kind listed, its count correlated; a common one cut off, its count grouped', async () => {
        const listed = await probedPage(`${BY_NAME_NOTES}&${ofKind('rare')}&limit=20`)
        expect(listed).to.include('`cc_posts`.`id` in (select `cc_notes`.`post_id` from `cc_notes` where')
        expect(listed).to.include(
          'order by (select `cc_users`.`name` from `cc_users` where `cc_users`.`id` = `cc_posts`.`user_id`) desc, (select count(*) from `cc_notes` where `cc_notes`.`post_id` = `cc_posts`.`id`) desc',
        )
        expect(listed).to.not.include('kqp_aggregate')
        const walked = await probedPage(`${BY_NAME_NOTES}&${ofKind('common')}&limit=20&page=30`)
        expect(walked).to.include('`cc_users`.`name` >= coalesce((select `cc_users`.`name` from `cc_users`')
        expect(walked).to.include('left join (select `cc_notes`.`post_id` as `kqp_key`, count(*) as `kqp_value`')
      })
    }

    if (db.name !== 'mysql') {
      it(`${db.name === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: no cutoff, one statement as written`, async () => {
        const query = apply(`${BY_NAME}&limit=20&page=15`)
        const ran = await countQueries(db.knex, async () => await query)
        expect(ran.queries.map((statement) => statement.sql)).to.deep.equal([query.toSQL().toNative().sql])
        expect(query.toSQL().sql).to.not.include('kqp_cutoff')
      })
      return
    }

    it('MariaDB: the page is a range of posts (created_at) up to the bound its walk of the index found', async () => {
      const query = apply(`${BY_NAME}&limit=20&page=15`)
      const ran = await countQueries(db.knex, async () => await query)
      expect(ran.queries).to.have.length(1)
      const page = ran.queries[0] as Knex.Sql
      expect(page.sql).to.include(
        'cross join (select coalesce((select straight_join `cc_posts`.`created_at` from `cc_posts` straight_join `cc_users` on `cc_users`.`id` = `cc_posts`.`user_id` order by `cc_posts`.`created_at` desc limit ? offset ?), (select min(`cc_posts`.`created_at`) from `cc_posts`)) as `kqp_bound` limit 1) as `kqp_cutoff`',
      )
      expect(page.sql).to.include('where `cc_posts`.`created_at` >= `kqp_cutoff`.`kqp_bound`')
      const { lines, text } = await explainPlan(db.knex, 'mysql', page)
      expect(lines[0], text).to.match(/ <derived\d+> type=system /)
      expect(lines[1], text).to.match(/^PRIMARY cc_posts type=range key=cc_posts_created_at /)
    })

    it('the detector has teeth: without the cutoff MariaDB reads every post and sorts the join', async () => {
      const { lines, text } = await explainPlan(db.knex, 'mysql', apply(`${BY_NAME}&limit=20&page=15`).clone().toSQL())
      expect(text).to.not.match(/type=range key=cc_posts_created_at/)
      expect(lines.join(' '), text).to.match(/Using filesort/)
    })

    it('MariaDB: a filter through the ordered hop tests the joined author, in the page and in the bound walk', async () => {
      const query = apply(`${BY_NAME}&${NAMED}&limit=10&page=3`)
      const ran = await countQueries(db.knex, async () => await query)
      const page = ran.queries[ran.queries.length - 1] as Knex.Sql
      expect(page.sql).to.include(
        'from `cc_posts` straight_join `cc_users` on `cc_users`.`id` = `cc_posts`.`user_id` where ((`cc_users`.`name` like',
      )
      expect(page.sql).to.include(' and `cc_posts`.`created_at` >= `kqp_cutoff`.`kqp_bound`')
      expect(page.sql, page.sql).to.not.include(' in (select')
    })

    it('MariaDB: a page by two base columns with only column tests is a range of (created_at) up to its bound', async () => {
      const query = apply(`${BY_USER}&limit=20&page=40`)
      const ran = await countQueries(db.knex, async () => await query)
      const page = ran.queries[ran.queries.length - 1] as Knex.Sql
      expect(page.sql, JSON.stringify(ran.queries.map((q) => q.sql))).to.include(
        '`cc_posts`.`created_at` <= `kqp_cutoff`.`kqp_bound`',
      )
      const { lines, text } = await explainPlan(db.knex, 'mysql', page)
      expect(lines.join(' '), text).to.match(/ cc_posts type=range key=cc_posts_created_at /)
      const plain = await explainPlan(db.knex, 'mysql', query.clone().toSQL())
      expect(plain.text, 'the plain page').to.not.match(/key=cc_posts_created_at/)
      const filtered = apply(
        `${BY_USER}&wheres[1][column]=notes.id&wheres[1][operator]=%3E&wheres[1][value]=0&limit=20`,
      )
      expect(filtered.toSQL().sql, 'a relation filter keeps the page as it was').to.not.include('kqp_cutoff')
    })

    it('MariaDB: a later count keeps its grouped join in the cut-off page', async () => {
      const ran = await countQueries(db.knex, async () => await apply(`${BY_NOTES}&limit=20&page=40`))
      const page = ran.queries[0] as Knex.Sql
      expect(page.sql).to.include('left join (select `cc_notes`.`post_id` as `kqp_key`, count(*) as `kqp_value`')
      expect(page.sql).to.include('where `cc_posts`.`created_at` <= `kqp_cutoff`.`kqp_bound`')
    })
  })
}
