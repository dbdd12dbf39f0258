import type { Knex } from 'knex'
import { statementOptionsOf } from '../knex/builder-state.ts'
import { driverOf } from '../knex/client.ts'
import { isDatetimeShape, isDigits, isoOfWallClock } from './utc-text.ts'
import { knexClientName, PGLITE_CLIENT } from './dialect-of.ts'

type TextParser = (text: string) => unknown

interface TypeParsers {
  getTypeParser(oid: number, format?: string): unknown
}

/** Statement options of a knex query (`builder.options(…)`), passed to the driver with the statement. */
export type StatementOptions = Readonly<Record<string, unknown>>

const DATE_OID = 1082
const TIMESTAMPTZ_OID = 1184
const TIMESTAMP_OID = 1114

/**
 * `'YYYY-MM-DD'` text of a PostgreSQL `date` as it comes over the wire, or `undefined` (BC, infinity, another
 * DateStyle).
 */
export function dayOfPostgresText(text: string): string | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined
  return isDigits(text, 0, 4) && isDigits(text, 5, 7) && isDigits(text, 8, 10) ? text : undefined
}

/**
 * The ISO 8601 instant of PostgreSQL `timestamptz` text in a session whose time zone is UTC
 * (`2024-03-01 12:00:00.123456+00` → `'2024-03-01T12:00:00.123Z'`, the fraction truncated to milliseconds as
 * node-postgres truncates it), or `undefined` for any other form (another offset, BC, infinity).
 */
export function instantOfPostgresText(text: string): string | undefined {
  const { length } = text
  if (
    length < 22 ||
    length > 29 ||
    text.charCodeAt(length - 3) !== 43 ||
    text.charCodeAt(length - 2) !== 48 ||
    text.charCodeAt(length - 1) !== 48
  )
    return undefined
  if (!isDatetimeShape(text)) return undefined
  if (length === 22) return isoOfWallClock(text, 0)
  if (length === 23 || text.charCodeAt(19) !== 46 || !isDigits(text, 20, length - 3)) return undefined
  return isoOfWallClock(text, Math.min(3, length - 23))
}

/**
 * The ISO 8601 instant whose UTC fields are the wall-clock fields of PostgreSQL `timestamp without time zone`
 * text (`2024-03-01 12:00:00.123456` → `'2024-03-01T12:00:00.123Z'`), as MySQL `DATETIME` and SQLite text are
 * read, whatever the process's time zone (node-postgres would build a `Date` in it); `undefined` for BC and
 * infinity.
 */
export function wallClockOfPostgresText(text: string): string | undefined {
  const { length } = text
  if (length < 19 || length > 26 || !isDatetimeShape(text)) return undefined
  if (length === 19) return isoOfWallClock(text, 0)
  if (length === 20 || text.charCodeAt(19) !== 46 || !isDigits(text, 20, length)) return undefined
  return isoOfWallClock(text, Math.min(3, length - 20))
}

const FAST_PARSERS: ReadonlyArray<readonly [number, (text: string) => string | undefined]> = [
  [DATE_OID, dayOfPostgresText],
  [TIMESTAMPTZ_OID, instantOfPostgresText],
  [TIMESTAMP_OID, wallClockOfPostgresText],
]

const byClient = new WeakMap<Knex.Client, StatementOptions | null>()

/**
 * Options for a statement whose selected columns are all the library's own (allow-listed columns, keys,
 * aggregates), under which the driver gives values as close to their JSON form as it can, so that normalizing
 * has nothing left to build; `undefined` where the driver has no such option. node-postgres: `date` values come
 * as their `YYYY-MM-DD` text, `timestamp without time zone` values as the ISO 8601 text of their wall clock read
 * as UTC, and `timestamptz` values in a UTC session as ISO 8601 text, instead of `Date`s
 * that normalizing would format again (the driver's own parser still reads every other form, and every other
 * type). Only where the driver's own date parser is in place: a parser the caller installed is kept. PGlite:
 * `timestamp without time zone` values as node-postgres gives them (a statement's own `parsers` are kept).
 */
export function jsonReadOptions(client: Knex.Client): StatementOptions | undefined {
  let options = byClient.get(client)
  if (options === undefined) byClient.set(client, (options = optionsOf(client) ?? null))
  return options ?? undefined
}

/** PGlite builds a `Date` in the process's time zone from `timestamp` text: its statements take their own parser. */
const PGLITE_OPTIONS: StatementOptions = {
  parsers: { [TIMESTAMP_OID]: (text: string): string => wallClockOfPostgresText(text) ?? text },
}

function optionsOf(client: Knex.Client): StatementOptions | undefined {
  if (knexClientName(client) === PGLITE_CLIENT) return PGLITE_OPTIONS
  // node-postgres itself (its module has `types`), not another client on knex's PostgreSQL dialect such as PGlite.
  const { name, module, connectionSettings: settings } = driverOf(client)
  const driver = (module as { types?: Partial<TypeParsers> } | undefined)?.types
  if (name !== 'pg' || typeof driver?.getTypeParser !== 'function') return undefined
  const own =
    typeof settings === 'object' && settings !== null ? (settings as { types?: Partial<TypeParsers> }).types : undefined
  const base = (typeof own?.getTypeParser === 'function' ? own : driver) as TypeParsers
  const parsers = new Map<number, TextParser>()
  for (const [oid, fast] of FAST_PARSERS) {
    const parse = base.getTypeParser(oid, 'text')
    if (typeof parse === 'function' && parse.name === 'parseDate')
      parsers.set(oid, (text) => fast(text) ?? (parse as TextParser)(text))
  }
  if (parsers.size === 0) return undefined
  const getTypeParser = (oid: number, format?: string): unknown =>
    (format === undefined || format === 'text' ? parsers.get(oid) : undefined) ?? base.getTypeParser(oid, format)
  return { types: { getTypeParser } }
}

/**
 * Sets {@link jsonReadOptions} on `query` (unless the caller gave the statement its own `types` or `parsers`),
 * and returns it.
 */
export function readAsJson<Q extends Knex.QueryBuilder>(query: Q): Q {
  const options = jsonReadOptions(query.client)
  if (options === undefined) return query
  if (statementOptionsOf(query).some((option) => 'types' in option || 'parsers' in option)) return query
  query.options(options)
  return query
}
