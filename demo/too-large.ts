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
  const detail =
    status === 431
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
 * route, so it is answered here, 431 `application/problem+json`, and logged; a request that timed out
 * is answered 408 and any other malformed request 400, as Fastify does, but as problem+json too.
 *
 * @example
 * Fastify({ clientErrorHandler: answerClientError })
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const problem = clientProblem(error.code)
  if (problem.status === 431)
    this.log.warn({ statusCode: 431, code: problem.code }, 'request with an oversized URL or headers 431')
  else this.log.debug({ statusCode: problem.status, err: error }, `client error ${problem.status}`)
  if (socket.writable) {
    const body = JSON.stringify(problem)
    socket.write(
      `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/problem+json\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(error)
}

function clientProblem(code: string | undefined): {
  type: 'about:blank'
  title: string
  status: number
  detail: string
  message: string
  code: string
} {
  if (code === 'HPE_HEADER_OVERFLOW') return tooLargeProblem(431, maxHeaderSize)
  const timeout = code === 'ERR_HTTP_REQUEST_TIMEOUT'
  const detail = timeout ? 'The request was not received in time.' : 'The HTTP request is malformed.'
  return {
    type: 'about:blank',
    title: timeout ? 'Request Timeout' : 'Bad Request',
    status: timeout ? 408 : 400,
    detail,
    message: detail,
    code: timeout ? 'request_timeout' : 'bad_request',
  }
}
