import { PGlite, types as pgliteTypes } from '@electric-sql/pglite'
import knex from 'knex'
import type { Knex } from 'knex'
import ClientPgLite from 'knex-pglite'
import {
  keepDateText,
  mysqlConnection,
  mysqlUtcSession,
  pgTypes,
  pgUtcSession,
} from '../../fixtures/driver-settings.ts'
import { serverDatabase, uniqueTestDatabaseName, type ServerDatabase } from './server-database.ts'

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
  /** On a real server: the run's own `kqp_test_…` database, which the harness creates and drops. */
  server?: ServerDatabase
}

/** The variables naming the servers the suite may create its databases on. */
export const TEST_SERVER_VARIABLES = { postgres: 'TEST_POSTGRES_URL', mysql: 'TEST_MYSQL_URL' } as const

const SERVER_ACQUIRE_TIMEOUT = 10_000

/** A new SQLite database in memory, with the suite's settings. */
export function sqliteDatabase(): TestDatabase {
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

/**
 * A knex instance on a new database of the server of `serverUrl` (created later, by
 * `createTestDatabases`), named `kqp_test_…` uniquely for this run.
 */
export function postgresServerDatabase(serverUrl: string, name = uniqueTestDatabaseName()): TestDatabase {
  const server = serverDatabase('postgres', serverUrl, name)
  return {
    name: 'postgres',
    engine: 'postgres-server',
    label: `postgres (server ${server.host}, database ${server.name})`,
    server,
    knex: knex({
      client: 'pg',
      connection: { connectionString: server.url, types: pgTypes },
      acquireConnectionTimeout: SERVER_ACQUIRE_TIMEOUT,
      pool: { min: 0, max: 4, afterCreate: pgUtcSession },
    }),
  }
}

/** Like {@link postgresServerDatabase}, on a MySQL/MariaDB server. */
export function mysqlServerDatabase(serverUrl: string, name = uniqueTestDatabaseName()): TestDatabase {
  const server = serverDatabase('mysql', serverUrl, name)
  return {
    name: 'mysql',
    engine: 'mysql',
    label: `mysql (server ${server.host}, database ${server.name})`,
    server,
    knex: knex({
      client: 'mysql2',
      connection: mysqlConnection(server.url),
      acquireConnectionTimeout: SERVER_ACQUIRE_TIMEOUT,
      pool: { min: 0, max: 4, afterCreate: mysqlUtcSession },
    }),
  }
}

/** A new embedded PGlite database in memory, with the suite's settings. */
export function pgliteDatabase(): TestDatabase {
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

function serverUrl(variable: string, scheme: RegExp, expected: string): string | undefined {
  const url = process.env[variable]
  if (url === undefined || url === '') return undefined
  if (!scheme.test(url))
    throw new Error(`${variable} must be a ${expected} URL of a server, got '${url.split(':')[0] ?? ''}:…'`)
  return url
}

let databases: TestDatabase[] | undefined

/**
 * The databases the suite runs against, created once (connections open lazily): SQLite in memory always;
 * PostgreSQL in a new database `kqp_test_…` on the server of `TEST_POSTGRES_URL` when set, else embedded
 * PGlite; MySQL/MariaDB, likewise, only when `TEST_MYSQL_URL` is set. The server databases exist only
 * between `createTestDatabases` and `dropTestDatabases` (the root hooks). Every session runs in UTC.
 * Synchronous, so spec files can loop over it while defining their suites.
 *
 * @example
 * for (const db of testDatabases()) describe(db.name, () => { it('…', async () => { await db.knex('users') }) })
 */
export function testDatabases(): TestDatabase[] {
  if (databases === undefined) {
    const postgresUrl = serverUrl(TEST_SERVER_VARIABLES.postgres, /^postgres(ql)?:\/\//, 'postgres://')
    const mysqlUrl = serverUrl(TEST_SERVER_VARIABLES.mysql, /^(mysql|mariadb):\/\//, 'mysql://')
    databases = [sqliteDatabase(), postgresUrl === undefined ? pgliteDatabase() : postgresServerDatabase(postgresUrl)]
    if (mysqlUrl !== undefined) databases.push(mysqlServerDatabase(mysqlUrl.replace(/^mariadb:/, 'mysql:')))
  }
  return databases
}
