import { QueryTimeoutError } from '../errors/query-timeout-error.ts'
import { errorResponse, type ErrorResponse, type ErrorResponseOptions } from './error-response.ts'
import { serverProblemResponse, type ServerProblemResponse } from './server-problem-response.ts'
import { tooLargeResponse, type TooLargeResponse } from './too-large-response.ts'

const statusOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? ((error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode) : undefined

/**
 * The problem+json answer the integrations send for an error: {@link errorResponse}'s 400 for a
 * `QueryParamsError`, a 413 for a body over a limit (this library's `BodyTooLargeError`, Express's and
 * Koa's body parsers, Fastify's `FST_ERR_CTP_BODY_TOO_LARGE`: any error with status 413), a 503
 * `query_timeout` for a `QueryTimeoutError`. `undefined` for any other error; the integrations answer
 * those with {@link serverProblemResponse}'s generic 500 (or leave a framework's own 4xx to it).
 *
 * @example
 * const problem = problemResponse(error)
 * if (problem === undefined) throw error
 * res.writeHead(problem.status, problem.headers).end(JSON.stringify(problem.body))
 */
export function problemResponse(error: unknown, options: ErrorResponseOptions = {}): ErrorResponse | TooLargeResponse | ServerProblemResponse | undefined {
  if (error instanceof QueryTimeoutError) return serverProblemResponse(error)
  return errorResponse(error, options) ?? (statusOf(error) === 413 ? tooLargeResponse(413) : undefined)
}
