import { applyQueryParams, cursorLinks, cursorPaginate, paginate } from 'knex-query-params'
import {
  handleClientError,
  problemResponse,
  queryParamsFromRequest,
  readFormBody,
  isFormRequest,
  requestSignal,
  serverProblemResponse,
} from 'knex-query-params/http'
import { createServer, maxHeaderSize, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relationMap } from '../fixtures/relation-map.ts'
import { CURSOR_SECRET, closeOnSignal, openDatabase, QUERY_TIMEOUT } from './database.ts'
import { apiDocument } from './openapi.ts'

// PORT=3000 npm run example:node-http
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()

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

const sendJson = (res: ServerResponse, status: number, body: unknown, type = 'application/json'): void => {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body))
}

const server = createServer(async (req, res) => {
  try {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    if (req.method === 'GET' && path === '/openapi.json') return sendJson(res, 200, apiDocument)
    const feed = FEEDS.get(`${req.method ?? 'GET'} ${path}`)
    if (feed !== undefined) {
      const params = queryParamsFromRequest(req)
      const signal = requestSignal(res, { timeout: QUERY_TIMEOUT })
      const query = applyQueryParams(db(feed), params, relationMap, { signal })
      const page = await cursorPaginate(query, params, { secret: CURSOR_SECRET })
      return sendJson(res, 200, { ...page, links: cursorLinks(req.url ?? path, page.meta) })
    }
    const table = ROUTES.get(`${req.method ?? 'GET'} ${path}`)
    if (table === undefined) return sendJson(res, 404, { message: `No route ${req.method ?? 'GET'} ${path}.` })
    // node:http leaves the body in the stream: read a form body (on any method but GET, HEAD, TRACE) yourself.
    const body = isFormRequest(req.method, req.headers['content-type']) ? await readFormBody(req) : ''
    const params = queryParamsFromRequest(req, { body })
    // Aborts when the client disconnects (or after QUERY_TIMEOUT ms): the statements are cancelled on the server.
    const signal = requestSignal(res, { timeout: QUERY_TIMEOUT })
    return sendJson(res, 200, await paginate(applyQueryParams(db(table), params, relationMap, { signal }), params))
  } catch (error) {
    const problem = problemResponse(error)
    if (problem !== undefined) return sendJson(res, problem.status, problem.body, problem.headers['content-type'])
    // 503 query_timeout, or a generic 500 that says nothing of the error; the error itself stays in the log.
    if (!res.destroyed) console.error(error)
    const failure = serverProblemResponse(error)
    return sendJson(res, failure.status, failure.body, failure.headers['content-type'])
  }
})
server.on('clientError', (error: Error & { code?: string }, socket) => {
  if (handleClientError(error, socket) === 431) console.warn(`431: the URL and headers exceed ${maxHeaderSize} bytes`)
})
server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`Listening on http://localhost:${(server.address() as AddressInfo).port}`)
})
closeOnSignal(async () => {
  server.close()
  await db.destroy()
})
