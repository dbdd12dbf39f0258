/**
 * `npm run load`: the long load run of the demo server — by default 50 connections for 20 s per database —
 * on SQLite and on PostgreSQL (a new database `kqp_test_…` on the server of TEST_POSTGRES_URL, dropped at
 * the end; else PGlite), each migrated and seeded first, mixing valid and invalid requests. Prints
 * requests/s, p50/p99 latency, statuses and the heap before and after; exits 1 on any 5xx, connection error, wrong response or heap growth past LOAD_HEAP_MB (default 50).
 *
 *   TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres LOAD_CONNECTIONS=50 LOAD_SECONDS=20 npm run load
 */
import { testDatabases } from '../spec/support/databases.ts'
import { prepareTestDatabase } from '../spec/support/prepare-test-database.ts'
import {
  createTestDatabases,
  dropTestDatabases,
  dropTestDatabasesOnSignal,
} from '../spec/support/test-database-lifecycle.ts'
import { LOAD_REQUESTS } from '../spec/reliability/support/load-requests.ts'
import { describeLoad, runLoad } from '../spec/reliability/support/load-run.ts'

const connections = Number(process.env.LOAD_CONNECTIONS ?? 50)
const seconds = Number(process.env.LOAD_SECONDS ?? 20)
const heapLimitMb = Number(process.env.LOAD_HEAP_MB ?? 50)
const databases = testDatabases().filter((database) => database.name !== 'mysql')
let failed = false
dropTestDatabasesOnSignal(databases)
try {
  await createTestDatabases(databases)
  console.log(`${connections} connections × ${seconds} s per database, ${LOAD_REQUESTS.length} requests in the mix`)
  for (const database of databases) {
    await prepareTestDatabase(database)
    const report = await runLoad(database.knex, LOAD_REQUESTS, { connections, seconds })
    const problems = [
      report.serverErrors > 0 ? `${report.serverErrors} 5xx` : '',
      report.errors + report.timeouts > 0 ? `${report.errors} errors, ${report.timeouts} timeouts` : '',
      report.wrong.length > 0 ? `wrong responses: ${report.wrong.join('; ')}` : '',
      report.heapAfterMb - report.heapBeforeMb > heapLimitMb
        ? `heap grew ${(report.heapAfterMb - report.heapBeforeMb).toFixed(1)} MB`
        : '',
    ].filter((problem) => problem !== '')
    failed ||= problems.length > 0
    console.log(
      `${problems.length === 0 ? 'ok  ' : 'FAIL'} ${database.label}: ${describeLoad(report)}${problems.length === 0 ? '' : `\n     ${problems.join('\n     ')}`}`,
    )
  }
} finally {
  await dropTestDatabases(testDatabases())
}
process.exitCode = failed ? 1 : 0
