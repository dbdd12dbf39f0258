import { tooLargeResponse } from './problems.ts'

/** The socket of Node's `clientError` event, as far as answering it goes. */
export interface ClientErrorSocket {
  readonly destroyed: boolean
  readonly writable: boolean
  end(data: string): unknown
  destroy(error?: Error): unknown
}

/**
 * A listener for a Node server's `clientError` event (requests Node rejects before any framework sees
 * them). A URL or headers over Node's header limit (16 KB by default, `HPE_HEADER_OVERFLOW`) get a 431
 * problem+json that tells the client to send a form body; other malformed requests get a plain 400. Use
 * it on `http.createServer`'s server, on Express's and Koa's `listen()` result, on `@hono/node-server`'s
 * `serve()` result, and as Fastify's `clientErrorHandler` option (the `knex-query-params/fastify` plugin
 * installs it by itself). Returns the status it answered.
 *
 * @example
 * const server = app.listen(3000)
 * server.on('clientError', handleClientError)
 * // Fastify
 * const app = Fastify({ clientErrorHandler: handleClientError })
 */
export function handleClientError(error: Error & { code?: string }, socket: ClientErrorSocket): 400 | 431 | undefined {
  if (error.code === 'ECONNRESET' || socket.destroyed) return undefined
  if (!socket.writable) {
    socket.destroy(error)
    return undefined
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const problem = tooLargeResponse(431)
    socket.end(
      rawResponse(
        431,
        'Request Header Fields Too Large',
        problem.headers['content-type'],
        JSON.stringify(problem.body),
      ),
    )
    return 431
  }
  socket.end(rawResponse(400, 'Bad Request', 'application/json', JSON.stringify({ message: 'Bad Request' })))
  return 400
}

function rawResponse(status: number, reason: string, type: string, body: string): string {
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${type}\r\nContent-Length: ` +
    `${new TextEncoder().encode(body).byteLength}\r\nConnection: close\r\n\r\n${body}`
  )
}
