import knex, { type Knex } from 'knex'
import { fileURLToPath } from 'node:url'
import { mysqlConnection, mysqlUtcSession, pgTypes, pgUtcSession } from '../fixtures/driver-settings.ts'

/** The SQLite file the demo uses when `DATABASE_URL` is not set (git-ignored). */
export const DEFAULT_SQLITE_FILE = fileURLToPath(new URL('../demo.sqlite', import.meta.url))

/**
 * A knex instance for the demo: `postgres://…` or `mysql://…` (also `mariadb://…`) from `url`, else a
 * SQLite file (`sqlite:path/to/file`, or `demo.sqlite` at the repository root). Every session runs in
 * UTC, so timestamps written as `YYYY-MM-DD HH:MM:SS` mean the same instant on every database.
 *
 * @example
 * const db = connectDatabase(process.env.DATABASE_URL)
 */
export function connectDatabase(url: string | undefined): Knex {
  if (url === undefined || url === '' || url.startsWith('sqlite:')) {
    const filename =
      url === undefined || url === '' ? DEFAULT_SQLITE_FILE : url.slice('sqlite:'.length).replace(/^\/\//, '')
    return knex({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    })
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return knex({
      client: 'pg',
      connection: { connectionString: url, types: pgTypes },
      pool: {
        min: 0,
        max: 10,
        afterCreate: pgUtcSession,
      },
    })
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return knex({
      client: 'mysql2',
      connection: mysqlConnection(url.replace(/^mariadb:/, 'mysql:')),
      pool: {
        min: 0,
        max: 10,
        afterCreate: mysqlUtcSession,
      },
    })
  }
  throw new Error(
    `DATABASE_URL must start with postgres://, mysql://, mariadb:// or sqlite:, got '${url.split(':')[0] ?? ''}:…'`,
  )
}
