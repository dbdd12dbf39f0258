import { errorResponse, type ErrorResponse, type ErrorResponseOptions } from './error-response.ts'
import { tooLargeResponse, type TooLargeResponse } from './too-large-response.ts'

const statusOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? ((error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode) : undefined

/**
 * The problem+json answer the integrations send for an error: {@link errorResponse}'s 400 for a
 * `QueryParamsError`, a 413 for a body over a limit (this library's `BodyTooLargeError`, Express's and
 * Koa's body parsers, Fastify's `FST_ERR_CTP_BODY_TOO_LARGE`: any error with status 413). `undefined` for
 * any other error, which the integration hands on to the framework.
 *
 * @example
 * const problem = problemResponse(error)
 * if (problem === undefined) throw error
 * res.writeHead(problem.status, problem.headers).end(JSON.stringify(problem.body))
 */
export function problemResponse(error: unknown, options: ErrorResponseOptions = {}): ErrorResponse | TooLargeResponse | undefined {
  return errorResponse(error, options) ?? (statusOf(error) === 413 ? tooLargeResponse(413) : undefined)
}
