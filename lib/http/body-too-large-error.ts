/**
 * A request body longer than the integration's `bodyLimit`. Carries `status`/`statusCode` 413 as the
 * body parsers of Express, Koa and Fastify do, so `problemResponse` answers it as problem+json.
 *
 * @example
 * if (error instanceof BodyTooLargeError) console.warn(`body over ${error.limit} bytes`)
 */
export class BodyTooLargeError extends Error {
  readonly status = 413 as const
  readonly statusCode = 413 as const
  readonly expose = true
  /** The limit that was exceeded, in bytes. */
  readonly limit: number

  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`)
    this.name = 'BodyTooLargeError'
    this.limit = limit
  }
}
