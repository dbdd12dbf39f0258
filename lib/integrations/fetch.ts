import { BodyTooLargeError, DEFAULT_BODY_LIMIT, isFormRequest } from '../http/form-body.ts'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse, isClientError, serverProblemResponse } from '../http/problems.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { QueryTimeoutError } from '../errors/query-timeout-error.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'

/** Options of {@link queryParamsFromFetchRequest}. */
export interface FetchParseOptions extends ParseOptions {
  /** Largest form body read, in bytes; default 1 MiB. Over it: `BodyTooLargeError` (413). */
  bodyLimit?: number
}

/**
 * Reads the query params of a Web-standard `Request` (Hono, Bun, Deno, Cloudflare Workers): the URL's
 * query string on every method, plus an `application/x-www-form-urlencoded` body (the client's comma
 * `Content-Type` included) on every method but GET and HEAD, which cannot carry one. The form body is
 * consumed; any other body is left unread.
 *
 * @throws {QueryParamsError} for a bad query; {@link BodyTooLargeError} for a body over `bodyLimit`.
 * @example
 * import { Hono } from 'hono'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { errorToResponse, queryParamsFromFetchRequest, querySignal } from 'knex-query-params/fetch'
 *
 * const app = new Hono()
 * app.get('/posts', async (c) => {
 *   const params = await queryParamsFromFetchRequest(c.req.raw)
 *   const signal = querySignal(c.req.raw, { timeout: 5000 })
 *   return c.json(await paginate(applyQueryParams(db('posts'), params, relationMap, { signal }), params))
 * })
 * app.onError((error) => errorToResponse(error) ?? Response.json({ message: 'Bad Request' }, { status: 400 }))
 */
export async function queryParamsFromFetchRequest(
  request: Request,
  options: FetchParseOptions = {},
): Promise<QueryParams> {
  const { bodyLimit = DEFAULT_BODY_LIMIT, ...parse } = options
  const body = isFormRequest(request.method, request.headers.get('content-type'))
    ? await readText(request, bodyLimit)
    : ''
  return queryParamsFromRequest({ url: request.url, headers: request.headers }, { ...parse, body })
}

/** Options of {@link errorToResponse}. */
export interface ErrorToResponseOptions extends ErrorResponseOptions {
  /** Where an error that is not the client's is logged in full; default `console.error`. */
  log?: (error: unknown) => void
}

/**
 * A `Response` for an error: 400 `application/problem+json` for a `QueryParamsError`, 413 for a body over
 * a limit, 503 `query_timeout` for a `QueryTimeoutError`. Any other error that is not the client's (a
 * database error, a bug) is logged in full with `options.log` (default `console.error`) and answered with
 * a generic 500 problem that carries no message, SQL or stack. `undefined` only for a framework's own 4xx
 * error (status 400–499, such as Hono's `HTTPException`), for the framework to answer.
 *
 * @example
 * app.onError((error, c) => errorToResponse(error) ?? c.text('Bad Request', 400))
 */
export function errorToResponse(error: unknown, options: ErrorToResponseOptions = {}): Response | undefined {
  const { log = (failure: unknown) => console.error(failure), ...problemOptions } = options
  let problem = problemResponse(error, problemOptions)
  if (problem?.body.code === 'database_unavailable') log(error)
  if (problem === undefined) {
    if (isClientError(error)) return undefined
    if (!isAbort(error)) log(error)
    problem = serverProblemResponse(error)
  }
  return new Response(JSON.stringify(problem.body), { status: problem.status, headers: problem.headers })
}

/** Options of {@link querySignal}. */
export interface QuerySignalOptions {
  /** Milliseconds after which the signal aborts with a `QueryTimeoutError` (answered 503); none by default. */
  timeout?: number
}

/**
 * A signal for a request's statements: the `Request`'s own `signal` (which `@hono/node-server`, Bun and Deno
 * abort when the client disconnects), and with `timeout`, a `QueryTimeoutError` once that has passed. Pass
 * it as `signal` to `applyQueryParams`, `loadRelations` or `paginate`: running statements are then cancelled
 * on the server.
 *
 * @example
 * app.get('/posts', async (c) => {
 *   const params = await queryParamsFromFetchRequest(c.req.raw)
 *   const signal = querySignal(c.req.raw, { timeout: 5000 })
 *   return c.json(await paginate(applyQueryParams(db('posts'), params, relationMap, { signal }), params))
 * })
 */
export function querySignal(request: Request, options: QuerySignalOptions = {}): AbortSignal {
  const { timeout } = options
  if (timeout === undefined) return request.signal
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new QueryTimeoutError(timeout)), timeout)
  ;(timer as { unref?: () => void }).unref?.()
  request.signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  return AbortSignal.any([request.signal, controller.signal])
}

const isAbort = (error: unknown): boolean =>
  (error instanceof Error || error instanceof DOMException) && error.name === 'AbortError'

async function readText(request: Request, limit: number): Promise<string> {
  if (Number(request.headers.get('content-length')) > limit) throw new BodyTooLargeError(limit)
  if (request.body === null) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    length += chunk.value.byteLength
    if (length > limit) {
      await reader.cancel()
      throw new BodyTooLargeError(limit)
    }
    chunks.push(chunk.value)
  }
  const text = new TextDecoder()
  return chunks.map((chunk, index) => text.decode(chunk, { stream: index < chunks.length - 1 })).join('')
}
