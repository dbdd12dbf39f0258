import { expect } from 'chai'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const lastOrderBy = (sql: string): string => sql.slice(sql.toLowerCase().lastIndexOf('order by'))

for (const db of testDatabases()) {
  describe(`orders (${db.name})`, () => {
    it('orders by one column, direction case-insensitive', async () => {
      const query = applyQuery(
        db,
        'posts',
        'orders[0][column]=views&orders[0][direction]=DESC&wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=0',
      )
      expectSql(db.name, 'apply/orders/one column desc', query)
      expect(idsOf(await query)).to.deep.equal([1, 13, 17, 2, 21, 6, 15, 9, 10, 7, 3, 18, 22, 4, 19, 14, 23, 11, 12])
      const mixedCase = applyQuery(
        db,
        'posts',
        'orders[0][column]=views&orders[0][direction]=Desc&wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=100',
      )
      expect(idsOf(await mixedCase)).to.deep.equal([1, 13, 17, 2, 21, 6, 15, 9])
    })

    it('orders by several columns in the order given', async () => {
      const query = applyQuery(
        db,
        'posts',
        'orders[0][column]=published&orders[0][direction]=desc&orders[1][column]=views&limit=24',
      )
      expectSql(db.name, 'apply/orders/several columns', query)
      expect(idsOf(await query)).to.deep.equal([
        12, 23, 14, 19, 4, 22, 18, 3, 7, 10, 9, 15, 6, 21, 2, 17, 13, 1, 5, 8, 16, 20, 24, 11,
      ])
    })

    it('an order repeating an earlier one (user_id, then posts.user_id) is dropped: SQLite reads the index in order', async () => {
      const repeated = applyQuery(
        db,
        'posts',
        'orders[0][column]=user_id&orders[0][direction]=desc&orders[1][column]=posts.user_id&orders[1][direction]=asc&orders[2][column]=views&limit=5',
      )
      const once = applyQuery(
        db,
        'posts',
        'orders[0][column]=user_id&orders[0][direction]=desc&orders[1][column]=views&limit=5',
      )
      expectSql(db.name, 'apply/orders/repeated column', repeated)
      expect(repeated.toSQL().sql).to.equal(once.toSQL().sql)
      const expected = (await db
        .knex('posts')
        .orderBy([
          { column: 'user_id', order: 'desc' },
          { column: 'views', order: 'asc' },
          { column: 'id', order: 'asc' },
        ])
        .limit(5)
        .select('id')) as Array<{ id: number }>
      expect(idsOf(await repeated)).to.deep.equal(expected.map((row) => row.id))
      if (db.name === 'sqlite') {
        const byIndex = applyQuery(
          db,
          'comments',
          'orders[0][column]=post_id&orders[0][direction]=desc&orders[1][column]=post_id&orders[1][direction]=desc&limit=3',
        ).toSQL()
        const plan = (await db.knex.raw(`explain query plan ${byIndex.sql}`, byIndex.bindings)) as Array<{
          detail: string
        }>
        expect(plan.map((row) => row.detail).join('\n')).not.to.include('TEMP B-TREE')
      }
    })

    it('an order after a total one (the primary key) is dropped: no two rows tie under it', async () => {
      const after = applyQuery(
        db,
        'posts',
        'orders[0][column]=id&orders[0][direction]=desc&orders[1][column]=views&orders[1][direction]=desc&limit=5',
      )
      const alone = applyQuery(db, 'posts', 'orders[0][column]=id&orders[0][direction]=desc&limit=5')
      expect(after.toSQL().sql).to.equal(alone.toSQL().sql)
      expect(after.toSQL().sql).not.to.include('views` desc').and.not.to.include('"views" desc')
      const expected = (await db.knex('posts').orderBy('id', 'desc').limit(5).select('id')) as Array<{ id: number }>
      expect(idsOf(await after)).to.deep.equal(expected.map((row) => row.id))
      const before = applyQuery(
        db,
        'posts',
        'orders[0][column]=views&orders[0][direction]=desc&orders[1][column]=id&orders[1][direction]=asc&limit=5',
      ).toSQL().sql
      expect(before, 'an order before the total one stays').to.match(/views["`] desc/)
    })

    it('accepts camelCase and table.column names', async () => {
      expect(idsOf(await applyQuery(db, 'users', 'orders[0][column]=createdAt'))).to.deep.equal([
        3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12,
      ])
      expect(
        idsOf(await applyQuery(db, 'users', 'orders[0][column]=users.createdAt&orders[0][direction]=desc')),
      ).to.deep.equal([12, 11, 10, 9, 8, 7, 6, 5, 4, 2, 1, 3])
    })

    describe('primary key tie-breaker', () => {
      it('is not added without limit, offset or page', () => {
        const sql = applyQuery(db, 'posts', 'orders[0][column]=views').toSQL().sql
        expectSql(db.name, 'apply/orders/no tie-breaker', applyQuery(db, 'posts', 'orders[0][column]=views'))
        expect(lastOrderBy(sql)).not.to.include('id')
      })

      it('is appended with limit, so ties come back in key order', async () => {
        const query = applyQuery(db, 'posts', 'orders[0][column]=views&limit=6')
        expectSql(db.name, 'apply/orders/tie-breaker with limit', query)
        expect(idsOf(await query)).to.deep.equal([5, 8, 16, 20, 24, 12])
      })

      it('is appended with offset alone and with page', async () => {
        const offset = applyQuery(db, 'posts', 'orders[0][column]=views&offset=2&limit=3')
        expectSql(db.name, 'apply/orders/tie-breaker with offset', offset)
        expect(idsOf(await offset)).to.deep.equal([16, 20, 24])
        const page = applyQuery(db, 'posts', 'orders[0][column]=views&page=2&limit=3')
        expect(idsOf(await page)).to.deep.equal([20, 24, 12])
      })

      it('is appended even without orders', async () => {
        const query = applyQuery(db, 'posts', 'limit=3')
        expectSql(db.name, 'apply/orders/tie-breaker alone', query)
        expect(idsOf(await query)).to.deep.equal([1, 2, 3])
      })

      it('is not repeated when the client already orders by the key', async () => {
        const query = applyQuery(db, 'posts', 'orders[0][column]=id&orders[0][direction]=desc&limit=3')
        expectSql(db.name, 'apply/orders/ordered by key', query)
        expect(idsOf(await query)).to.deep.equal([24, 23, 22])
      })
    })

    describe('NULLs sort as the smallest values on every database', () => {
      it('first ascending (numbers)', async () => {
        const query = applyQuery(db, 'users', 'orders[0][column]=score&limit=12')
        expectSql(db.name, 'apply/orders/nulls ascending', query)
        expect(idsOf(await query)).to.deep.equal([3, 8, 12, 9, 4, 11, 10, 6, 2, 1, 5, 7])
      })

      it('last descending (numbers), the NULL ties broken by id descending', async () => {
        const query = applyQuery(db, 'users', 'orders[0][column]=score&orders[0][direction]=desc&limit=12')
        expectSql(db.name, 'apply/orders/nulls descending', query)
        expect(idsOf(await query)).to.deep.equal([7, 5, 1, 2, 6, 10, 11, 4, 9, 12, 8, 3])
      })

      it('the same for dates, with an explicit second order', async () => {
        expect(idsOf(await applyQuery(db, 'users', 'orders[0][column]=birthday&orders[1][column]=id'))).to.deep.equal([
          3, 8, 7, 5, 2, 10, 1, 6, 9, 12, 11, 4,
        ])
        expect(
          idsOf(
            await applyQuery(db, 'users', 'orders[0][column]=birthday&orders[0][direction]=desc&orders[1][column]=id'),
          ),
        ).to.deep.equal([4, 11, 12, 9, 6, 1, 10, 2, 5, 7, 3, 8])
      })
    })

    it('rejects an unknown column (unknown_column, names the order sent)', () => {
      expectQueryParamsError(() => applyQuery(db, 'posts', 'orders[0][column]=id&orders[1][column]=nope'), {
        code: 'unknown_column',
        param: 'orders[1][column]',
      })
    })
  })
}
