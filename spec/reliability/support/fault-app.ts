import knex, { type Knex } from 'knex'
import { buildApp } from '../../../demo/app.ts'
import { pgTypes, pgUtcSession } from '../../../fixtures/driver-settings.ts'

/** The demo app on its own PostgreSQL pool, for fault tests. */
export interface FaultApp {
  url: string
  knex: Knex
  /** The `application_name` of the app's connections, to find (and kill) exactly them. */
  applicationName: string
  /** What knex logged (connection errors, acquire timeouts), kept out of the test output. */
  log: string[]
  close(): Promise<void>
}

/** Options of {@link startFaultApp}. */
export interface FaultAppOptions {
  /** The PostgreSQL URL the app connects to (through a proxy, in these tests). */
  databaseUrl: string
  poolMax: number
  acquireConnectionTimeout: number
}

let started = 0

/**
 * Serves the demo app (`buildApp`, its real routes and error handlers) on a loopback port, on a knex pool
 * of its own whose connections carry a unique `application_name`. One test-only route is added:
 * `GET /slow?seconds=n` runs `pg_sleep(n)` on the app's pool and answers through the same error handler,
 * so a test can hold a query in flight when it kills the connection.
 */
export async function startFaultApp(options: FaultAppOptions): Promise<FaultApp> {
  const applicationName = `kqp-faults-${process.pid}-${++started}`
  const log: string[] = []
  const keep = (message: unknown): void => {
    log.push(String(message))
  }
  const db = knex({
    log: { warn: keep, error: keep, debug: keep, deprecate: keep },
    client: 'pg',
    connection: { connectionString: options.databaseUrl, types: pgTypes, application_name: applicationName },
    acquireConnectionTimeout: options.acquireConnectionTimeout,
    pool: { min: 0, max: options.poolMax, afterCreate: pgUtcSession },
  })
  const app = buildApp({ db })
  app.get<{ Querystring: { seconds?: string } }>('/slow', async (request) => {
    await db.raw('select pg_sleep(?)', [Number(request.query.seconds ?? 1)])
    return { slept: true }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the demo app has no TCP address')
  return {
    url: `http://127.0.0.1:${address.port}`,
    knex: db,
    applicationName,
    log,
    close: async () => {
      await app.close()
      await db.destroy()
    },
  }
}
