import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { explainPlan, guardedBranches, WALK_LIMIT, type PlanLines } from './support/explain-plan.ts'
import { createPlanDataSet, dropPlanDataSet, planMap } from './support/plan-data-set.ts'

/**
 * Plan shapes on a data set of 40,000 analysed rows, caught without timing anything: the list queries a
 * client sends most read an index in order, with no sort of the whole table (PostgreSQL `Sort`, MariaDB
 * `Using filesort`, SQLite `USE TEMP B-TREE FOR …ORDER BY`), a deep page skips index entries (a deferred
 * join on SQLite and MariaDB), and a selective many-to-many filter on SQLite starts from the related table
 * instead of scanning the base table.
 */

const NEWEST = 'orders[0][column]=created_at&orders[0][direction]=desc&limit=20'
/**
 * The sort steps of a plan: a PostgreSQL `Sort` (an `Incremental Sort` above an index scan only orders rows
 * with equal index keys), MariaDB's `Using filesort`, any SQLite temp B-tree for the order.
 */
const sorts = (plan: PlanLines): string[] =>
  plan.lines.filter((line) => /^\s*Sort\b|Using filesort|USE TEMP B-TREE FOR/.test(line))

for (const db of testDatabases()) {
  describe(`query plans on ${db.label}`, function () {
    this.timeout(120_000)
    const query = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('plan_events'), parseQueryParams(request), planMap)
    const plan = (request: string): Promise<PlanLines> => explainPlan(db.knex, db.name, query(request))

    before(async () => {
      await createPlanDataSet(db.knex, db.name)
    })

    after(async () => {
      await dropPlanDataSet(db.knex)
    })

    it('newest first (a NOT NULL column, paged): read backwards from the created_at index, no sort of the table', async () => {
      const shown = await plan(NEWEST)
      expect(sorts(shown), shown.text).to.deep.equal([])
      expect(shown.text, shown.text).to.include('plan_events_created_at')
      const rows = (await query(NEWEST)) as Array<{ id: number }>
      const expected = (await db
        .knex('plan_events')
        .select('id')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(20)) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal(expected.map((row) => row.id))
    })

    it('the detector has teeth: the SQL the library wrote before (NULL ordering on a NOT NULL column, ascending tie-breaker) sorts', async () => {
      const undeclared: RelationMap = {
        ...planMap,
        plan_events: { ...planMap.plan_events, columns: { ...planMap.plan_events.columns, created_at: 'datetime' } },
      }
      const before = applyQueryParams(
        db.knex('plan_events'),
        parseQueryParams(`${NEWEST}&orders[1][column]=id`),
        undeclared,
      )
      const shown = await explainPlan(db.knex, db.name, before)
      expect(sorts(shown), shown.text).not.to.deep.equal([])
    })

    it('a filter plus newest first: read from the (kind, created_at) index, no sort', async () => {
      const shown = await plan(`wheres[0][column]=kind&wheres[0][value]=c&${NEWEST}`)
      expect(sorts(shown), shown.text).to.deep.equal([])
      expect(shown.text, shown.text).to.include('plan_events_kind_created_at')
    })

    it('a nullable column, newest first with NULLs last: served by its index (on PostgreSQL, one declared desc nulls last)', async () => {
      const request = 'orders[0][column]=published_at&orders[0][direction]=desc&limit=20'
      const shown = await plan(request)
      expect(sorts(shown), shown.text).to.deep.equal([])
      expect(shown.text, shown.text).to.include('plan_events_published_at')
      const rows = (await query(request)) as Array<{ id: number; published_at: unknown }>
      expect(rows.every((row) => row.published_at !== null)).to.equal(true)
      const ascending = (await query('orders[0][column]=published_at&limit=20')) as Array<{ published_at: unknown }>
      expect(
        ascending.every((row) => row.published_at === null),
        'NULLs are the smallest values, first ascending',
      ).to.equal(true)
      const oldest = await plan('orders[0][column]=published_at&limit=20')
      expect(sorts(oldest), oldest.text).to.deep.equal([])
    })

    it('a deep page (offset 9,980) skips entries of the created_at index: a deferred join on SQLite and MariaDB, never a scan or sort of the table', async () => {
      const request = `${NEWEST}&page=500`
      const shown = await plan(request)
      const plain = await explainPlan(db.knex, db.name, query(request).clone())
      if (db.name === 'mysql') {
        const derived = shown.lines.find((line) => line.startsWith('DERIVED plan_events'))
        expect(derived, shown.text).to.match(/key=plan_events_created_at extra=Using index$/)
        expect(
          shown.lines.filter((line) => /type=ALL/.test(line) && !/<derived/.test(line)),
          shown.text,
        ).to.deep.equal([])
        expect(plain.text, 'the plain offset, for contrast, scans and sorts the table').to.match(
          /plan_events type=ALL .*Using filesort/,
        )
      } else if (db.name === 'sqlite') {
        expect(shown.text, shown.text).to.match(/SCAN plan_events USING COVERING INDEX plan_events_created_at/)
        expect(shown.text, shown.text).to.match(/SEARCH plan_events USING INTEGER PRIMARY KEY/)
        expect(plain.text, plain.text).to.match(/SCAN plan_events USING INDEX plan_events_created_at/)
      } else {
        expect(sorts(shown), shown.text).to.deep.equal([])
        expect(shown.text, 'PostgreSQL keeps the plain offset').to.equal(plain.text)
      }
      const rows = (await query(request)) as Array<{ id: number }>
      expect(rows).to.have.length(20)
      expect(rows).to.deep.equal(await query(request).clone())
    })

    if (db.name === 'sqlite') {
      it('a selective many-to-many filter starts from the tag, never scanning plan_events', async () => {
        const request = 'wheres[0][column]=tags.name&wheres[0][value]=tag 7&limit=20'
        const shown = await plan(request)
        const { list } = guardedBranches(shown)
        expect(
          list.filter((line) => /^SCAN plan_events\b/.test(line)),
          shown.text,
        ).to.deep.equal([])
        expect(list.join('\n'), shown.text).to.match(/SEARCH plan_tags USING (?:COVERING )?INDEX plan_tags_name/)
        expect(
          query(request).toSQL().sql,
          'the walking form reads no row for a tag on fewer than 1,000 events',
        ).to.match(WALK_LIMIT)
        const rows = (await query(request)) as Array<{ id: number }>
        const expected = (await db
          .knex('plan_event_tag')
          .join('plan_tags', 'plan_tags.id', 'plan_event_tag.tag_id')
          .where('plan_tags.name', 'tag 7')
          .select('event_id')
          .orderBy('event_id')
          .limit(20)) as Array<{ event_id: number }>
        expect(rows.map((row) => row.id)).to.deep.equal(expected.map((row) => row.event_id))
      })
    }
  })
}
