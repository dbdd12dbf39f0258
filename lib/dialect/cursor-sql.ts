import type { Knex } from 'knex'
import type { ColumnType } from '../relation-map.ts'
import type { Dialect, DialectName } from './dialect.ts'

/**
 * How a database reads a cursor's position exactly and compares with it: `read` wraps an ordered value (`$` marks
 * where the value goes, once or more) into what the driver returns exactly (its text, or a whole number as it is); `bind` is the placeholder that compares
 * that text with a value of the order's type; `binding` turns the text back into the value bound. `rowValues`
 * says whether a row-value comparison `(a, b) > (?, ?)` is written where it is exact (one direction, no NULL): SQLite
 * and PostgreSQL read it as a range of the order's index; MariaDB 10.11 does not (it read 30,021 index entries for
 * a page at row 30,000 of `spec/cursor/cursor-plans.spec.ts`, the expanded form 21).
 */
export interface CursorSql {
  read(type: ColumnType): string
  /** The position text of a value of `type` as the driver returned it for {@link read}. */
  text(value: unknown, type: ColumnType): string
  /**
   * Whether the value the driver returns for a selected column of `type` (before any conversion of the library) is
   * what {@link read} would return for it, so that a page reads the position from the row instead of selecting it
   * again; `undefined` where it never is (a `Date` of node-postgres or mysql2 lost the microseconds, a number past
   * 2^53 its last digits).
   */
  fromRow(type: ColumnType): ((value: unknown) => boolean) | undefined
  readonly rowValues: boolean
  bind(type: ColumnType): string
  binding(text: string, type: ColumnType): Knex.Value
}

const isText = (value: unknown): boolean => typeof value === 'string'
const isWhole = (value: unknown): boolean =>
  typeof value === 'string' || typeof value === 'bigint' || Number.isSafeInteger(value)

/**
 * The column values node-postgres, PGlite and mysql2 return as the server's text of them (`String` of the value):
 * text, and whole numbers up to 2^53 (node-postgres returns a `bigint` column as its text).
 */
const serverFromRow: Partial<Record<ColumnType, (value: unknown) => boolean>> = { string: isText, integer: isWhole }

/** The position text of a server's value: an `integer` read as it is must be a whole number the driver kept exact. */
const serverText = (value: unknown, type: ColumnType): string => {
  if (type === 'integer' && !isWhole(value))
    throw new Error(
      `knex-query-params: cursorPaginate read ${String(value)} for an integer order: not a whole number up to 2^53 ` +
        "(declare the column 'bigint' or 'decimal')",
    )
  return String(value)
}

/**
 * PostgreSQL: the value's text (`timestamptz` with its microseconds, `numeric` and `bigint` whole) bound as an
 * untyped parameter, which the server reads as the type of the value it meets. An `integer` (a column, a count) is
 * read as it is, which the driver returns exactly (a number up to 2^31, a `bigint` count as its text): a text of
 * it would be computed for every row a count's order sorts, not only the page's.
 */
const postgres: CursorSql = {
  read: (type) => (type === 'integer' ? '$' : '($)::text'),
  text: serverText,
  fromRow: (type) => serverFromRow[type],
  rowValues: true,
  bind: () => '?',
  binding: (text) => text,
}

/**
 * A whole number a JavaScript number holds exactly. MariaDB compares an integer with a text parameter as doubles,
 * row by row: a position of 303 bound as `'303'` cost ×1.3 on a page that reads 333,000 index entries (figure 15).
 */
const SAFE_WHOLE = /^-?\d{1,15}$/

/**
 * MySQL/MariaDB: the value's text, bound in a cast to the order's type where a text parameter would be compared
 * as a double (`bigint`, `decimal`) or as text (a date-time read from an expression rather than a column); an
 * `integer` read as it is (mysql2 returns it exactly, a count up to 2^53) and bound as a number. MariaDB computes
 * the select list of every row a count's order sorts: `cast(count as char)` cost ×1.16 of the expert's page at row
 * 10 of figure 15 (server CPU), the count read as it is ×1.02.
 */
const mysql = (exact: Dialect['exactNumber']): CursorSql => ({
  read: (type) => (type === 'integer' ? '$' : 'cast($ as char)'),
  text: serverText,
  fromRow: (type) => serverFromRow[type],
  rowValues: false,
  bind: (type) => {
    if (type === 'bigint') return exact?.bigint ?? '?'
    if (type === 'decimal') return exact?.decimal ?? '?'
    if (type === 'datetime') return 'cast(? as datetime(6))'
    if (type === 'date') return 'cast(? as date)'
    return '?'
  },
  binding: (text, type) => (type === 'integer' && SAFE_WHOLE.test(text) ? Number(text) : text),
})

/** SQLite reads every position but a `bigint`'s as the column itself: the row has the very value. */
const anyValue = (): boolean => true

/**
 * SQLite: the value as the driver reads it, its storage class first (`r` a number, `t` text), bound back as a
 * number or text; a `bigint`, which a JavaScript number would round past 2^53, is read by SQL as its digits (`i`)
 * and bound as a `BigInt`. Reading every value through SQL cost ×1.4 on a page of 0.07 ms (figure 15).
 */
const sqlite: CursorSql = {
  read: (type) =>
    type === 'bigint'
      ? "case typeof($) when 'integer' then 'i' || ($) when 'real' then 'r' || printf('%.17g', $) " +
        "when 'text' then 't' || ($) end"
      : '$',
  text: (value, type) =>
    type === 'bigint'
      ? String(value)
      : typeof value === 'number' || typeof value === 'bigint'
        ? `r${value}`
        : `t${String(value)}`,
  fromRow: (type) => (type === 'bigint' ? undefined : anyValue),
  rowValues: true,
  bind: () => '?',
  binding: (text) => {
    const rest = text.slice(1)
    if (text.startsWith('i')) return BigInt(rest) as unknown as Knex.Value
    if (text.startsWith('r')) return Number(rest)
    return rest
  },
}

/** The {@link CursorSql} of `dialect`. */
export function cursorSqlOf(dialect: Dialect): CursorSql {
  const byName: Record<DialectName, () => CursorSql> = {
    postgres: () => postgres,
    mysql: () => mysql(dialect.exactNumber),
    sqlite: () => sqlite,
  }
  return byName[dialect.name]()
}

/** Whether `text` is a position value `dialect` can read back (SQLite's carry their storage class). */
export function isCursorText(dialect: Dialect, text: string): boolean {
  if (dialect.name !== 'sqlite') return true
  if (text.startsWith('i')) return /^i-?\d{1,20}$/.test(text)
  if (text.startsWith('r')) return Number.isFinite(Number(text.slice(1))) && text.length > 1
  return text.startsWith('t')
}
