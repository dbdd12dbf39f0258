import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { pgTypes } from '../../fixtures/driver-settings.ts'
import { applyQueryParams, paginate, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { PGBOUNCER_BINARY, startPgBouncer, type RunningPgBouncer } from './support/pgbouncer.ts'
import { idleWithin, sleepingMap, sleepingWithin } from './support/sleeping.ts'

const postgres = testDatabases().find((candidate) => candidate.engine === 'postgres-server')
const required = (process.env['REQUIRE_DATABASES'] ?? '')
  .split(',')
  .some((name) => ['postgres-server', 'postgres'].includes(name.trim()))

if (postgres !== undefined) {
  describe('cancellation behind PgBouncer (transaction mode)', function () {
    this.timeout(30_000)
    let bouncer: RunningPgBouncer | undefined
    let pooled: Knex

    before(async function () {
      if (PGBOUNCER_BINARY === undefined) {
        if (required)
          throw new Error(
            'pgbouncer is required with a PostgreSQL server (apt-get install -y pgbouncer; .ci/run installs it)',
          )
        this.skip()
      }
      bouncer = await startPgBouncer(postgres.server?.serverUrl ?? '')
      // No SET in afterCreate: under transaction pooling it runs on whichever server connection is free and stays
      // there for other clients (docs/production-topologies.md). A session default belongs to the database or role.
      await postgres.knex.raw("alter database ?? set timezone = 'UTC'", [postgres.server?.name ?? ''])
      pooled = knex({
        client: 'pg',
        connection: { connectionString: bouncer.urlOf(postgres.server?.name ?? ''), types: pgTypes },
        pool: { min: 0, max: 4 },
      })
    })

    after(async () => {
      await pooled?.destroy()
      await bouncer?.stop()
    })

    afterEach(async () => {
      await idleWithin(postgres, 5000)
    })

    it('the client sees a process id PgBouncer made up, so pg_cancel_backend(pid) would miss the backend', async () => {
      const connection = (await pooled.client.acquireConnection()) as { processID: number }
      try {
        const { rows } = (await pooled.raw('select pg_backend_pid() as pid').connection(connection)) as {
          rows: Array<{ pid: number }>
        }
        expect(rows[0]?.pid).to.be.a('number')
        expect(connection.processID).not.to.equal(rows[0]?.pid)
      } finally {
        await pooled.client.releaseConnection(connection)
      }
    })

    it('a timeout cancels the statement on the server through the bouncer (CancelRequest)', async () => {
      const map = sleepingMap(postgres)
      const start = Date.now()
      const error = await applyQueryParams(pooled('users'), parseQueryParams('scopes[0]=slow&limit=5'), map, {
        timeout: 300,
      }).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(Date.now() - start).to.be.below(1000)
      expect(await idleWithin(postgres, 500)).to.be.below(500)
    })

    it('an aborted signal cancels page and count through the bouncer', async () => {
      const map = sleepingMap(postgres)
      const controller = new AbortController()
      const builder = applyQueryParams(pooled('users'), parseQueryParams('scopes[0]=slow&page=1&limit=5'), map)
      const running = paginate(builder, { page: 1, limit: 5 }, { signal: controller.signal }).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      await sleepingWithin(postgres, 3000)
      controller.abort()
      expect(((await running) as Error).name).to.equal('AbortError')
      expect(await idleWithin(postgres, 500)).to.be.below(500)
      const rows = await pooled('users').select('id').orderBy('id').limit(1)
      expect(rows).to.deep.equal([{ id: 1 }])
    })
  })
}
