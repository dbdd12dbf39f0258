import { expect } from 'chai'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { cursorPaginate, type CursorPaginated } from '../../lib/index.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { createCursorDataSet, cursorMap, dropCursorDataSet, itemRow } from './support/cursor-data-set.ts'

/**
 * Walks every order kind page by page with cursors, forward to the end and back to the start: the rows are exactly
 * those of the same request without a page, in order, on every database; also when rows are inserted and deleted
 * between pages (no row that existed throughout is skipped or repeated).
 */

const SECRET = 'a test secret that is long enough for hmac-sha256'
const PAGE = 7

/** The orders walked: every kind the library supports. */
export const ORDER_KINDS: Record<string, { table: string; request: string; map?: RelationMap }> = {
  'newest first (microsecond ties)': { table: 'cur_items', request: 'orders[0][column]=at&orders[0][direction]=desc' },
  'a nullable text column (collation)': { table: 'cur_items', request: 'orders[0][column]=title' },
  'a nullable text column, descending': {
    table: 'cur_items',
    request: 'orders[0][column]=title&orders[0][direction]=desc',
  },
  'mixed directions': {
    table: 'cur_items',
    request: 'orders[0][column]=rank&orders[1][column]=title&orders[1][direction]=desc&orders[2][column]=id',
  },
  'a belongsTo column (left join, NULLs)': {
    table: 'cur_items',
    request: 'orders[0][column]=group.name&orders[0][direction]=desc',
  },
  'a hasOne column (its first row, NULL when none)': {
    table: 'cur_items',
    request: 'orders[0][column]=firstNote.weight&orders[0][direction]=desc',
  },
  'a count': { table: 'cur_items', request: 'orders[0][column]=notesCount&orders[0][direction]=desc' },
  'a declared aggregate (NULL over no rows)': { table: 'cur_items', request: 'orders[0][column]=notesWeightSum' },
  'bigint and decimal, exact': {
    table: 'cur_items',
    request: 'orders[0][column]=big&orders[1][column]=score&orders[1][direction]=desc',
  },
  'the primary key alone': { table: 'cur_items', request: '' },
  distinct: {
    table: 'cur_items',
    request: 'distinct[0]=rank&columns[0]=title&columns[1]=big&orders[0][column]=rank&orders[1][column]=title',
  },
  'a composite key': { table: 'cur_pairs', request: 'orders[0][column]=label' },
  'a filter and a scope-free relation filter': {
    table: 'cur_items',
    request:
      'wheres[0][column]=rank&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2&relations_exists[0]=notes&orders[0][column]=at',
  },
}

const keyOf =
  (table: string) =>
  (row: Record<string, unknown>): string =>
    table === 'cur_pairs'
      ? `${String(row.left_id)}/${String(row.right_id)}`
      : row.id === undefined
        ? JSON.stringify(row)
        : String(row.id)

for (const db of testDatabases()) {
  describe(`cursorPaginate walks (${db.name})`, function () {
    this.timeout(60_000)
    before(async () => {
      await createCursorDataSet(db.knex)
    })
    after(async () => {
      await dropCursorDataSet(db.knex)
    })

    const page = (
      table: string,
      request: string,
      map: RelationMap = cursorMap,
    ): Promise<CursorPaginated<Record<string, unknown>>> => {
      const params = parseQueryParams(request)
      return cursorPaginate(applyQueryParams(db.knex(table), params, map), params, { secret: SECRET })
    }
    const unpaged = async (table: string, request: string): Promise<Array<Record<string, unknown>>> =>
      rowsOf(await applyQueryParams(db.knex(table), parseQueryParams(`${request}&limit=1000`), cursorMap))
    const withCursor = (request: string, cursor: string): string => `${request}&limit=${PAGE}&cursor=${cursor}`

    /** Walks forward from the first page, calling `between` after each page; returns the rows and the last page. */
    async function walkForward(table: string, request: string, between?: (index: number) => Promise<void>) {
      const rows: Array<Record<string, unknown>> = []
      let current = await page(table, `${request}&limit=${PAGE}`)
      expect(current.meta.prev_cursor, 'the first page has no prev_cursor').to.equal(null)
      for (let index = 0; ; index++) {
        expect(current.data.length).to.be.at.most(PAGE)
        expect(current.meta.per_page).to.equal(PAGE)
        rows.push(...current.data)
        if (current.meta.next_cursor === null) break
        await between?.(index)
        current = await page(table, withCursor(request, current.meta.next_cursor))
        expect(index, 'pages walked').to.be.below(200)
      }
      return { rows, last: current }
    }

    for (const [name, { table, request }] of Object.entries(ORDER_KINDS)) {
      it(`${name}: forward to the end and back to the start gives the unpaged rows, in order`, async () => {
        const expected = await unpaged(table, request)
        expect(expected.length).to.be.above(PAGE * 2)
        const { rows, last } = await walkForward(table, request)
        expect(rows).to.deep.equal(expected)
        const back: Array<Record<string, unknown>> = [...last.data]
        let cursor = last.meta.prev_cursor
        let pages = 0
        while (cursor !== null) {
          const previous = await page(table, withCursor(request, cursor))
          expect(previous.meta.next_cursor, 'a page reached backwards has a next_cursor').to.not.equal(null)
          back.unshift(...previous.data)
          cursor = previous.meta.prev_cursor
          expect(++pages).to.be.below(200)
        }
        expect(back).to.deep.equal(expected)
      })
    }

    it('an empty page past the end (the rows after the cursor deleted): no next_cursor, a prev_cursor from the position asked for', async () => {
      const request = 'orders[0][column]=at&orders[0][direction]=desc'
      const expected = (await unpaged('cur_items', request)).map(keyOf('cur_items'))
      const first = await page('cur_items', `${request}&limit=${PAGE}`)
      const second = await page('cur_items', withCursor(request, first.meta.next_cursor ?? ''))
      const after = expected.slice(PAGE * 2)
      try {
        await db.knex('cur_notes').whereIn('item_id', after).delete()
        await db.knex('cur_items').whereIn('id', after).delete()
        const empty = await page('cur_items', withCursor(request, second.meta.next_cursor ?? ''))
        expect(empty.data).to.deep.equal([])
        expect(empty.meta.next_cursor).to.equal(null)
        expect(empty.meta.prev_cursor).to.be.a('string')
        const back = await page('cur_items', withCursor(request, empty.meta.prev_cursor ?? ''))
        // The rows before the position asked for: the second page's row at that position is not among them.
        expect(back.data.map(keyOf('cur_items'))).to.deep.equal(expected.slice(PAGE * 2 - 1 - PAGE, PAGE * 2 - 1))
        expect(back.meta.next_cursor).to.be.a('string')
        const again = await page('cur_items', withCursor(request, back.meta.next_cursor ?? ''))
        expect(again.data.map(keyOf('cur_items'))).to.deep.equal(expected.slice(PAGE * 2 - 1, PAGE * 2))
        // Backwards too: every row before a cursor deleted, the empty page leads forward from its position.
        const before = expected.slice(0, PAGE)
        await db.knex('cur_notes').whereIn('item_id', before).delete()
        await db.knex('cur_items').whereIn('id', before).delete()
        const emptyBack = await page('cur_items', withCursor(request, second.meta.prev_cursor ?? ''))
        expect(emptyBack.data).to.deep.equal([])
        expect(emptyBack.meta.prev_cursor).to.equal(null)
        const forward = await page('cur_items', withCursor(request, emptyBack.meta.next_cursor ?? ''))
        expect(forward.data.map(keyOf('cur_items'))).to.deep.equal(expected.slice(PAGE + 1, PAGE * 2))
      } finally {
        await createCursorDataSet(db.knex)
      }
    })

    for (const name of [
      'newest first (microsecond ties)',
      'mixed directions',
      'a count',
      'a belongsTo column (left join, NULLs)',
    ]) {
      const { table, request } = ORDER_KINDS[name] ?? { table: '', request: '' }
      it(`${name}: rows inserted and deleted between pages; every row that existed throughout comes once, in order`, async () => {
        const before = (await unpaged(table, request)).map(keyOf(table))
        const inserted: number[] = []
        const deleted: string[] = []
        const { rows } = await walkForward(table, request, async (index) => {
          const insert = db.knex('cur_items').insert(itemRow(index * 5 + 3))
          const [id] = (await (db.name === 'mysql' ? insert : insert.returning('id'))) as Array<number | { id: number }>
          inserted.push(Number(typeof id === 'object' ? id.id : id))
          const victim = before[(index * 11 + 4) % before.length] ?? ''
          deleted.push(victim)
          await db.knex('cur_notes').where('item_id', victim).delete()
          await db.knex('cur_items').where('id', victim).delete()
        })
        try {
          const walked = rows.map(keyOf(table))
          const after = (await unpaged(table, request)).map(keyOf(table))
          expect(new Set(walked).size, 'no row twice').to.equal(walked.length)
          const throughout = before.filter((key) => after.includes(key))
          expect(
            walked.filter((key) => throughout.includes(key)),
            'every row that existed throughout, in order',
          ).to.deep.equal(throughout)
          expect(deleted.length).to.be.above(1)
        } finally {
          await db.knex('cur_notes').whereIn('item_id', inserted).delete()
          await db.knex('cur_items').whereIn('id', inserted).delete()
          await createCursorDataSet(db.knex)
        }
      })
    }
  })
}
