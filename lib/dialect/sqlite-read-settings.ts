import type { Knex } from 'knex'
import { knexClientOf, knexConfigOf } from '../knex/client.ts'

/**
 * Where a bounded read (one with a `timeout` or a `signal`) runs on SQLite with better-sqlite3, for one knex instance
 * and its transactions: see {@link configureSqliteReads}.
 */
export interface SqliteReadSettings {
  /**
   * Whether a bounded read on a database file that is not provably cheap runs in a reader process, which a timeout or
   * a disconnect ends at once; default `true`. `false`: every read runs on the calling thread, where it cannot be
   * stopped once started, so a read estimated over `maxInThreadRows` is refused.
   */
  readonly readers?: boolean | undefined
  /**
   * A bounded read whose plan is estimated to read at most this many rows runs on the calling thread (no round trip
   * to a reader); default 20,000. `0`: every bounded read on a file runs in a reader, without an estimate.
   */
  readonly inThreadRows?: number | undefined
  /**
   * The ceiling of what runs on the calling thread where no reader can take it (a database in memory, a transaction,
   * `readers: false`): a bounded read estimated to read more rows is refused before it runs, with a
   * `QueryParamsError` 400 `too_expensive`; default 50,000,000. `Infinity` refuses nothing.
   */
  readonly maxInThreadRows?: number | undefined
}

/** The settings in effect (every one set). */
export type SqliteReadRouting = {
  readonly [Key in keyof SqliteReadSettings]-?: Exclude<SqliteReadSettings[Key], undefined>
}

/** Defaults of {@link SqliteReadSettings}. */
export const SQLITE_READ_DEFAULTS: SqliteReadRouting = {
  readers: true,
  inThreadRows: 20_000,
  maxInThreadRows: 50_000_000,
}

const configured = new WeakMap<object, SqliteReadRouting>()

/**
 * Sets where the bounded reads (`timeout` or `signal`) of a knex instance on SQLite (better-sqlite3) run, for it and
 * its transactions from now on; an option left out keeps its default (see {@link SqliteReadSettings}). Each bounded
 * read's plan (`explain query plan`, remembered per SQL text) gives an estimate of the rows it reads: a cheap read runs
 * on the calling thread, any other in a reader process on the same file that a timeout or a disconnect ends at once.
 * What must run on the calling thread (in memory, in a transaction, readers off) is refused over `maxInThreadRows`.
 *
 * @throws {RangeError} for a threshold that is not a number ≥ 0.
 * @example
 * const db = knex({ client: 'better-sqlite3', connection: { filename: 'app.sqlite' }, useNullAsDefault: true })
 * configureSqliteReads(db, { inThreadRows: 5000 })         // fewer reads in-thread
 * configureSqliteReads(db, { readers: false, maxInThreadRows: 200_000 }) // no reader processes, a lower ceiling
 */
export function configureSqliteReads(db: Knex | Knex.Transaction, settings: SqliteReadSettings): void {
  const client = knexClientOf(db)
  const routing = { ...SQLITE_READ_DEFAULTS }
  if (settings.readers !== undefined) routing.readers = settings.readers
  if (settings.inThreadRows !== undefined) routing.inThreadRows = rowCount(settings.inThreadRows, 'inThreadRows')
  if (settings.maxInThreadRows !== undefined)
    routing.maxInThreadRows = rowCount(settings.maxInThreadRows, 'maxInThreadRows')
  configured.set(knexConfigOf(client) ?? client, routing)
}

/** The settings of `client`'s knex instance. */
export function sqliteReadRoutingOf(client: Knex.Client): SqliteReadRouting {
  return configured.get(knexConfigOf(client) ?? client) ?? SQLITE_READ_DEFAULTS
}

function rowCount(value: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0)
    throw new RangeError(`knex-query-params: ${name} must be a number of rows ≥ 0, got ${String(value)}`)
  return value
}
