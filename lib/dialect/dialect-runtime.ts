import type { Knex } from 'knex'

/** A bounded read set up to run where it can be stopped at once (see `Dialect.stoppableRead`). */
export interface StoppableRead {
  /** What the statement is bound to (`builder.connection(…)`) to run this way. */
  readonly connection: unknown
  /** Ends the statement now if it runs (its reader process is killed), or keeps it from starting. */
  stop(): void
}

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
  /**
   * Where no statement can be cancelled on a server (SQLite): sets up a bounded read to run outside the calling
   * thread, in a process that can be ended at once, or resolves to `undefined` where it must run on the caller's
   * connection (a transaction, a database in memory). SQLite with better-sqlite3: a reader process on the same file.
   */
  readonly stoppableRead?: (client: Knex.Client) => Promise<StoppableRead | undefined>
  /** The transaction in which `paginate({ queries: 'transaction' })` reads page and count from one snapshot. */
  readonly snapshotTransaction: Knex.TransactionConfig
}
