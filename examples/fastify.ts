import Fastify, { type FastifyRequest } from 'fastify'
import { applyQueryParams, cursorLinks, cursorPaginate, paginate } from 'knex-query-params'
import { queryParamsPlugin } from 'knex-query-params/fastify'
import { relationMap } from '../fixtures/relation-map.ts'
import { CURSOR_SECRET, closeOnSignal, openDatabase, QUERY_TIMEOUT } from './database.ts'
import { apiDocument } from './openapi.ts'

// PORT=3000 npm run example:fastify
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()
const app = Fastify({ logger: { level: 'warn' } })
// request.queryParams and request.querySignal (aborts when the client disconnects, or after `timeout` ms);
// problem+json for a bad query (400), a body over 1 MiB (413), a URL over Node's header limit (431, logged
// as a warning), a query past its time (503 query_timeout), and a generic 500 for anything else (logged).
await app.register(queryParamsPlugin, { timeout: QUERY_TIMEOUT })

for (const table of ['users', 'posts'] as const) {
  // The URL's query on GET; a query too long for a URL goes in a form body, e.g. POST /posts/search.
  // The signal cancels the statements on the server when the client leaves or the time is up.
  const list = (request: FastifyRequest) =>
    paginate(
      applyQueryParams(db(table), request.queryParams, relationMap, { signal: request.querySignal }),
      request.queryParams,
    )
  app.get(`/${table}`, list)
  app.post(`/${table}/search`, list)
  // Keyset pages (GET /posts/feed?limit=20, then the links): as fast at any depth; cursors signed with the secret.
  app.get(`/${table}/feed`, async (request) => {
    const page = await cursorPaginate(
      applyQueryParams(db(table), request.queryParams, relationMap, { signal: request.querySignal }),
      request.queryParams,
      { secret: CURSOR_SECRET },
    )
    return { ...page, links: cursorLinks(request.url, page.meta) }
  })
}

app.get('/openapi.json', async () => apiDocument)

app.addHook('onClose', async () => {
  await db.destroy()
})
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: 'localhost' })
console.log(`Listening on http://localhost:${new URL(address).port}`)
closeOnSignal(() => app.close())
