/**
 * A request's database time ran out: the `timeout` of `applyQueryParams`, `loadRelations` or `paginate`
 * (or an integration's default) passed, and the statements still running were cancelled on the server
 * (PostgreSQL, MySQL/MariaDB). Status 503 with `code: 'query_timeout'`; the integrations answer it as
 * `application/problem+json`, without any SQL.
 *
 * @example
 * try {
 *   return await paginate(applyQueryParams(db('posts'), params, relationMap), params, { timeout: 2000 })
 * } catch (error) {
 *   if (error instanceof QueryTimeoutError) reply.code(503).send({ code: error.code })
 *   throw error
 * }
 */
export class QueryTimeoutError extends Error {
  readonly status = 503 as const
  readonly statusCode = 503 as const
  readonly code = 'query_timeout' as const
  /** The time the request had, in milliseconds. */
  readonly timeout: number
  /**
   * Set, shortly after this error is thrown, when a statement could not be cancelled on the server (a MariaDB
   * `KILL QUERY` that could not be proven to reach the statement's own thread): why, and what bounds it instead.
   * For logs; never sent.
   */
  notCancelled?: Error

  constructor(timeout: number) {
    super(`The query took longer than ${timeout} ms and was cancelled.`)
    this.name = 'QueryTimeoutError'
    this.timeout = timeout
  }
}
