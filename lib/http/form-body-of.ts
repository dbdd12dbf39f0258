import { headerOf } from './header-of.ts'
import { isFormContentType } from './is-form-content-type.ts'
import type { RequestLike } from './request-like.ts'

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
