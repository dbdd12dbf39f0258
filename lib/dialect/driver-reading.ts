import type { Knex } from 'knex'
import { dialectOf, knexClientName, PGLITE_CLIENT } from './dialect-of.ts'
import { knexConfigOf } from '../knex/client.ts'

/**
 * How a client's driver turns `DATE` and `DATETIME` values into JS `Date`s, so that the stored value can be
 * read back exactly: `zone` is where the driver placed the stored wall-clock fields (`'local'`, the process's
 * time zone, or minutes east of UTC), and `datetime` says whether a date-time `Date` is the stored instant
 * (`timestamptz` on PostgreSQL) or the stored UTC wall-clock text read in `zone` (MySQL `DATETIME`). `json` says
 * whether the driver gives a JSON column's value parsed (`'parsed'`: node-postgres and PGlite for `json`/`jsonb`,
 * mysql2 for MySQL's `JSON` and MariaDB's, which it knows by the column's extended metadata) or as its text
 * (`'text'`: SQLite, which has no JSON type).
 */
export interface DriverReading {
  readonly zone: 'local' | number
  readonly datetime: 'instant' | 'wall-clock'
  readonly json: 'parsed' | 'text'
}

const LOCAL_INSTANT: DriverReading = { zone: 'local', datetime: 'instant', json: 'parsed' }
const UTC_INSTANT: DriverReading = { zone: 0, datetime: 'instant', json: 'parsed' }
const SQLITE_TEXT: DriverReading = { zone: 'local', datetime: 'instant', json: 'text' }
const readings = new WeakMap<Knex.Client, DriverReading>()

/**
 * The {@link DriverReading} of a knex client: `pg` builds a `date` at local midnight, PGlite at UTC midnight;
 * mysql2 builds both `DATE` and `DATETIME` in its `timezone` setting (`'local'` by default, `'Z'`, `'+01:00'`).
 * SQLite returns text and numbers, never `Date`s.
 */
export function driverReadingOf(client: Knex.Client): DriverReading {
  let reading = readings.get(client)
  if (reading === undefined) readings.set(client, (reading = readingOf(client)))
  return reading
}

function readingOf(client: Knex.Client): DriverReading {
  if (knexClientName(client) === PGLITE_CLIENT) return UTC_INSTANT
  const { name } = dialectOf(client)
  if (name === 'sqlite') return SQLITE_TEXT
  if (name !== 'mysql') return LOCAL_INSTANT
  return { zone: zoneOf(mysqlTimezone(knexConfigOf(client)?.connection)), datetime: 'wall-clock', json: 'parsed' }
}

function mysqlTimezone(connection: unknown): unknown {
  if (typeof connection === 'string') {
    try {
      return new URL(connection).searchParams.get('timezone') ?? undefined
    } catch {
      return undefined
    }
  }
  if (typeof connection !== 'object' || connection === null) return undefined
  const { timezone, uri } = connection as { timezone?: unknown; uri?: unknown }
  return timezone ?? (typeof uri === 'string' ? mysqlTimezone(uri) : undefined)
}

/**
 * mysql2's `timezone` as minutes east of UTC, or `'local'` (its default, and for anything it does not read as an
 * offset).
 */
function zoneOf(timezone: unknown): 'local' | number {
  if (timezone === 'Z' || timezone === 'z') return 0
  const match = typeof timezone === 'string' ? /^([+-])(\d{2}):?(\d{2})$/.exec(timezone) : null
  if (match === null) return 'local'
  const minutes = Number(match[2]) * 60 + Number(match[3])
  return match[1] === '-' ? -minutes : minutes
}
