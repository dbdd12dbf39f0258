import knex, { type Knex } from 'knex'
import { mysqlConnection, mysqlUtcSession, pgTypes, pgUtcSession } from '../../fixtures/driver-settings.ts'
import { listTables } from '../../fixtures/list-tables.ts'

/** A database the bench can run on. */
export type BenchDialect = 'sqlite' | 'postgres' | 'mysql'

/** Server URLs the bench may use, from its own variables (never `DATABASE_URL`, the demo's). */
export interface BenchServers {
  postgres?: string
  mysql?: string
}

/** Every database the bench creates on a server is named with this prefix; it drops no other. */
export const BENCH_DATABASE_PREFIX = 'kqp_bench_'

/**
 * The table the bench creates first in each database it creates: a database named `kqp_bench_*` that holds
 * tables but not this one was made by someone else, and the bench refuses to touch it.
 */
export const OWNER_TABLE = 'kqp_bench_owner'

/**
 * The servers named by `BENCH_POSTGRES_URL` (`postgres://…`) and `BENCH_MYSQL_URL` (`mysql://…` or
 * `mariadb://…`). The database in the URL is only used to connect (PostgreSQL) and is never written to.
 *
 * @example
 * benchServers({ BENCH_POSTGRES_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }) // { postgres: '…' }
 */
export function benchServers(env: Record<string, string | undefined>): BenchServers {
  const servers: BenchServers = {}
  const postgres = env.BENCH_POSTGRES_URL
  const mysql = env.BENCH_MYSQL_URL
  if (postgres !== undefined && postgres !== '') {
    if (!/^postgres(ql)?:\/\//.test(postgres))
      throw new Error(`BENCH_POSTGRES_URL must be a postgres:// URL, got '${postgres.split('://')[0] ?? ''}://…'`)
    servers.postgres = postgres
  }
  if (mysql !== undefined && mysql !== '') {
    if (!/^(mysql|mariadb):\/\//.test(mysql))
      throw new Error(`BENCH_MYSQL_URL must be a mysql:// or mariadb:// URL, got '${mysql.split('://')[0] ?? ''}://…'`)
    servers.mysql = mysql.replace(/^mariadb:/, 'mysql:')
  }
  return servers
}

/** `kqp_bench_<name>`, checked to be a plain identifier. */
export function benchDatabaseName(name: string): string {
  const database = `${BENCH_DATABASE_PREFIX}${name}`
  if (!/^kqp_bench_[a-z0-9_]+$/.test(database))
    throw new Error(`bench database name '${database}' is not a plain kqp_bench_* identifier`)
  return database
}

/** A URL with its credentials hidden, for logs and reports. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//…@')
}

function withDatabase(url: string, database: string): string {
  const target = new URL(url)
  target.pathname = `/${database}`
  return target.toString()
}

/** A knex instance on `database` of the server of `url`, with the demo's driver settings (UTC, dates as text). */
export function serverKnex(dialect: 'postgres' | 'mysql', url: string, database: string, poolMax = 8): Knex {
  const target = withDatabase(url, database)
  if (dialect === 'postgres') {
    return knex({
      client: 'pg',
      connection: { connectionString: target, types: pgTypes },
      pool: { min: 0, max: poolMax, afterCreate: pgUtcSession },
    })
  }
  return knex({
    client: 'mysql2',
    connection: { ...mysqlConnection(target), multipleStatements: false } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: poolMax, afterCreate: mysqlUtcSession },
  })
}

function adminKnex(dialect: 'postgres' | 'mysql', url: string): Knex {
  if (dialect === 'postgres') {
    const target = new URL(url)
    if (target.pathname === '' || target.pathname === '/') target.pathname = '/postgres'
    return knex({ client: 'pg', connection: target.toString(), pool: { min: 0, max: 1 } })
  }
  const target = new URL(url)
  target.pathname = '/'
  return knex({
    client: 'mysql2',
    connection: { uri: target.toString() } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 1 },
  })
}

async function databaseExists(admin: Knex, dialect: 'postgres' | 'mysql', database: string): Promise<boolean> {
  if (dialect === 'postgres') {
    const found = (await admin.raw('select 1 from pg_database where datname = ?', [database])) as { rows: unknown[] }
    return found.rows.length > 0
  }
  const [rows] = (await admin.raw('select 1 from information_schema.schemata where schema_name = ?', [database])) as [
    unknown[],
  ]
  return rows.length > 0
}

/**
 * Opens `kqp_bench_<name>` on the server of `url`, creating it (with its {@link OWNER_TABLE}) if missing.
 * Throws, touching nothing, when a database of that name exists with tables but without the owner table.
 */
export async function openBenchDatabase(dialect: 'postgres' | 'mysql', url: string, name: string): Promise<Knex> {
  const database = benchDatabaseName(name)
  const admin = adminKnex(dialect, url)
  try {
    if (!(await databaseExists(admin, dialect, database))) await admin.raw(`create database ${database}`)
  } finally {
    await admin.destroy()
  }
  const db = serverKnex(dialect, url, database)
  const tables = await listTables(db)
  if (tables.length > 0 && !tables.includes(OWNER_TABLE)) {
    await db.destroy()
    throw new Error(
      `${database} on ${redactUrl(url)} holds tables (${tables.slice(0, 5).join(', ')}) that the bench did not create; it will not touch it. Drop or rename that database yourself.`,
    )
  }
  if (tables.length === 0)
    await db
      .raw(`create table ${OWNER_TABLE} (created_by varchar(64) not null)`)
      .then(() => db(OWNER_TABLE).insert({ created_by: 'knex-query-params bench' }))
  return db
}

/**
 * Drops and recreates `kqp_bench_<name>` (only after {@link openBenchDatabase} proved the bench owns it) and
 * returns a connection to the new, empty database (with its owner table).
 */
export async function recreateBenchDatabase(
  dialect: 'postgres' | 'mysql',
  url: string,
  name: string,
  current: Knex,
): Promise<Knex> {
  const database = benchDatabaseName(name)
  const tables = await listTables(current)
  if (!tables.includes(OWNER_TABLE))
    throw new Error(`${database}: no ${OWNER_TABLE} table, so the bench did not create it; not dropping it`)
  await current.destroy()
  const admin = adminKnex(dialect, url)
  try {
    await admin.raw(
      dialect === 'postgres'
        ? `drop database if exists ${database} with (force)`
        : `drop database if exists ${database}`,
    )
  } finally {
    await admin.destroy()
  }
  return openBenchDatabase(dialect, url, name)
}
