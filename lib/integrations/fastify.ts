import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { ServerResponse } from 'node:http'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { handleClientError, type ClientErrorSocket } from '../http/handle-client-error.ts'
import { normalizeContentType } from '../http/content-type.ts'
import { problemResponse, isClientError, serverProblemResponse } from '../http/problems.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { DEFAULT_BODY_LIMIT, isFormRequest } from '../http/form-body.ts'
import { requestSignal } from '../http/request-signal.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import { unencapsulatedPlugin } from './unencapsulated-plugin.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's query params (URL and form body), parsed on first read; a bad query throws `QueryParamsError`. */
    readonly queryParams: QueryParams
    /**
     * Aborts when the client disconnects before the response is sent (and, with the plugin's `timeout`,
     * with a `QueryTimeoutError` once that time has passed since the request arrived). Pass it as `signal`
     * to `applyQueryParams`, `loadRelations` or `paginate`: running statements are cancelled on the server.
     */
    readonly querySignal: AbortSignal
  }
}

/** Options of {@link queryParamsPlugin}. */
export interface QueryParamsPluginOptions extends ErrorResponseOptions {
  /** Options of `parseQueryParams` (`strict`, `maxWheres`, `parameterLimit`…). */
  parse?: ParseOptions
  /** Largest form body read, in bytes; default 1 MiB. Over it: 413 problem+json. */
  bodyLimit?: number
  /**
   * Default database time of every request, in milliseconds from its arrival: `request.querySignal` aborts
   * with a `QueryTimeoutError` (answered 503 `query_timeout`) when it is up. None by default.
   */
  timeout?: number
  /**
   * Install the error handler (problem+json: 400 for `QueryParamsError`, 413, 503 `query_timeout`, and a
   * generic 500 for any error that is not the client's, logged in full with `request.log.error`); default
   * `true`. Set `false` to call `problemResponse` and `serverProblemResponse` in your own.
   */
  errorHandler?: boolean
  /**
   * Answer the server's client errors with `handleClientError` (431 problem+json for a URL over Node's
   * header limit, logged as a warning), in place of Fastify's `clientErrorHandler`; default `true`. Set
   * `false` to keep a `clientErrorHandler` of your own.
   */
  clientErrors?: boolean
}

const parsed = new WeakMap<FastifyRequest, QueryParams>()
const arrivals = new WeakMap<FastifyRequest, { response: ServerResponse; since: number; signal?: AbortSignal }>()

const plugin: FastifyPluginAsync<QueryParamsPluginOptions> = async (app, options) => {
  app.addHook('onRequest', async (request, reply) => {
    arrivals.set(request, { response: reply.raw, since: Date.now() })
    const type = request.headers['content-type']
    if (typeof type === 'string') request.headers['content-type'] = normalizeContentType(type)
  })
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit },
      (_request, body, done) => done(null, body),
    )
  }
  app.decorateRequest('queryParams', {
    getter(this: FastifyRequest): QueryParams {
      let params = parsed.get(this)
      if (params === undefined) {
        const body = isFormRequest(this.method, this.headers['content-type']) ? undefined : ''
        params = queryParamsFromRequest(this, body === undefined ? { ...options.parse } : { ...options.parse, body })
        parsed.set(this, params)
      }
      return params
    },
  })
  app.decorateRequest('querySignal', {
    getter(this: FastifyRequest): AbortSignal {
      const arrival = arrivals.get(this)
      if (arrival === undefined) return new AbortController().signal
      arrival.signal ??= requestSignal(arrival.response, { timeout: options.timeout, since: arrival.since })
      return arrival.signal
    },
  })
  if (options.clientErrors !== false) {
    const server = app.server
    for (const listener of server.listeners('clientError')) server.removeListener('clientError', listener as () => void)
    server.on('clientError', (error: Error & { code?: string }, socket: ClientErrorSocket) => {
      if (handleClientError(error, socket) === 431)
        app.log.warn(
          { status: 431, code: 'headers_too_large' },
          'request rejected: URL and headers over the header limit',
        )
    })
  }
  if (options.errorHandler !== false) {
    app.setErrorHandler(async (error, request, reply) => {
      const problem = problemResponse(error, options)
      if (problem === undefined) {
        if (isClientError(error)) throw error
        const internal = serverProblemResponse(error)
        const signal = arrivals.get(request)?.signal
        if (signal?.aborted === true && signal.reason === error)
          request.log.info({ err: error }, 'client disconnected; its statements were cancelled')
        else request.log.error({ err: error }, 'request failed')
        return reply.code(internal.status).headers(internal.headers).send(internal.body)
      }
      if (problem.body.code === 'database_unavailable') request.log.warn({ err: error }, 'database briefly unavailable')
      else
        request.log.info(
          {
            status: problem.status,
            code: problem.body.code,
            param: 'param' in problem.body ? problem.body.param : undefined,
          },
          'request rejected',
        )
      return reply.code(problem.status).headers(problem.headers).send(problem.body)
    })
  }
}

/**
 * A Fastify 5 plugin, marked as `fastify-plugin` marks one (without depending on it), so it applies to the
 * routes of the instance that registers it:
 * - accepts the reference client's `Content-Type: application/x-www-form-urlencoded, charset=utf-8`
 *   (Fastify would answer 415) and keeps a form body as text, up to `bodyLimit`;
 * - adds `request.queryParams`: the params of the URL, plus a form body on every method but GET, HEAD
 *   and TRACE (Fastify parses no body on those), parsed on first read;
 * - adds `request.querySignal`, which aborts when the client disconnects (or the plugin's `timeout` passes):
 *   pass it as `signal`, and the request's statements are cancelled on the server;
 * - answers a `QueryParamsError` with 400 problem+json, a body over the limit with 413, a
 *   `QueryTimeoutError` with 503 `query_timeout` (logged at `info`); Fastify's own 4xx errors go on to its
 *   handler; any other error (a database error, a bug) is logged in full at `error` and answered with a
 *   generic 500 problem+json that carries no message, SQL or stack;
 * - answers a URL over Node's header limit with 431 problem+json (logged at `warn`), in place of
 *   Fastify's `clientErrorHandler` (`clientErrors: false` keeps yours).
 *
 * @example
 * import Fastify from 'fastify'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { queryParamsPlugin } from 'knex-query-params/fastify'
 *
 * const app = Fastify({ logger: true })
 * await app.register(queryParamsPlugin, { timeout: 5000 })
 * app.get('/posts', (request) =>
 *   paginate(applyQueryParams(db('posts'), request.queryParams, relationMap, { signal: request.querySignal }), request.queryParams))
 */
export const queryParamsPlugin = unencapsulatedPlugin(plugin, { name: 'knex-query-params', fastify: '5.x' })

export default queryParamsPlugin
