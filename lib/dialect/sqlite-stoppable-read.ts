import type { Knex } from 'knex'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { acquireConnection, type ClientDriver, driverOf, inTransaction, releaseConnection } from '../knex/client.ts'
import type { StoppableRead } from './dialect.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { SqliteReadCost } from './sqlite-read-cost.ts'
import { sqliteReadRoutingOf } from './sqlite-read-settings.ts'
import { type ReaderStatement, type ReaderTurn, type SqliteReaderPool, sqliteReaderPool } from './sqlite-reader-pool.ts'

/** A better-sqlite3 statement, as far as the library uses it. */
interface SqliteStatement {
  readonly reader: boolean
  safeIntegers(on?: boolean): SqliteStatement
  all(bindings?: readonly unknown[]): unknown[]
  get(bindings?: readonly unknown[]): unknown
}

/** A better-sqlite3 database (a connection of knex's pool), as far as the library uses it. */
interface SqliteConnection {
  readonly name: string
  readonly memory: boolean
  readonly inTransaction: boolean
  prepare(sql: string): SqliteStatement
  pragma(source: string, options: { simple: true }): unknown
}

/**
 * What is learnt once of a caller's connection: its readers (none for a database in memory), a test for temp objects,
 * and the cost model of its database (shared by the connections of one file).
 */
interface ConnectionProfile {
  readonly pool: SqliteReaderPool | undefined
  readonly temporary: SqliteStatement
  readonly cost: SqliteReadCost
}

/** Where the bounded reads of a process ran: for tests and benchmarks. */
export const sqliteReadCounts = { inThread: 0, inReader: 0, refused: 0 }

/** The cost model of a database file, once a bounded read has used it: for tests and benchmarks. */
export function sqliteReadCostOf(file: string): SqliteReadCost | undefined {
  return costs.get(resolve(file))
}

const profiles = new WeakMap<object, ConnectionProfile>()
const costs = new Map<string, SqliteReadCost>()
const requireHere = createRequire(import.meta.url)

/**
 * A bounded read on SQLite (better-sqlite3), routed by its plan (`sqlite-read-cost.ts`): one estimated to read at most
 * `inThreadRows` rows runs on the caller's connection; any other on a database file runs in a reader process that
 * opens the file read-only (`sqlite-reader-pool.ts`), so that stopping it ends the statement at once and the process
 * keeps answering while it runs. What must run on the caller's connection (inside a transaction, on a connection with
 * a transaction open or temporary tables or views, which could shadow the file's; on a database in memory; with
 * readers off) is refused over `maxInThreadRows` (`QueryParamsError` `too_expensive`). A statement the reader cannot
 * compile (it names a function registered on the caller's connection, an attached database's table) or that is not a
 * read-only query runs on the caller's connection too, under the same ceiling. The first bounded read of a file starts
 * its readers in the background; cheap reads do not wait for them.
 */
export async function sqliteStoppableRead(
  client: Knex.Client,
  sqlOf: () => { readonly sql: string; readonly bindings: readonly unknown[] },
): Promise<StoppableRead | undefined> {
  const driver = driverOf(client)
  if (driver.name !== 'better-sqlite3') return undefined
  // Taken here, outside knex's run of the statement: a pool that gives no connection in time fails as unbounded.
  const connection = (await acquireConnection(client)) as SqliteConnection
  if (!inTransaction(client)) return routed(client, driver, connection)
  // Knex runs a transaction's statements on its own connection only: the read runs there as it is, once estimated.
  try {
    const { sql, bindings } = sqlOf()
    const rows = profileOf(connection, driver).cost.rows(connection, sql, bindings)
    if (rows !== undefined) refuseOver(rows, sqliteReadRoutingOf(client).maxInThreadRows)
    sqliteReadCounts.inThread += 1
  } finally {
    await releaseConnection(client, connection)
  }
  return undefined
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
  const file = connection.memory || connection.name === '' ? undefined : resolve(connection.name)
  let cost = file === undefined ? undefined : costs.get(file)
  if (cost === undefined) {
    cost = new SqliteReadCost()
    if (file !== undefined) costs.set(file, cost)
  }
  const profile = { pool, temporary, cost }
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
 * A connection for knex's better-sqlite3 client (`builder.connection(…)`) that routes each statement: knex prepares,
 * sets `safeIntegers` and awaits `all(bindings)` as on its own connections, so the rows go through knex's response
 * handling as usual. Knex asks `reader` before it runs a statement; the library bounds only reads.
 */
function routed(client: Knex.Client, driver: ClientDriver, connection: SqliteConnection): StoppableRead {
  const turn: ReaderTurn = { stopped: false, onStop: undefined }
  let held: SqliteConnection | undefined = connection
  const release = async (): Promise<void> => {
    const given = held
    held = undefined
    if (given !== undefined) await releaseConnection(client, given)
  }
  const take = async (): Promise<SqliteConnection> => {
    const given = held
    held = undefined
    return given ?? ((await acquireConnection(client)) as SqliteConnection)
  }
  let refusal: Error | undefined
  const refuse = (error: Error): never => {
    // Knex writes the SQL into the message of what it catches: it gets a stand-in, the caller the refusal as made.
    refusal = error
    throw new Error('knex-query-params: the read was refused before it ran')
  }
  const routing = {
    prepare(sql: string) {
      let safeIntegers: boolean | undefined
      const statement = {
        reader: true,
        safeIntegers(on?: boolean) {
          safeIntegers = on ?? true
          return statement
        },
        all: (bindings: readonly unknown[]) =>
          routeRows(client, driver, { sql, bindings, safeIntegers }, turn, refuse, take),
      }
      return statement
    },
  }
  return {
    connection: routing,
    stop() {
      turn.stopped = true
      turn.onStop?.()
    },
    release,
    get refusal() {
      return refusal
    },
  }
}

async function routeRows(
  client: Knex.Client,
  driver: ClientDriver,
  statement: ReaderStatement,
  turn: ReaderTurn,
  refuse: (error: Error) => never,
  take: () => Promise<SqliteConnection>,
): Promise<unknown[]> {
  const routing = sqliteReadRoutingOf(client)
  const connection = await take()
  let pool: SqliteReaderPool | undefined
  let rows: number | undefined
  try {
    if (turn.stopped) throw new Error('knex-query-params: the read was stopped')
    const profile = profileOf(connection, driver)
    if (
      routing.readers &&
      profile.pool?.failure === undefined &&
      !connection.inTransaction &&
      profile.temporary.get() === undefined
    )
      pool = profile.pool
    if (pool === undefined || routing.inThreadRows > 0) {
      rows = profile.cost.rows(connection, statement.sql, statement.bindings)
      if (pool === undefined || (rows !== undefined && rows <= routing.inThreadRows)) {
        if (pool === undefined && rows !== undefined) refuseOver(rows, routing.maxInThreadRows, refuse)
        pool?.warm()
        sqliteReadCounts.inThread += 1
        return allOn(connection, statement)
      }
    }
  } finally {
    await releaseConnection(client, connection)
  }
  sqliteReadCounts.inReader += 1
  return readRows(pool, client, statement, turn, () => {
    if (rows !== undefined) refuseOver(rows, routing.maxInThreadRows, refuse)
  })
}

/** Refuses a read estimated at `rows` over `ceiling` before it runs on the calling thread. */
function refuseOver(rows: number, ceiling: number, refuse: (error: Error) => never = throwIt): void {
  if (rows <= ceiling) return
  sqliteReadCounts.refused += 1
  const estimate = Number.isFinite(rows) ? `about ${Math.round(rows).toLocaleString('en-US')} rows` : 'rows without end'
  refuse(
    new QueryParamsError(
      `This query is too expensive: its plan reads ${estimate}, over the ${ceiling.toLocaleString('en-US')} this ` +
        'database reads where a timeout cannot stop it. Filter through an indexed column or ask for less.',
      { code: 'too_expensive', param: 'query' },
    ),
  )
}

const throwIt = (error: Error): never => {
  throw error
}

function allOn(connection: SqliteConnection, statement: ReaderStatement): unknown[] {
  const prepared = connection.prepare(statement.sql)
  if (statement.safeIntegers !== undefined) prepared.safeIntegers(statement.safeIntegers)
  return prepared.all(statement.bindings)
}

async function readRows(
  pool: SqliteReaderPool,
  client: Knex.Client,
  statement: ReaderStatement,
  turn: ReaderTurn,
  beforeOnCaller: () => void,
): Promise<unknown[]> {
  const answer = await pool.run(statement, turn)
  if ('rows' in answer) return answer.rows
  if ('error' in answer) throw driverError(answer.error, driverOf(client).module)
  if (turn.stopped) throw new Error('knex-query-params: the read was stopped')
  beforeOnCaller()
  const connection = (await acquireConnection(client)) as SqliteConnection
  try {
    if (turn.stopped) throw new Error('knex-query-params: the read was stopped')
    return allOn(connection, statement)
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
