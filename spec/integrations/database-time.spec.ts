import { serve } from '@hono/node-server'
import { expect } from 'chai'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import type { Knex } from 'knex'
import Koa from 'koa'
import { request, type Server } from 'node:http'
import { applyQueryParams, paginate, type QueryParams, type RelationMap } from '../../lib/index.ts'
import { queryParams as expressQueryParams, queryParamsErrorHandler } from '../../lib/integrations/express.ts'
import { queryParamsPlugin } from '../../lib/integrations/fastify.ts'
import { errorToResponse, queryParamsFromFetchRequest, querySignal } from '../../lib/integrations/fetch.ts'
import { queryParams as koaQueryParams, type QueryParamsState } from '../../lib/integrations/koa.ts'
import { idleWithin, sleepingMap, sleepingWithin } from '../bound/support/sleeping.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { type IntegrationApp, listening } from '../support/integration-apps.ts'
import { send } from './support/send.ts'
import { GENERIC_500_BODY } from './support/generic-500.ts'

type App = IntegrationApp

type Start = (db: Knex, map: RelationMap, timeout?: number) => Promise<App>

const list = (db: Knex, map: RelationMap, params: QueryParams, signal: AbortSignal) =>
  paginate(applyQueryParams(db('users'), params, map, { signal }), params)

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error)

const START: Record<string, Start> = {
  fastify: async (db, map, timeout) => {
    const logged: string[] = []
    const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } } })
    await app.register(queryParamsPlugin, timeout === undefined ? {} : { timeout })
    app.get('/users', (req) => list(db, map, req.queryParams, req.querySignal))
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    return { url, logged, close: () => app.close() }
  },
  express: async (db, map, timeout) => {
    const logged: string[] = []
    const app = express()
    app.get('/users', expressQueryParams(timeout === undefined ? {} : { timeout }), async (req, res, next) => {
      try {
        res.json(await list(db, map, req.queryParams ?? {}, req.querySignal ?? new AbortController().signal))
      } catch (error) {
        next(error)
      }
    })
    app.use(queryParamsErrorHandler({ log: (error) => void logged.push(describeError(error)) }))
    return listening(app.listen(0, '127.0.0.1'), logged)
  },
  koa: async (db, map, timeout) => {
    const logged: string[] = []
    const app = new Koa<QueryParamsState>()
    app.on('error', (error: unknown) => void logged.push(describeError(error)))
    app.use(koaQueryParams(timeout === undefined ? {} : { timeout }))
    app.use(async (ctx) => {
      ctx.body = await list(db, map, ctx.state.queryParams, ctx.state.querySignal)
    })
    return listening(app.listen(0, '127.0.0.1'), logged)
  },
  'fetch (Hono)': async (db, map, timeout) => {
    const logged: string[] = []
    const app = new Hono()
    app.get('/users', async (c) =>
      c.json(
        await list(
          db,
          map,
          await queryParamsFromFetchRequest(c.req.raw),
          querySignal(c.req.raw, timeout === undefined ? {} : { timeout }),
        ),
      ),
    )
    app.onError(
      (error) =>
        errorToResponse(error, { log: (failure) => void logged.push(describeError(failure)) }) ??
        new Response('', { status: 400 }),
    )
    return listening(serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server, logged)
  },
}

/** The fixture map with the `slow` scope (sleeps on the server) and a `broken` one whose SQL fails. */
function appMap(db: TestDatabase): RelationMap {
  const map = sleepingMap(db)
  const users = map['users']
  if (users === undefined) throw new Error('fixture map without users')
  return {
    ...map,
    users: {
      ...users,
      scopes: {
        ...users.scopes,
        broken: (query: Knex.QueryBuilder) => void query.whereRaw('users.no_such_column_xyz = ?', ['secret-value']),
      },
    },
  }
}

/** Sends a GET and destroys the connection as soon as the server's statement sleeps. */
async function disconnectWhileSleeping(url: string, db: TestDatabase): Promise<void> {
  const outgoing = request(url)
  outgoing.on('error', () => undefined)
  outgoing.end()
  await sleepingWithin(db, 5000)
  outgoing.destroy()
}

for (const [name, start] of Object.entries(START)) {
  describe(`database time through ${name}`, function () {
    this.timeout(30_000)

    it('answers a failing SQL statement with a generic 500 problem+json, and logs the error in full', async () => {
      const db = testDatabases()[0]
      if (db === undefined) throw new Error('no SQLite database')
      const app = await start(db.knex, appMap(db))
      try {
        const response = await send(`${app.url}/users?scopes[0]=broken`)
        expect(response.status).to.equal(500)
        expect(response.contentType).to.match(/^application\/problem\+json/)
        expect(JSON.parse(response.text)).to.deep.equal(GENERIC_500_BODY)
        expect(response.text).not.to.match(/select|no_such_column|secret|users|stack|\.ts/i)
        expect(app.logged.join('\n')).to.include('no_such_column_xyz')
      } finally {
        await app.close()
      }
    })

    for (const db of testDatabases().filter(
      (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
    )) {
      describe(`on ${db.label}`, () => {
        afterEach(async () => {
          await idleWithin(db, 5000)
        })

        it('a client that disconnects leaves the server idle within a few hundred milliseconds', async () => {
          const app = await start(db.knex, appMap(db))
          try {
            await disconnectWhileSleeping(`${app.url}/users?scopes[0]=slow&page=1&limit=5`, db)
            expect(await idleWithin(db, 500)).to.be.below(500)
            expect(app.logged).to.deep.equal([])
          } finally {
            await app.close()
          }
        })

        it("the app's default timeout answers 503 query_timeout and cancels the statements", async () => {
          const app = await start(db.knex, appMap(db), 300)
          try {
            const started = Date.now()
            const response = await send(`${app.url}/users?scopes[0]=slow&page=1&limit=5`)
            expect(Date.now() - started).to.be.below(1500)
            expect(response.status).to.equal(503)
            expect(response.contentType).to.match(/^application\/problem\+json/)
            const body = JSON.parse(response.text) as Record<string, unknown>
            expect(body).to.include({ status: 503, code: 'query_timeout', title: 'Service Unavailable' })
            expect(response.text).not.to.match(/select|sleep|users/i)
            expect(await idleWithin(db, 500)).to.be.below(500)
          } finally {
            await app.close()
          }
        })
      })
    }
  })
}
