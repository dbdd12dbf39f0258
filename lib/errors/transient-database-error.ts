/** The kinds of {@link TransientDatabaseError}, for logs and metrics (never sent to the client). */
export type TransientDatabaseReason = 'conflict' | 'overloaded' | 'shutdown' | 'connection' | 'pool'

/** Seconds a client is told to wait (`Retry-After`) before it asks again. */
export const RETRY_AFTER_SECONDS = 1

/**
 * The database failed in a way that passes by itself: a serialization failure or deadlock, a standby's conflict
 * with recovery (PostgreSQL `40001`), too many connections, a server shutting down or starting, a lost or refused
 * connection, no pooled connection in time. Status 503 with `code: 'database_unavailable'` and `retryAfter`
 * (seconds); the integrations answer it as `application/problem+json` with a `Retry-After` header. The
 * database's own code (`databaseCode`) and the driver's error (`cause`) are for logs: no answer carries them.
 *
 * The library does not replace the driver's error when a statement fails; {@link transientDatabaseError} tells
 * whether an error is one of these, and `problemResponse` answers both forms alike.
 *
 * @example
 * const transient = transientDatabaseError(error)
 * if (transient !== undefined) {
 *   log.warn({ databaseCode: transient.databaseCode }, 'database busy')
 *   return reply.code(503).header('retry-after', String(transient.retryAfter)).send({ code: transient.code })
 * }
 */
export class TransientDatabaseError extends Error {
  readonly status = 503 as const
  readonly statusCode = 503 as const
  readonly code = 'database_unavailable' as const
  /** The database's (or driver's, or knex's) own code, such as `40001`, `ER_LOCK_DEADLOCK`, `ECONNRESET`. */
  readonly databaseCode: string
  readonly reason: TransientDatabaseReason
  /** Seconds to wait before trying again. */
  readonly retryAfter: number

  constructor(databaseCode: string, reason: TransientDatabaseReason, cause?: unknown) {
    super(`The database is briefly unavailable (${reason}); try again shortly.`, { cause })
    this.name = 'TransientDatabaseError'
    this.databaseCode = databaseCode
    this.reason = reason
    this.retryAfter = RETRY_AFTER_SECONDS
  }
}
