/**
 * `npm run fuzz`: the long run of the reliability properties — (1) raw query strings, (2) structurally
 * valid QueryParams, (3) cross-database equivalence, (4) row guards — on every configured database (SQLite; PostgreSQL
 * on the server of TEST_POSTGRES_URL, else PGlite; MySQL/MariaDB on the server of TEST_MYSQL_URL). As in
 * the suite, each server gets a new database `kqp_test_…` of this run, migrated and seeded, and dropped at
 * the end (also on failure or Ctrl-C); no other database is touched. `FUZZ_RUNS` cases per property
 * (default 20000), `FUZZ_SEED` (default the suite's seed); `FUZZ_ONLY=raw,valid,equivalence,guards` picks properties. Prints the number of cases run; exits 1 on a failure.
 *
 *   TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_MYSQL_URL=mysql://root@127.0.0.1:3306 FUZZ_RUNS=50000 npm run fuzz
 */
import { testDatabases, type TestDatabase } from '../spec/support/databases.ts'
import { prepareTestDatabase } from '../spec/support/prepare-test-database.ts'
import {
  createTestDatabases,
  dropTestDatabases,
  dropTestDatabasesOnSignal,
} from '../spec/support/test-database-lifecycle.ts'
import { checkEquivalence } from '../spec/reliability/support/equivalence-property.ts'
import { fuzzSettings, type FuzzSettings } from '../spec/reliability/support/fuzz-settings.ts'
import { checkRawQueries } from '../spec/reliability/support/raw-query-property.ts'
import { describeTally, newTally, type Tally } from '../spec/reliability/support/tally.ts'
import { checkGuardEquivalence } from '../spec/guards/support/guard-equivalence.ts'
import { checkValidCases } from '../spec/reliability/support/valid-case-property.ts'

interface Property {
  title: string
  check(databases: readonly TestDatabase[], settings: FuzzSettings): Promise<Tally>
}

const PROPERTIES: Record<string, Property> = {
  raw: { title: 'raw query strings → rows or QueryParamsError', check: checkRawQueries },
  valid: { title: 'valid QueryParams execute without a database error', check: checkValidCases },
  equivalence: { title: 'cross-database equivalence', check: checkEquivalence },
  guards: { title: 'row guards: guarded two-tenant result == unguarded single-tenant result', check: checkGuards },
}

/** The guard property on each database; each case runs the request with and without guards (two executions, one comparison). */
async function checkGuards(databases: readonly TestDatabase[], settings: FuzzSettings): Promise<Tally> {
  const tally = newTally()
  for (const database of databases) {
    const { cases, withRows } = await checkGuardEquivalence(database, settings)
    tally.cases += cases
    tally.executions += 2 * cases
    tally.withRows += withRows
    tally.comparisons += cases
  }
  return tally
}

const settings = fuzzSettings(20_000)
const only = (process.env.FUZZ_ONLY ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '')
const unknown = only.filter((name) => !(name in PROPERTIES))
if (unknown.length > 0)
  throw new Error(`FUZZ_ONLY: unknown ${unknown.join(', ')} (known: ${Object.keys(PROPERTIES).join(', ')})`)
const databases = testDatabases()
let failed = false
dropTestDatabasesOnSignal(databases)
try {
  await createTestDatabases(databases)
  console.log(`databases: ${databases.map((database) => database.label).join('; ')}`)
  console.log(`seed ${settings.seed}, ${settings.numRuns} runs per property`)
  for (const database of databases) await prepareTestDatabase(database)
  for (const [name, property] of Object.entries(PROPERTIES)) {
    if (only.length > 0 && !only.includes(name)) continue
    const started = performance.now()
    try {
      const tally = await property.check(databases, settings)
      console.log(
        `ok   ${property.title}: ${describeTally(tally)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
    } catch (error) {
      failed = true
      console.log(`FAIL ${property.title}:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    }
  }
} finally {
  await dropTestDatabases(databases)
}
process.exitCode = failed ? 1 : 0
