import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ParseOptions } from '../options.ts'
import { PARAMETER_KEYS, topLevelName } from '../parse/parameter-keys.ts'
import { decodeComponent } from '../parse/decode-component.ts'
import { parseQueryParams } from '../parse/parse-query-params.ts'
import type { QueryParams } from '../query-params.ts'
import { encodeForm } from './encode-form.ts'
import { formBodyOf } from './form-body.ts'
import { queryStringOf, type RequestLike } from './request.ts'

/** Options of `queryParamsFromRequest`: those of `parseQueryParams`, and a body you read yourself. */
export interface RequestParseOptions extends ParseOptions {
  /**
   * The form body, when the framework does not keep it on the request (a plain `http.IncomingMessage`
   * leaves it in the stream): text, a Buffer, `URLSearchParams` or a parsed object. Used as given,
   * whatever the `Content-Type`.
   */
  body?: unknown
}

/**
 * Reads a client's query params from a server request: the raw query string of the URL, for every
 * method, plus an `application/x-www-form-urlencoded` body carrying the same encoded object (the
 * reference client's `application/x-www-form-urlencoded, charset=utf-8` included). A JSON body is not
 * query params and is ignored. The raw URL is preferred over a framework's parsed `query`, because only
 * the raw text keeps `null` (a key sent without `=`). Works with Node's `http`, Express, Fastify and Koa.
 *
 * @throws {QueryParamsError} what `parseQueryParams` throws; `invalid_syntax` when one parameter is sent
 * both in the URL and in the body.
 * @example
 * // Fastify
 * app.get('/posts', async (request) => {
 *   const params = queryParamsFromRequest(request)
 *   return { data: await applyQueryParams(db('posts'), params, relationMap) }
 * })
 * // Express: queryParamsFromRequest(req) · Koa: queryParamsFromRequest(ctx)
 * // Node http: queryParamsFromRequest(req, { body: await readBody(req) })
 */
export function queryParamsFromRequest(request: RequestLike, options: RequestParseOptions = {}): QueryParams {
  const { body, ...parseOptions } = options
  const fromUrl = queryStringOf(request)
  const query = fromUrl ?? encodeForm(request.query ?? request.request?.query)
  const form = encodeForm(body === undefined ? formBodyOf(request) : body)
  if (form === '') return parseQueryParams(query, parseOptions)
  if (query === '') return parseQueryParams(form, parseOptions)
  rejectOverlap(query, form)
  return parseQueryParams(`${query}&${form}`, parseOptions)
}

function rejectOverlap(query: string, form: string): void {
  const inQuery = parameterNames(query)
  for (const [key, sent] of parameterNames(form)) {
    if (inQuery.has(key)) {
      throw new QueryParamsError(`Parameter '${sent}' is sent both in the query string and in the request body.`, {
        code: 'invalid_syntax',
        param: sent,
      })
    }
  }
}

/** The query parameters a text names, by canonical key, with the spelling sent. */
function parameterNames(text: string): Map<string, string> {
  const names = new Map<string, string>()
  for (const pair of text.split('&')) {
    const equals = pair.indexOf('=')
    const sent = topLevelName(decodeComponent(equals === -1 ? pair : pair.slice(0, equals)) ?? '')
    const key = PARAMETER_KEYS.get(sent)
    if (key !== undefined && !names.has(key)) names.set(key, sent)
  }
  return names
}
