import { migrate, resetDatabase } from '../../../fixtures/migrate.ts'
import { seed } from '../../../fixtures/seed.ts'
import type { TestDatabase } from '../../support/databases.ts'

/** What the suite's root hooks do to a test database, for scripts run outside mocha: rebuild, migrate, seed, in UTC. */
export async function prepareTestDatabase(database: TestDatabase): Promise<void> {
  if (database.engine === 'pglite') await database.knex.raw(`set time zone 'UTC'`)
  await resetDatabase(database.knex)
  await migrate(database.knex)
  await seed(database.knex)
}
