import { QueryTimeoutError } from '../errors/query-timeout-error.ts'

/** An RFC 9457 problem body for a request the server could not answer: no SQL, no message, no stack. */
export interface ServerProblemBody {
  type: 'about:blank'
  title: 'Internal Server Error' | 'Service Unavailable'
  status: 500 | 503
  detail: string
  message: string
  code: 'internal_error' | 'query_timeout'
}

/** What to send for a request the server could not answer. */
export interface ServerProblemResponse {
  status: 500 | 503
  headers: { 'content-type': 'application/problem+json' }
  body: ServerProblemBody
}

const TIMEOUT_DETAIL = 'The query took too long and was cancelled. Ask for less (fewer filters, orders or relations, a smaller page) or try again later.'
const INTERNAL_DETAIL = 'The server could not answer this request.'

/**
 * The problem+json answer for an error that is not the client's: a 503 `query_timeout` for a
 * {@link QueryTimeoutError}, and for anything else (a database error, a timeout the application set on the
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
    return { status: 503, headers, body: { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: TIMEOUT_DETAIL, message: TIMEOUT_DETAIL, code: 'query_timeout' } }
  }
  return { status: 500, headers, body: { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: INTERNAL_DETAIL, message: INTERNAL_DETAIL, code: 'internal_error' } }
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
