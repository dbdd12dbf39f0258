import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { cursorPaginate, type CursorPaginated } from '../../lib/index.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases, type TestDatabaseName } from '../support/databases.ts'
import { explainPlan } from '../plans/support/explain-plan.ts'
import { createPlanDataSet, dropPlanDataSet, EVENTS, planMap } from '../plans/support/plan-data-set.ts'

/**
 * Plan shapes of a keyset page at depth, on the plan data set (40,000 analysed rows): the page enters the order's
 * index at the cursor's position and reads `limit + 1` entries, not the rows before it. PostgreSQL and MariaDB
 * count the rows each step read (`explain analyze`, `analyze format=json`); SQLite shows the index searched with a
 * bound (`SEARCH … USING INDEX … (created_at<?)`) and no sort.
 */

const SECRET = 'a test secret that is long enough for hmac-sha256'
const LIMIT = 20
const DEPTH = 30_000

/** Rows read from `table` by each step of the statement, as the database counted them while running it. */
async function rowsRead(db: Knex, name: TestDatabaseName, statement: Knex.Sql, table: string): Promise<number[]> {
  const { sql, bindings } = statement
  if (name === 'postgres') {
    const result = (await db.raw(`explain (analyze, format json) ${sql}`, bindings)) as {
      rows: Array<Record<string, unknown>>
    }
    let plan = Object.values(result.rows[0] ?? {})[0]
    if (typeof plan === 'string') plan = JSON.parse(plan)
    const found: number[] = []
    const visit = (node: Record<string, unknown>): void => {
      if (node['Relation Name'] === table) found.push(Number(node['Actual Rows']) * Number(node['Actual Loops'] ?? 1))
      for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) visit(child)
    }
    visit((plan as Array<{ Plan: Record<string, unknown> }>)[0]?.Plan ?? {})
    return found
  }
  const [rows] = (await db.raw(`analyze format=json ${sql}`, bindings)) as [Array<Record<string, unknown>>]
  const found: number[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (typeof value === 'object' && value !== null) {
      const node = value as Record<string, unknown>
      if (node.table_name === table && typeof node.r_rows === 'number')
        found.push(node.r_rows * Number(node.r_loops ?? 1))
      Object.values(node).forEach(visit)
    }
  }
  visit(JSON.parse(String(Object.values(rows[0] ?? {})[0])))
  return found
}

for (const db of testDatabases()) {
  describe(`cursor page plans on ${db.label}`, function () {
    this.timeout(120_000)
    before(async () => {
      await createPlanDataSet(db.knex, db.name)
    })
    after(async () => {
      await dropPlanDataSet(db.knex)
    })

    const page = (request: string): Promise<CursorPaginated<Record<string, unknown>>> => {
      const params = parseQueryParams(request)
      return cursorPaginate(applyQueryParams(db.knex('plan_events'), params, planMap), params, { secret: SECRET })
    }
    /** The statement of the page after row `DEPTH` of `request`, and its rows. */
    const deepPage = async (
      request: string,
    ): Promise<{ statement: Knex.Sql; data: Array<Record<string, unknown>> }> => {
      const start = await page(`${request}&offset=${DEPTH - LIMIT}&limit=${LIMIT}`)
      const { result, queries } = await countQueries(db.knex, () =>
        page(`${request}&limit=${LIMIT}&cursor=${start.meta.next_cursor ?? ''}`),
      )
      expect(queries, 'one statement: no count, no position query').to.have.length(1)
      const [ran] = queries
      return {
        statement: {
          sql: (ran?.sql ?? '').replace(/\$\d+/g, '?'),
          bindings: [...(ran?.bindings ?? [])],
        } as unknown as Knex.Sql,
        data: result.data,
      }
    }

    for (const [name, request, index] of [
      [
        'newest first (a NOT NULL column: the row-value form)',
        'orders[0][column]=created_at&orders[0][direction]=desc',
        'plan_events_created_at',
      ],
      [
        'a nullable column ascending (the expanded form, led by its bound)',
        'orders[0][column]=published_at',
        'plan_events_published_at',
      ],
      [
        'a nullable column descending (its non-NULL values first, as a range of their own)',
        'orders[0][column]=published_at&orders[0][direction]=desc',
        'plan_events_published_at',
      ],
    ] as const) {
      it(`${name}: the page at row ${DEPTH} reads the order's index from the position, limit + 1 rows`, async () => {
        const { statement, data } = await deepPage(request)
        const expected = (await applyQueryParams(
          db.knex('plan_events'),
          parseQueryParams(`${request}&offset=${DEPTH}&limit=${LIMIT}`),
          planMap,
        )) as Array<Record<string, unknown>>
        expect(data.map((row) => row.id)).to.deep.equal(expected.map((row) => row.id))
        const shown = await explainPlan(db.knex, db.name, statement)
        expect(shown.text, shown.text).to.include(index)
        expect(
          shown.lines.filter((line) => /^\s*Sort\b|Using filesort|USE TEMP B-TREE/.test(line)),
          shown.text,
        ).to.deep.equal([])
        if (db.name === 'sqlite') {
          expect(shown.text, shown.text).to.match(
            new RegExp(`SEARCH plan_events USING (?:COVERING )?INDEX ${index} \\((?:created_at|published_at)[<>]`),
          )
        } else {
          const read = await rowsRead(db.knex, db.name, statement, 'plan_events')
          expect(read, shown.text).to.have.length(1)
          // PostgreSQL's incremental sort over an index of created_at alone reads one row past the page's last tie group.
          expect(read[0], shown.text)
            .to.be.at.most(LIMIT + (db.name === 'postgres' ? 2 : 1))
            .and.at.least(LIMIT)
        }
      })
    }

    it(`the detector has teeth: offset ${DEPTH} reads the rows before the page`, async () => {
      if (db.name === 'sqlite') return
      const query = applyQueryParams(
        db.knex('plan_events'),
        parseQueryParams(`orders[0][column]=created_at&orders[0][direction]=desc&offset=${DEPTH}&limit=${LIMIT}`),
        planMap,
      )
      const { sql, bindings } = query.toSQL()
      const read = await rowsRead(
        db.knex,
        db.name,
        { sql: sql.replace(/\$\d+/g, '?'), bindings } as unknown as Knex.Sql,
        'plan_events',
      )
      expect(Math.max(...read))
        .to.be.above(DEPTH)
        .and.at.most(EVENTS)
    })
  })
}
