import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const ALL_USERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]

for (const db of testDatabases()) {
  describe(`wheres: in / notIn lists (${db.name})`, () => {
    it('in without a value (the client leaves out an empty list) matches nothing, with valid SQL', async () => {
      const query = applyQuery(db, 'users', 'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][boolean]=and')
      expectSql(db.name, 'apply/in/empty in', query)
      expect(sortedIdsOf(await query)).to.deep.equal([])
    })

    it('notIn without a value matches everything', async () => {
      const query = applyQuery(db, 'users', 'wheres[0][column]=id&wheres[0][operator]=notIn&wheres[0][boolean]=and')
      expectSql(db.name, 'apply/in/empty notIn', query)
      expect(sortedIdsOf(await query)).to.deep.equal(ALL_USERS)
    })

    it('an empty in inside an or group only drops its own branch', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=id&wheres[0][operator]=in&wheres[1][column]=name&wheres[1][value]=Bob&wheres[1][boolean]=or',
      )
      expect(sortedIdsOf(await query)).to.deep.equal([2])
    })

    it('in with a null member also matches NULL', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=team_id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]',
      )
      expectSql(db.name, 'apply/in/in with null', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2, 3, 4, 8, 9, 12])
    })

    it('notIn with a null member also leaves out NULL', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=team_id&wheres[0][operator]=notIn&wheres[0][value][0]=1&wheres[0][value][1]',
      )
      expectSql(db.name, 'apply/in/notIn with null', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 5, 6, 7, 10, 11])
    })

    it('in / notIn with only null are IS NULL / IS NOT NULL', async () => {
      expect(
        sortedIdsOf(
          await applyQuery(db, 'users', 'wheres[0][column]=team_id&wheres[0][operator]=in&wheres[0][value][0]'),
        ),
      ).to.deep.equal([4, 8, 12])
      expect(
        sortedIdsOf(
          await applyQuery(db, 'users', 'wheres[0][column]=team_id&wheres[0][operator]=notIn&wheres[0][value][0]'),
        ),
      ).to.deep.equal([1, 2, 3, 5, 6, 7, 9, 10, 11])
    })

    it("reads the text 'null' inside a list as an ordinary value, not as NULL (only a bare key is null there)", () => {
      expectQueryParamsError(
        () =>
          applyQuery(
            db,
            'users',
            'wheres[0][column]=team_id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=null',
          ),
        {
          code: 'invalid_value',
          param: 'wheres[0][value][1]',
        },
      )
    })

    it('a single scalar value is a one-item list', async () => {
      expect(
        sortedIdsOf(
          await applyQuery(db, 'users', 'wheres[0][column]=team_id&wheres[0][operator]=in&wheres[0][value]=3'),
        ),
      ).to.deep.equal([6, 7, 11])
    })

    it('coerces every member (booleans, dates)', async () => {
      expect(
        sortedIdsOf(
          await applyQuery(db, 'users', 'wheres[0][column]=is_admin&wheres[0][operator]=in&wheres[0][value][0]=true'),
        ),
      ).to.deep.equal([1, 3, 7])
      const dates =
        'wheres[0][column]=birthday&wheres[0][operator]=in&wheres[0][value][0]=1999-12-31&wheres[0][value][1]=2000-01-01'
      expect(sortedIdsOf(await applyQuery(db, 'users', dates))).to.deep.equal([11, 12])
    })
  })
}
