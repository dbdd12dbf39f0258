import { fitsSinglePrecision } from '../map/single-precision.ts'
import type { CoercedValue } from '../validate/query-plan.ts'
import { ExactNumber, UtcInstant } from '../values.ts'
import type { SqlWriter } from './sql-writer.ts'

const INT16_MAX = 2 ** 15 - 1
const INT64_LIMIT = 2 ** 63

/**
 * Binds a coerced value as the dialect needs it: booleans and datetimes differ per database, an
 * integer outside the 16-bit range gets the dialect's `wideInteger` cast, and a fraction or exponent a
 * single-precision float cannot hold its `wideNumber` cast.
 */
export function writeValue(out: SqlWriter, value: CoercedValue): void {
  const { dialect } = out
  if (value instanceof UtcInstant) out.bind(dialect.bindDatetime(value))
  else if (value instanceof ExactNumber) out.bind(value.text, dialect.exactNumber?.[value.kind])
  else if (typeof value === 'boolean') out.bind(dialect.bindBoolean(value))
  else if (dialect.wideInteger !== undefined && isWideInteger(value)) out.bind(value, dialect.wideInteger)
  else if (dialect.wideNumber !== undefined && isWideNumber(value)) out.bind(value, dialect.wideNumber)
  else out.bind(value)
}

function isWideInteger(value: string | number): boolean {
  return (
    typeof value === 'number' && Number.isInteger(value) && Math.abs(value) > INT16_MAX && Math.abs(value) < INT64_LIMIT
  )
}

function isWideNumber(value: string | number): boolean {
  return typeof value === 'number' && !fitsSinglePrecision(value)
}
