import knex, { type Knex } from 'knex'
import { randomBytes } from 'node:crypto'
import { mysqlConnection } from '../../fixtures/driver-settings.ts'

/** Every database the suite creates on a server is named with this prefix; it never drops any other. */
export const TEST_DATABASE_PREFIX = 'kqp_test_'

const TEST_DATABASE_NAME = /^kqp_test_[a-z0-9_]{1,50}$/

/** The kind of server a {@link ServerDatabase} lives on. */
export type ServerDialect = 'postgres' | 'mysql'

/** A database of this run on a real server: created by {@link ServerDatabase.create}, removed by `drop`. */
export interface ServerDatabase {
  dialect: ServerDialect
  /** `kqp_test_…`, unique per run. */
  name: string
  /** The server URL with its database part replaced by {@link ServerDatabase.name}. */
  url: string
  /** The server URL as given, whose database (if any) serves only to run `CREATE/DROP DATABASE`. */
  serverUrl: string
  /** `host:port` of the server, for labels. */
  host: string
  /** Creates the database; fails if a database of that name exists already. */
  create(): Promise<void>
  /** Drops the database if this process created it (a no-op otherwise); closes its other sessions first. */
  drop(): Promise<void>
}

const created = new Map<string, { dialect: ServerDialect; serverUrl: string }>()

/**
 * Drops every server database this process created and has not dropped yet (for an interrupted run:
 * databases made by single specs, not only the run's main ones). Tries each before throwing the first error.
 */
export async function dropCreatedDatabases(): Promise<void> {
  const errors: unknown[] = []
  for (const [name, { dialect, serverUrl }] of [...created]) {
    try {
      await serverDatabase(dialect, serverUrl, name).drop()
    } catch (error) {
      errors.push(error)
    }
  }
  if (errors.length > 0) throw errors[0]
}

/**
 * A fresh name `kqp_test_<pid>_<random>` for one run's database; `suffix` (lower-case letters, digits,
 * `_`) tells several databases of one run apart.
 *
 * @example
 * uniqueTestDatabaseName() // 'kqp_test_48213_9f2c41d7'
 */
export function uniqueTestDatabaseName(suffix = ''): string {
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}${suffix === '' ? '' : `_${suffix}`}`
  assertTestDatabaseName(name)
  return name
}

/** Throws unless `name` is one the suite may create or drop: `kqp_test_` and then `[a-z0-9_]`. */
export function assertTestDatabaseName(name: string): void {
  if (!TEST_DATABASE_NAME.test(name)) {
    throw new Error(
      `refusing to create or drop database '${name}': the test harness only touches databases named ${TEST_DATABASE_PREFIX}* (lower-case letters, digits, _)`,
    )
  }
}

// Connection errors reach the caller as the rejection of create/drop; knex need not also print them.
const quiet: Knex.Config = {
  pool: { min: 0, max: 1 },
  acquireConnectionTimeout: 10_000,
  log: { warn: () => undefined },
}

function adminKnex(dialect: ServerDialect, serverUrl: string): Knex {
  const url = new URL(serverUrl)
  if (dialect === 'postgres') {
    if (url.pathname === '' || url.pathname === '/') url.pathname = '/postgres'
    return knex({ ...quiet, client: 'pg', connection: { connectionString: url.toString() } })
  }
  return knex({ ...quiet, client: 'mysql2', connection: mysqlConnection(url.toString()) })
}

async function withAdmin<T>(dialect: ServerDialect, serverUrl: string, work: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = adminKnex(dialect, serverUrl)
  try {
    return await work(admin)
  } finally {
    await admin.destroy()
  }
}

async function dropStatement(admin: Knex, dialect: ServerDialect, name: string): Promise<void> {
  if (dialect === 'mysql') {
    await admin.raw('drop database if exists ??', [name])
    return
  }
  const { rows } = (await admin.raw(`select current_setting('server_version_num')::int as version`)) as {
    rows: Array<{ version: number }>
  }
  if ((rows[0]?.version ?? 0) >= 130_000) {
    await admin.raw('drop database if exists ?? with (force)', [name])
  } else {
    await admin.raw(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()',
      [name],
    )
    await admin.raw('drop database if exists ??', [name])
  }
}

/**
 * A database `name` (see {@link uniqueTestDatabaseName}) on the server of `serverUrl`
 * (`postgres://…` or `mysql://…`). The database named in `serverUrl`, if any, is only connected to, to
 * run `CREATE DATABASE` and `DROP DATABASE` (PostgreSQL: `postgres` when the URL names none); nothing in
 * it is read or written. `drop` only ever drops a database this process created.
 *
 * @example
 * const database = serverDatabase('postgres', process.env.TEST_POSTGRES_URL, uniqueTestDatabaseName())
 * await database.create()
 * try { … knex({ client: 'pg', connection: database.url }) … } finally { await database.drop() }
 */
export function serverDatabase(dialect: ServerDialect, serverUrl: string, name: string): ServerDatabase {
  assertTestDatabaseName(name)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    dialect,
    name,
    url: url.toString(),
    serverUrl,
    host: url.host,
    async create() {
      await withAdmin(dialect, serverUrl, async (admin) => {
        await admin.raw(dialect === 'mysql' ? 'create database ?? character set utf8mb4' : 'create database ??', [name])
      })
      created.set(name, { dialect, serverUrl })
    },
    async drop() {
      if (!created.has(name)) return
      assertTestDatabaseName(name)
      await withAdmin(dialect, serverUrl, (admin) => dropStatement(admin, dialect, name))
      created.delete(name)
    },
  }
}
