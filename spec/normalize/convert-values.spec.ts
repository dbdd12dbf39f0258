import { expect } from 'chai'
import { defineRelationMap } from '../../lib/index.ts'
import { columnTypeOf } from '../../lib/dialect/schema/column-type-of.ts'
import { rowNormalizer } from '../../lib/normalize/row-normalizer.ts'
import { coerceValue } from '../../lib/validate/coerce-value.ts'
import { ExactNumber, UtcInstant } from '../../lib/values.ts'
import { sqlite } from '../../lib/dialect/sqlite.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const map = defineRelationMap({
  things: {
    columns: {
      id: 'integer',
      n: 'number',
      ok: 'boolean',
      day: 'date',
      at: 'datetime',
      big: 'bigint',
      price: 'decimal',
      name: 'string',
    },
  },
})

describe('row normalizer', () => {
  const pgLike = { zone: 'local', datetime: 'instant', json: 'parsed' } as const
  const mysqlLocal = { zone: 'local', datetime: 'wall-clock', json: 'parsed' } as const
  const mysqlBerlin = { zone: 60, datetime: 'wall-clock', json: 'parsed' } as const

  it('turns each driver form into the JSON value of the declared type', () => {
    const rows = [
      {
        id: '7',
        n: '4.50',
        ok: 1,
        day: '2024-03-01',
        at: 1709294400000,
        big: 9007199254740993n,
        price: '4.10',
        name: 'x',
        extra: 1,
      },
      {
        id: 8n,
        n: 2,
        ok: 't',
        day: new Date(2024, 2, 1),
        at: '2024-03-01 12:00:00',
        big: 42,
        price: 69.4,
        name: 5,
        extra: '1',
      },
      {
        id: 9,
        n: null,
        ok: '0',
        day: '2024-03-01 00:00:00',
        at: '2024-03-01T13:00:00+01:00',
        big: '-1',
        price: '-0.00',
        name: null,
      },
      { id: 10, ok: false, at: new Date('2024-03-01T12:00:00.000Z'), price: '1.5e3' },
    ]
    rowNormalizer(map, 'things', pgLike)(rows)
    expect(rows).to.deep.equal([
      {
        id: 7,
        n: 4.5,
        ok: true,
        day: '2024-03-01',
        at: '2024-03-01T12:00:00.000Z',
        big: '9007199254740993',
        price: '4.1',
        name: 'x',
        extra: 1,
      },
      {
        id: 8,
        n: 2,
        ok: true,
        day: '2024-03-01',
        at: '2024-03-01T12:00:00.000Z',
        big: '42',
        price: '69.4',
        name: '5',
        extra: '1',
      },
      {
        id: 9,
        n: null,
        ok: false,
        day: '2024-03-01',
        at: '2024-03-01T12:00:00.000Z',
        big: '-1',
        price: '0',
        name: null,
      },
      { id: 10, ok: false, at: '2024-03-01T12:00:00.000Z', price: '1500' },
    ])
  })

  it('reads a MySQL Date back to its stored text whatever the connection zone', () => {
    const local = [{ day: new Date(2024, 2, 1), at: new Date(2024, 2, 1, 12, 0, 0, 5) }]
    rowNormalizer(map, 'things', mysqlLocal)(local)
    expect(local).to.deep.equal([{ day: '2024-03-01', at: '2024-03-01T12:00:00.005Z' }])
    const berlin = [{ day: new Date('2024-03-01T00:00:00+01:00'), at: new Date('2024-03-01T12:00:00+01:00') }]
    rowNormalizer(map, 'things', mysqlBerlin)(berlin)
    expect(berlin).to.deep.equal([{ day: '2024-03-01', at: '2024-03-01T12:00:00.000Z' }])
  })

  it('is planned once per map, table and driver reading; computed keys declare their own type', () => {
    expect(rowNormalizer(map, 'things', pgLike)).to.equal(rowNormalizer(map, 'things', pgLike))
    const rows = [{ id: 1, posts_count: '3', has_posts: 1 }]
    rowNormalizer(map, 'things', pgLike, { posts_count: 'integer', has_posts: 'boolean' })(rows)
    expect(rows).to.deep.equal([{ id: 1, posts_count: 3, has_posts: true }])
  })
})

describe('bigint, decimal and SQLite datetime storage in filters', () => {
  it('coerces bigint and decimal client values to exact text', () => {
    expect(coerceValue('bigint', '9007199254740993', 'p')).to.deep.equal(new ExactNumber('9007199254740993', 'bigint'))
    expect(coerceValue('bigint', '-0009223372036854775808', 'p')).to.deep.equal(
      new ExactNumber('-9223372036854775808', 'bigint'),
    )
    expect(coerceValue('decimal', '004.990', 'p')).to.deep.equal(new ExactNumber('4.99', 'decimal'))
    expect(coerceValue('decimal', '-.5', 'p')).to.deep.equal(new ExactNumber('-0.5', 'decimal'))
    expect(coerceValue('decimal', 0, 'p')).to.deep.equal(new ExactNumber('0', 'decimal'))
    expectQueryParamsError(() => coerceValue('bigint', '9223372036854775808', 'wheres[0][value]'), {
      code: 'invalid_value',
      param: 'wheres[0][value]',
    })
    expectQueryParamsError(() => coerceValue('bigint', '1.5', 'p'), { code: 'invalid_value', param: 'p' })
    expectQueryParamsError(() => coerceValue('decimal', '1e5', 'p'), { code: 'invalid_value', param: 'p' })
    expectQueryParamsError(() => coerceValue('decimal', '.', 'p'), { code: 'invalid_value', param: 'p' })
  })

  it('binds a datetime in the storage its SQLite column declares', () => {
    const iso = '2024-03-01T12:00:00.000Z'
    expect(sqlite.bindDatetime(new UtcInstant(iso))).to.equal('2024-03-01 12:00:00')
    expect(sqlite.bindDatetime(new UtcInstant(iso, 'iso'))).to.equal(iso)
    expect(sqlite.bindDatetime(new UtcInstant(iso, 'epoch_ms'))).to.equal(1709294400000)
  })

  it('rejects a storage on anything but a datetime, and an unknown storage', () => {
    expect(() =>
      defineRelationMap({ t: { columns: { id: 'integer', day: { type: 'date', storage: 'iso' } } } }),
    ).to.throw('t.columns.day.storage: expected text, iso, epoch_ms, epoch_s, date on a datetime column')
    // Two statements, each within 120 columns, so that formatting keeps the directive on the line it is about.
    const unix = (): unknown =>
      // @ts-expect-error not a storage
      defineRelationMap({ t: { columns: { id: 'integer', at: { type: 'datetime', storage: 'unix' } } } })
    expect(unix).to.throw(
      "t.columns.at.storage: expected text, iso, epoch_ms, epoch_s, date on a datetime column, got 'unix'",
    )
  })

  it('introspection reads bigint/int8 as bigint and numeric/decimal as decimal', () => {
    expect(['bigint', 'int8', 'bigint unsigned', 'bigserial'].map(columnTypeOf)).to.deep.equal([
      'bigint',
      'bigint',
      'bigint',
      'bigint',
    ])
    expect(['numeric', 'decimal', 'real', 'double precision', 'integer', 'int4'].map(columnTypeOf)).to.deep.equal([
      'decimal',
      'decimal',
      'number',
      'number',
      'integer',
      'integer',
    ])
  })
})
