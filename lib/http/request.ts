/** Request headers as Node, Express, Fastify and Koa give them (lower-case names), or a fetch `Headers`. */
export type HeadersLike =
  | Readonly<Record<string, string | readonly string[] | number | undefined>>
  | { get(name: string): string | null }

/**
 * The parts of a server request that `queryParamsFromRequest` reads, typed structurally so no framework
 * is a dependency. A plain `http.IncomingMessage`, an Express `req`, a Fastify `request`, a Koa `ctx` or
 * `ctx.request`, and a fetch `Request` (URL only) all fit.
 *
 * @example
 * const request: RequestLike = { url: '/posts?limit=10', headers: { accept: 'application/json' } }
 */
export interface RequestLike {
  /** The URL as received (Node, Fastify, Koa); Express rewrites it inside mounted routers. */
  readonly url?: string | undefined
  /** The URL as received, before any rewriting (Express, Koa). */
  readonly originalUrl?: string | undefined
  /** The query string without `?` (Koa). */
  readonly querystring?: string | undefined
  /** A query object a framework already parsed; used only when no URL is available. */
  readonly query?: unknown
  readonly headers?: HeadersLike | undefined
  /** A body a framework already read: a string, a Buffer, `URLSearchParams` or a parsed object. */
  readonly body?: unknown
  /** The unparsed body some body parsers keep (koa-bodyparser, some Express setups). */
  readonly rawBody?: unknown
  /** The Node request under a Fastify request. */
  readonly raw?: { readonly url?: string | undefined; readonly headers?: HeadersLike | undefined } | undefined
  /** The Node request under a Koa context. */
  readonly req?: { readonly url?: string | undefined; readonly headers?: HeadersLike | undefined } | undefined
  /** The Koa request of a Koa context. */
  readonly request?: RequestLike | undefined
}

/** One request header (name in lower case), from whichever object of the request carries headers. */
export function headerOf(request: RequestLike, name: string): string | undefined {
  for (const headers of [request.headers, request.raw?.headers, request.req?.headers, request.request?.headers]) {
    const value = read(headers, name)
    if (value !== undefined) return value
  }
  return undefined
}

function read(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined
  const value = (headers as Readonly<Record<string, unknown>>)[name]
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
}

/**
 * The raw query string of a request (without `?` and `#…`), from the URL as received: Express's
 * `originalUrl`, Fastify's `raw.url`, Koa's `req.url`, or `url`; Koa's `querystring` as a last resort.
 * `''` when the URL has no query; `undefined` when the request carries no URL at all.
 */
export function queryStringOf(request: RequestLike): string | undefined {
  const url =
    request.originalUrl ??
    request.raw?.url ??
    request.req?.url ??
    request.url ??
    request.request?.originalUrl ??
    request.request?.url
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
