import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { CoercedValue } from '../validate/condition.ts'

const INT32_MAX = 2 ** 31 - 1
const INT64_LIMIT = 2 ** 63

/**
 * A coerced value as the dialect binds it: booleans and datetimes differ per database, and an integer
 * outside the 32-bit range gets the dialect's `wideInteger` cast (made with `client`).
 */
export function bindValue(client: Knex.Client, dialect: Dialect, value: CoercedValue): Knex.Value {
  if (value instanceof Date) return dialect.bindDatetime(value)
  if (typeof value === 'boolean') return dialect.bindBoolean(value)
  const wide = typeof value === 'number' && Number.isInteger(value) && Math.abs(value) > INT32_MAX && Math.abs(value) < INT64_LIMIT
  return wide && dialect.wideInteger !== undefined ? client.raw(dialect.wideInteger, [value]) : value
}
