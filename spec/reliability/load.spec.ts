import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { LOAD_REQUESTS } from './support/load-requests.ts'
import { describeLoad, runLoad } from './support/load-run.ts'

/** Bounded for `npm test`; `npm run load` runs the issue's size (50 connections for 20 s). */
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 20)
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5)
/**
 * The suite sends a fixed number of requests (every request of the mix twice per connection) rather than
 * loading for a fixed time, so what is checked does not depend on how busy the machine is; throughput is a
 * benchmark figure (`npm run bench`), printed here but not asserted.
 */
const AMOUNT = process.env.LOAD_SECONDS === undefined ? LOAD_REQUESTS.length * CONNECTIONS * 2 : undefined
/** Heap growth allowed over the run, after garbage collection; a leak per request would exceed it. */
const HEAP_GROWTH_MB = 25

for (const db of testDatabases().filter((database) => database.name !== 'mysql')) {
  describe(`load: the demo server under ${CONNECTIONS} connections, ${AMOUNT === undefined ? `for ${SECONDS} s` : `${AMOUNT} requests`} (${db.label})`, () => {
    it(`serves a mix of ${LOAD_REQUESTS.length} valid and invalid requests: no 5xx, no errors, every response as served alone, heap stable`, async function () {
      this.timeout((SECONDS + 30) * 1000 + (AMOUNT ?? 0) * 100)
      const report = await runLoad(db.knex, LOAD_REQUESTS, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        ...(AMOUNT === undefined ? {} : { amount: AMOUNT }),
      })
      console.log(`      ${describeLoad(report)}`)
      expect(report.serverErrors, '5xx responses').to.equal(0)
      expect(report.errors, 'connection errors').to.equal(0)
      expect(report.timeouts, 'timeouts').to.equal(0)
      expect(report.wrong, 'responses that differ from the reference').to.deep.equal([])
      if (AMOUNT === undefined) expect(report.total).to.be.greaterThan(LOAD_REQUESTS.length * CONNECTIONS)
      else expect(report.total, 'requests served').to.equal(AMOUNT)
      expect(report.heapAfterMb - report.heapBeforeMb, 'heap growth (MB)').to.be.lessThan(HEAP_GROWTH_MB)
    })
  })
}
