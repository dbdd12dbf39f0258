import express from 'express'
import { applyQueryParams, cursorLinks, cursorPaginate, paginate, type QueryParams } from 'knex-query-params'
import { handleClientError } from 'knex-query-params/http'
import { queryParams, queryParamsErrorHandler } from 'knex-query-params/express'
import { maxHeaderSize } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relationMap } from '../fixtures/relation-map.ts'
import { CURSOR_SECRET, closeOnSignal, openDatabase, QUERY_TIMEOUT } from './database.ts'
import { apiDocument } from './openapi.ts'

// PORT=3000 npm run example:express
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()
const app = express()

for (const table of ['users', 'posts'] as const) {
  const list: express.RequestHandler = async (req, res) => {
    const params: QueryParams = req.queryParams
    // req.querySignal aborts when the client disconnects (or after QUERY_TIMEOUT ms): the statements are
    // then cancelled on the server. Express 5 hands a rejected handler to the error handlers.
    res.json(await paginate(applyQueryParams(db(table), params, relationMap, { signal: req.querySignal }), params))
  }
  // The URL's query on GET; a query too long for a URL goes in a form body, e.g. POST /posts/search.
  app.get(`/${table}`, queryParams({ timeout: QUERY_TIMEOUT }), list)
  app.post(`/${table}/search`, queryParams({ timeout: QUERY_TIMEOUT }), list)
  // Keyset pages (GET /posts/feed?limit=20, then the links): as fast at any depth; cursors signed with the secret.
  app.get(`/${table}/feed`, queryParams({ timeout: QUERY_TIMEOUT }), async (req, res) => {
    const query = applyQueryParams(db(table), req.queryParams, relationMap, { signal: req.querySignal })
    const page = await cursorPaginate(query, req.queryParams, { secret: CURSOR_SECRET })
    res.json({ ...page, links: cursorLinks(req.originalUrl, page.meta) })
  })
}

app.get('/openapi.json', (_req, res) => {
  res.json(apiDocument)
})

// problem+json: 400, 413, 503 query_timeout, and a generic 500 (the error logged with console.error).
app.use(queryParamsErrorHandler())

const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`Listening on http://localhost:${(server.address() as AddressInfo).port}`)
})
server.on('clientError', (error: Error & { code?: string }, socket) => {
  if (handleClientError(error, socket) === 431) console.warn(`431: the URL and headers exceed ${maxHeaderSize} bytes`)
})
closeOnSignal(async () => {
  server.close()
  await db.destroy()
})
