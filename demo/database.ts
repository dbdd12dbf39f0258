import knex, { type Knex } from 'knex'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

/** The SQLite file the demo uses when `DATABASE_URL` is not set (git-ignored). */
export const DEFAULT_SQLITE_FILE = fileURLToPath(new URL('../demo.sqlite', import.meta.url))

type Done<T> = (error: Error | null, connection: T) => void

interface MysqlField {
  type: string
  string(): string | null
}

interface MysqlConnection {
  query(sql: string, callback: (error: Error | null) => void): void
}

const keepText = (value: string): string => value

/** `pg` turns a `date` into a Date at local midnight; keep the `YYYY-MM-DD` text, as SQLite returns it. */
const pgTypes: Knex.PgCustomTypesConfig = {
  getTypeParser: (oid: number, format: string): unknown =>
    oid === pg.types.builtins.DATE ? keepText : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
}

/** mysql2 also turns a `DATE` into a Date; keep the text. */
function mysqlTypeCast(field: MysqlField, next: () => unknown): unknown {
  return field.type === 'DATE' ? field.string() : next()
}

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
    const filename = url === undefined || url === '' ? DEFAULT_SQLITE_FILE : url.slice('sqlite:'.length).replace(/^\/\//, '')
    return knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } })
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return knex({
      client: 'pg',
      connection: { connectionString: url, types: pgTypes },
      pool: {
        min: 0,
        max: 10,
        afterCreate: (client: pg.Client, done: Done<pg.Client>) => {
          client.query(`SET TIME ZONE 'UTC'`).then(
            () => done(null, client),
            (error: Error) => done(error, client),
          )
        },
      },
    })
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return knex({
      client: 'mysql2',
      connection: { uri: url.replace(/^mariadb:/, 'mysql:'), timezone: 'Z', supportBigNumbers: true, typeCast: mysqlTypeCast },
      pool: {
        min: 0,
        max: 10,
        afterCreate: (connection: MysqlConnection, done: Done<MysqlConnection>) => {
          connection.query(`SET time_zone = '+00:00'`, (error) => done(error, connection))
        },
      },
    })
  }
  throw new Error(`DATABASE_URL must start with postgres://, mysql://, mariadb:// or sqlite:, got '${url.split(':')[0] ?? ''}:…'`)
}
