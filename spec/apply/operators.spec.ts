import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

const where = (column: string, operator: string, value: string): string =>
  `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}&wheres[0][value]=${value}`
const list = (column: string, operator: string, values: readonly string[]): string =>
  `wheres[0][column]=${column}&wheres[0][operator]=${operator}&${values.map((value, index) => `wheres[0][value][${index}]=${value}`).join('&')}`

for (const db of testDatabases()) {
  describe(`wheres: operators (${db.name})`, () => {
    it('= matches equal values', async () => {
      const query = applyQuery(db, 'users', where('name', '=', 'Bob'))
      expectSql(db.name, 'apply/operators/=', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2])
    })

    it('!= leaves out equal values and NULLs (SQL three-valued logic)', async () => {
      const query = applyQuery(db, 'users', where('score', '!=', '0'))
      expectSql(db.name, 'apply/operators/!=', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 5, 6, 7, 9, 10, 11])
    })

    it('< and <= compare numbers, including negatives', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'users', where('score', '<', '50')))).to.deep.equal([4, 9, 11])
      expect(sortedIdsOf(await applyQuery(db, 'users', where('score', '<=', '50')))).to.deep.equal([4, 9, 10, 11])
      expect(sortedIdsOf(await applyQuery(db, 'users', where('score', '<', '-1')))).to.deep.equal([9])
    })

    it('> and >= compare integers', async () => {
      const query = applyQuery(db, 'posts', where('views', '>', '480'))
      expectSql(db.name, 'apply/operators/>', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 13])
      expect(sortedIdsOf(await applyQuery(db, 'posts', where('views', '>=', '480')))).to.deep.equal([1, 13, 17])
    })

    it('in matches any listed value; unknown values match nothing', async () => {
      const query = applyQuery(db, 'users', list('id', 'in', ['2', '4', '99']))
      expectSql(db.name, 'apply/operators/in', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2, 4])
    })

    it('notIn leaves out the listed values', async () => {
      const query = applyQuery(db, 'posts', list('user_id', 'notIn', ['1', '2', '3', '5']))
      expectSql(db.name, 'apply/operators/notIn', query)
      expect(sortedIdsOf(await query)).to.deep.equal([12, 17, 18, 19, 20, 21, 22, 23, 24])
    })

    it('notIn leaves out NULLs too (SQL three-valued logic, like !=)', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'users', list('team_id', 'notIn', ['1'])))).to.deep.equal([
        1, 5, 6, 7, 10, 11,
      ])
    })

    it('between is inclusive at both ends', async () => {
      const query = applyQuery(db, 'posts', list('views', 'between', ['100', '320']))
      expectSql(db.name, 'apply/operators/between', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2, 6, 9, 10, 15, 21])
    })

    it('notBetween keeps values outside the range, never NULLs', async () => {
      const query = applyQuery(db, 'posts', list('rating', 'notBetween', ['2', '4.5']))
      expectSql(db.name, 'apply/operators/notBetween', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 12, 13, 17, 18])
    })

    it('like matches a pattern (see like.spec for its rules)', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', where('title', 'like', '%25sql%25')))).to.deep.equal([
        1, 2, 3, 4, 5, 10, 20,
      ])
    })

    it("'=' on text compares with the column collation: exact on SQLite and PostgreSQL, case-insensitive on MySQL's default _ci collation (dialect limit)", async () => {
      const expected = db.name === 'mysql' ? [1, 11] : [11]
      expect(sortedIdsOf(await applyQuery(db, 'users', where('name', '=', 'alice')))).to.deep.equal(expected)
    })
  })
}
