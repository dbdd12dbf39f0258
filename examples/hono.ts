import { serve } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { applyQueryParams, cursorLinks, cursorPaginate, paginate } from 'knex-query-params'
import { handleClientError } from 'knex-query-params/http'
import { errorToResponse, queryParamsFromFetchRequest, querySignal } from 'knex-query-params/fetch'
import { maxHeaderSize, type Server } from 'node:http'
import { relationMap } from '../fixtures/relation-map.ts'
import { CURSOR_SECRET, closeOnSignal, openDatabase, QUERY_TIMEOUT } from './database.ts'
import { apiDocument } from './openapi.ts'

// PORT=3000 npm run example:hono
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()
const app = new Hono()

for (const table of ['users', 'posts'] as const) {
  // The URL's query on GET; a query too long for a URL goes in a form body, e.g. POST /posts/search.
  const list = async (c: Context) => {
    const params = await queryParamsFromFetchRequest(c.req.raw)
    // @hono/node-server aborts the request's signal when the client disconnects; querySignal adds the timeout.
    const signal = querySignal(c.req.raw, { timeout: QUERY_TIMEOUT })
    return c.json(await paginate(applyQueryParams(db(table), params, relationMap, { signal }), params))
  }
  app.get(`/${table}`, list)
  app.post(`/${table}/search`, list)
  // Keyset pages (GET /posts/feed?limit=20, then the links): as fast at any depth; cursors signed with the secret.
  app.get(`/${table}/feed`, async (c) => {
    const params = await queryParamsFromFetchRequest(c.req.raw)
    const signal = querySignal(c.req.raw, { timeout: QUERY_TIMEOUT })
    const page = await cursorPaginate(applyQueryParams(db(table), params, relationMap, { signal }), params, {
      secret: CURSOR_SECRET,
    })
    return c.json({ ...page, links: cursorLinks(c.req.url, page.meta) })
  })
}

app.get('/openapi.json', (c) => c.json(apiDocument))

// problem+json: 400, 413, 503 query_timeout, and a generic 500 (the error logged with console.error);
// Hono's own HTTP errors keep their answer.
app.onError((error, c) => errorToResponse(error) ?? c.json({ message: 'Bad Request' }, 400))

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000) }, (info) => {
  console.log(`Listening on http://localhost:${info.port}`)
}) as Server
server.on('clientError', (error: Error & { code?: string }, socket) => {
  if (handleClientError(error, socket) === 431) console.warn(`431: the URL and headers exceed ${maxHeaderSize} bytes`)
})
closeOnSignal(async () => {
  server.close()
  await db.destroy()
})
