import {
  mysqlServerDatabase,
  pgliteDatabase,
  postgresServerDatabase,
  sqliteDatabase,
  type TestDatabase,
} from '../../support/databases.ts'
import { uniqueTestDatabaseName } from '../../support/server-database.ts'
import { createTestDatabases, dropTestDatabases } from '../../support/test-database-lifecycle.ts'

/**
 * A new, empty database of the same engine as `database`: SQLite or PGlite in memory, or on a server a
 * second `kqp_test_…_<suffix>` database of this run (created here). Pass it to {@link dropFreshDatabase}
 * when done: that closes it and drops it, and only it.
 *
 * @example
 * const catalog = await freshDatabase(db, 'catalog')
 * try { await createCatalog(catalog.knex) } finally { await dropFreshDatabase(catalog) }
 */
export async function freshDatabase(database: TestDatabase, suffix: string): Promise<TestDatabase> {
  const fresh = freshOf(database, suffix)
  await createTestDatabases([fresh])
  if (fresh.engine === 'pglite') await fresh.knex.raw(`set time zone 'UTC'`)
  return fresh
}

function freshOf(database: TestDatabase, suffix: string): TestDatabase {
  if (database.engine === 'sqlite') return sqliteDatabase()
  if (database.engine === 'pglite') return pgliteDatabase()
  if (database.server === undefined) throw new Error(`freshDatabase: ${database.label} has no server`)
  const name = uniqueTestDatabaseName(suffix)
  return database.engine === 'mysql'
    ? mysqlServerDatabase(database.server.serverUrl, name)
    : postgresServerDatabase(database.server.serverUrl, name)
}

/** Closes a database of {@link freshDatabase} and, on a server, drops it. */
export async function dropFreshDatabase(database: TestDatabase): Promise<void> {
  await dropTestDatabases([database])
}
