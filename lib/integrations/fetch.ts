import { BodyTooLargeError } from '../http/body-too-large-error.ts'
import type { ErrorResponseOptions } from '../http/error-response.ts'
import { problemResponse } from '../http/problem-response.ts'
import { queryParamsFromRequest } from '../http/query-params-from-request.ts'
import { DEFAULT_BODY_LIMIT } from '../http/read-form-body.ts'
import { readsFormBody } from '../http/reads-form-body.ts'
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
 * import { errorToResponse, queryParamsFromFetchRequest } from 'knex-query-params/fetch'
 *
 * const app = new Hono()
 * app.get('/posts', async (c) => {
 *   const params = await queryParamsFromFetchRequest(c.req.raw)
 *   return c.json(await paginate(applyQueryParams(db('posts'), params, relationMap), params))
 * })
 * app.onError((error, c) => errorToResponse(error) ?? c.json({ message: 'Internal Server Error' }, 500))
 */
export async function queryParamsFromFetchRequest(request: Request, options: FetchParseOptions = {}): Promise<QueryParams> {
  const { bodyLimit = DEFAULT_BODY_LIMIT, ...parse } = options
  const body = readsFormBody(request.method, request.headers.get('content-type')) ? await readText(request, bodyLimit) : ''
  return queryParamsFromRequest({ url: request.url, headers: request.headers }, { ...parse, body })
}

/**
 * A `Response` for an error: 400 `application/problem+json` for a `QueryParamsError`, 413 for a body over
 * a limit; `undefined` for any other error, for the caller to handle.
 *
 * @example
 * app.onError((error, c) => errorToResponse(error) ?? c.json({ message: 'Internal Server Error' }, 500))
 */
export function errorToResponse(error: unknown, options: ErrorResponseOptions = {}): Response | undefined {
  const problem = problemResponse(error, options)
  if (problem === undefined) return undefined
  return new Response(JSON.stringify(problem.body), { status: problem.status, headers: problem.headers })
}

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
