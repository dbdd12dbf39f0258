/** Error codes of a database that cannot be reached or dropped the connection: Node, PostgreSQL (classes 08, 57P), MySQL/MariaDB. */
const CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: pg_terminate_backend, a server shutting down
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '53300', // too_many_connections
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
])
const SQLSTATE_CONNECTION = /^08\d{3}$/
/** What `pg` and knex say without a code: a dropped socket, an unusable client, a pool that never gave a connection. */
const MESSAGES = /Connection terminated|connection error|not queryable|Knex: Timeout acquiring a connection/i

/**
 * Whether an error means the database is unavailable — unreachable, restarting, the connection killed,
 * or no pooled connection free within `acquireConnectionTimeout` (`KnexTimeoutError`) — rather than a bug:
 * answered 503 so clients retry, instead of 500. Looks through `cause` and `AggregateError.errors`.
 *
 * @example
 * if (isDatabaseUnavailable(error)) return reply.code(503).header('retry-after', '1').send({ message: '…' })
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown }
  if (name === 'KnexTimeoutError') return true
  if (typeof code === 'string' && (CODES.has(code) || SQLSTATE_CONNECTION.test(code))) return true
  if (typeof message === 'string' && MESSAGES.test(message)) return true
  const nested = [
    ...(error instanceof AggregateError ? (error.errors as unknown[]) : []),
    (error as { cause?: unknown }).cause,
  ]
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1))
}
