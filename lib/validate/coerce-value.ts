import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ClientScalar } from '../query-params.ts'
import type { ColumnType } from '../relation-map.ts'
import type { CoercedValue } from './condition.ts'

const INTEGER = /^[+-]?\d{1,16}$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false }

/**
 * Coerces a client value to its column's declared type: integers and numbers to numbers,
 * `true`/`false`/`1`/`0` to booleans, dates to `YYYY-MM-DD`, datetimes (ISO 8601; no offset means
 * UTC) to a `Date`. A value that does not fit is `invalid_value`.
 */
export function coerceValue(type: ColumnType, value: Exclude<ClientScalar, null>, param: string): CoercedValue {
  const text = String(value).trim()
  switch (type) {
    case 'string':
      return String(value)
    case 'integer': {
      const number = INTEGER.test(text) ? Number(text) : NaN
      if (Number.isSafeInteger(number)) return number
      break
    }
    case 'number': {
      const number = NUMBER.test(text) ? Number(text) : NaN
      if (Number.isFinite(number)) return number
      break
    }
    case 'boolean': {
      const boolean = BOOLEANS[text.toLowerCase()]
      if (boolean !== undefined) return boolean
      break
    }
    case 'date': {
      const date = parseDatetime(text)
      if (date !== undefined) return date.toISOString().slice(0, 10)
      break
    }
    case 'datetime': {
      const date = parseDatetime(text)
      if (date !== undefined) return date
      break
    }
  }
  throw new QueryParamsError(`Parameter '${param}' must be ${EXPECTED[type]}.`, { code: 'invalid_value', param })
}

const EXPECTED: Readonly<Record<ColumnType, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true, false, 1 or 0',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'an ISO 8601 date-time (e.g. 2024-01-02T03:04:05Z)',
}

function parseDatetime(text: string): Date | undefined {
  const match = DATETIME.exec(text)
  if (match === null) return undefined
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return undefined
  const local = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`)
  if (local.getUTCMonth() + 1 !== Number(mo) || local.getUTCDate() !== Number(d)) return undefined
  return date
}
