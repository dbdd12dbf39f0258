import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { explainPlan } from './support/explain-plan.ts'

/**
 * Posts by their notes count, descending, where every fourth post has notes: on SQLite a page whose rows all have
 * notes inner-joins the grouped count (`Dialect.correlatedAggregateOrder.keptGroups`), as its probe finds, so that
 * SQLite reads the groups and the posts they name instead of every post.
 */
const map = defineRelationMap({
  kg_posts: {
    columns: { id: 'integer', views: { type: 'integer', nullable: false } },
    relations: { notes: { type: 'hasMany', table: 'kg_notes', foreignKey: 'post_id' } },
    aggregates: { notesIdMax: { relation: 'notes', fn: 'max', column: 'id' } },
  },
  kg_notes: { columns: { id: 'integer', post_id: { type: 'integer', nullable: false } } },
})

const POSTS = 8_000
const posts = Array.from({ length: POSTS }, (_, index) => index + 1)
const notesOf = (post: number): number => (post % 4 === 0 ? 1 + (post % 7) : 0)
const viewsOf = (post: number): number => post % 100
// The last order's direction goes to the primary key that ends the order.
const byNotes = (a: number, b: number): number => notesOf(b) - notesOf(a) || b - a
const BY_NOTES =
  'wheres[0][column]=views&wheres[0][operator]=>=&wheres[0][value]=10&orders[0][column]=notesCount&orders[0][direction]=desc'

for (const db of testDatabases()) {
  describe(`a page ordered by a count, descending, whose rows all have related rows (${db.name})`, function () {
    this.timeout(120_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('kg_posts'), parseQueryParams(request), map, { frequencyMemoMs: 0 })
    const matching = posts.filter((post) => viewsOf(post) >= 10).sort(byNotes)

    before(async () => {
      await db.knex.schema.dropTableIfExists('kg_notes')
      await db.knex.schema.dropTableIfExists('kg_posts')
      await db.knex.schema.createTable('kg_posts', (table) => {
        table.increments('id')
        table.integer('views').notNullable()
      })
      await db.knex.schema.createTable('kg_notes', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('kg_notes_post_id')
      })
      await db.knex.batchInsert(
        'kg_posts',
        posts.map((id) => ({ id, views: viewsOf(id) })),
        500,
      )
      const notes = posts.flatMap((post) => Array.from({ length: notesOf(post) }, () => ({ post_id: post })))
      await db.knex.batchInsert('kg_notes', notes, 500)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table kg_posts, kg_notes' : 'analyze')
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('kg_notes')
      await db.knex.schema.dropTableIfExists('kg_posts')
    })

    it('returns the posts by notes count, those with notes first, then those without', async () => {
      const ids = async (request: string): Promise<number[]> =>
        ((await apply(request)) as Array<{ id: number }>).map((row) => row.id)
      expect(await ids(`${BY_NOTES}&limit=10&page=3`)).to.deep.equal(matching.slice(20, 30))
      // 1,800 of the 7,200 matching posts have notes: page 181 of 10 straddles them and the rest.
      expect(await ids(`${BY_NOTES}&limit=10&page=180`)).to.deep.equal(matching.slice(1_790, 1_800))
      expect(await ids(`${BY_NOTES}&limit=10&page=181`)).to.deep.equal(matching.slice(1_800, 1_810))
    })

    it('orders by the notes count, then the largest note id, from one grouped join of the notes', async () => {
      const request = `${BY_NOTES}&orders[1][column]=notesIdMax&orders[1][direction]=desc&limit=10&page=3`
      const ran = await countQueries(db.knex, async () => {
        const rows = (await apply(request)) as Array<{ id: number }>
        expect(rows.map((row) => row.id)).to.deep.equal(matching.slice(20, 30))
      })
      const page = ran.queries[ran.queries.length - 1]?.sql ?? ''
      expect(page).to.match(/count\(\*\) as .kqp_value., max\(.kg_notes.\..id.\) as .kqp_value_2. from .kg_notes. /)
      expect(page).to.not.include('kqp_aggregate_2')
    })

    it("tests a post's notes through their guard, in the probe as in the page", async () => {
      // The guard hides the notes of every eighth post: 880 of the matching posts keep visible notes.
      const guarded = defineRelationMap({
        ...map,
        kg_notes: {
          ...map.kg_notes,
          guard: (query, { table }) => {
            query.whereRaw('?? % 8 <> 0', [`${table}.post_id`])
          },
        },
      })
      const visibleNotes = (post: number): number => (post % 8 === 0 ? 0 : notesOf(post))
      const expected = posts
        .filter((post) => viewsOf(post) >= 10)
        .sort((a, b) => visibleNotes(b) - visibleNotes(a) || b - a)
      expect(expected.filter((post) => visibleNotes(post) > 0)).to.have.length(880)
      const page = (number: number): Knex.QueryBuilder =>
        applyQueryParams(db.knex('kg_posts'), parseQueryParams(`${BY_NOTES}&limit=10&page=${number}`), guarded, {
          frequencyMemoMs: 0,
        })
      for (const number of [88, 89]) {
        const ran = await countQueries(db.knex, async () => await page(number))
        const ids = (ran.result as Array<{ id: number }>).map((row) => row.id)
        expect(ids, `page ${number}`).to.deep.equal(expected.slice((number - 1) * 10, number * 10))
        if (db.name === 'sqlite')
          expect(ran.queries[0]?.sql).to.include(
            'and (exists (select 1 from `kg_notes` where `kg_notes`.`post_id` = `kg_posts`.`id` and (`kg_notes`.`post_id` % 8 <> 0))) limit ? offset ?',
          )
      }
    })

    if (db.name !== 'sqlite') {
      it('PostgreSQL and MariaDB: the grouped count stays a left join', async () => {
        const ran = await countQueries(db.knex, async () => await apply(`${BY_NOTES}&limit=10&page=3`))
        const page = ran.queries[ran.queries.length - 1]?.sql ?? ''
        expect(page).to.match(/left join \(select [^)]*count\(\*\)/)
        expect(ran.queries.map((query) => query.sql).join('\n')).to.not.match(/inner join \(select/)
      })
      return
    }

    it('SQLite: one probe, then the page inner-joins the grouped count and reads the groups first', async () => {
      const ran = await countQueries(db.knex, async () => await apply(`${BY_NOTES}&limit=10&page=3`))
      expect(ran.queries).to.have.length(2)
      const [probe, page] = ran.queries as [Knex.Sql, Knex.Sql]
      // The second probe tests each post for notes through their foreign key's index: no grouped join in a probe.
      expect(probe.sql).to.equal(
        'select (case when (select 1 from `kg_posts` where (`kg_posts`.`views` >= ?) limit ? offset ?) is null then null when (select 1 from `kg_posts` where (`kg_posts`.`views` >= ?) and (exists (select 1 from `kg_notes` where `kg_notes`.`post_id` = `kg_posts`.`id`)) limit ? offset ?) is not null then 2 else 1 end) as kqp_frequent',
      )
      expect(probe.bindings).to.deep.equal([10, 1, 4_999, 10, 1, 29])
      expect(page.sql).to.include('from `kg_posts` inner join (select `kg_notes`.`post_id` as `kqp_key`, count(*)')
      const { lines, text } = await explainPlan(db.knex, 'sqlite', page)
      expect(lines, text).to.include('SCAN kqp_aggregate')
      expect(lines, text).to.include('SEARCH kg_posts USING INTEGER PRIMARY KEY (rowid=?)')
    })

    it('SQLite: with a later order by another aggregate of the notes, one grouped join holds both; the probe joins none', async () => {
      const request = `${BY_NOTES}&orders[1][column]=notesIdMax&orders[1][direction]=desc&limit=10&page=3`
      const ran = await countQueries(db.knex, async () => await apply(request))
      expect(ran.queries).to.have.length(2)
      const [probe, page] = ran.queries as [Knex.Sql, Knex.Sql]
      const grouped =
        '(select `kg_notes`.`post_id` as `kqp_key`, count(*) as `kqp_value`, max(`kg_notes`.`id`) as `kqp_value_2` from `kg_notes` group by +`kg_notes`.`post_id`) as `kqp_aggregate` on `kqp_aggregate`.`kqp_key` = `kg_posts`.`id`'
      expect(probe.sql).to.include(
        'when (select 1 from `kg_posts` where (`kg_posts`.`views` >= ?) and (exists (select 1 from `kg_notes` where `kg_notes`.`post_id` = `kg_posts`.`id`)) limit ? offset ?)',
      )
      expect(probe.sql).to.not.include('kqp_aggregate')
      expect(page.sql).to.include(`from \`kg_posts\` inner join ${grouped}`)
      expect(page.sql).to.include(
        'order by coalesce(`kqp_aggregate`.`kqp_value`, 0) desc, `kqp_aggregate`.`kqp_value_2` desc',
      )
      expect(`${probe.sql} ${page.sql}`).to.not.include('kqp_aggregate_2')
      const ids = ((await apply(request)) as Array<{ id: number }>).map((row) => row.id)
      expect(ids).to.deep.equal(matching.slice(20, 30))
    })

    it('SQLite: a page past the posts with notes keeps the left join', async () => {
      const ran = await countQueries(db.knex, async () => await apply(`${BY_NOTES}&limit=10&page=181`))
      const page = ran.queries[1]?.sql ?? ''
      expect(page).to.include('left join (select `kg_notes`.`post_id` as `kqp_key`, count(*)')
    })

    it('SQLite: ascending, the posts without notes come first: no kept groups', async () => {
      const ran = await countQueries(db.knex, async () => await apply(`${BY_NOTES.replace('desc', 'asc')}&limit=10`))
      expect(ran.queries.map((query) => query.sql).join('\n')).to.not.match(/inner join \(select/)
    })
  })
}
