import type { Middleware } from 'koa'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse } from '../http/problem-response.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { readFormBody } from '../http/read-form-body.ts'
import { readsFormBody } from '../http/reads-form-body.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'

/** What the middleware puts on `ctx.state`. */
export interface QueryParamsState {
  queryParams: QueryParams
}

/** Options of {@link queryParams}. */
export interface QueryParamsMiddlewareOptions extends ParseOptions, ErrorResponseOptions {
  /** Largest form body read when no body parser ran, in bytes; default 1 MiB. Over it: 413. */
  bodyLimit?: number
}

/**
 * Koa middleware: parses the request's query params onto `ctx.state.queryParams` (the URL on every
 * method, plus an `application/x-www-form-urlencoded` body, the client's comma `Content-Type` included,
 * on every method but GET, HEAD and TRACE; a body a body parser left on `ctx.request.body` is used,
 * otherwise it reads the body itself up to `bodyLimit`), then runs the rest of the chain. A
 * `QueryParamsError` thrown there or downstream becomes a 400 `application/problem+json` answer, a body
 * over a limit a 413 problem; any other error is rethrown to Koa.
 *
 * @example
 * import Koa from 'koa'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { queryParams, type QueryParamsState } from 'knex-query-params/koa'
 *
 * const app = new Koa<QueryParamsState>()
 * app.use(queryParams())
 * app.use(async (ctx) => {
 *   ctx.body = await paginate(applyQueryParams(db('posts'), ctx.state.queryParams, relationMap), ctx.state.queryParams)
 * })
 */
export function queryParams(options: QueryParamsMiddlewareOptions = {}): Middleware<QueryParamsState> {
  const { bodyLimit, type, ...parse } = options
  const problemOptions: ErrorResponseOptions = type === undefined ? {} : { type }
  return async (ctx, next) => {
    try {
      let body: string | undefined
      const parsedBody = (ctx.request as { body?: unknown }).body
      if (!readsFormBody(ctx.method, ctx.get('content-type'))) body = ''
      else if (parsedBody === undefined && !ctx.req.readableEnded) body = await readFormBody(ctx.req, bodyLimit)
      ctx.state.queryParams = queryParamsFromRequest(ctx, body === undefined ? parse : { ...parse, body })
      await next()
    } catch (error) {
      const problem = problemResponse(error, problemOptions)
      if (problem === undefined) throw error
      ctx.status = problem.status
      ctx.set(problem.headers)
      ctx.body = JSON.stringify(problem.body)
    }
  }
}
