import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const NO_BIRTHDAY = [3, 8]
const WITH_BIRTHDAY = [1, 2, 4, 5, 6, 7, 9, 10, 11, 12]

for (const db of testDatabases()) {
  describe(`wheres: null (${db.name})`, () => {
    it('= null (a bare value key, what where(col, null) sends) is IS NULL', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=birthday&wheres[0][operator]=%3D&wheres[0][value]&wheres[0][boolean]=and',
      )
      expectSql(db.name, 'apply/null/= null', query)
      expect(sortedIdsOf(await query)).to.deep.equal(NO_BIRTHDAY)
    })

    it("= 'null' (the string whereNull sends) is IS NULL too", async () => {
      const query = applyQuery(db, 'users', 'wheres[0][column]=birthday&wheres[0][operator]=%3D&wheres[0][value]=null')
      expectSql(db.name, 'apply/null/= null', query)
      expect(sortedIdsOf(await query)).to.deep.equal(NO_BIRTHDAY)
    })

    it("!= null and != 'null' (whereNotNull) are IS NOT NULL", async () => {
      const query = applyQuery(db, 'users', 'wheres[0][column]=birthday&wheres[0][operator]=!%3D&wheres[0][value]=null')
      expectSql(db.name, 'apply/null/!= null', query)
      expect(sortedIdsOf(await query)).to.deep.equal(WITH_BIRTHDAY)
      expect(
        sortedIdsOf(
          await applyQuery(db, 'users', 'wheres[0][column]=birthday&wheres[0][operator]=!%3D&wheres[0][value]'),
        ),
      ).to.deep.equal(WITH_BIRTHDAY)
    })

    it("treats 'null' as NULL on text columns too, so it can never match the text 'null'", async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', 'wheres[0][column]=body&wheres[0][value]=null'))).to.deep.equal([
        5, 18, 24,
      ])
    })

    it('null with an or keeps SQL precedence inside the group', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=score&wheres[0][value]&wheres[1][column]=score&wheres[1][operator]=%3E&wheres[1][value]=95&wheres[1][boolean]=or',
      )
      expect(sortedIdsOf(await query)).to.deep.equal([3, 7, 8, 12])
    })

    for (const operator of ['<', '<=', '>', '>=', 'like']) {
      it(`null with '${operator}' is a 400 (invalid_value), never a comparison with NULL`, () => {
        const column = operator === 'like' ? 'name' : 'score'
        for (const value of ['wheres[1][value]', 'wheres[1][value]=null']) {
          expectQueryParamsError(
            () =>
              applyQuery(
                db,
                'users',
                `wheres[1][column]=${column}&wheres[1][operator]=${encodeURIComponent(operator)}&${value}`,
              ),
            { code: 'invalid_value', param: 'wheres[1][value]' },
          )
        }
      })
    }

    it('null inside between / notBetween is a 400 naming the member', () => {
      expectQueryParamsError(
        () =>
          applyQuery(
            db,
            'users',
            'wheres[0][column]=score&wheres[0][operator]=between&wheres[0][value][0]=1&wheres[0][value][1]',
          ),
        { code: 'invalid_value', param: 'wheres[0][value][1]' },
      )
      expectQueryParamsError(
        () =>
          applyQuery(
            db,
            'users',
            'wheres[0][column]=score&wheres[0][operator]=notBetween&wheres[0][value][0]&wheres[0][value][1]=3',
          ),
        { code: 'invalid_value', param: 'wheres[0][value][0]' },
      )
    })
  })
}
