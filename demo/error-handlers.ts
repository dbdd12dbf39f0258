import type { FastifyInstance } from 'fastify'
import { errorResponse } from '../lib/index.ts'
import { isConstraintViolation } from './constraint-error.ts'
import { isDatabaseUnavailable } from './database-unavailable.ts'
import { rememberRejection } from './rejections.ts'
import { tooLargeProblem } from './too-large.ts'

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'statusCode' in error && typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined

/**
 * The demo's error answers:
 * - a `QueryParamsError` (bad query params or a bad write) → 400 `application/problem+json` from `errorResponse`,
 *   its `code` and `param` in the request's log line;
 * - a body over Fastify's `bodyLimit` → 413 `application/problem+json` (a URL over Node's header limit is
 *   answered 431 before any route, see `answerClientError`);
 * - a violated database constraint (a duplicate, a missing or still-referenced parent) → 409;
 * - Fastify's own client errors (malformed JSON, unsupported media type…) → their 4xx status and message;
 * - the database unreachable, its connection killed, or no pooled connection in time → 503 with `Retry-After`;
 * - anything else → logged with its stack, answered 500 `{ message: 'Internal Server Error' }`, no SQL;
 * - an unknown route → 404 JSON.
 *
 * @example
 * registerErrorHandlers(app)
 */
export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const problem = errorResponse(error)
    if (problem !== undefined) {
      rememberRejection(request, { code: problem.body.code, param: problem.body.param })
      return reply.code(problem.status).headers(problem.headers).send(problem.body)
    }
    if (isConstraintViolation(error)) {
      request.log.info({ code: (error as { code?: unknown }).code }, 'constraint violation')
      return reply
        .code(409)
        .send({ message: 'The change conflicts with stored data (a unique, foreign-key or not-null constraint).' })
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({ message: 'The database is unavailable; try again shortly.', code: 'database_unavailable' })
    }
    const status = statusOf(error)
    if (status === 413) {
      rememberRejection(request, { code: 'body_too_large' })
      return reply
        .code(413)
        .header('content-type', 'application/problem+json')
        .send(tooLargeProblem(413, app.initialConfig.bodyLimit))
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.code(status).send({ message: error instanceof Error ? error.message : 'Bad Request' })
    }
    request.log.error({ err: error }, 'unexpected error')
    return reply.code(500).send({ message: 'Internal Server Error' })
  })
  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ message: `No route ${request.method} ${request.url.split('?')[0] ?? ''}.` }),
  )
}
