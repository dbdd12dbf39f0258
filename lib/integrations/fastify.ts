import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { handleClientError, type ClientErrorSocket } from '../http/handle-client-error.ts'
import { normalizeContentType } from '../http/normalize-content-type.ts'
import { problemResponse } from '../http/problem-response.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { DEFAULT_BODY_LIMIT } from '../http/read-form-body.ts'
import { readsFormBody } from '../http/reads-form-body.ts'
import type { ParseOptions } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import { unencapsulatedPlugin } from './unencapsulated-plugin.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's query params (URL and form body), parsed on first read; a bad query throws `QueryParamsError`. */
    readonly queryParams: QueryParams
  }
}

/** Options of {@link queryParamsPlugin}. */
export interface QueryParamsPluginOptions extends ErrorResponseOptions {
  /** Options of `parseQueryParams` (`strict`, `maxWheres`, `parameterLimit`…). */
  parse?: ParseOptions
  /** Largest form body read, in bytes; default 1 MiB. Over it: 413 problem+json. */
  bodyLimit?: number
  /** Install the error handler (problem+json for `QueryParamsError` and 413); default `true`. Set `false` to call `problemResponse` in your own. */
  errorHandler?: boolean
  /**
   * Answer the server's client errors with `handleClientError` (431 problem+json for a URL over Node's
   * header limit, logged as a warning), in place of Fastify's `clientErrorHandler`; default `true`. Set
   * `false` to keep a `clientErrorHandler` of your own.
   */
  clientErrors?: boolean
}

const parsed = new WeakMap<FastifyRequest, QueryParams>()

const plugin: FastifyPluginAsync<QueryParamsPluginOptions> = async (app, options) => {
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type']
    if (typeof type === 'string') request.headers['content-type'] = normalizeContentType(type)
  })
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, body))
  }
  app.decorateRequest('queryParams', {
    getter(this: FastifyRequest): QueryParams {
      let params = parsed.get(this)
      if (params === undefined) {
        const body = readsFormBody(this.method, this.headers['content-type']) ? undefined : ''
        params = queryParamsFromRequest(this, body === undefined ? { ...options.parse } : { ...options.parse, body })
        parsed.set(this, params)
      }
      return params
    },
  })
  if (options.clientErrors !== false) {
    const server = app.server
    for (const listener of server.listeners('clientError')) server.removeListener('clientError', listener as () => void)
    server.on('clientError', (error: Error & { code?: string }, socket: ClientErrorSocket) => {
      if (handleClientError(error, socket) === 431) app.log.warn({ status: 431, code: 'headers_too_large' }, 'request rejected: URL and headers over the header limit')
    })
  }
  if (options.errorHandler !== false) {
    app.setErrorHandler(async (error, request, reply) => {
      const problem = problemResponse(error, options)
      if (problem === undefined) throw error
      request.log.info({ status: problem.status, code: problem.body.code, param: 'param' in problem.body ? problem.body.param : undefined }, 'request rejected')
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
 * - answers a `QueryParamsError` with 400 problem+json and a body over the limit with 413 problem+json
 *   (logged at `info`); other errors go on to Fastify's handler;
 * - answers a URL over Node's header limit with 431 problem+json (logged at `warn`), in place of
 *   Fastify's `clientErrorHandler` (`clientErrors: false` keeps yours).
 *
 * @example
 * import Fastify from 'fastify'
 * import { applyQueryParams, paginate } from 'knex-query-params'
 * import { queryParamsPlugin } from 'knex-query-params/fastify'
 *
 * const app = Fastify({ logger: true })
 * await app.register(queryParamsPlugin)
 * app.get('/posts', (request) => paginate(applyQueryParams(db('posts'), request.queryParams, relationMap), request.queryParams))
 */
export const queryParamsPlugin = unencapsulatedPlugin(plugin, { name: 'knex-query-params', fastify: '5.x' })

export default queryParamsPlugin
