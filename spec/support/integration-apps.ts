import { serve } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import type { Knex } from 'knex'
import Koa from 'koa'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { QueryParams } from '../../lib/index.ts'
import { queryParams as expressQueryParams, queryParamsErrorHandler } from '../../lib/integrations/express.ts'
import { queryParamsPlugin } from '../../lib/integrations/fastify.ts'
import { errorToResponse, queryParamsFromFetchRequest } from '../../lib/integrations/fetch.ts'
import { queryParams as koaQueryParams, type QueryParamsState } from '../../lib/integrations/koa.ts'

/** An app answering `GET <path>` with what `read` returns, and the lines it logged of the errors it answered. */
export interface IntegrationApp {
  url: string
  logged: string[]
  close(): Promise<void>
}

/** Starts one integration's app on a free loopback port, reading through `db`. */
export type StartApp = (db: Knex) => Promise<IntegrationApp>

/** `server` once it listens, as an {@link IntegrationApp} whose errors are logged into `logged`. */
export async function listening(server: Server, logged: string[]): Promise<IntegrationApp> {
  if (!server.listening) await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    logged,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * Express, Fastify, Koa and fetch (Hono), each wired as its integration's docs show: `GET <path>` answers
 * `read(db, params)` as JSON, and each error the integration answers is written to the app's log with `logLine`
 * (Fastify logs through its own logger).
 */
export function integrationApps(
  path: string,
  read: (db: Knex, params: QueryParams) => Promise<unknown>,
  logLine: (error: unknown) => string,
): Record<string, StartApp> {
  return {
    express: async (db) => {
      const logged: string[] = []
      const app = express()
      app.get(path, expressQueryParams(), (req, res, next) => {
        read(db, req.queryParams).then((result) => res.json(result), next)
      })
      app.use(queryParamsErrorHandler({ log: (error) => void logged.push(logLine(error)) }))
      return listening(app.listen(0, '127.0.0.1'), logged)
    },
    fastify: async (db) => {
      const logged: string[] = []
      const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } } })
      await app.register(queryParamsPlugin)
      app.get(path, (request) => read(db, request.queryParams))
      const url = await app.listen({ port: 0, host: '127.0.0.1' })
      return { url, logged, close: () => app.close() }
    },
    koa: async (db) => {
      const logged: string[] = []
      const app = new Koa<QueryParamsState>()
      app.on('error', (error: unknown) => void logged.push(logLine(error)))
      app.use(koaQueryParams())
      app.use(async (ctx) => {
        ctx.body = await read(db, ctx.state.queryParams)
      })
      return listening(app.listen(0, '127.0.0.1'), logged)
    },
    'fetch (Hono)': async (db) => {
      const logged: string[] = []
      const app = new Hono()
      app.get(path, async (c) => c.json(await read(db, await queryParamsFromFetchRequest(c.req.raw))))
      app.onError(
        (error) =>
          errorToResponse(error, { log: (failure) => void logged.push(logLine(failure)) }) ??
          new Response('', { status: 400 }),
      )
      return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server, logged)
    },
  }
}
