import type { RequestLike } from './request-like.ts'

/**
 * The raw query string of a request (without `?` and `#…`), from the URL as received: Express's
 * `originalUrl`, Fastify's `raw.url`, Koa's `req.url`, or `url`; Koa's `querystring` as a last resort.
 * `''` when the URL has no query; `undefined` when the request carries no URL at all.
 */
export function queryStringOf(request: RequestLike): string | undefined {
  const url = request.originalUrl ?? request.raw?.url ?? request.req?.url ?? request.url ?? request.request?.originalUrl ?? request.request?.url
  if (typeof url === 'string') return queryOfUrl(url)
  const querystring = request.querystring ?? request.request?.querystring
  return typeof querystring === 'string' ? querystring.replace(/^\?/, '') : undefined
}

function queryOfUrl(url: string): string {
  const question = url.indexOf('?')
  if (question === -1) return ''
  const hash = url.indexOf('#', question)
  return hash === -1 ? url.slice(question + 1) : url.slice(question + 1, hash)
}
