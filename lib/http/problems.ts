import { QueryTimeoutError } from '../errors/query-timeout-error.ts'
import { transientDatabaseError } from '../dialect/transient-failure.ts'
import { errorResponse, type ErrorResponse, type ErrorResponseOptions } from './error-response.ts'

const statusOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null
    ? ((error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode)
    : undefined

/**
 * The problem+json answer the integrations send for an error: {@link errorResponse}'s 400 for a
 * `QueryParamsError`, a 413 for a body over a limit (this library's `BodyTooLargeError`, Express's and
 * Koa's body parsers, Fastify's `FST_ERR_CTP_BODY_TOO_LARGE`: any error with status 413), a 503
 * `query_timeout` for a `QueryTimeoutError`, a 503 `database_unavailable` with `Retry-After` for a transient
 * database failure (see `transientDatabaseError`: a deadlock, a standby's conflict, a lost connection…).
 * `undefined` for any other error; the integrations answer
 * those with {@link serverProblemResponse}'s generic 500 (or leave a framework's own 4xx to it).
 *
 * @example
 * const problem = problemResponse(error)
 * if (problem === undefined) throw error
 * res.writeHead(problem.status, problem.headers).end(JSON.stringify(problem.body))
 */
export function problemResponse(
  error: unknown,
  options: ErrorResponseOptions = {},
): ErrorResponse | TooLargeResponse | ServerProblemResponse | undefined {
  const unavailable = error instanceof QueryTimeoutError || transientDatabaseError(error) !== undefined
  if (unavailable) return serverProblemResponse(error)
  return errorResponse(error, options) ?? (statusOf(error) === 413 ? tooLargeResponse(413) : undefined)
}

/** An RFC 9457 problem body for a request the server could not answer: no SQL, no message, no stack. */
export interface ServerProblemBody {
  type: 'about:blank'
  title: 'Internal Server Error' | 'Service Unavailable'
  status: 500 | 503
  detail: string
  message: string
  code: 'internal_error' | 'query_timeout' | 'database_unavailable'
}

/** What to send for a request the server could not answer. */
export interface ServerProblemResponse {
  status: 500 | 503
  /** `retry-after` (seconds) on a `database_unavailable` answer. */
  headers: { 'content-type': 'application/problem+json'; 'retry-after'?: string }
  body: ServerProblemBody
}

const TIMEOUT_DETAIL =
  'The query took too long and was cancelled. Ask for less (fewer filters, orders or relations, a smaller page) or ' +
  'try again later.'
const UNAVAILABLE_DETAIL = 'The database is briefly unavailable. Try again shortly.'
const INTERNAL_DETAIL = 'The server could not answer this request.'

/**
 * The problem+json answer for an error that is not the client's: a 503 `query_timeout` for a
 * {@link QueryTimeoutError}, a 503 `database_unavailable` with `Retry-After` for a transient database failure (the
 * database's code stays out of the body), and for anything else (a database error, a timeout the application set on the
 * connection, a bug) a generic 500 `internal_error` whose body says nothing of the error. Log the error
 * itself on the server. The integrations send it for every error they do not answer otherwise.
 *
 * @example
 * } catch (error) {
 *   console.error(error)
 *   const problem = serverProblemResponse(error)
 *   res.writeHead(problem.status, problem.headers).end(JSON.stringify(problem.body))
 * }
 */
export function serverProblemResponse(error: unknown): ServerProblemResponse {
  const headers = { 'content-type': 'application/problem+json' } as const
  if (error instanceof QueryTimeoutError) {
    return {
      status: 503,
      headers,
      body: {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: TIMEOUT_DETAIL,
        message: TIMEOUT_DETAIL,
        code: 'query_timeout',
      },
    }
  }
  const transient = transientDatabaseError(error)
  if (transient !== undefined) {
    const body = { detail: UNAVAILABLE_DETAIL, message: UNAVAILABLE_DETAIL, code: transient.code }
    const unavailable = { ...headers, 'retry-after': String(transient.retryAfter) }
    const title = 'Service Unavailable'
    return { status: 503, headers: unavailable, body: { type: 'about:blank', title, status: 503, ...body } }
  }
  return {
    status: 500,
    headers,
    body: {
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: INTERNAL_DETAIL,
      message: INTERNAL_DETAIL,
      code: 'internal_error',
    },
  }
}

/**
 * Whether a framework's own error is the client's (status 400–499: a route not found, a body a parser
 * rejected): the integrations leave those to the framework, and answer every other error themselves.
 */
export function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const status = (error as { status?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode
  return typeof status === 'number' && status >= 400 && status < 500
}

/** An RFC 9457 problem body for a request refused for its size. */
export interface TooLargeProblemBody {
  type: string
  title: 'Content Too Large' | 'Request Header Fields Too Large'
  status: 413 | 431
  detail: string
  message: string
  code: 'body_too_large' | 'headers_too_large'
}

/** What to send for a request refused for its size. */
export interface TooLargeResponse {
  status: 413 | 431
  headers: { 'content-type': 'application/problem+json' }
  body: TooLargeProblemBody
}

const DETAILS = {
  413: ['Content Too Large', 'body_too_large', 'The request body is too large. Send fewer or shorter parameters.'],
  431: [
    'Request Header Fields Too Large',
    'headers_too_large',
    'The URL or the headers are too long. Send a long query as an application/x-www-form-urlencoded body on a ' +
      'method that allows one.',
  ],
} as const

/**
 * The problem+json answer for a body over the limit (413) or a URL/headers over Node's header limit (431).
 *
 * @example
 * const { status, headers, body } = tooLargeResponse(431)
 * // body.code === 'headers_too_large'
 */
export function tooLargeResponse(status: 413 | 431): TooLargeResponse {
  const [title, code, detail] = DETAILS[status]
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: 'about:blank', title, status, detail, message: detail, code },
  }
}
