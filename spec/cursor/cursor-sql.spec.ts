import { expect } from 'chai'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { cursorPaginate } from '../../lib/index.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { guardedPageMap, createPageDataSet, dropPageDataSet } from '../apply/support/page-data-set.ts'
import { createCursorDataSet, cursorMap, dropCursorDataSet } from './support/cursor-data-set.ts'

/**
 * The SQL of keyset pages, per database (spec/__snapshots__): the row-value comparison where it is exact, the
 * expanded form led by its bound elsewhere, the reversed order of a previous page, the position values selected
 * beside the row; eager loading (`with`) runs once per page, on the page's rows; a frequency-guarded page keeps
 * its guarded forms under a cursor and returns the rows of the unguarded query.
 */

const SECRET = 'a test secret that is long enough for hmac-sha256'
const placeholders = (sql: string): string => sql.replace(/\$\d+/g, '?')

for (const db of testDatabases()) {
  describe(`cursorPaginate SQL (${db.name})`, function () {
    this.timeout(60_000)
    before(async () => {
      await createCursorDataSet(db.knex)
    })
    after(async () => {
      await dropCursorDataSet(db.knex)
    })

    const page = (request: string) => {
      const params = parseQueryParams(request)
      return cursorPaginate(applyQueryParams(db.knex('cur_items'), params, cursorMap), params, { secret: SECRET })
    }
    /** The statements of the second page of `request` (its first page read before). */
    const secondPage = async (request: string, back = false): Promise<QueryEvent[]> => {
      const first = await page(request)
      const second = await page(`${request}&cursor=${first.meta.next_cursor ?? ''}`)
      const cursor = back ? second.meta.prev_cursor : first.meta.next_cursor
      return (await countQueries(db.knex, () => page(`${request}&cursor=${cursor ?? ''}`))).queries
    }
    const snapshot = (key: string, statement: QueryEvent | undefined): void => {
      expectSql(db.name, key, {
        toSQL: () => ({
          sql: placeholders(statement?.sql ?? ''),
          bindings: (statement?.bindings ?? []).map((value) => (typeof value === 'bigint' ? String(value) : value)),
        }),
      })
    }

    it('newest first: one statement, a row-value comparison (MariaDB: the expanded form led by its bound)', async () => {
      const queries = await secondPage('orders[0][column]=at&orders[0][direction]=desc&limit=5')
      expect(queries).to.have.length(1)
      snapshot('cursor: newest first, next page', queries[0])
    })

    it('the previous page: the order reversed, the comparison turned', async () => {
      const queries = await secondPage('orders[0][column]=at&orders[0][direction]=desc&limit=5', true)
      expect(queries).to.have.length(1)
      snapshot('cursor: newest first, previous page', queries[0])
    })

    it('mixed directions and a nullable text: the expanded form', async () => {
      const queries = await secondPage(
        'orders[0][column]=rank&orders[1][column]=title&orders[1][direction]=desc&limit=5',
      )
      snapshot('cursor: mixed directions, next page', queries[0])
    })

    it('a belongsTo column and a count: the values read from the order joins', async () => {
      snapshot('cursor: belongsTo column, next page', (await secondPage('orders[0][column]=group.name&limit=5'))[0])
      snapshot(
        'cursor: count, next page',
        (await secondPage('orders[0][column]=notesCount&orders[0][direction]=desc&limit=5'))[0],
      )
    })

    it('a required belongsTo column, walked both ways: the previous page (ascending) keeps the order cutoff (MariaDB, SQLite), turned with it', async () => {
      const map = {
        ...cursorMap,
        cur_items: {
          ...cursorMap.cur_items,
          relations: {
            ...cursorMap.cur_items.relations,
            group: { ...cursorMap.cur_items.relations.group, required: true },
          },
        },
      }
      const request = 'orders[0][column]=group.name&orders[0][direction]=desc'
      const read = (extra: string) => {
        const params = parseQueryParams(`${request}&${extra}`)
        return cursorPaginate(applyQueryParams(db.knex('cur_items'), params, map), params, { secret: SECRET })
      }
      const expected = (
        (await applyQueryParams(db.knex('cur_items'), parseQueryParams(`${request}&limit=1000`), map)) as Array<
          Record<string, unknown>
        >
      ).map((row) => row.id)
      expect(expected.length).to.be.above(30)
      const forward: unknown[] = []
      let current = await read('limit=5')
      forward.push(...current.data.map((row) => row.id))
      while (current.meta.next_cursor !== null) {
        current = await read(`limit=5&cursor=${current.meta.next_cursor}`)
        forward.push(...current.data.map((row) => row.id))
      }
      expect(forward).to.deep.equal(expected)
      const back = current.data.map((row) => row.id)
      const statements: QueryEvent[] = []
      while (current.meta.prev_cursor !== null) {
        const cursor = current.meta.prev_cursor
        const counted = await countQueries(db.knex, () => read(`limit=5&cursor=${cursor}`))
        statements.push(...counted.queries)
        current = counted.result
        back.unshift(...current.data.map((row) => row.id))
      }
      expect(back).to.deep.equal(expected)
      snapshot('cursor: required belongsTo column, previous page', statements[0])
      const cutoff =
        /cross join \(select coalesce\(\(select straight_join `cur_groups`.`name` from `cur_groups` straight_join .* order by `cur_groups`.`name` asc limit \? offset \?\), \(select max\(`cur_groups`.`name`\) from `cur_groups`\)\) as `kqp_bound` limit 1\) as `kqp_cutoff` where .*`cur_groups`.`name` <= `kqp_cutoff`.`kqp_bound` order by `cur_groups`.`name` asc/
      // SQLite reads the bound as a scalar subquery in the where (see `withOrderCutoff`).
      const scalarCutoff =
        /`cur_groups`.`name` <= coalesce\(\(select `cur_groups`.`name` from `cur_groups` cross join `cur_items` on .* order by `cur_groups`.`name` asc limit \? offset \?\), \(select max\(`cur_groups`.`name`\) from `cur_groups`\)\) order by `cur_groups`.`name` asc/
      if (db.name === 'mysql') expect(statements[0]?.sql).to.match(cutoff)
      else if (db.name === 'sqlite') expect(statements[0]?.sql).to.match(scalarCutoff)
      else expect(statements[0]?.sql).to.not.include('coalesce')
    })

    it('with on a cursor page: the relation loaded once, for the page rows only, and the position columns removed', async () => {
      const first = await page('orders[0][column]=at&orders[0][direction]=desc&limit=4&with[0]=notes&with[1]=group')
      const { result, queries } = await countQueries(db.knex, () =>
        page(
          `orders[0][column]=at&orders[0][direction]=desc&limit=4&with[0]=notes&with[1]=group&cursor=${first.meta.next_cursor ?? ''}`,
        ),
      )
      expect(queries).to.have.length(3)
      expect(result.data).to.have.length(4)
      for (const row of result.data) {
        expect(Object.keys(row).filter((key) => key.startsWith('kqp_'))).to.deep.equal([])
        expect(row.notes).to.be.an('array')
        for (const note of row.notes as Array<Record<string, unknown>>)
          expect(Number(note.item_id)).to.equal(Number(row.id))
        if (row.group_id === null) expect(row.group).to.equal(null)
        else expect(Number((row.group as Record<string, unknown>).id)).to.equal(Number(row.group_id))
      }
    })
  })

  describe(`cursorPaginate on a frequency-guarded page (${db.name})`, function () {
    this.timeout(60_000)
    before(async () => {
      await createPageDataSet(db.knex)
    })
    after(async () => {
      await dropPageDataSet(db.knex)
    })

    it('a filter through a many-to-many relation, walked with cursors: the rows of the unguarded query, in order', async () => {
      const request =
        'wheres[0][column]=tags.name&wheres[0][value]=tag 3&orders[0][column]=created_at&orders[0][direction]=desc'
      const params = (extra: string) => parseQueryParams(`${request}&${extra}`)
      const expected = (await applyQueryParams(
        db.knex('pg_posts'),
        params('limit=1000'),
        guardedPageMap,
      ).clone()) as Array<Record<string, unknown>>
      expect(expected.length).to.be.above(40)
      const walked: unknown[] = []
      let cursor: string | null = null
      for (let pages = 0; pages < 100; pages++) {
        const extra: string = cursor === null ? 'limit=20' : `limit=20&cursor=${cursor}`
        const query = applyQueryParams(db.knex('pg_posts'), params(extra), guardedPageMap)
        const result = await cursorPaginate(query, params(extra), { secret: SECRET })
        walked.push(...result.data.map((row) => row.id))
        cursor = result.meta.next_cursor
        if (cursor === null) break
      }
      expect(walked).to.deep.equal(expected.map((row) => row.id))
    })
  })
}
