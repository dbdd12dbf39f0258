import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import { integrationApps } from '../support/integration-apps.ts'
import { startTcpProxy } from './support/tcp-proxy.ts'
import { connect, map, page, sleeping, until } from './support/standby-reads.ts'
import { POSTGRES_BIN, startPrimaryAndStandby, type PostgresPair } from './support/postgres-cluster.ts'

const required = (process.env['REQUIRE_DATABASES'] ?? '')
  .split(',')
  .some((name) => ['postgres-server', 'postgres'].includes(name.trim()))
const reason =
  'the PostgreSQL 15 server binaries (/usr/lib/postgresql/15/bin: initdb, pg_basebackup, pg_ctl) are not installed'

/** A logged error with its database code, as an app's log line would carry it. */
const logLine = (error: unknown): string => `${(error as { code?: string }).code ?? ''} ${String(error)}`

const APPS = integrationApps('/items', page, logLine)

if (POSTGRES_BIN === undefined && !required) {
  describe(`a PostgreSQL hot standby (skipped: ${reason})`, () => {
    it(`skipped: ${reason}`, function () {
      this.skip()
    })
  })
} else {
  describe('a PostgreSQL primary and its streaming hot standby, started by the test (max_standby_streaming_delay 100ms)', function () {
    this.timeout(60_000)
    let pair: PostgresPair
    let primary: Knex
    let standby: Knex

    before(async () => {
      if (POSTGRES_BIN === undefined) throw new Error(`REQUIRE_DATABASES names a PostgreSQL server, and ${reason}`)
      pair = await startPrimaryAndStandby({ maxStandbyStreamingDelay: '100ms' })
      primary = connect(pair.primary.urlOf('postgres'))
      standby = connect(pair.standby.urlOf('postgres'))
      await primary.raw('create table people (id int primary key, name text not null)')
      await primary.raw(
        'create table items (id int primary key, title text not null, person_id int not null references people)',
      )
      await primary.raw("insert into people select n, 'person ' || n from generate_series(1, 4) n")
      await primary.raw("insert into items select n, 'item ' || n, 1 + n % 4 from generate_series(1, 10) n")
      const { rows } = (await primary.raw('select pg_current_wal_lsn()::text as lsn')) as {
        rows: Array<{ lsn: string }>
      }
      await until('the standby replays the data', 10_000, async () => {
        const replayed = (await standby.raw('select pg_last_wal_replay_lsn() >= ?::pg_lsn as done', [
          rows[0]?.lsn ?? '0/0',
        ])) as { rows: Array<{ done: boolean }> }
        return replayed.rows[0]?.done === true
      })
    })

    after(async () => {
      await primary?.destroy()
      await standby?.destroy()
      await pair?.stop()
    })

    it('the standby is in recovery, and a page with eager loading and its count are the same rows as on the primary', async () => {
      const { rows } = (await standby.raw('select pg_is_in_recovery() as recovering')) as {
        rows: Array<{ recovering: boolean }>
      }
      expect(rows[0]?.recovering).to.equal(true)
      const params = parseQueryParams('with[0]=person&orders[0][column]=title&orders[0][direction]=desc&page=2&limit=3')
      const onStandby = await page(standby, params)
      expect(onStandby).to.deep.equal(await page(primary, params))
      expect(onStandby.meta).to.include({ total: 10, current_page: 2, from: 4, to: 6 })
      expect(onStandby.data.map((row) => row['title'])).to.deep.equal(['item 6', 'item 5', 'item 4'])
      expect(onStandby.data[0]?.['person']).to.deep.equal({ id: 3, name: 'person 3' })
    })

    it('a timeout cancels the statement on the standby (idle within 0.5 s)', async () => {
      const error = await applyQueryParams(standby('items'), parseQueryParams('scopes[0]=slow&limit=1'), map, {
        timeout: 300,
      }).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(await until('the standby is idle', 500, async () => (await sleeping(standby)) === 0)).to.be.below(500)
    })

    it("behind a TCP balancer alternating between the two servers, the CancelRequest reaches the statement's server; the other server's session survives", async () => {
      const proxy = await startTcpProxy((n) => (n % 2 === 0 ? pair.standby.port : pair.primary.port))
      const balanced = connect(`postgres://postgres@127.0.0.1:${proxy.port}/postgres`)
      try {
        const other = primary.raw('select pg_sleep(1.5) as slept').then((result: unknown) => result)
        await until('the other session sleeps on the primary', 3000, async () => (await sleeping(primary)) > 0)
        const error = await applyQueryParams(balanced('items'), parseQueryParams('scopes[0]=slow&limit=1'), map, {
          timeout: 300,
        }).then(
          () => undefined,
          (failure: unknown) => failure,
        )
        expect(error).to.be.instanceOf(QueryTimeoutError)
        expect(await until('the standby is idle', 500, async () => (await sleeping(standby)) === 0)).to.be.below(500)
        expect(proxy.routed[0]).to.equal(pair.standby.port)
        expect(proxy.routed.slice(1)).to.include(pair.primary.port)
        expect(((await other) as { rows: Array<{ slept: string }> }).rows).to.deep.equal([{ slept: '' }])
      } finally {
        await balanced.destroy()
        await proxy.close()
      }
    })

    for (const [name, start] of Object.entries(APPS)) {
      it(`a conflict with recovery (40001) while a page runs on the standby: ${name} answers 503 database_unavailable with Retry-After`, async () => {
        const app = await start(standby)
        try {
          const started = Date.now()
          const answering = fetch(`${app.url}/items?scopes[0]=slow&limit=1`)
          await until('the page sleeps on the standby', 5000, async () => (await sleeping(standby)) > 0)
          await primary.transaction(async (trx) => {
            await trx.raw('lock table items in access exclusive mode')
          })
          const response = await answering
          const body = (await response.json()) as Record<string, unknown>
          expect({
            status: response.status,
            type: response.headers.get('content-type')?.split(';')[0],
            retryAfter: response.headers.get('retry-after'),
          }).to.deep.equal({
            status: 503,
            type: 'application/problem+json',
            retryAfter: '1',
          })
          expect(body).to.include({ status: 503, code: 'database_unavailable' })
          expect(JSON.stringify(body)).not.to.match(/40001|recovery|conflict|items/)
          expect(Date.now() - started).to.be.below(2500)
          expect(app.logged.join('\n')).to.match(/40001/)
          expect(await until('the standby is idle', 500, async () => (await sleeping(standby)) === 0)).to.be.below(500)
        } finally {
          await app.close()
        }
      })
    }
  })
}
