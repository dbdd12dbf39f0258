import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * Two tenants share global topics through a pivot the map does not guard (it has no guard of its own: it is no
 * table of the map). Tenant 1 puts `topic-hot` on 5,000 posts, tenant 2 on 5: a 1,000× difference in the use of one
 * key. `topic-cold` is on 5 posts of each.
 */
const map = defineRelationMap({
  tf_posts: {
    columns: { id: 'integer', tenant_id: 'integer', created_at: { type: 'datetime', nullable: false } },
    relations: {
      topics: {
        type: 'belongsToMany',
        table: 'tf_topics',
        pivotTable: 'tf_post_topic',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'topic_id',
      },
    },
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, (context as { tenant: number }).tenant)
    },
  },
  tf_topics: { columns: { id: 'integer', slug: { type: 'string', nullable: false, unique: true } } },
})

const TENANT_1_POSTS = 24_000
const TENANT_2_POSTS = 2_000
const HOT_BIG = 5_000
const FEW = 5

const stamp = (index: number): string =>
  new Date(Date.UTC(2024, 0, 1) + ((index * 7919) % 100_000) * 60_000).toISOString().slice(0, 19).replace('T', ' ')

/** Tenant 1's posts are 1…24,000, tenant 2's 24,001…26,000; which posts carry which topic. */
function links(): Array<{ post_id: number; topic_id: number }> {
  const rows: Array<{ post_id: number; topic_id: number }> = []
  for (let post = 1; post <= HOT_BIG; post++) rows.push({ post_id: post, topic_id: 1 })
  for (let n = 0; n < FEW; n++) {
    rows.push({ post_id: TENANT_1_POSTS + 100 + n * 300, topic_id: 1 })
    rows.push({ post_id: 7_000 + n, topic_id: 2 }, { post_id: TENANT_1_POSTS + 150 + n * 300, topic_id: 2 })
  }
  return rows
}

const REQUEST = (slug: string): string =>
  `wheres[0][column]=topics.slug&wheres[0][value]=${slug}&orders[0][column]=created_at&orders[0][direction]=desc&limit=10`

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

for (const db of testDatabases()) {
  describe(`the frequency guard reads only what the caller may see (${db.name})`, function () {
    this.timeout(120_000)
    const page = (tenant: number, slug: string, frequencyMemoMs = 60_000): Knex.QueryBuilder =>
      applyQueryParams(db.knex('tf_posts'), parseQueryParams(REQUEST(slug)), map, {
        context: { tenant },
        frequencyMemoMs,
      })
    const expected = (tenant: number, topic: number): number[] => {
      const ids = links()
        .filter((link) => link.topic_id === topic && (tenant === 1) === link.post_id <= TENANT_1_POSTS)
        .map((link) => link.post_id)
      return ids.sort((a, b) => stamp(b).localeCompare(stamp(a)) || b - a).slice(0, 10)
    }
    /** The statements with the slug's binding blanked: the same text and bindings means the same statements. */
    const shapes = (queries: readonly QueryEvent[]): string[] =>
      queries.map(
        (query) =>
          `${query.sql} ${JSON.stringify((query.bindings ?? []).map((value) => (String(value).startsWith('topic-') ? '<slug>' : value)))}`,
      )

    before(async () => {
      for (const table of ['tf_post_topic', 'tf_topics', 'tf_posts']) await db.knex.schema.dropTableIfExists(table)
      await db.knex.schema.createTable('tf_posts', (table) => {
        table.increments('id')
        table.integer('tenant_id').notNullable()
        table.datetime('created_at').notNullable()
        table.index(['tenant_id', 'created_at', 'id'], 'tf_posts_tenant_created_at')
      })
      await db.knex.schema.createTable('tf_topics', (table) => {
        table.increments('id')
        table.string('slug', 20).notNullable().unique({ indexName: 'tf_topics_slug' })
      })
      await db.knex.schema.createTable('tf_post_topic', (table) => {
        table.integer('post_id').unsigned().notNullable()
        table.integer('topic_id').unsigned().notNullable()
        table.primary(['post_id', 'topic_id'])
        table.index(['topic_id', 'post_id'], 'tf_post_topic_topic_id')
      })
      const posts = Array.from({ length: TENANT_1_POSTS + TENANT_2_POSTS }, (_, index) => ({
        tenant_id: index < TENANT_1_POSTS ? 1 : 2,
        created_at: stamp(index + 1),
      }))
      await db.knex.batchInsert('tf_posts', posts, 500)
      await db.knex('tf_topics').insert([{ slug: 'topic-hot' }, { slug: 'topic-cold' }])
      await db.knex.batchInsert('tf_post_topic', links(), 500)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table tf_posts, tf_topics, tf_post_topic' : 'analyze')
    })

    after(async () => {
      for (const table of ['tf_post_topic', 'tf_topics', 'tf_posts']) await db.knex.schema.dropTableIfExists(table)
    })

    it('the small tenant (fewer than four times the cap of rows) walks its own rows for the key tenant 1 uses 1,000× more and for a cold one: the same statements, its own rows', async () => {
      const hot = await countQueries(db.knex, () => page(2, 'topic-hot', 0))
      const cold = await countQueries(db.knex, () => page(2, 'topic-cold', 0))
      expect((hot.result as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected(2, 1))
      expect((cold.result as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected(2, 2))
      expect(hot.queries.length, 'the probe, then the page').to.equal(2)
      expect(shapes(hot.queries)).to.deep.equal(shapes(cold.queries))
      expect(hot.queries[0]?.sql, "the probe tests each pivot row against the caller's guard").to.match(
        /exists \(select 1 from .tf_posts. as .tf_posts_2. where .tf_posts_2.\..id. = .tf_post_topic.\..post_id. and \(.tf_posts_2.\..tenant_id. = (\?|\$\d)\)\)/,
      )
      expect(hot.queries[0]?.sql, 'a caller with fewer rows than four times the cap walks them').to.match(
        /^select case when \(select 1 from .tf_posts. where \(.tf_posts.\..tenant_id. = (\?|\$1)\) limit 1 offset (3999|19999)\) is null then 1 else /,
      )
    })

    it('the large tenant still walks for its frequent key: the probe counts its rows, not all rows', async () => {
      const hot = await countQueries(db.knex, () => page(1, 'topic-hot', 0))
      const cold = await countQueries(db.knex, () => page(1, 'topic-cold', 0))
      expect((hot.result as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected(1, 1))
      expect((cold.result as Array<{ id: number }>).map((row) => row.id)).to.deep.equal(expected(1, 2))
      expect(shapes(hot.queries)).not.to.deep.equal(shapes(cold.queries))
    })

    it("what a probe chose is never carried to another tenant: tenant 1's remembered choice is not tenant 2's", async () => {
      const first = await countQueries(db.knex, () => page(1, 'topic-hot'))
      const again = await countQueries(db.knex, () => page(1, 'topic-hot'))
      expect(first.queries.length).to.equal(2)
      expect(again.queries.length, 'tenant 1 remembers its own probe').to.equal(1)
      const other = await countQueries(db.knex, () => page(2, 'topic-hot'))
      expect(other.queries.length, 'tenant 2 probes for itself').to.equal(2)
      expect(shapes(other.queries)).to.deep.equal(
        shapes((await countQueries(db.knex, () => page(2, 'topic-cold', 0))).queries),
      )
    })

    it("times the small tenant's two requests (reported: median and fastest of 31, interleaved)", async () => {
      const times: Record<string, number[]> = { hot: [], cold: [] }
      for (let run = 0; run < 31; run++) {
        for (const [name, slug] of [
          ['hot', 'topic-hot'],
          ['cold', 'topic-cold'],
        ] as const) {
          const start = process.hrtime.bigint()
          await page(2, slug, 0)
          times[name]?.push(Number(process.hrtime.bigint() - start) / 1e6)
        }
      }
      const hot = median(times.hot ?? [])
      const cold = median(times.cold ?? [])
      const [fastHot, fastCold] = [Math.min(...(times.hot ?? [])), Math.min(...(times.cold ?? []))]
      console.log(
        `      tenant 2, ${db.name}: topic-hot ${hot.toFixed(2)} ms, topic-cold ${cold.toFixed(2)} ms (×${(hot / cold).toFixed(2)}); fastest ${fastHot.toFixed(2)} / ${fastCold.toFixed(2)} ms (×${(fastHot / fastCold).toFixed(2)})`,
      )
      expect(hot).to.be.greaterThan(0)
    })
  })
}
