import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ClientScalar } from '../query-params.ts'
import type { ColumnType, DatetimeStorage } from '../relation-map.ts'
import type { CoercedValue } from './query-plan.ts'
import { ExactNumber, UtcInstant } from '../values.ts'

const INTEGER = /^[+-]?\d{1,16}$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const BIGINT = /^([+-]?)0*(\d{1,19})$/
const DECIMAL = /^([+-]?)(\d{1,65})?(?:\.(\d{1,30}))?$/
const INT64_MAX = 2n ** 63n - 1n
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false }

/**
 * Coerces a client value to its column's declared type: text without NUL characters (which PostgreSQL
 * cannot store), integers and numbers to numbers, `true`/`false`/`1`/`0` to booleans, dates to
 * `YYYY-MM-DD`, datetimes (ISO 8601; no offset means UTC) to a {@link UtcInstant}, both in the years
 * 0001–9999 (UTC), and `bigint` and `decimal` values to their exact text (an {@link ExactNumber}: a bigint
 * within 64 bits, a decimal of at most 65 digits, 30 after the point, without exponent).
 * A value that does not fit is `invalid_value`.
 */
export function coerceValue(
  type: ColumnType,
  value: Exclude<ClientScalar, null>,
  param: string,
  storage: DatetimeStorage = 'text',
): CoercedValue {
  const coerced = coercedOrUndefined(type, value, storage)
  if (coerced === undefined) throw invalidValue(type, param)
  return coerced
}

/**
 * {@link coerceValue} without the error: `undefined` for a value that does not fit, so that a caller spells the
 * parameter's path (see {@link invalidValue}) only for an error.
 */
export function coercedOrUndefined(
  type: ColumnType,
  value: Exclude<ClientScalar, null>,
  storage: DatetimeStorage = 'text',
): CoercedValue | undefined {
  if (type === 'string') {
    const text = typeof value === 'string' ? value : String(value)
    return text.includes('\u0000') ? undefined : text
  }
  const text = String(value).trim()
  switch (type) {
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
      if (isCanonical(text, 10)) return text
      const date = parseDatetime(text)
      if (date !== undefined) return date.toISOString().slice(0, 10)
      break
    }
    case 'datetime': {
      if (isCanonical(text, 24)) return new UtcInstant(text, storage)
      const date = parseDatetime(text)
      if (date !== undefined) return new UtcInstant(date.toISOString(), storage)
      break
    }
    case 'bigint': {
      const match = BIGINT.exec(text)
      if (match === null) break
      const exact = BigInt(`${match[1] ?? ''}${match[2] ?? ''}`)
      if (exact <= INT64_MAX && exact >= -INT64_MAX - 1n) return new ExactNumber(exact.toString(), 'bigint')
      break
    }
    case 'decimal': {
      const match = DECIMAL.exec(text)
      if (match === null || (match[2] === undefined && match[3] === undefined)) break
      const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '') || '0'
      const fraction = (match[3] ?? '').replace(/0+$/, '')
      const digits = fraction === '' ? whole : `${whole}.${fraction}`
      return new ExactNumber(match[1] === '-' && /[1-9]/.test(digits) ? `-${digits}` : digits, 'decimal')
    }
  }
  return undefined
}

/** The `invalid_value` error of a value of `param` that does not fit `type` (see {@link coerceValue}). */
export function invalidValue(type: ColumnType, param: string): QueryParamsError {
  return new QueryParamsError(`Parameter '${param}' must be ${EXPECTED[type]}.`, { code: 'invalid_value', param })
}

/**
 * Whether `text` is already in its normal form, which needs no `Date`: a valid `YYYY-MM-DD` (`length`
 * 10) or `YYYY-MM-DDTHH:MM:SS.sssZ` (`length` 24), with a year from 0001.
 */
function isCanonical(text: string, length: 10 | 24): boolean {
  if (text.length !== length || text[4] !== '-' || text[7] !== '-') return false
  const year = digitsAt(text, 0, 4)
  const month = digitsAt(text, 5, 7)
  const day = digitsAt(text, 8, 10)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false
  if (length === 10) return true
  if (text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') return false
  const hour = digitsAt(text, 11, 13)
  const minute = digitsAt(text, 14, 16)
  const second = digitsAt(text, 17, 19)
  return (
    hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && digitsAt(text, 20, 23) >= 0
  )
}

const EXPECTED: Readonly<Record<ColumnType, string>> = {
  string: 'text without NUL characters',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true, false, 1 or 0',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'an ISO 8601 date-time (e.g. 2024-01-02T03:04:05Z)',
  bigint: 'a whole number within 64 bits',
  decimal: 'a decimal number (e.g. 4.99)',
  json: 'a JSON value (a json column is compared with nothing)',
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)
}

/** The number written in `text` from `start` to `end` (digits only), or -1. */
function digitsAt(text: string, start: number, end: number): number {
  let number = 0
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    number = number * 10 + digit
  }
  return number
}

/**
 * Reads a date or datetime in any form {@link DATETIME} allows (the normal forms take
 * {@link isCanonical} first). The fields are checked by arithmetic: no `Date` string parsing, which is slow.
 */
function parseDatetime(text: string): Date | undefined {
  const match = DATETIME.exec(text)
  if (match === null) return undefined
  const [, y = '', mo = '', d = '', h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match
  let offset = 0
  if (zone.length > 1) {
    const offsetHours = Number(zone.slice(1, 3))
    const offsetMinutes = Number(zone.slice(-2))
    if (offsetHours > 23 || offsetMinutes > 59) return undefined
    offset = (zone.charCodeAt(0) === 45 ? -1 : 1) * (offsetHours * 60 + offsetMinutes)
  }
  const millisecond = fraction === '' ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'))
  return fromFields(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), millisecond, offset)
}

/**
 * The instant of local date-time fields at `offset` minutes east of UTC; `undefined` for impossible fields or a UTC
 * year outside 1–9999.
 */
function fromFields(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
  offset: number,
): Date | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59)
    return undefined
  // Date.UTC reads years 0–99 as 1900–1999, so those take the slower setters.
  if (year >= 100 && year <= 9999 && offset === 0)
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millisecond))
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute - offset, second, millisecond)
  const utcYear = date.getUTCFullYear()
  return utcYear < 1 || utcYear > 9999 ? undefined : date
}
