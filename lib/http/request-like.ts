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
