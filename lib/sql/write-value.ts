import type { CoercedValue } from '../validate/query-plan.ts'
import { ExactNumber, UtcInstant } from '../values.ts'
import type { SqlWriter } from './sql-writer.ts'

const INT32_MAX = 2 ** 31 - 1
const INT64_LIMIT = 2 ** 63

/**
 * Binds a coerced value as the dialect needs it: booleans and datetimes differ per database, and an
 * integer outside the 32-bit range gets the dialect's `wideInteger` cast.
 */
export function writeValue(out: SqlWriter, value: CoercedValue): void {
  const { dialect } = out
  if (value instanceof UtcInstant) out.bind(dialect.bindDatetime(value))
  else if (value instanceof ExactNumber) out.bind(value.text, dialect.exactNumber?.[value.kind])
  else if (typeof value === 'boolean') out.bind(dialect.bindBoolean(value))
  else if (dialect.wideInteger !== undefined && isWideInteger(value)) out.bind(value, dialect.wideInteger)
  else out.bind(value)
}

function isWideInteger(value: string | number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) > INT32_MAX && Math.abs(value) < INT64_LIMIT
}
