import type { FastifyInstance } from 'fastify'
import { normalizeContentType } from '../lib/index.ts'

/**
 * Makes Fastify accept what the reference client sends:
 * - `Content-Type: application/x-www-form-urlencoded, charset=utf-8` (a comma, which Fastify answers with
 *   415) is rewritten to the `;` form before parsing, on every method, body or not;
 * - a form body is kept as its raw text (so `queryParamsFromRequest` reads it like a query string, `null`s
 *   included);
 * - an empty JSON body (a `DELETE` with `Content-Type: application/json`) is no body rather than a 400.
 *
 * @example
 * registerContentTypes(app)
 */
export function registerContentTypes(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type']
    if (typeof type === 'string') request.headers['content-type'] = normalizeContentType(type)
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )
  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') done(null, undefined)
    else json(request, text, done)
  })
}
