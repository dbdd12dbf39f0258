import { isFormContentType } from './content-type.ts'
import { headerOf, type RequestLike } from './request.ts'

/**
 * A request body longer than the integration's `bodyLimit`. Carries `status`/`statusCode` 413 as the
 * body parsers of Express, Koa and Fastify do, so `problemResponse` answers it as problem+json.
 *
 * @example
 * if (error instanceof BodyTooLargeError) console.warn(`body over ${error.limit} bytes`)
 */
export class BodyTooLargeError extends Error {
  readonly status = 413 as const
  readonly statusCode = 413 as const
  readonly expose = true
  /** The limit that was exceeded, in bytes. */
  readonly limit: number

  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`)
    this.name = 'BodyTooLargeError'
    this.limit = limit
  }
}

/** Methods whose body is never read as query params: `fetch` cannot send one on GET or HEAD, and TRACE forbids it. */
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'TRACE'])

/**
 * Whether the integrations read a request's body as query params: a form content type (the reference
 * client's comma form included) on any method but GET, HEAD and TRACE. Every integration applies this
 * same rule, so a request means the same thing under every framework.
 *
 * @example
 * isFormRequest('POST', 'application/x-www-form-urlencoded, charset=utf-8') // true
 * isFormRequest('GET', 'application/x-www-form-urlencoded') // false: a GET body is ignored everywhere
 */
export function isFormRequest(
  method: string | undefined,
  contentType: string | readonly string[] | null | undefined,
): boolean {
  return method !== undefined && !BODYLESS_METHODS.has(method.toUpperCase()) && isFormContentType(contentType)
}

/**
 * @deprecated Renamed {@link isFormRequest} (it was easy to confuse with `readFormBody`); this name goes in the next
 * minor version.
 */
export const readsFormBody = isFormRequest

/**
 * The body of a request sent as `application/x-www-form-urlencoded` (any parameter separator), as the
 * framework left it: the unparsed text when one is kept (`rawBody`), else `body` (a string, a Buffer or
 * a parsed object). `undefined` for any other content type — a JSON body is never query parameters —
 * and when nothing was read (a plain `http.IncomingMessage` leaves its body in the stream).
 */
export function formBodyOf(request: RequestLike): unknown {
  if (!isFormContentType(headerOf(request, 'content-type'))) return undefined
  for (const candidate of [request.rawBody, request.request?.rawBody, request.body, request.request?.body]) {
    if (typeof candidate === 'string' || candidate instanceof Uint8Array) return candidate
  }
  return request.body ?? request.request?.body
}

/** Default `bodyLimit` of the integrations: 1 MiB, as Fastify's. */
export const DEFAULT_BODY_LIMIT = 1_048_576

/**
 * Reads a request body that no body parser consumed (a Node `IncomingMessage`, a fetch body stream)
 * as UTF-8 text, stopping with a {@link BodyTooLargeError} as soon as it passes `limit` bytes, or at
 * once when `Content-Length` already says so.
 *
 * @example
 * createServer(async (req, res) => {
 *   const body = isFormRequest(req.method, req.headers['content-type']) ? await readFormBody(req) : ''
 *   const params = queryParamsFromRequest(req, { body })
 * })
 */
export async function readFormBody(
  stream: AsyncIterable<Uint8Array | string> & { readonly headers?: Readonly<Record<string, unknown>> },
  limit: number = DEFAULT_BODY_LIMIT,
): Promise<string> {
  const declared = Number(stream.headers?.['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk
    length += bytes.byteLength
    if (length > limit) throw new BodyTooLargeError(limit)
    chunks.push(bytes)
  }
  const all = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(all)
}
