import { expect } from 'chai'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index)

for (const db of testDatabases()) {
  describe(`offset / limit / page (${db.name})`, () => {
    it('limit takes the first rows in key order', async () => {
      const query = applyQuery(db, 'posts', 'limit=5')
      expectSql(db.name, 'apply/pagination/limit', query)
      expect(idsOf(await query)).to.deep.equal(range(1, 5))
    })

    it('offset without limit works on every database (skips, returns the rest)', async () => {
      const query = applyQuery(db, 'posts', 'offset=20')
      expectSql(db.name, 'apply/pagination/offset without limit', query)
      expect(idsOf(await query)).to.deep.equal([21, 22, 23, 24])
      expect(idsOf(await applyQuery(db, 'posts', 'offset=0'))).to.deep.equal(range(1, 24))
    })

    it('offset with limit', async () => {
      const query = applyQuery(db, 'posts', 'offset=3&limit=2')
      expectSql(db.name, 'apply/pagination/offset and limit', query)
      expect(idsOf(await query)).to.deep.equal([4, 5])
    })

    it('page is 1-based with limit as the page size', async () => {
      const query = applyQuery(db, 'posts', 'page=2&limit=5')
      expectSql(db.name, 'apply/pagination/page', query)
      expect(idsOf(await query)).to.deep.equal(range(6, 10))
      expect(idsOf(await applyQuery(db, 'posts', 'page=1&limit=5'))).to.deep.equal(range(1, 5))
      expect(idsOf(await applyQuery(db, 'posts', 'page=9&limit=5'))).to.deep.equal([])
    })

    it('page overrides offset', async () => {
      const query = applyQuery(db, 'posts', 'offset=100&page=2&limit=5')
      expectSql(db.name, 'apply/pagination/page', query)
      expect(idsOf(await query)).to.deep.equal(range(6, 10))
    })

    it('page without limit uses options.defaultLimit (default 15)', async () => {
      expect(idsOf(await applyQuery(db, 'posts', 'page=2'))).to.deep.equal(range(16, 24))
      expect(idsOf(await applyQuery(db, 'posts', 'page=2', { defaultLimit: 10 }))).to.deep.equal(range(11, 20))
    })

    it('limit up to options.maxLimit (default 1000) is fine', async () => {
      expect(idsOf(await applyQuery(db, 'posts', 'limit=1000'))).to.deep.equal(range(1, 24))
      expect(idsOf(await applyQuery(db, 'posts', 'limit=10', { maxLimit: 10 }))).to.deep.equal(range(1, 10))
    })

    it('limit above options.maxLimit is a 400 (limit_exceeded)', () => {
      expectQueryParamsError(() => applyQuery(db, 'posts', 'limit=1001'), { code: 'limit_exceeded', param: 'limit' })
      expectQueryParamsError(() => applyQuery(db, 'posts', 'page=1&limit=11', { maxLimit: 10 }), {
        code: 'limit_exceeded',
        param: 'limit',
      })
    })

    it('combines with filters and orders: filter, order, then page', async () => {
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=published&wheres[0][value]=true&orders[0][column]=views&orders[0][direction]=desc&page=2&limit=4',
      )
      expect(idsOf(await query)).to.deep.equal([21, 6, 15, 9])
    })
  })
}
