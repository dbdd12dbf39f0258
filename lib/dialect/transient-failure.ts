import { TransientDatabaseError } from '../errors/transient-database-error.ts'

type TransientReason = TransientDatabaseError['reason']

/** A transient failure: the database's own code (for logs) and its kind. */
export interface TransientFailure {
  /** The code the driver gave: a PostgreSQL SQLSTATE, a MySQL/MariaDB error name or number, a Node socket code. */
  databaseCode: string
  reason: TransientReason
}

const POSTGRES: Readonly<Record<string, TransientReason>> = {
  '40001': 'conflict', // serialization_failure, and a standby's "conflict with recovery"
  '40P01': 'conflict', // deadlock_detected
  '53300': 'overloaded', // too_many_connections
  '57P01': 'shutdown', // admin_shutdown (pg_terminate_backend, a fast shutdown)
  '57P02': 'shutdown', // crash_shutdown
  '57P03': 'shutdown', // cannot_connect_now (starting up, recovering)
}

const MYSQL: Readonly<Record<string, TransientReason>> = {
  ER_LOCK_WAIT_TIMEOUT: 'conflict', // 1205
  ER_LOCK_DEADLOCK: 'conflict', // 1213
  ER_CON_COUNT_ERROR: 'overloaded', // 1040
  ER_TOO_MANY_USER_CONNECTIONS: 'overloaded', // 1203
  ER_SERVER_SHUTDOWN: 'shutdown', // 1053
  ER_CONNECTION_KILLED: 'shutdown', // 1927 (MariaDB)
  PROTOCOL_CONNECTION_LOST: 'connection', // mysql2: the server closed the connection (2013)
  CR_SERVER_LOST: 'connection', // 2013
  CR_SERVER_GONE_ERROR: 'connection', // 2006
}

const MYSQL_NUMBERS: Readonly<Record<number, TransientReason>> = {
  1205: 'conflict',
  1213: 'conflict',
  1040: 'overloaded',
  1203: 'overloaded',
  1053: 'shutdown',
  1927: 'shutdown',
  2006: 'connection',
  2013: 'connection',
}

const SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])

/**
 * What node-postgres and mysql2 say, without a code, when the server went away under a connection (knex puts the
 * SQL and ` - ` before it).
 */
const LOST_CONNECTION = new RegExp(
  '(?:^| - )(?:Connection terminated(?: unexpectedly)?|Client has encountered a connection error and is not queryable' +
    "|Can't add new command when connection is in closed state)$",
)

/**
 * Whether `error` is a failure that passes by itself, and which: a serialization failure, a deadlock, a standby's
 * conflict with recovery, a lock wait timeout (`conflict`); too many connections (`overloaded`); the server
 * shutting down, starting up, or the session terminated (`shutdown`); a refused, reset or lost connection
 * (`connection`); knex's pool giving no connection within `acquireConnectionTimeout` (`pool`). `undefined` for
 * anything else (a bug, a constraint, a cancelled statement). Looks through `cause` and `AggregateError.errors`.
 */
export function transientFailureOf(error: unknown, depth = 0): TransientFailure | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined
  const { code, errno, name, message } = error as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown }
  const acquiring = typeof message === 'string' && message.includes('Timeout acquiring a connection')
  if (name === 'KnexTimeoutError' && acquiring) {
    return { databaseCode: 'KnexTimeoutError', reason: 'pool' }
  }
  if (typeof code === 'string') {
    const reason = POSTGRES[code] ?? MYSQL[code] ?? (SOCKET.has(code) ? 'connection' : undefined)
    if (reason !== undefined) return { databaseCode: code, reason }
    if (/^08[0-9A-Z]{3}$/.test(code)) return { databaseCode: code, reason: 'connection' }
  }
  if (typeof errno === 'number' && typeof code === 'string' && code.startsWith('ER_')) {
    const reason = MYSQL_NUMBERS[errno]
    if (reason !== undefined) return { databaseCode: code, reason }
  }
  if (code === undefined && typeof message === 'string' && LOST_CONNECTION.test(message)) {
    return { databaseCode: 'connection terminated', reason: 'connection' }
  }
  const inner = error instanceof AggregateError ? (error.errors as unknown[]) : []
  const nested = [...inner, (error as { cause?: unknown }).cause]
  for (const inner of nested) {
    const found = transientFailureOf(inner, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * `error` as a {@link TransientDatabaseError} when it is a transient failure of the database or of knex's pool
 * (itself when it already is one; else a new one whose `cause` is `error`), `undefined` otherwise.
 *
 * @example
 * const transient = transientDatabaseError(error)
 * // a deadlock: { code: 'database_unavailable', databaseCode: '40P01', reason: 'conflict', … }
 */
export function transientDatabaseError(error: unknown): TransientDatabaseError | undefined {
  if (error instanceof TransientDatabaseError) return error
  const failure = transientFailureOf(error)
  return failure === undefined ? undefined : new TransientDatabaseError(failure.databaseCode, failure.reason, error)
}
