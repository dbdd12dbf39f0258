import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/**
 * Every numeric storage a map can declare, each column declared as the generator would (`wider`: some declared
 * wider); `single` where the database has a single-precision float (SQLite's REAL is a double).
 */
const mapOf = (wider: boolean, single: boolean): RelationMap =>
  defineRelationMap({
    range_readings: {
      columns: {
        id: 'integer',
        f4: wider || !single ? 'number' : { type: 'number', precision: 'single' },
        f8: 'number',
        i2: 'integer',
        i4: 'integer',
        i8: wider ? 'integer' : 'bigint',
        d52: wider ? 'number' : 'decimal',
        d6530: 'decimal',
      },
      relations: { notes: { type: 'hasMany', table: 'range_notes', foreignKey: 'reading_id' } },
    },
    range_notes: {
      columns: { id: 'integer', reading_id: 'integer' },
      relations: { reading: { type: 'belongsTo', table: 'range_readings', foreignKey: 'reading_id' } },
    },
  })

interface Reading {
  id: number
  f4: number
  f8: number
  i2: number
  i4: number
  i8: number
  d52: number
  d6530: number
}

const READINGS: readonly Reading[] = [
  { id: 1, f4: 0.1, f8: 0.1, i2: 1, i4: 1, i8: 1, d52: 1.5, d6530: 1.5 },
  { id: 2, f4: -2.5, f8: -1e300, i2: -32768, i4: -2147483648, i8: -5, d52: -999.99, d6530: -0.000001 },
  { id: 3, f4: 3.4e38, f8: 1.7e308, i2: 32767, i4: 2147483647, i8: 1000000, d52: 999.99, d6530: 123456789012345.5 },
]

const OPERATORS = ['<', '<=', '>', '>=', '=', '!='] as const
type Operator = (typeof OPERATORS)[number]

const holds = (row: number, operator: Operator, value: number): boolean =>
  ({
    '<': row < value,
    '<=': row <= value,
    '>': row > value,
    '>=': row >= value,
    '=': row === value,
    '!=': row !== value,
  })[operator]

const where = (column: string, operator: string, value: string): string =>
  `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}&wheres[0][value]=${encodeURIComponent(value)}`

/** Numbers no single-precision float holds (beyond ±3.4e38, or below its smallest step), and some that fit. */
const BEYOND_SINGLE = ['3.5e38', '-1e39', '1e-46', '-1e-46', '1e-320', '1e308', '-1e308', '1e40']
const INTEGERS = [
  '40000',
  '-40000',
  '32767',
  '32768',
  '3000000000',
  '-3000000000',
  '9007199254740991',
  '-9007199254740991',
]

for (const db of testDatabases()) {
  describe(`values beyond a column's storage range compare as the mathematics says (${db.name})`, function () {
    this.timeout(60_000)
    const declared = mapOf(false, db.name !== 'sqlite')
    const wider = mapOf(true, db.name !== 'sqlite')
    const apply = (table: string, request: string, map = declared): Knex.QueryBuilder =>
      applyQueryParams(db.knex(table), parseQueryParams(request), map)
    const ids = async (table: string, request: string, map = declared): Promise<number[]> =>
      sortedIdsOf(await apply(table, request, map))
    const expected = (read: (row: Reading) => number, operator: Operator, value: number): number[] =>
      READINGS.filter((row) => holds(read(row), operator, value)).map((row) => row.id)

    before(async () => {
      await db.knex.schema.dropTableIfExists('range_notes')
      await db.knex.schema.dropTableIfExists('range_readings')
      await db.knex.schema.createTable('range_readings', (table) => {
        table.increments('id')
        // knex's float() and double() are FLOAT(8,2) and DOUBLE(8,2) on MySQL: the bare types, as a schema declares them.
        table.specificType('f4', { sqlite: 'real', postgres: 'real', mysql: 'float' }[db.name]).notNullable()
        table
          .specificType('f8', { sqlite: 'real', postgres: 'double precision', mysql: 'double' }[db.name])
          .notNullable()
        table.smallint('i2').notNullable()
        table.integer('i4').notNullable()
        table.bigInteger('i8').notNullable()
        table.decimal('d52', 5, 2).notNullable()
        table.decimal('d6530', 65, 30).notNullable()
      })
      await db.knex.schema.createTable('range_notes', (table) => {
        table.increments('id')
        table.integer('reading_id').notNullable()
      })
      await db.knex('range_readings').insert(READINGS.map((row) => ({ ...row })))
      await db.knex('range_notes').insert(READINGS.map((row) => ({ id: row.id * 10, reading_id: row.id })))
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('range_notes')
      await db.knex.schema.dropTableIfExists('range_readings')
    })

    it('a single-precision column (PostgreSQL real) compared with numbers it cannot hold: no database error, the rows the mathematics gives', async () => {
      expectSql(
        db.name,
        'apply/numeric-range/real beyond its range',
        apply('range_readings', where('f4', '<', '3.5e38')),
      )
      for (const map of [declared, wider]) {
        for (const value of BEYOND_SINGLE) {
          for (const operator of OPERATORS) {
            const stored = (row: Reading): number => Math.fround(row.f4)
            const request = where('f4', operator, value)
            expect(await ids('range_readings', request, map), `f4 ${operator} ${value}`).to.deep.equal(
              expected(stored, operator, Number(value)),
            )
          }
        }
      }
    })

    it('a single-precision column declared so compares the value as the column holds it, as SQLite compares its double', async () => {
      expect(await ids('range_readings', where('f4', '=', '0.1'))).to.deep.equal([1])
      expect(await ids('range_readings', where('f4', '<=', '0.1'))).to.deep.equal([1, 2])
      expect(await ids('range_readings', where('f4', '>', '0.1'))).to.deep.equal([3])
      expect(
        await ids(
          'range_readings',
          `wheres[0][column]=f4&wheres[0][operator]=in&wheres[0][value][0]=0.1&wheres[0][value][1]=3.4e38`,
        ),
      ).to.deep.equal([1, 3])
      const between = `wheres[0][column]=f4&wheres[0][operator]=between&wheres[0][value][0]=0.1&wheres[0][value][1]=1e39`
      expect(await ids('range_readings', between)).to.deep.equal([1, 3])
    })

    it('double, and a decimal declared number, compared with the extremes of a double', async () => {
      for (const value of BEYOND_SINGLE) {
        for (const operator of OPERATORS) {
          expect(await ids('range_readings', where('f8', operator, value)), `f8 ${operator} ${value}`).to.deep.equal(
            expected((row) => row.f8, operator, Number(value)),
          )
          expect(
            await ids('range_readings', where('d52', operator, value), wider),
            `d52 ${operator} ${value}`,
          ).to.deep.equal(expected((row) => row.d52, operator, Number(value)))
        }
      }
    })

    it('integers of every width (smallint, integer, bigint declared integer) compared with integers beyond their range', async () => {
      expectSql(
        db.name,
        'apply/numeric-range/smallint beyond its range',
        apply('range_readings', where('i2', '<', '40000')),
      )
      for (const value of INTEGERS) {
        for (const operator of OPERATORS) {
          for (const [column, read] of [
            ['i2', (row: Reading) => row.i2],
            ['i4', (row: Reading) => row.i4],
            ['i8', (row: Reading) => row.i8],
          ] as const) {
            expect(
              await ids('range_readings', where(column, operator, value), wider),
              `${column} ${operator} ${value}`,
            ).to.deep.equal(expected(read, operator, Number(value)))
          }
        }
      }
      const list = `wheres[0][column]=i2&wheres[0][operator]=in&wheres[0][value][0]=40000&wheres[0][value][1]=32767`
      expect(await ids('range_readings', list)).to.deep.equal([3])
    })

    it('bigint and decimals of each precision compared with values beyond their columns', async () => {
      expect(await ids('range_readings', where('i8', '<', '9223372036854775807'))).to.deep.equal([1, 2, 3])
      expect(await ids('range_readings', where('i8', '<', '-9223372036854775808'))).to.deep.equal([])
      const huge = '9'.repeat(65)
      for (const column of ['d52', 'd6530']) {
        expect(await ids('range_readings', where(column, '<', huge)), `${column} < 65 nines`).to.deep.equal([1, 2, 3])
        expect(await ids('range_readings', where(column, '>', `-${huge}`)), `${column} > -65 nines`).to.deep.equal([
          1, 2, 3,
        ])
        expect(await ids('range_readings', where(column, '=', huge)), `${column} = 65 nines`).to.deep.equal([])
        expect(
          await ids('range_readings', where(column, '>', `0.${'0'.repeat(29)}1`)),
          `${column} > 1e-30`,
        ).to.deep.equal([1, 3])
      }
    })

    it('through a relation: notes whose reading is beyond any double or single', async () => {
      expect(await ids('range_notes', where('reading.f8', '>', '1e308'))).to.deep.equal([30])
      expect(await ids('range_notes', where('reading.f4', '<', '-1e39'))).to.deep.equal([])
      expect(await ids('range_notes', where('reading.f4', '<', '3.5e38'), wider)).to.deep.equal([10, 20, 30])
      expect(await ids('range_notes', where('reading.i2', '>=', '-3000000000'))).to.deep.equal([10, 20, 30])
      expect(await ids('range_readings', where('notes.id', '>', '9007199254740991'))).to.deep.equal([])
    })
  })
}
