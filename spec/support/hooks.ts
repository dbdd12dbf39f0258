import type { Context, RootHookObject } from 'mocha'
import { migrate, resetDatabase } from '../../fixtures/migrate.ts'
import { seed } from '../../fixtures/seed.ts'
import { testDatabases, type TestDatabase } from './databases.ts'
import { assertRequiredDatabases } from './required-databases.ts'
import { writeSnapshots } from './snapshot.ts'

const SETUP_TIMEOUT = 120_000

async function serverVersion(database: TestDatabase): Promise<string> {
  if (database.engine !== 'postgres-server' && database.engine !== 'mysql') return ''
  type VersionRow = { version: string }
  const result: unknown = await database.knex.raw('select version() as version')
  const rows =
    database.engine === 'mysql' ? (result as [VersionRow[]])[0] : (result as { rows: VersionRow[] }).rows
  return ` — ${rows[0]?.version ?? 'unknown version'}`
}

async function prepare(database: TestDatabase): Promise<void> {
  if (database.engine === 'pglite') await database.knex.raw(`set time zone 'UTC'`)
  await resetDatabase(database.knex)
  await migrate(database.knex)
  await seed(database.knex)
}

/**
 * Mocha root hooks (loaded through `.mocharc.json` `require`): before anything runs, check
 * `REQUIRE_DATABASES`, then rebuild every test database from the migrations and seed the fixtures;
 * after the run, close the connections and (with `UPDATE_SNAPSHOTS`) write the SQL snapshots.
 */
export const mochaHooks: RootHookObject = {
  async beforeAll(this: Context) {
    this.timeout(SETUP_TIMEOUT)
    const databases = testDatabases()
    console.log(`  databases: ${databases.map((database) => database.label).join('; ')}`)
    await assertRequiredDatabases(databases)
    for (const database of databases) {
      await prepare(database)
      console.log(`  ready: ${database.label}${await serverVersion(database)}`)
    }
  },

  async afterAll(this: Context) {
    this.timeout(SETUP_TIMEOUT)
    writeSnapshots()
    await Promise.all(testDatabases().map((database) => database.knex.destroy()))
  },
}
