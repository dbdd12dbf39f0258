import { maxHeaderSize } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/** An RFC 9457 problem for a request over one of the server's size limits. */
export interface TooLargeProblem {
  type: 'about:blank'
  title: string
  status: 413 | 431
  detail: string
  message: string
  code: 'body_too_large' | 'headers_too_large'
}

/**
 * The problem for a body over the body limit (413) or a request line and headers over Node's header
 * limit (431), with what to do about it.
 *
 * @example
 * tooLargeProblem(431).detail // 'The URL and headers are larger than the server accepts (16 KB). …'
 */
export function tooLargeProblem(status: 413 | 431, limit?: number): TooLargeProblem {
  const size = limit === undefined ? '' : ` (${Math.round(limit / 1024)} KB)`
  const detail = status === 431
    ? `The URL and headers are larger than the server accepts${size}. Send a long query as a form body (Content-Type: application/x-www-form-urlencoded) instead.`
    : `The request body is larger than the server accepts${size}.`
  return {
    type: 'about:blank',
    title: status === 431 ? 'Request Header Fields Too Large' : 'Content Too Large',
    status,
    detail,
    message: detail,
    code: status === 431 ? 'headers_too_large' : 'body_too_large',
  }
}

/**
 * Fastify's `clientErrorHandler`: a request whose URL and headers overflow Node's limit never reaches a
 * route, so it is answered here, 431 `application/problem+json`, and logged like a request; any other
 * client error is answered 400 as Fastify does.
 *
 * @example
 * Fastify({ clientErrorHandler: answerClientError })
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const overflow = error.code === 'HPE_HEADER_OVERFLOW'
  const status = overflow ? 431 : 400
  const body = JSON.stringify(overflow ? tooLargeProblem(431, maxHeaderSize) : { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Malformed HTTP request.', message: 'Malformed HTTP request.', code: 'bad_request' })
  const label = overflow ? 'Request Header Fields Too Large' : 'Bad Request'
  this.log.warn({ statusCode: status, code: overflow ? 'headers_too_large' : 'bad_request' }, `${overflow ? 'request with oversized URL or headers' : 'malformed request'} ${status}`)
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${label}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/problem+json\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(error)
}
