import { serve } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { applyQueryParams, paginate } from 'knex-query-params'
import { handleClientError } from 'knex-query-params/http'
import { errorToResponse, queryParamsFromFetchRequest } from 'knex-query-params/fetch'
import { maxHeaderSize, type Server } from 'node:http'
import { relationMap } from '../fixtures/relation-map.ts'
import { closeOnSignal, openDatabase } from './database.ts'

// PORT=3000 npm run example:hono
// curl -g 'http://localhost:3000/posts?wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=author&orders[0][column]=id&orders[0][direction]=desc&page=1&limit=2'
const db = await openDatabase()
const app = new Hono()

for (const table of ['users', 'posts'] as const) {
  // The URL's query on GET; a query too long for a URL goes in a form body, e.g. POST /posts/search.
  const list = async (c: Context) => {
    const params = await queryParamsFromFetchRequest(c.req.raw)
    return c.json(await paginate(applyQueryParams(db(table), params, relationMap), params))
  }
  app.get(`/${table}`, list)
  app.post(`/${table}/search`, list)
}

app.onError((error, c) => {
  const response = errorToResponse(error)
  if (response !== undefined) return response
  console.error(error)
  return c.json({ message: 'Internal Server Error' }, 500)
})

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
