import Koa from 'koa'
import { applyQueryParams, cursorLinks, cursorPaginate, paginate } from 'knex-query-params'
import { handleClientError } from 'knex-query-params/http'
import { queryParams, type QueryParamsState } from 'knex-query-params/koa'
import { maxHeaderSize } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relationMap } from '../fixtures/relation-map.ts'
import { CURSOR_SECRET, closeOnSignal, openDatabase, QUERY_TIMEOUT } from './database.ts'
import { apiDocument } from './openapi.ts'

// PORT=3000 npm run example:koa
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()
const app = new Koa<QueryParamsState>()

/** `GET /users`, `GET /posts`, and `POST /users/search`, `POST /posts/search` for a query sent as a form body. */
const ROUTES = new Map<string, 'users' | 'posts'>([
  ['GET /users', 'users'],
  ['GET /posts', 'posts'],
  ['POST /users/search', 'users'],
  ['POST /posts/search', 'posts'],
])
/** Keyset pages (`GET /posts/feed?limit=20`, then the links): as fast at any depth; cursors signed with the secret. */
const FEEDS = new Map<string, 'users' | 'posts'>([
  ['GET /users/feed', 'users'],
  ['GET /posts/feed', 'posts'],
])

// ctx.state.queryParams and ctx.state.querySignal (aborts when the client disconnects, or after QUERY_TIMEOUT
// ms); problem+json: 400, 413, 503 query_timeout, and a generic 500 (the error goes to Koa's 'error' event).
app.use(queryParams({ timeout: QUERY_TIMEOUT }))
app.use(async (ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/openapi.json') {
    ctx.body = apiDocument
    return
  }
  const { queryParams: params, querySignal: signal } = ctx.state
  const feed = FEEDS.get(`${ctx.method} ${ctx.path}`)
  if (feed !== undefined) {
    const page = await cursorPaginate(applyQueryParams(db(feed), params, relationMap, { signal }), params, {
      secret: CURSOR_SECRET,
    })
    ctx.body = { ...page, links: cursorLinks(ctx.url, page.meta) }
    return
  }
  const table = ROUTES.get(`${ctx.method} ${ctx.path}`)
  if (table === undefined) {
    ctx.status = 404
    ctx.body = { message: `No route ${ctx.method} ${ctx.path}.` }
    return
  }
  ctx.body = await paginate(applyQueryParams(db(table), params, relationMap, { signal }), params)
})

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
