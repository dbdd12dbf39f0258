import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { copyPositions, positionSources } from '../../lib/cursor/page-position.ts'
import { mysql } from '../../lib/dialect/mysql.ts'
import { postgres } from '../../lib/dialect/postgres.ts'
import { sqlite } from '../../lib/dialect/sqlite.ts'
import { cursorPaginate } from '../../lib/index.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { createCursorDataSet, cursorMap, dropCursorDataSet } from './support/cursor-data-set.ts'

/**
 * Where a keyset page reads the position of its last row: from the row itself, as the driver returned it (before
 * the JSON values), for an order that is a selected column of the table whose driver value is exact (every type
 * but `bigint` on SQLite; text and whole numbers on PostgreSQL and MariaDB), else selected beside the row
 * (`kqp_cursor_<i>`): a PostgreSQL or MariaDB date-time (the driver's `Date` lost the microseconds), a column the
 * request does not select, a joined column, a count.
 */

const SECRET = 'a test secret that is long enough for hmac-sha256'

for (const db of testDatabases()) {
  describe(`cursorPaginate: the position read from the row (${db.name})`, function () {
    this.timeout(60_000)
    before(async () => {
      await createCursorDataSet(db.knex)
    })
    after(async () => {
      await dropCursorDataSet(db.knex)
    })

    const read = (request: string, adjust: (query: Knex.QueryBuilder) => Knex.QueryBuilder = (query) => query) => {
      const params = parseQueryParams(request)
      return cursorPaginate(adjust(applyQueryParams(db.knex('cur_items'), params, cursorMap)), params, {
        secret: SECRET,
      })
    }
    /** Walks `request` with cursors to its end: the ids, and the SQL of each page's statements (two for a nullable order). */
    const walk = async (request: string, adjust?: (query: Knex.QueryBuilder) => Knex.QueryBuilder) => {
      const ids: unknown[] = []
      const statements: string[] = []
      let cursor: string | null = ''
      for (let pages = 0; cursor !== null && pages < 100; pages++) {
        const extra: string = cursor === '' ? '' : `&cursor=${cursor}`
        const { result, queries } = await countQueries(db.knex, () => read(`${request}&limit=7${extra}`, adjust))
        expect(queries.length).to.be.within(1, 2)
        statements.push(...queries.map((query) => query.sql))
        for (const row of result.data) {
          expect(Object.keys(row).filter((key) => key.startsWith('kqp_'))).to.deep.equal([])
          ids.push(row.id)
        }
        cursor = result.meta.next_cursor
      }
      return { ids, statements }
    }
    const unpaged = async (request: string): Promise<unknown[]> =>
      (
        (await applyQueryParams(db.knex('cur_items'), parseQueryParams(`${request}&limit=1000`), cursorMap)) as Array<
          Record<string, unknown>
        >
      ).map((row) => row.id)

    it('newest first: SQLite reads both positions from the row (no column added); PostgreSQL and MariaDB select the date-time only', async () => {
      const request = 'orders[0][column]=at&orders[0][direction]=desc'
      const { ids, statements } = await walk(request)
      expect(ids).to.deep.equal(await unpaged(request))
      expect(ids.length).to.be.above(80)
      for (const sql of statements) {
        expect(sql).to.not.include('kqp_cursor_1')
        if (db.name === 'sqlite') expect(sql).to.not.include('kqp_cursor_0')
        else if (db.name === 'postgres') expect(sql).to.include('("cur_items"."at")::text as "kqp_cursor_0" from')
        else expect(sql).to.include('cast(`cur_items`.`at` as char) as `kqp_cursor_0` from')
      }
    })

    it('an order column the request does not select: its position selected beside the row, the rows without it', async () => {
      const request = 'columns[0]=id&columns[1]=title&orders[0][column]=rank&orders[1][column]=at'
      const { ids, statements } = await walk(request)
      expect(ids).to.deep.equal(await unpaged(request))
      const q = db.name === 'mysql' ? '`' : db.name === 'postgres' ? '"' : '`'
      for (const sql of statements) {
        expect(sql).to.include(`${q}cur_items${q}.${q}rank${q}`)
        expect(sql).to.include(`${q}kqp_cursor_0${q}`)
        expect(sql).to.include(`${q}kqp_cursor_1${q}`)
        expect(sql).to.not.include(`${q}kqp_cursor_2${q}`)
      }
      const first = await read(`${request}&limit=3`)
      expect(Object.keys(first.data[0] ?? {})).to.deep.equal(['id', 'title'])
    })

    it("a caller's own select list after applyQueryParams: every position selected beside the row", async () => {
      const request = 'orders[0][column]=title&orders[0][direction]=desc'
      const own = (query: Knex.QueryBuilder) => query.clearSelect().select('cur_items.id', 'cur_items.title')
      const { ids, statements } = await walk(request, own)
      expect(ids).to.deep.equal(await unpaged(request))
      for (const sql of statements) expect(sql).to.match(/kqp_cursor_0.*kqp_cursor_1/)
    })
  })
}

describe('cursorPaginate: a position read from the row must be the exact value', () => {
  const orders = [
    {
      sql: '"t"."title"',
      bindings: [],
      direction: 'asc',
      nullable: true,
      type: 'string',
      appended: false,
      column: 'title',
    },
    {
      sql: '"t"."at"',
      bindings: [],
      direction: 'asc',
      nullable: false,
      type: 'datetime',
      appended: false,
      column: 'at',
    },
    {
      sql: '"t"."big"',
      bindings: [],
      direction: 'asc',
      nullable: false,
      type: 'bigint',
      appended: false,
      column: 'big',
    },
    { sql: '"t"."id"', bindings: [], direction: 'asc', nullable: false, type: 'integer', appended: true, column: 'id' },
  ] as const
  const listed = new Set(['title', 'at', 'big', 'id'])

  it('reads text and whole numbers from the row on PostgreSQL and MariaDB, every type but bigint on SQLite', () => {
    for (const dialect of [postgres, mysql])
      expect(positionSources(orders, listed, dialect)).to.deep.equal({
        selected: [1, 2],
        fromRow: [
          { index: 0, key: 'title', type: 'string' },
          { index: 3, key: 'id', type: 'integer' },
        ],
      })
    expect(positionSources(orders, listed, sqlite).selected).to.deep.equal([2])
    expect(positionSources(orders, new Set(['id']), sqlite).selected).to.deep.equal([0, 1, 2])
  })

  it('copies the values before conversion; a value of another form (a type parser) is an Error naming the column', () => {
    const sources = positionSources(orders, listed, postgres)
    const row: Record<string, unknown> = { title: 'Émile', id: 12, at: new Date(0), big: '9007199254740993' }
    copyPositions([row], sources, postgres)
    expect(row).to.include({ kqp_cursor_0: 'Émile', kqp_cursor_3: 12 })
    expect(row).to.not.have.property('kqp_cursor_1')
    const nulls: Record<string, unknown> = { title: null, id: 3 }
    copyPositions([nulls], sources, postgres)
    expect(nulls).to.include({ kqp_cursor_0: null, kqp_cursor_3: 3 })
    expect(() => copyPositions([{ title: new Date(0), id: 1 }], sources, postgres)).to.throw(
      Error,
      "cursorPaginate cannot read the position of 'title' from the row: the driver returned Date",
    )
    expect(() => copyPositions([{ title: 'a', id: 2 ** 53 + 2 }], sources, mysql)).to.throw(
      Error,
      "cursorPaginate cannot read the position of 'id' from the row: the driver returned a number",
    )
  })
})
