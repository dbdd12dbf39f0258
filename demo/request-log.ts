import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import { boundText } from '../lib/errors/cut-text.ts'
import { rejectionOf } from './rejections.ts'

/** Longest URL written in a log line; a longer one is cut, with its length. */
export const MAX_LOGGED_URL = 300

/**
 * Fastify's request logging in one line per request — method, URL (cut to {@link MAX_LOGGED_URL}
 * characters), status and duration, and for a rejected request its `code` and `param` — logged when the
 * response is sent, in place of Fastify's "incoming request" and "request completed" pair.
 *
 * @example
 * Fastify({ logger: true, logController: new OneLineRequestLog() })
 * // {"level":30,…,"statusCode":400,"responseTime":3.1,"code":"invalid_number","param":"limit","msg":"GET /posts?limit=x 400 3.1ms"}
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = Math.round(reply.elapsedTime * 10) / 10
    const rejection = rejectionOf(request)
    const line = { statusCode: reply.statusCode, responseTime: ms, ...rejection }
    const message = `${request.method} ${boundText(request.url, MAX_LOGGED_URL)} ${reply.statusCode} ${ms}ms`
    if (error === null || error === undefined) request.log.info(line, message)
    else request.log.error({ ...line, err: error }, message)
  }
}
