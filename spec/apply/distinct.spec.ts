import { expect } from 'chai'
import { applyQuery, rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { normalizeRows } from '../support/rows.ts'
import { expectSql } from '../support/snapshot.ts'

for (const db of testDatabases()) {
  describe(`distinct (${db.name})`, () => {
    it('returns one row per distinct value, with only the distinct columns (SELECT DISTINCT)', async () => {
      const query = applyQuery(db, 'users', 'distinct[0]=team_id&orders[0][column]=team_id')
      expectSql(db.name, 'apply/distinct/one column', query)
      expect(rowsOf(await query)).to.deep.equal([{ team_id: null }, { team_id: 1 }, { team_id: 2 }, { team_id: 3 }])
    })

    it('returns one row per distinct combination of distinct + columns, and only those columns', async () => {
      const query = applyQuery(
        db,
        'users',
        'distinct[0]=isAdmin&columns[0]=team_id&orders[0][column]=is_admin&orders[1][column]=team_id',
      )
      expectSql(db.name, 'apply/distinct/with columns', query)
      expect(normalizeRows(rowsOf(await query), 'users')).to.deep.equal([
        { is_admin: false, team_id: null },
        { is_admin: false, team_id: 1 },
        { is_admin: false, team_id: 2 },
        { is_admin: false, team_id: 3 },
        { is_admin: true, team_id: 1 },
        { is_admin: true, team_id: 2 },
        { is_admin: true, team_id: 3 },
      ])
    })

    it('filters rows before making them distinct', async () => {
      const query = applyQuery(
        db,
        'users',
        'distinct[0]=team_id&wheres[0][column]=is_admin&wheres[0][value]=true&orders[0][column]=team_id',
      )
      expect(rowsOf(await query)).to.deep.equal([{ team_id: 1 }, { team_id: 2 }, { team_id: 3 }])
    })

    it('pages over the distinct rows, tie-broken by the distinct columns (not the primary key)', async () => {
      const query = applyQuery(db, 'users', 'distinct[0]=team_id&limit=2&offset=1')
      expectSql(db.name, 'apply/distinct/paged', query)
      expect(rowsOf(await query)).to.deep.equal([{ team_id: 1 }, { team_id: 2 }])
    })

    it('eager-loads a relation whose key is among the distinct columns', async () => {
      const rows = normalizeRows(
        rowsOf(await applyQuery(db, 'users', 'distinct[0]=team_id&with[0]=team&orders[0][column]=team_id')),
        'users',
      )
      expect(rows.map((row) => [row.team_id, (row.team as { name?: string } | null)?.name ?? null])).to.deep.equal([
        [null, null],
        [1, 'Core'],
        [2, 'Platform'],
        [3, 'Design'],
      ])
      expect(Object.keys(rows[1] ?? {})).to.have.members(['team_id', 'team'])
    })

    it('rejects an order by a column that is not selected (invalid_order, allowed = the selected columns)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'distinct[0]=team_id&orders[0][column]=name'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
        allowed: ['team_id'],
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'distinct[0]=team_id&orders[0][column]=team.name'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
        allowed: ['team_id'],
      })
    })

    it('rejects eager loading that needs a key outside the distinct columns (invalid_distinct)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'distinct[0]=team_id&with[0]=posts'), {
        code: 'invalid_distinct',
        param: 'distinct',
        allowed: ['team_id'],
      })
    })
  })
}
