import type { Middleware } from 'koa'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse, isClientError, serverProblemResponse } from '../http/problems.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { readFormBody, isFormRequest } from '../http/form-body.ts'
import { requestSignal } from '../http/request-signal.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'

/** What the middleware puts on `ctx.state`. */
export interface QueryParamsState {
  queryParams: QueryParams
  /**
   * Aborts when the client disconnects before the response is sent (and with the middleware's `timeout`,
   * once that has passed). Pass it as `signal` to `applyQueryParams`, `loadRelations` or `paginate`.
   */
  querySignal: AbortSignal
}

/** Options of {@link queryParams}. */
export interface QueryParamsMiddlewareOptions extends ParseOptions, ErrorResponseOptions {
  /** Largest form body read when no body parser ran, in bytes; default 1 MiB. Over it: 413. */
  bodyLimit?: number
  /**
   * Default database time of every request, in milliseconds from its arrival: `ctx.state.querySignal`
   * aborts with a `QueryTimeoutError` (answered 503 `query_timeout`) when it is up. None by default.
   */
  timeout?: number
}

/**
 * Koa middleware: parses the request's query params onto `ctx.state.queryParams`, and gives
 * `ctx.state.querySignal`, which aborts when the client disconnects or `timeout` passes (the URL on every
 * method, plus an `application/x-www-form-urlencoded` body, the client's comma `Content-Type` included,
 * on every method but GET, HEAD and TRACE; a body a body parser left on `ctx.request.body` is used,
 * otherwise it reads the body itself up to `bodyLimit`), then runs the rest of the chain. A
 * `QueryParamsError` thrown there or downstream becomes a 400 `application/problem+json` answer, a body
 * over a limit a 413 problem, a `QueryTimeoutError` a 503 `query_timeout`. Any other error that is not
 * the client's (a database error, a bug) is emitted as the app's `'error'` event (Koa logs it in full) and
 * answered with a generic 500 problem without message, SQL or stack; other 4xx errors are rethrown to Koa.
 *
 * @example
 * import Koa from 'koa'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { queryParams, type QueryParamsState } from 'knex-query-params/koa'
 *
 * const app = new Koa<QueryParamsState>()
 * app.use(queryParams({ timeout: 5000 }))
 * app.use(async (ctx) => {
 *   const { queryParams: params, querySignal: signal } = ctx.state
 *   ctx.body = await paginate(applyQueryParams(db('posts'), params, relationMap, { signal }), params)
 * })
 */
export function queryParams(options: QueryParamsMiddlewareOptions = {}): Middleware<QueryParamsState> {
  const { bodyLimit, type, timeout, ...parse } = options
  const problemOptions: ErrorResponseOptions = type === undefined ? {} : { type }
  return async (ctx, next) => {
    const signal = requestSignal(ctx.res, { timeout })
    ctx.state.querySignal = signal
    try {
      let body: string | undefined
      const parsedBody = (ctx.request as { body?: unknown }).body
      if (!isFormRequest(ctx.method, ctx.get('content-type'))) body = ''
      else if (parsedBody === undefined && !ctx.req.readableEnded) body = await readFormBody(ctx.req, bodyLimit)
      ctx.state.queryParams = queryParamsFromRequest(ctx, body === undefined ? parse : { ...parse, body })
      await next()
    } catch (error) {
      let problem = problemResponse(error, problemOptions)
      if (problem?.body.code === 'database_unavailable') ctx.app.emit('error', error, ctx)
      if (problem === undefined) {
        if (isClientError(error)) throw error
        if (!signal.aborted || signal.reason !== error) ctx.app.emit('error', error, ctx)
        problem = serverProblemResponse(error)
      }
      ctx.status = problem.status
      ctx.set(problem.headers)
      ctx.body = JSON.stringify(problem.body)
    }
  }
}
