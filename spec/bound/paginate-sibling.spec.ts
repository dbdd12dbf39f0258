import { expect } from 'chai'
import { applyQueryParams, paginate, parseQueryParams } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { idleWithin, sleepingMap, sleepingWithin } from './support/sleeping.ts'

/** An offset the database refuses at once (PostgreSQL: out of range for bigint; MariaDB: a syntax error). */
const REFUSED_OFFSET = 9007199254740990 * 5000

for (const db of testDatabases().filter(
  (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
)) {
  describe(`paginate in parallel on ${db.label}: a failed statement cancels its sibling`, function () {
    this.timeout(20_000)

    afterEach(async () => {
      await idleWithin(db, 10_000)
    })

    it('the page fails at once: the sleeping count is cancelled on the server (idle within 0.5 s) and the caller gets the page error', async () => {
      const builder = applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow'), sleepingMap(db))
        .limit(5000)
        .offset(REFUSED_OFFSET)
      const started = Date.now()
      const failing = paginate(builder, {}, { queries: 'parallel' }).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      const error = (await failing) as { code?: unknown }
      const answered = Date.now() - started
      expect(error.code).to.equal(db.name === 'mysql' ? 'ER_PARSE_ERROR' : '22003')
      expect(answered).to.be.below(1000)
      expect(await idleWithin(db, 500)).to.be.below(500)
    })

    it('with a timeout and a signal of its own: the same, the bound still applies to both', async () => {
      const controller = new AbortController()
      const builder = applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow'), sleepingMap(db))
        .limit(5000)
        .offset(REFUSED_OFFSET)
      const error = (await paginate(builder, {}, { timeout: 10_000, signal: controller.signal }).then(
        () => undefined,
        (reason: unknown) => reason,
      )) as { code?: unknown }
      expect(error.code).to.equal(db.name === 'mysql' ? 'ER_PARSE_ERROR' : '22003')
      expect(await idleWithin(db, 500)).to.be.below(500)
      expect(controller.signal.aborted).to.equal(false)
    })

    it('control: without a failure, the same count sleeps on the server until the request is aborted', async () => {
      const builder = applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow&limit=1'), sleepingMap(db))
      const controller = new AbortController()
      const running = paginate(builder, { limit: 1 }, { signal: controller.signal }).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      expect(await sleepingWithin(db, 3000)).to.be.below(3000)
      controller.abort()
      expect(((await running) as Error).name).to.equal('AbortError')
    })
  })
}
