import type { Context, RootHookObject } from 'mocha'
import { testDatabases, type TestDatabase } from './databases.ts'
import { prepareTestDatabase } from './prepare-test-database.ts'
import { assertRequiredDatabases, assertRequiredDatabasesConfigured } from './required-databases.ts'
import { writeSnapshots } from './snapshot.ts'
import { createTestDatabases, dropTestDatabases, dropTestDatabasesOnSignal } from './test-database-lifecycle.ts'

const SETUP_TIMEOUT = 120_000

async function serverVersion(database: TestDatabase): Promise<string> {
  if (database.engine !== 'postgres-server' && database.engine !== 'mysql') return ''
  type VersionRow = { version: string }
  const result: unknown = await database.knex.raw('select version() as version')
  const rows = database.engine === 'mysql' ? (result as [VersionRow[]])[0] : (result as { rows: VersionRow[] }).rows
  return ` — ${rows[0]?.version ?? 'unknown version'}`
}

/**
 * Mocha root hooks (loaded through `.mocharc.json` `require`): before anything runs, check
 * `REQUIRE_DATABASES`, create this run's own `kqp_test_…` database on each configured server, then
 * migrate and seed every test database; after the run — also after a failure or Ctrl-C — close the
 * connections and drop those databases, and (with `UPDATE_SNAPSHOTS`) write the SQL snapshots.
 */
export const mochaHooks: RootHookObject = {
  async beforeAll(this: Context) {
    this.timeout(SETUP_TIMEOUT)
    const databases = testDatabases()
    console.log(`  databases: ${databases.map((database) => database.label).join('; ')}`)
    assertRequiredDatabasesConfigured(databases)
    dropTestDatabasesOnSignal(databases)
    await createTestDatabases(databases)
    await assertRequiredDatabases(databases)
    for (const database of databases) {
      await prepareTestDatabase(database)
      console.log(`  ready: ${database.label}${await serverVersion(database)}`)
    }
  },

  async afterAll(this: Context) {
    this.timeout(SETUP_TIMEOUT)
    writeSnapshots()
    await dropTestDatabases(testDatabases())
  },
}
