import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'

/**
 * Fastify's request logging in one line per request — method, URL, status and duration, logged when the
 * response is sent — in place of its "incoming request" and "request completed" pair.
 *
 * @example
 * Fastify({ logger: true, logController: new OneLineRequestLog() })
 * // {"level":30,…,"reqId":"req-1","statusCode":200,"responseTime":3.1,"msg":"GET /posts?limit=2 200 3.1ms"}
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = Math.round(reply.elapsedTime * 10) / 10
    const line = { statusCode: reply.statusCode, responseTime: ms }
    const message = `${request.method} ${request.url} ${reply.statusCode} ${ms}ms`
    if (error === null || error === undefined) request.log.info(line, message)
    else request.log.error({ ...line, err: error }, message)
  }
}
