import { expect } from 'chai'
import { applyQuery, rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const USER_COLUMNS = ['id', 'team_id', 'name', 'email', 'is_admin', 'birthday', 'score', 'created_at', 'updated_at']

for (const db of testDatabases()) {
  describe(`columns (${db.name})`, () => {
    it('selects only the listed columns, qualified with the table', async () => {
      const query = applyQuery(
        db,
        'users',
        'columns[0]=id&columns[1]=name&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=4&orders[0][column]=id',
      )
      expectSql(db.name, 'apply/columns/listed', query)
      expect(rowsOf(await query)).to.deep.equal([
        { id: 1, name: 'Alice' },
        { id: 4, name: 'dave' },
      ])
    })

    it('matches camelCase names to snake_case columns (createdAt → created_at, isAdmin → is_admin)', async () => {
      const query = applyQuery(
        db,
        'users',
        'columns[0]=isAdmin&columns[1]=createdAt&wheres[0][column]=id&wheres[0][value]=5',
      )
      expectSql(db.name, 'apply/columns/camelCase', query)
      expect(rowsOf(await query)).to.deep.equal([{ is_admin: false, created_at: '2022-01-01T00:00:00.000Z' }])
    })

    it('accepts the table.column form of the base table', async () => {
      const query = applyQuery(db, 'users', 'columns[0]=users.name&wheres[0][column]=users.id&wheres[0][value]=2')
      expectSql(db.name, 'apply/columns/table.column', query)
      expect(rowsOf(await query)).to.deep.equal([{ name: 'Bob' }])
    })

    it('selects each column once when listed twice', async () => {
      const query = applyQuery(db, 'users', 'columns[0]=name&columns[1]=name&wheres[0][column]=id&wheres[0][value]=2')
      expect(rowsOf(await query)).to.deep.equal([{ name: 'Bob' }])
    })

    it('without columns selects every allow-listed column — never *', async () => {
      const query = applyQuery(db, 'users', 'wheres[0][column]=id&wheres[0][value]=3')
      expectSql(db.name, 'apply/columns/default allow-list', query)
      expect(query.toSQL().sql).not.to.include('*')
      const rows = rowsOf(await query)
      expect(rows).to.deep.equal([
        {
          id: 3,
          team_id: 1,
          name: 'Carol',
          email: 'carol@example.org',
          is_admin: true,
          birthday: null,
          score: null,
          created_at: '2021-01-09T08:00:00.000Z',
          updated_at: '2022-11-11T11:11:11.000Z',
        },
      ])
    })

    it("without columns keeps the caller's own select", async () => {
      const base = db.knex('users').select('users.id', 'users.email')
      const query = applyQuery(db, 'users', 'wheres[0][column]=id&wheres[0][value]=2', {}, base)
      expectSql(db.name, 'apply/columns/caller select', query)
      expect(rowsOf(await query)).to.deep.equal([{ id: 2, email: 'bob@example.com' }])
    })

    it("with columns replaces the caller's select by the client's allow-listed columns", async () => {
      const base = db.knex('users').select('users.id', 'users.email')
      const query = applyQuery(db, 'users', 'columns[0]=name&wheres[0][column]=id&wheres[0][value]=2', {}, base)
      expect(rowsOf(await query)).to.deep.equal([{ name: 'Bob' }])
    })

    it('never returns a column missing from the allow-list (users.password)', async () => {
      for (const row of rowsOf(await applyQuery(db, 'users', '')))
        expect(Object.keys(row)).to.have.members(USER_COLUMNS)
    })

    describe('password (not allow-listed) can never be used', () => {
      it('not selected: columns[1]=password → unknown_column', () => {
        expectQueryParamsError(() => applyQuery(db, 'users', 'columns[0]=id&columns[1]=password'), {
          code: 'unknown_column',
          param: 'columns[1]',
          allowed: USER_COLUMNS,
        })
        expectQueryParamsError(() => applyQuery(db, 'users', 'columns[0]=users.password'), {
          code: 'unknown_column',
          param: 'columns[0]',
          allowed: USER_COLUMNS,
        })
      })

      it('not filtered: wheres[0][column]=password → unknown_column', () => {
        expectQueryParamsError(
          () =>
            applyQuery(db, 'users', 'wheres[0][column]=password&wheres[0][operator]=like&wheres[0][value]=%242b%25'),
          {
            code: 'unknown_column',
            param: 'wheres[0][column]',
            allowed: USER_COLUMNS,
          },
        )
      })

      it('not ordered: orders[0][column]=password → unknown_column', () => {
        expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=password'), {
          code: 'unknown_column',
          param: 'orders[0][column]',
          allowed: USER_COLUMNS,
        })
      })

      it('not distinct: distinct[0]=password → unknown_column', () => {
        expectQueryParamsError(() => applyQuery(db, 'users', 'distinct[0]=password'), {
          code: 'unknown_column',
          param: 'distinct[0]',
          allowed: USER_COLUMNS,
        })
      })

      it('not reached through a relation: posts?wheres[0][column]=author.password, users?orders[0][column]=team.owner.password', () => {
        expectQueryParamsError(() => applyQuery(db, 'posts', 'wheres[0][column]=author.password&wheres[0][value]=x'), {
          code: 'unknown_column',
          param: 'wheres[0][column]',
          allowed: USER_COLUMNS,
        })
        expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=team.owner.password'), {
          code: 'unknown_column',
          param: 'orders[0][column]',
          allowed: USER_COLUMNS,
        })
      })
    })

    it('rejects a column of no table (unknown_column, names the index sent)', () => {
      expectQueryParamsError(() => applyQuery(db, 'posts', 'columns[0]=id&columns[3]=nope'), {
        code: 'unknown_column',
        param: 'columns[3]',
        allowed: [
          'id',
          'user_id',
          'title',
          'body',
          'published',
          'published_at',
          'views',
          'rating',
          'created_at',
          'updated_at',
        ],
      })
    })
  })
}
