import { PGlite, types as pgliteTypes } from '@electric-sql/pglite'
import knex from 'knex'
import type { Knex } from 'knex'
import ClientPgLite from 'knex-pglite'
import { keepDateText, mysqlConnection, mysqlUtcSession, pgTypes, pgUtcSession } from '../../fixtures/driver-settings.ts'

/** Which database a test runs on; also the name of its SQL snapshot file. */
export type TestDatabaseName = 'sqlite' | 'postgres' | 'mysql'

/** What actually serves a {@link TestDatabaseName}; `REQUIRE_DATABASES` names these (or a database name). */
export type TestDatabaseEngine = 'sqlite' | 'pglite' | 'postgres-server' | 'mysql'

/** One database the suite runs against. The knex instance connects lazily. */
export interface TestDatabase {
  name: TestDatabaseName
  label: string
  knex: Knex
  engine: TestDatabaseEngine
}

const SERVER_ACQUIRE_TIMEOUT = 10_000

function sqliteDatabase(): TestDatabase {
  return {
    name: 'sqlite',
    engine: 'sqlite',
    label: 'sqlite (better-sqlite3 :memory:)',
    knex: knex({
      client: 'better-sqlite3',
      connection: { filename: ':memory:' },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    }),
  }
}

function postgresServerDatabase(url: string | undefined): TestDatabase {
  let where: string
  if (url !== undefined) {
    const parsed = new URL(url)
    where = `${parsed.host}${parsed.pathname}`
  } else {
    const env = process.env
    where = `${env.PGHOST}:${env.PGPORT ?? 5432}/${env.PGDATABASE ?? env.PGUSER ?? ''}`
  }
  const connection: Knex.PgConnectionConfig = { types: pgTypes }
  if (url !== undefined) connection.connectionString = url
  return {
    name: 'postgres',
    engine: 'postgres-server',
    label: `postgres (server ${where})`,
    knex: knex({
      client: 'pg',
      connection,
      acquireConnectionTimeout: SERVER_ACQUIRE_TIMEOUT,
      pool: {
        min: 0,
        max: 4,
        afterCreate: pgUtcSession,
      },
    }),
  }
}

function pgliteDatabase(): TestDatabase {
  const pglite = new PGlite({ parsers: { [pgliteTypes.DATE]: keepDateText } })
  // knex-pglite accepts a ready PGlite instance through a connection function (untyped in knex).
  const connection = (() => ({ pglite })) as unknown as Knex.ConnectionConfigProvider
  return {
    name: 'postgres',
    engine: 'pglite',
    label: 'postgres (PGlite embedded, in-memory)',
    knex: knex({ client: ClientPgLite, connection }),
  }
}

function mysqlDatabase(url: string): TestDatabase {
  const parsed = new URL(url)
  return {
    name: 'mysql',
    engine: 'mysql',
    label: `mysql (server ${parsed.host}${parsed.pathname})`,
    knex: knex({
      client: 'mysql2',
      connection: mysqlConnection(url),
      acquireConnectionTimeout: SERVER_ACQUIRE_TIMEOUT,
      pool: {
        min: 0,
        max: 4,
        afterCreate: mysqlUtcSession,
      },
    }),
  }
}

function postgresDatabase(): TestDatabase {
  const url = process.env.DATABASE_URL
  if (url !== undefined && url !== '') {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(`DATABASE_URL must be a postgres:// URL for the test suite, got '${url.split(':')[0]}:…'`)
    }
    return postgresServerDatabase(url)
  }
  if (process.env.PGHOST !== undefined && process.env.PGHOST !== '') return postgresServerDatabase(undefined)
  return pgliteDatabase()
}

let databases: TestDatabase[] | undefined

/**
 * The databases the suite runs against, created once (connections open lazily): SQLite in memory always;
 * PostgreSQL on the server of `DATABASE_URL`/`PGHOST` when set, else embedded PGlite; MySQL/MariaDB only
 * when `MYSQL_URL` is set. Every session runs in UTC. Synchronous, so spec files can loop over it while
 * defining their suites.
 *
 * @example
 * for (const db of testDatabases()) describe(db.name, () => { it('…', async () => { await db.knex('users') }) })
 */
export function testDatabases(): TestDatabase[] {
  if (databases === undefined) {
    databases = [sqliteDatabase(), postgresDatabase()]
    const mysqlUrl = process.env.MYSQL_URL
    if (mysqlUrl !== undefined && mysqlUrl !== '') databases.push(mysqlDatabase(mysqlUrl))
  }
  return databases
}
