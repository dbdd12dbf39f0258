import { QueryParamsError, type QueryParamsErrorCode } from '../errors/query-params-error.ts'

/** An RFC 9457 problem body for a rejected query, with this library's `message`, `code`, `param` and `allowed`. */
export interface ProblemBody {
  /** `about:blank` unless `options.type` says otherwise. */
  type: string
  /** `Bad Request`. */
  title: string
  status: 400
  /** The explanation, as RFC 9457's `detail`… */
  detail: string
  /** …and as `message`, where most clients look. */
  message: string
  code: QueryParamsErrorCode
  /** The bracket path the client sent, e.g. `wheres[2][operator]`. */
  param: string
  /** Valid choices, where listing them helps. */
  allowed?: string[]
}

/** What to send for a rejected query: status, headers and a JSON body. */
export interface ErrorResponse {
  status: 400
  headers: { 'content-type': 'application/problem+json' }
  body: ProblemBody
}

/** Options of `errorResponse`. */
export interface ErrorResponseOptions {
  /** The problem `type` URI for a code, e.g. `` (code) => `https://api.example.com/problems/${code}` ``. */
  type?: (code: QueryParamsErrorCode) => string
}

/**
 * Turns a {@link QueryParamsError} into an HTTP response: status 400, `application/problem+json`, and a
 * body with `type`, `title`, `status`, `detail`/`message`, `code`, `param` and (where it helps)
 * `allowed`. Returns `undefined` for any other error, so the caller can rethrow it.
 *
 * @example
 * // Fastify
 * app.setErrorHandler((error, request, reply) => {
 *   const response = errorResponse(error)
 *   if (response === undefined) throw error
 *   return reply.code(response.status).headers(response.headers).send(response.body)
 * })
 * // Express
 * app.use((error, req, res, next) => {
 *   const response = errorResponse(error)
 *   if (response === undefined) return next(error)
 *   res.status(response.status).set(response.headers).send(JSON.stringify(response.body))
 * })
 */
export function errorResponse(error: unknown, options: ErrorResponseOptions = {}): ErrorResponse | undefined {
  if (!(error instanceof QueryParamsError)) return undefined
  const body: ProblemBody = {
    type: options.type?.(error.code) ?? 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: error.message,
    message: error.message,
    code: error.code,
    param: error.param,
  }
  if (error.allowed !== undefined) body.allowed = [...error.allowed]
  return { status: 400, headers: { 'content-type': 'application/problem+json' }, body }
}
