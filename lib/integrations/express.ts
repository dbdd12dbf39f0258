import type { ErrorRequestHandler, RequestHandler } from 'express'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse } from '../http/problem-response.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { readFormBody } from '../http/read-form-body.ts'
import { readsFormBody } from '../http/reads-form-body.ts'
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
    }
  }
}

/** Options of {@link queryParams}. */
export interface QueryParamsMiddlewareOptions extends ParseOptions {
  /** Largest form body read when no body parser ran, in bytes; default 1 MiB. Over it: 413. */
  bodyLimit?: number
}

/**
 * Express middleware that parses the request's query params onto `req.queryParams` and
 * `res.locals.queryParams`: the URL on every method, plus an `application/x-www-form-urlencoded` body
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
 * app.get('/posts', queryParams(), async (req, res) => {
 *   res.json(await paginate(applyQueryParams(db('posts'), res.locals.queryParams, relationMap), res.locals.queryParams))
 * })
 * app.use(queryParamsErrorHandler())
 */
export function queryParams(options: QueryParamsMiddlewareOptions = {}): RequestHandler {
  const { bodyLimit, ...parse } = options
  return (req, res, next) => {
    const read = readsFormBody(req.method, req.headers['content-type'])
    const body = !read ? Promise.resolve('') : req.body === undefined && !req.readableEnded ? readFormBody(req, bodyLimit) : Promise.resolve(undefined)
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
 * no file path), a body over a limit a 413 problem; any other error goes on to `next(error)`. Register
 * it after the routes.
 *
 * @example
 * app.use(queryParamsErrorHandler({ type: (code) => `https://api.example.com/problems/${code}` }))
 */
export function queryParamsErrorHandler(options: ErrorResponseOptions = {}): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const problem = problemResponse(error, options)
    if (problem === undefined || res.headersSent) {
      next(error)
      return
    }
    res.status(problem.status).set(problem.headers).send(JSON.stringify(problem.body))
  }
}
