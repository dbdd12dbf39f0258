import type { Knex } from 'knex'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { acquireConnection, type ClientDriver, driverOf, inTransaction, releaseConnection } from '../knex/client.ts'
import type { StoppableRead } from './dialect.ts'
import { type ReaderStatement, type ReaderTurn, type SqliteReaderPool, sqliteReaderPool } from './sqlite-reader-pool.ts'

/** A better-sqlite3 statement, as far as the library uses it. */
interface SqliteStatement {
  readonly reader: boolean
  safeIntegers(on?: boolean): SqliteStatement
  all(bindings: readonly unknown[]): unknown[]
  get(): unknown
}

/** A better-sqlite3 database (a connection of knex's pool), as far as the library uses it. */
interface SqliteConnection {
  readonly name: string
  readonly memory: boolean
  readonly inTransaction: boolean
  prepare(sql: string): SqliteStatement
  pragma(source: string, options: { simple: true }): unknown
}

/** What is learnt once of a caller's connection: its readers (none for a database in memory) and a test for temp objects. */
interface ConnectionProfile {
  readonly pool: SqliteReaderPool | undefined
  readonly temporary: SqliteStatement
}

const profiles = new WeakMap<object, ConnectionProfile>()
const requireHere = createRequire(import.meta.url)

/**
 * A bounded read on SQLite (better-sqlite3) run in a reader process that opens the same database file read-only
 * (`sqlite-reader-pool.ts`), so that stopping it ends the statement at once and the process keeps answering while it
 * runs; or `undefined` where it must run on the caller's connection: inside a transaction, on a connection with a
 * transaction open or temporary tables or views (they could shadow the file's), or on a database in memory.
 * A statement the reader cannot compile (it names a function registered on the caller's connection, an attached
 * database's table) or that is not a read-only query runs on the caller's connection too, as without a bound.
 */
export async function sqliteStoppableRead(client: Knex.Client): Promise<StoppableRead | undefined> {
  const driver = driverOf(client)
  if (driver.name !== 'better-sqlite3' || inTransaction(client)) return undefined
  const connection = (await acquireConnection(client)) as SqliteConnection
  let pool: SqliteReaderPool | undefined
  try {
    const profile = profileOf(connection, driver)
    const own = connection.inTransaction || profile.temporary.get() !== undefined
    if (!own && profile.pool?.failure === undefined) pool = profile.pool
  } finally {
    await releaseConnection(client, connection)
  }
  return pool === undefined ? undefined : readIn(pool, client)
}

function profileOf(connection: SqliteConnection, driver: ClientDriver): ConnectionProfile {
  const known = profiles.get(connection)
  if (known !== undefined) return known
  const temporary = connection.prepare('select 1 from temp.sqlite_master limit 1')
  const { options } = (driver.connectionSettings ?? {}) as { options?: { nativeBinding?: unknown } }
  const nativeBinding = options?.nativeBinding
  const driverPath = driverPathOf(driver.module)
  let pool: SqliteReaderPool | undefined
  if (!connection.memory && connection.name !== '' && driverPath !== undefined && typeof nativeBinding !== 'object') {
    const { one } = connection.prepare('select 1 as one').get() as { one: unknown }
    pool = sqliteReaderPool({
      driverPath,
      file: resolve(connection.name),
      safeIntegers: typeof one === 'bigint',
      busyTimeout: Number(connection.pragma('busy_timeout', { simple: true })),
      nativeBinding: typeof nativeBinding === 'string' ? nativeBinding : undefined,
    })
  }
  const profile = { pool, temporary }
  profiles.set(connection, profile)
  return profile
}

/** The file of the loaded module `driver` (the better-sqlite3 knex required), for the reader to require. */
function driverPathOf(driver: unknown): string | undefined {
  for (const [path, entry] of Object.entries(requireHere.cache)) if (entry?.exports === driver) return path
  try {
    return requireHere.resolve('better-sqlite3')
  } catch {
    return undefined
  }
}

/**
 * A connection for knex's better-sqlite3 client (`builder.connection(…)`) whose statements run in `pool`'s readers:
 * knex prepares, sets `safeIntegers` and awaits `all(bindings)` as on its own connections, so the rows go through
 * knex's response handling as usual. Knex asks `reader` before it runs a statement; the library bounds only reads.
 */
function readIn(pool: SqliteReaderPool, client: Knex.Client): StoppableRead {
  const turn: ReaderTurn = { stopped: false, onStop: undefined }
  const connection = {
    prepare(sql: string) {
      let safeIntegers: boolean | undefined
      const statement = {
        reader: true,
        safeIntegers(on?: boolean) {
          safeIntegers = on ?? true
          return statement
        },
        all: (bindings: readonly unknown[]) => readRows(pool, client, { sql, bindings, safeIntegers }, turn),
      }
      return statement
    },
  }
  return {
    connection,
    stop() {
      turn.stopped = true
      turn.onStop?.()
    },
  }
}

async function readRows(
  pool: SqliteReaderPool,
  client: Knex.Client,
  statement: ReaderStatement,
  turn: ReaderTurn,
): Promise<unknown[]> {
  const answer = await pool.run(statement, turn)
  if ('rows' in answer) return answer.rows
  if ('error' in answer) throw driverError(answer.error, driverOf(client).module)
  if (turn.stopped) throw new Error('knex-query-params: the read was stopped')
  const connection = (await acquireConnection(client)) as SqliteConnection
  try {
    if (turn.stopped) throw new Error('knex-query-params: the read was stopped')
    const prepared = connection.prepare(statement.sql)
    if (statement.safeIntegers !== undefined) prepared.safeIntegers(statement.safeIntegers)
    return prepared.all(statement.bindings)
  } finally {
    await releaseConnection(client, connection)
  }
}

/** The error the reader caught, as the driver would have thrown it on the caller's connection. */
function driverError(error: { name: string; message: string; code?: unknown }, driver: unknown): Error {
  const { SqliteError } = driver as { SqliteError?: new (message: string, code: unknown) => Error }
  if (error.name === 'SqliteError' && SqliteError !== undefined) return new SqliteError(error.message, error.code)
  if (error.name === 'RangeError') return new RangeError(error.message)
  if (error.name === 'TypeError') return new TypeError(error.message)
  return Object.assign(new Error(error.message), { name: error.name })
}
