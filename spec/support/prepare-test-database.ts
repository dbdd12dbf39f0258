import { listTables } from '../../fixtures/list-tables.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { seed } from '../../fixtures/seed.ts'
import type { TestDatabase } from './databases.ts'

/**
 * Migrates and seeds a test database, in UTC — only an empty one: the database the harness has just
 * created (or SQLite/PGlite in memory). A database holding any table is refused before anything is
 * written, so the suite can never rebuild tables it did not create.
 *
 * @example
 * await createTestDatabases(databases)
 * for (const database of databases) await prepareTestDatabase(database)
 */
export async function prepareTestDatabase(database: TestDatabase): Promise<void> {
  const tables = await listTables(database.knex)
  if (tables.length > 0) {
    throw new Error(
      `refusing to prepare ${database.label}: it already holds tables (${tables.slice(0, 10).join(', ')}${tables.length > 10 ? ', …' : ''}); ` +
        'the suite only migrates and seeds an empty database it has just created',
    )
  }
  if (database.engine === 'pglite') await database.knex.raw(`set time zone 'UTC'`)
  await migrate(database.knex)
  await seed(database.knex)
}
