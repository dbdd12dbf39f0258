import type { FastifyInstance } from 'fastify'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { demoOpenApiDocument } from './openapi.ts'

/** The files of swagger-ui-dist the page loads, with their content types: served from node_modules, nothing from a CDN. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>knex-query-params demo API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`

// Swagger UI sends a list or object parameter as JSON (orders=[{"column":"id"}]) or repeats its key; the
// interceptor re-encodes the query in brackets as the document's x-kqp-encoding says (orders[0][column]=id).
const INIT = `function encodeQuery(search) {
  const values = new Map()
  for (const [key, text] of new URLSearchParams(search)) {
    let value = text
    if (/^[[{]/.test(text)) {
      try { value = JSON.parse(text) } catch (error) { value = text }
    }
    // Every bracketed parameter of these routes is a list: one object sent alone is its only item.
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) value = [value]
    values.set(key, values.has(key) ? [].concat(values.get(key), value) : value)
  }
  const parts = []
  const add = (key, value) => {
    if (value === null) parts.push(key)
    else if (Array.isArray(value)) value.forEach((item, index) => add(key + '[' + index + ']', item))
    else if (typeof value === 'object') for (const name of Object.keys(value)) add(key + '[' + name + ']', value[name])
    else parts.push(key + '=' + encodeURIComponent(String(value)))
  }
  for (const [key, value] of values) add(key, value)
  return parts.join('&')
}
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  requestInterceptor: (request) => {
    const url = new URL(request.url, window.location.href)
    if (url.search === '') return request
    const query = encodeQuery(url.search)
    request.url = url.origin + url.pathname + (query === '' ? '' : '?' + query)
    return request
  },
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  supportedSubmitMethods: ['get'],
  defaultModelsExpandDepth: 0,
})
`

/**
 * Serves the demo's OpenAPI document at `/openapi.json` and a page that renders it at `/docs` (Swagger UI,
 * bundled from the swagger-ui-dist package and served by the demo itself), where a person browses each
 * resource and sends `GET` requests from the page.
 *
 * @example
 * registerApiDocs(app)
 */
export function registerApiDocs(app: FastifyInstance): void {
  const document = demoOpenApiDocument()
  const directory = join(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'), '..')
  const assets = new Map<string, Buffer>()
  app.get('/openapi.json', async () => document)
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE))
  app.get('/docs/init.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(INIT))
  for (const [file, type] of Object.entries(ASSETS)) {
    app.get(`/docs/${file}`, async (_request, reply) => {
      let body = assets.get(file)
      if (body === undefined) assets.set(file, (body = readFileSync(join(directory, file))))
      return reply.type(type).header('cache-control', 'public, max-age=3600').send(body)
    })
  }
}
