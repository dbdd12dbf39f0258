import type { ErrorRequestHandler, Request, RequestHandler } from 'express'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse, isClientError, serverProblemResponse } from '../http/problems.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { readFormBody, isFormRequest } from '../http/form-body.ts'
import { requestSignal } from '../http/request-signal.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'

declare global {
  namespace Express {
    interface Request {
      /**
       * The request's query params, set by the `queryParams()` middleware of `knex-query-params/express`.
       * Typed as present, as the middleware guarantees it on the routes it runs before: register it with
       * `app.use(queryParams())` or on each route that reads it (elsewhere it is `undefined`).
       */
      queryParams: QueryParams
      /**
       * Set by the `queryParams()` middleware: aborts when the client disconnects before the response is
       * sent (and with its `timeout`, once that has passed). Pass it as `signal` to `paginate`,
       * `applyQueryParams`… Typed as present, like `queryParams`, on the routes the middleware runs before.
       */
      querySignal: AbortSignal
    }
  }
}

/** Options of {@link queryParams}. */
export interface QueryParamsMiddlewareOptions extends ParseOptions {
  /** Largest form body read when no body parser ran, in bytes; default 1 MiB. Over it: 413. */
  bodyLimit?: number
  /**
   * Default database time of every request, in milliseconds from its arrival: `req.querySignal` aborts
   * with a `QueryTimeoutError` (answered 503 by `queryParamsErrorHandler`) when it is up. None by default.
   */
  timeout?: number
}

/** Options of {@link queryParamsErrorHandler}. */
export interface QueryParamsErrorHandlerOptions extends ErrorResponseOptions {
  /** Where an error that is not the client's is logged in full; default `console.error`. */
  log?: (error: unknown, req: Request) => void
}

/**
 * Express middleware that parses the request's query params onto `req.queryParams` and
 * `res.locals.queryParams`, and gives the route `req.querySignal` (also `res.locals.querySignal`), which
 * aborts when the client disconnects before the response is sent or `timeout` has passed: the URL on every method,
 * plus an `application/x-www-form-urlencoded` body
 * (the client's comma `Content-Type` included) on every method but GET, HEAD and TRACE. A body that
 * `express.urlencoded()`/`express.text()` already parsed is used; otherwise the middleware reads it
 * itself, up to `bodyLimit`. A bad query goes to `next(error)` as a `QueryParamsError` (Express 4 and 5).
 *
 * @example
 * import express from 'express'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { queryParams, queryParamsErrorHandler } from 'knex-query-params/express'
 *
 * const app = express()
 * app.get('/posts', queryParams({ timeout: 5000 }), async (req, res) => {
 *   const params = res.locals.queryParams
 *   res.json(await paginate(applyQueryParams(db('posts'), params, relationMap, { signal: req.querySignal }), params))
 * })
 * app.use(queryParamsErrorHandler())
 */
export function queryParams(options: QueryParamsMiddlewareOptions = {}): RequestHandler {
  const { bodyLimit, timeout, ...parse } = options
  return (req, res, next) => {
    const signal = requestSignal(res, { timeout })
    req.querySignal = signal
    res.locals['querySignal'] = signal
    const read = isFormRequest(req.method, req.headers['content-type'])
    const body = !read
      ? Promise.resolve('')
      : req.body === undefined && !req.readableEnded
        ? readFormBody(req, bodyLimit)
        : Promise.resolve(undefined)
    body
      .then((text) => {
        const params = queryParamsFromRequest(req, text === undefined ? parse : { ...parse, body: text })
        req.queryParams = params
        res.locals['queryParams'] = params
      })
      .then(() => next(), next)
  }
}

/**
 * Express error handler: a `QueryParamsError` becomes a 400 `application/problem+json` body (no stack,
 * no file path), a body over a limit a 413 problem, a `QueryTimeoutError` a 503 `query_timeout`. Any
 * other error that is not the client's (a database error, a bug) is logged in full with `options.log`
 * (default `console.error`) and answered with a generic 500 problem that carries no message, SQL or stack;
 * other 4xx errors (a body parser's) go on to `next(error)`. Register it after the routes.
 *
 * @example
 * app.use(queryParamsErrorHandler({ type: (code) => `https://api.example.com/problems/${code}`, log: (error) => logger.error(error) }))
 */
export function queryParamsErrorHandler(options: QueryParamsErrorHandlerOptions = {}): ErrorRequestHandler {
  const { log = (error: unknown) => console.error(error), ...problemOptions } = options
  return (error: unknown, req, res, next) => {
    let problem = problemResponse(error, problemOptions)
    if (problem?.body.code === 'database_unavailable') log(error, req)
    if (problem === undefined && !isClientError(error)) {
      const signal = req.querySignal
      if (signal?.aborted !== true || signal.reason !== error) log(error, req)
      problem = serverProblemResponse(error)
    }
    if (problem === undefined || res.headersSent) {
      next(error)
      return
    }
    res.status(problem.status).set(problem.headers).send(JSON.stringify(problem.body))
  }
}
