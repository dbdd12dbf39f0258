import type { Knex } from 'knex'

/** A bounded read set up to run where it can be stopped at once, or on the calling thread if cheap. */
export interface StoppableRead {
  /** What the statement is bound to (`builder.connection(…)`) to run this way. */
  readonly connection: unknown
  /** Ends the statement now if it runs in a reader (its process is killed), or keeps it from starting. */
  stop(): void
  /** Gives back what the read holds of the caller's pool if the statement did not run (once it has ended). */
  release(): Promise<void>
  /**
   * The error the read was refused with before it ran, as made (knex prefixes the SQL to the message of an error
   * thrown while it runs a statement: this one goes to the caller as is).
   */
  readonly refusal: Error | undefined
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
   * Changes the session of `connection` for the bounded statement about to run on it, and returns what restores the
   * session once the statement has ended (`undefined`: nothing was changed). PostgreSQL turns JIT off where the
   * session has it on, so that a cancel can stop the statement (a backend compiling a plan does not answer one);
   * MariaDB sets `optimizer_join_limit_pref_ratio` where the session leaves it at 0, so that a page's join order may
   * stop at its limit.
   */
  readonly boundedSession?: (connection: unknown) => Promise<(() => Promise<void>) | undefined>
  /**
   * Where no statement can be cancelled on a server (SQLite): sets up a bounded read routed by its plan, to run on the
   * calling thread when cheap and otherwise in a process that can be ended at once (better-sqlite3: a reader process on
   * the same file); where none can take it (a transaction, a database in memory), on the calling thread under a
   * ceiling. Resolves to `undefined` where the statement runs as it is (a driver it does not route, a transaction's
   * statement, estimated with `sqlOf`, the statement's SQL): the bound is then checked around the statement.
   */
  readonly stoppableRead?: (
    client: Knex.Client,
    sqlOf: () => { readonly sql: string; readonly bindings: readonly unknown[] },
  ) => Promise<StoppableRead | undefined>
  /** The transaction in which `paginate({ queries: 'transaction' })` reads page and count from one snapshot. */
  readonly snapshotTransaction: Knex.TransactionConfig
}
