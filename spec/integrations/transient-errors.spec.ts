import { serve } from '@hono/node-server'
import { expect } from 'chai'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import knex, { type Knex } from 'knex'
import Koa from 'koa'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, type QueryParams } from '../../lib/index.ts'
import { queryParams as expressQueryParams, queryParamsErrorHandler } from '../../lib/integrations/express.ts'
import { queryParamsPlugin } from '../../lib/integrations/fastify.ts'
import { errorToResponse, queryParamsFromFetchRequest } from '../../lib/integrations/fetch.ts'
import { queryParams as koaQueryParams, type QueryParamsState } from '../../lib/integrations/koa.ts'

/** An app answering `GET /users` with a page read through `db`, and what it logged of the errors it answered. */
interface App {
  url: string
  logged: string[]
  close(): Promise<void>
}

type Start = (db: Knex) => Promise<App>

const list = (db: Knex, params: QueryParams) => paginate(applyQueryParams(db('users'), params, relationMap), params)

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

async function listening(server: Server, logged: string[]): Promise<App> {
  if (!server.listening) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    logged,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Each integration on its framework, in the shape the database-time spec uses. */
export const TRANSIENT_APPS: Record<string, Start> = {
  fastify: async (db) => {
    const logged: string[] = []
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } } })
    await app.register(queryParamsPlugin)
    app.get('/users', (request) => list(db, request.queryParams))
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    return { url, logged, close: () => app.close() }
  },
  express: async (db) => {
    const logged: string[] = []
    const app = express()
    app.get('/users', expressQueryParams(), (req, res, next) => {
      list(db, req.queryParams).then((page) => res.json(page), next)
    })
    app.use(queryParamsErrorHandler({ log: (error) => void logged.push(describeError(error)) }))
    return listening(app.listen(0, '127.0.0.1'), logged)
  },
  koa: async (db) => {
    const logged: string[] = []
    const app = new Koa<QueryParamsState>()
    app.on('error', (error: unknown) => void logged.push(describeError(error)))
    app.use(koaQueryParams())
    app.use(async (ctx) => {
      ctx.body = await list(db, ctx.state.queryParams)
    })
    return listening(app.listen(0, '127.0.0.1'), logged)
  },
  'fetch (Hono)': async (db) => {
    const logged: string[] = []
    const app = new Hono()
    app.get('/users', async (c) => c.json(await list(db, await queryParamsFromFetchRequest(c.req.raw))))
    app.onError(
      (error) =>
        errorToResponse(error, { log: (failure) => void logged.push(describeError(failure)) }) ??
        new Response('', { status: 400 }),
    )
    return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server, logged)
  },
}

/** A response's status, the headers a client retries on, and its body. */
export async function answerOf(
  url: string,
): Promise<{ status: number; type: string | null; retryAfter: string | null; body: string }> {
  const response = await fetch(url)
  return {
    status: response.status,
    type: response.headers.get('content-type')?.split(';')[0] ?? null,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  }
}

export const UNAVAILABLE_BODY = {
  type: 'about:blank',
  title: 'Service Unavailable',
  status: 503,
  detail: 'The database is briefly unavailable. Try again shortly.',
  message: 'The database is briefly unavailable. Try again shortly.',
  code: 'database_unavailable',
}

/** knex logs each failed acquire; the test reads the error from the app's log instead. */
const QUIET = { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined }

for (const [name, start] of Object.entries(TRANSIENT_APPS)) {
  describe(`transient database failures through ${name}`, function () {
    this.timeout(10_000)

    it("knex's pool giving no connection in time: 503 problem+json database_unavailable with Retry-After, the error logged", async () => {
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: ':memory:' },
        useNullAsDefault: true,
        pool: { min: 1, max: 1 },
        acquireConnectionTimeout: 150,
        log: QUIET,
      })
      const held = await db.client.acquireConnection()
      const app = await start(db)
      try {
        const answer = await answerOf(`${app.url}/users?limit=2`)
        expect({ status: answer.status, type: answer.type, retryAfter: answer.retryAfter }).to.deep.equal({
          status: 503,
          type: 'application/problem+json',
          retryAfter: '1',
        })
        expect(JSON.parse(answer.body)).to.deep.equal(UNAVAILABLE_BODY)
        expect(answer.body).not.to.match(/knex|timeout|pool|select/i)
        expect(app.logged.join('\n')).to.include('Timeout acquiring a connection')
      } finally {
        await db.client.releaseConnection(held)
        await app.close()
        await db.destroy()
      }
    })
  })
}
