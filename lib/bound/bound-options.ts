/**
 * How long a request's statements may run, and when to give up on them; options of `applyQueryParams`, `loadRelations`
 * and `paginate`.
 */
export interface BoundOptions {
  /**
   * Milliseconds the request's statements (page, count, every eager-load batch) may take together, from the
   * first one. When it is up, the running statement is cancelled on the server (PostgreSQL, MySQL/MariaDB)
   * and the promise rejects with `QueryTimeoutError` (503). On a SQLite file (better-sqlite3) a bounded read runs in a
   * reader process, ended at once; in a transaction or in memory the time is checked before and after each statement.
   */
  timeout?: number | undefined
  /**
   * Cancels the request's statements when it aborts (on the server, as `timeout` does); the promise rejects
   * with the signal's reason. The integrations give one that aborts when the client disconnects.
   */
  signal?: AbortSignal | undefined
  /**
   * Off by default. How many times a statement that failed with a transient database error (a deadlock, a standby's
   * conflict with recovery, a lost connection…; see `transientDatabaseError`) is run again, on a connection taken
   * anew, while the `timeout` leaves time; never inside a transaction of the caller's. Takes effect with a `timeout`
   * or a `signal`.
   */
  retryTransient?: number | undefined
}
