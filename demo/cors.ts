import type { FastifyInstance } from 'fastify'

/**
 * Lets a browser client on another origin call the demo: `Access-Control-Allow-Origin` on every response,
 * and an answer to preflight `OPTIONS` requests (the client's `Content-Type` is not CORS-safelisted, so
 * browsers preflight even its GETs).
 *
 * @example
 * registerCors(app, process.env.CORS_ORIGIN ?? '*')
 */
export function registerCors(app: FastifyInstance, origin: string): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', origin)
    if (origin !== '*') reply.header('vary', 'Origin')
  })
  app.options('*', async (request, reply) => {
    const headers = request.headers['access-control-request-headers']
    return reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS')
      .header(
        'access-control-allow-headers',
        typeof headers === 'string' ? headers : 'Accept, Content-Type, Authorization',
      )
      .header('access-control-max-age', '600')
      .send()
  })
}
