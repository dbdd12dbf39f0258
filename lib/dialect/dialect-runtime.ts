import type { Knex } from 'knex'

/**
 * Runtime: running statements on this database (cancellation, snapshot transactions).
 * Part of `Dialect`.
 */
export interface DialectRuntime {
  /**
   * Stops the statement running on `connection` (one the pool gave out) from outside it, on the server, or
   * `undefined` where no statement can be stopped so (SQLite runs each statement to its end, synchronously).
   * Resolves once the server has the request; the statement then fails on its own connection.
   */
  readonly cancelStatement?: (client: Knex.Client, connection: unknown) => Promise<void>
  /** Learns what `cancelStatement` must know of `connection` before a statement runs on it (once per connection). */
  readonly prepareCancel?: (client: Knex.Client, connection: unknown) => Promise<void>
  /**
   * Changes the session of `connection` for the bounded statement about to run on it, so that a cancel can stop it,
   * and returns what restores the session once the statement has ended (`undefined`: nothing was changed).
   * PostgreSQL turns JIT off where the session has it on: a backend compiling a plan does not answer a cancel.
   */
  readonly cancellableSession?: (connection: unknown) => Promise<(() => Promise<void>) | undefined>
  /** The transaction in which `paginate({ queries: 'transaction' })` reads page and count from one snapshot. */
  readonly snapshotTransaction: Knex.TransactionConfig
}
