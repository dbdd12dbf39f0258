import { serve } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import knex from 'knex'
import Koa from 'koa'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { relationMap } from '../../../fixtures/relation-map.ts'
import { applyQueryParams, type QueryParams } from '../../../lib/index.ts'
import { queryParams as expressQueryParams, queryParamsErrorHandler } from '../../../lib/integrations/express.ts'
import { queryParamsPlugin } from '../../../lib/integrations/fastify.ts'
import { errorToResponse, queryParamsFromFetchRequest } from '../../../lib/integrations/fetch.ts'
import { queryParams as koaQueryParams, type QueryParamsState } from '../../../lib/integrations/koa.ts'

/** A framework app on an ephemeral port, with the routes every integration test calls. */
export interface RunningServer {
  url: string
  close(): Promise<void>
}

/** The body limit of the test servers, small so a 413 is cheap to provoke. */
export const BODY_LIMIT = 4096

/** Every method the tests send; each route answers all of them. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

const sqlite = knex({ client: 'better-sqlite3', useNullAsDefault: true })

/** `/posts`: the SQL the params become (so the relation map's checks run inside a route). */
const postsSql = (params: QueryParams): { sql: string } => ({
  sql: applyQueryParams(sqlite('posts'), params, relationMap).toSQL().sql,
})

/** A plain error thrown in a route: the integrations must hand it on, not answer it as problem+json. */
const boom = (): never => {
  throw new Error('boom')
}

async function listening(server: Server): Promise<RunningServer> {
  if (!server.listening) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error === undefined ? resolve() : reject(error))),
      ),
  }
}

async function startFastify(): Promise<RunningServer> {
  const app = Fastify()
  await app.register(queryParamsPlugin, { bodyLimit: BODY_LIMIT })
  app.route({ method: [...METHODS], url: '/echo', handler: async (request) => ({ params: request.queryParams }) })
  app.get('/posts', async (request) => postsSql(request.queryParams))
  app.get('/boom', async () => boom())
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { url: address, close: () => app.close() }
}

async function startExpress(): Promise<RunningServer> {
  const app = express()
  app.set('env', 'test')
  app.all('/echo', expressQueryParams({ bodyLimit: BODY_LIMIT }), (req, res) => {
    res.json({ params: req.queryParams })
  })
  app.get('/posts', expressQueryParams(), (_req, res) => {
    res.json(postsSql(res.locals['queryParams'] as QueryParams))
  })
  app.get('/boom', () => boom())
  app.use(queryParamsErrorHandler({ log: () => undefined }))
  return listening(app.listen(0, '127.0.0.1'))
}

async function startKoa(): Promise<RunningServer> {
  const app = new Koa<QueryParamsState>()
  app.silent = true
  app.use(koaQueryParams({ bodyLimit: BODY_LIMIT }))
  app.use(async (ctx) => {
    if (ctx.path === '/echo') ctx.body = { params: ctx.state.queryParams }
    else if (ctx.path === '/posts') ctx.body = postsSql(ctx.state.queryParams)
    else if (ctx.path === '/boom') boom()
  })
  return listening(app.listen(0, '127.0.0.1'))
}

async function startHono(): Promise<RunningServer> {
  const app = new Hono()
  app.on([...METHODS], '/echo', async (c) =>
    c.json({ params: await queryParamsFromFetchRequest(c.req.raw, { bodyLimit: BODY_LIMIT }) }),
  )
  app.get('/posts', async (c) => c.json(postsSql(await queryParamsFromFetchRequest(c.req.raw))))
  app.get('/boom', () => boom())
  app.onError((error) => {
    const response = errorToResponse(error, { log: () => undefined })
    if (response === undefined) throw error
    return response
  })
  return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server)
}

/** The four integrations, each on the framework it is written for (fetch on Hono). */
export const SERVERS = {
  fastify: startFastify,
  express: startExpress,
  koa: startKoa,
  'fetch (Hono)': startHono,
} as const
