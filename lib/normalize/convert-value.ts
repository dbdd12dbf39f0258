import type { DriverReading } from '../dialect/driver-reading.ts'
import type { ColumnType } from '../relation-map.ts'
import { isDatetimeShape, isoOfWallClock } from '../dialect/utc-text.ts'

/** Turns one non-null driver value into the JSON value of a column type. */
export type Convert = (value: unknown) => unknown

const DATETIME_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))

/** `YYYY-MM-DD` of the fields of `date` in `zone` (the local zone, or minutes east of UTC). */
function dayOf(date: Date, zone: 'local' | number): string | null {
  if (Number.isNaN(date.getTime())) return null
  if (zone === 'local')
    return `${String(date.getFullYear()).padStart(4, '0')}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`
  return new Date(date.getTime() + zone * 60_000).toISOString().slice(0, 10)
}

/** The instant whose UTC fields are the fields of `date` in `zone`: the wall-clock text a driver read, as UTC. */
function wallClockAsUtc(date: Date, zone: 'local' | number): Date {
  if (zone !== 'local') return zone === 0 ? date : new Date(date.getTime() + zone * 60_000)
  const utc = new Date(0)
  utc.setUTCFullYear(date.getFullYear(), date.getMonth(), date.getDate())
  utc.setUTCHours(date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds())
  return utc
}

/**
 * An ISO 8601 instant of date-time text: SQLite's `YYYY-MM-DD HH:MM:SS[.sss]` (UTC), ISO 8601, or text with an offset.
 */
function instantOfText(text: string): string | null {
  const { length } = text
  // ISO 8601 with milliseconds in UTC, the JSON value already: checked by its marks only, since text of this length
  // with these marks and another shape matches no form below and is returned as it is as well.
  if (length === 24 && text.charCodeAt(23) === 90 && text.charCodeAt(19) === 46 && text.charCodeAt(10) === 84)
    return text
  // The common UTC forms without a zone, read by position (no RegExp, no Date), as SQLite and MySQL text hold them.
  if (length === 19 && isDatetimeShape(text)) return isoOfWallClock(text, 0)
  if (length === 23 && text.charCodeAt(19) === 46 && isDatetimeShape(text)) return isoOfWallClock(text, 3)
  const match = DATETIME_TEXT.exec(text)
  if (match === null) return null
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = match
  const ms = fraction.slice(0, 3).padEnd(3, '0')
  const base = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}`
  if (zone === 'Z' || zone === 'z') return Number.isNaN(Date.parse(`${base}Z`)) ? null : `${base}Z`
  const offset = zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  const time = Date.parse(`${base}${offset}`)
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}

/**
 * Decimal text without an exponent, trailing fractional zeros or a negative zero: `'4.10'` → `'4.1'`, `'-0.00'` →
 * `'0'`.
 */
function canonicalDecimal(text: string): string {
  if (text.includes('e') || text.includes('E')) {
    const number = Number(text)
    return Number.isFinite(number)
      ? canonicalDecimal(number.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }))
      : text
  }
  let result = text
  if (result.includes('.')) {
    let end = result.length
    while (result.charCodeAt(end - 1) === 48) end--
    if (result.charCodeAt(end - 1) === 46) end--
    result = result.slice(0, end)
  }
  if (result.charCodeAt(0) === 43) result = result.slice(1)
  return result === '-0' || result === '' ? '0' : result
}

const toNumber: Convert = (value) => {
  if (typeof value === 'number') return value
  if (typeof value === 'string' || typeof value === 'bigint') return Number(value)
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

const toBoolean: Convert = (value) => {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  if (typeof value === 'bigint') return value !== 0n
  if (value instanceof Uint8Array) return value.some((byte) => byte !== 0)
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase()
    return !(
      text === '' ||
      text === '0' ||
      text === 'f' ||
      text === 'false' ||
      text === 'n' ||
      text === 'no' ||
      text === 'off'
    )
  }
  return value
}

const toText: Convert = (value) =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : value

const toBigint: Convert = (value) => {
  if (typeof value === 'string') return value
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : String(value)
  return value
}

const toDecimal: Convert = (value) => {
  if (typeof value === 'string') return canonicalDecimal(value)
  if (typeof value === 'number') return Number.isFinite(value) ? canonicalDecimal(String(value)) : value
  if (typeof value === 'bigint') return value.toString()
  return value
}

const keepJson: Convert = (value) => value

/** The parsed value of JSON text; text that is not JSON (a hand-written SQLite value) is kept as it is. */
const parseJson: Convert = (value) => {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}

const converterSets = new WeakMap<DriverReading, Readonly<Record<ColumnType, Convert>>>()

/**
 * The converter of each column type for a driver that reads as `reading` says, built once per reading. Every
 * converter returns its input itself when it is already the JSON value, so a caller can skip the write.
 */
export function convertersFor(reading: DriverReading): Readonly<Record<ColumnType, Convert>> {
  let converters = converterSets.get(reading)
  if (converters === undefined) converterSets.set(reading, (converters = buildConverters(reading)))
  return converters
}

function buildConverters(reading: DriverReading): Readonly<Record<ColumnType, Convert>> {
  const date: Convert = (value) => {
    if (typeof value === 'string')
      return value.length === 10
        ? value
        : value.length > 10 && value[4] === '-' && value[7] === '-'
          ? value.slice(0, 10)
          : value
    if (value instanceof Date) return dayOf(value, reading.zone)
    if (typeof value === 'number') return dayOf(new Date(value), 0)
    return value
  }
  const datetime: Convert = (value) => {
    if (typeof value === 'string') return instantOfText(value) ?? value
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) return null
      return (reading.datetime === 'instant' ? value : wallClockAsUtc(value, reading.zone)).toISOString()
    }
    if (typeof value === 'number') return Number.isFinite(value) ? new Date(value).toISOString() : value
    if (typeof value === 'bigint') return new Date(Number(value)).toISOString()
    return value
  }
  return {
    string: toText,
    integer: toNumber,
    number: toNumber,
    boolean: toBoolean,
    date,
    datetime,
    bigint: toBigint,
    decimal: toDecimal,
    json: reading.json === 'parsed' ? keepJson : parseJson,
  }
}
