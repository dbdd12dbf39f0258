import type { Dialect } from '../dialect/dialect.ts'
import type { CoercedValue } from '../validate/condition.ts'

/** A coerced value as the dialect binds it (booleans and datetimes differ per database). */
export function bindValue(dialect: Dialect, value: CoercedValue): string | number | boolean {
  if (value instanceof Date) return dialect.bindDatetime(value)
  if (typeof value === 'boolean') return dialect.bindBoolean(value)
  return value
}
