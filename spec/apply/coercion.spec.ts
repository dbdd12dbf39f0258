import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const where = (column: string, operator: string, value: string, index = 0): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${encodeURIComponent(value)}`

const PUBLISHED_SINCE_2023_03_03 = [8, 15, 18, 19, 21, 22, 23]

for (const db of testDatabases()) {
  describe(`wheres: values coerced by column type (${db.name})`, () => {
    const invalid = (table: string, query: string, param: string): void => {
      expectQueryParamsError(() => applyQuery(db, table, query), { code: 'invalid_value', param })
    }

    describe('integer', () => {
      it('binds whole numbers as numbers (leading sign and spaces allowed)', async () => {
        const query = applyQuery(db, 'posts', where('views', '=', '320'))
        expectSql(db.name, 'apply/coercion/integer', query)
        expect(sortedIdsOf(await query)).to.deep.equal([2])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('views', '=', ' +320 ')))).to.deep.equal([2])
      })

      it('rejects fractions, words, exponents and unsafe integers (invalid_value)', () => {
        invalid('posts', where('views', '=', '320.0'), 'wheres[0][value]')
        invalid('posts', where('views', '=', 'abc'), 'wheres[0][value]')
        invalid('posts', where('views', '=', '1e3'), 'wheres[0][value]')
        invalid('posts', where('id', '=', '9007199254740992'), 'wheres[0][value]')
        invalid('posts', where('id', '=', ''), 'wheres[0][value]')
      })

      it('compares integers beyond 32 bits without a database error (PostgreSQL casts them to bigint)', async () => {
        const query = applyQuery(db, 'posts', where('views', '<', '3000000000'))
        expectSql(db.name, 'apply/coercion/integer beyond 32 bits', query)
        expect(sortedIdsOf(await query)).to.have.length(24)
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('id', '=', '9007199254740991')))).to.deep.equal([])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('id', '>', '-3000000000')))).to.have.length(24)
        const inList =
          'wheres[0][column]=views&wheres[0][operator]=in&wheres[0][value][0]=3000000000&wheres[0][value][1]=1'
        expect(sortedIdsOf(await applyQuery(db, 'posts', inList))).to.deep.equal([12])
        const range =
          'wheres[0][column]=views&wheres[0][operator]=between&wheres[0][value][0]=-3000000000&wheres[0][value][1]=1'
        expect(sortedIdsOf(await applyQuery(db, 'posts', range))).to.deep.equal([5, 8, 12, 16, 20, 24])
      })
    })

    describe('number', () => {
      it('binds decimals, negatives and exponents', async () => {
        const query = applyQuery(db, 'posts', where('rating', '=', '4.49'))
        expectSql(db.name, 'apply/coercion/number', query)
        expect(sortedIdsOf(await query)).to.deep.equal([10])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('score', '<', '-3')))).to.deep.equal([9])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('score', '<', '1e1')))).to.deep.equal([4, 9])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('rating', '<', '3000000000')))).to.have.length(16)
      })

      it('rejects text, decimal commas, NaN and Infinity (invalid_value)', () => {
        invalid('users', where('score', '=', '1,5'), 'wheres[0][value]')
        invalid('users', where('score', '=', 'NaN'), 'wheres[0][value]')
        invalid('users', where('score', '=', 'Infinity'), 'wheres[0][value]')
        invalid('users', where('score', '=', '1e400'), 'wheres[0][value]')
        invalid('users', where('score', '=', 'ten'), 'wheres[0][value]')
      })
    })

    describe('boolean', () => {
      it('binds true/false/1/0 in any case as the database stores booleans', async () => {
        const query = applyQuery(db, 'users', where('is_admin', '=', 'true'))
        expectSql(db.name, 'apply/coercion/boolean', query)
        expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 7])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('is_admin', '=', '1')))).to.deep.equal([1, 3, 7])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('is_admin', '!=', 'TRUE')))).to.deep.equal([
          2, 4, 5, 6, 8, 9, 10, 11, 12,
        ])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('published', '=', '0')))).to.deep.equal([
          5, 8, 11, 16, 20, 24,
        ])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('published', '=', 'False')))).to.deep.equal([
          5, 8, 11, 16, 20, 24,
        ])
      })

      it('rejects anything else (invalid_value)', () => {
        invalid('users', where('is_admin', '=', 'yes'), 'wheres[0][value]')
        invalid('users', where('is_admin', '=', '2'), 'wheres[0][value]')
        invalid('users', where('is_admin', '=', ''), 'wheres[0][value]')
      })
    })

    describe('date', () => {
      it('compares YYYY-MM-DD dates', async () => {
        const query = applyQuery(db, 'users', where('birthday', '<', '1985-11-02'))
        expectSql(db.name, 'apply/coercion/date', query)
        expect(sortedIdsOf(await query)).to.deep.equal([5, 7])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('birthday', '=', '2000-01-01')))).to.deep.equal([11])
      })

      it('takes the UTC date of a date-time', async () => {
        expect(
          sortedIdsOf(await applyQuery(db, 'users', where('birthday', '<=', '1985-11-02T10:00:00Z'))),
        ).to.deep.equal([2, 5, 7])
      })

      it('rejects impossible dates, other formats and years outside 0001–9999 (invalid_value)', () => {
        invalid('users', where('birthday', '=', '2023-02-30'), 'wheres[0][value]')
        invalid('users', where('birthday', '=', '02/03/2023'), 'wheres[0][value]')
        invalid('users', where('birthday', '=', 'yesterday'), 'wheres[0][value]')
        invalid('users', where('birthday', '>', '0000-01-01'), 'wheres[0][value]')
        invalid('users', where('birthday', '>', '0001-01-01T00:00:00+01:00'), 'wheres[0][value]')
      })
    })

    describe('datetime', () => {
      it('compares ISO 8601 instants in UTC', async () => {
        const query = applyQuery(db, 'posts', where('published_at', '>=', '2023-03-03T03:03:03Z'))
        expectSql(db.name, 'apply/coercion/datetime', query)
        expect(sortedIdsOf(await query)).to.deep.equal(PUBLISHED_SINCE_2023_03_03)
      })

      it('converts an offset to UTC (05:03:03+02:00 is 03:03:03Z)', async () => {
        const query = applyQuery(db, 'posts', where('published_at', '>=', '2023-03-03T05:03:03+02:00'))
        expectSql(db.name, 'apply/coercion/datetime with offset', query)
        expect(sortedIdsOf(await query)).to.deep.equal(PUBLISHED_SINCE_2023_03_03)
      })

      it('keeps milliseconds (the reference client sends .000Z)', async () => {
        expect(
          sortedIdsOf(await applyQuery(db, 'posts', where('published_at', '>=', '2023-03-03T03:03:03.000Z'))),
        ).to.deep.equal(PUBLISHED_SINCE_2023_03_03)
        expect(
          sortedIdsOf(await applyQuery(db, 'posts', where('published_at', '>=', '2023-03-03T03:03:03.001Z'))),
        ).to.deep.equal([8, 18, 19, 21, 22, 23])
      })

      it('reads a space separator and no offset as UTC; a bare date as midnight UTC', async () => {
        expect(
          sortedIdsOf(await applyQuery(db, 'posts', where('published_at', '=', '2023-03-03 03:03:03'))),
        ).to.deep.equal([15])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('created_at', '=', '2022-01-01')))).to.deep.equal([5])
        expect(
          sortedIdsOf(await applyQuery(db, 'users', where('created_at', '=', '2025-01-01T00:59:59+01:00'))),
        ).to.deep.equal([12])
      })

      it('rejects what is not an ISO 8601 date-time (invalid_value)', () => {
        invalid('posts', where('published_at', '>', 'yesterday'), 'wheres[0][value]')
        invalid('posts', where('published_at', '>', '2023-13-01T00:00:00Z'), 'wheres[0][value]')
        invalid('posts', where('published_at', '>', '2023-01-01T25:00:00Z'), 'wheres[0][value]')
        invalid('posts', where('published_at', '>', '1700000000'), 'wheres[0][value]')
        invalid('posts', where('published_at', '>', '0000-01-01T00:00:00Z'), 'wheres[0][value]')
      })
    })

    describe('string', () => {
      it('binds text as sent, spaces included', async () => {
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('title', '=', 'Hello World')))).to.deep.equal([12])
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('title', '=', ' Hello World')))).to.deep.equal([])
      })

      it('rejects a NUL character, which PostgreSQL cannot compare (invalid_value)', () => {
        invalid('posts', where('title', '=', 'a\u0000b'), 'wheres[0][value]')
        invalid('posts', where('title', 'like', '%\u0000%'), 'wheres[0][value]')
      })
    })

    it('names the value the client sent in a list: wheres[2][value][1]', () => {
      const query = `${where('id', '>', '0')}&wheres[2][column]=id&wheres[2][operator]=in&wheres[2][value][0]=1&wheres[2][value][1]=two`
      invalid('users', query, 'wheres[2][value][1]')
      const between =
        'wheres[0][column]=birthday&wheres[0][operator]=between&wheres[0][value][0]=2000-01-01&wheres[0][value][1]=2000-02-30'
      invalid('users', between, 'wheres[0][value][1]')
    })
  })
}
