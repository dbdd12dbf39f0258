import type { TestDatabase } from './databases.ts'
import { dropCreatedDatabases } from './server-database.ts'

/**
 * Creates the run's own `kqp_test_…` database on every configured server (SQLite and PGlite need none).
 * If one cannot be created, those already created are dropped again and the error names the server.
 *
 * @example
 * const databases = testDatabases()
 * await createTestDatabases(databases)
 * try { … } finally { await dropTestDatabases(databases) }
 */
export async function createTestDatabases(databases: readonly TestDatabase[]): Promise<void> {
  for (const database of databases) {
    if (database.server === undefined) continue
    try {
      await database.server.create()
    } catch (error) {
      await dropTestDatabases(databases)
      throw new Error(`could not create the test database ${database.label}: ${String(error)}`, { cause: error })
    }
  }
}

/**
 * Closes every connection pool, then drops the server databases this run created — and only those (see
 * `ServerDatabase.drop`). Tries every database before throwing the first error.
 */
export async function dropTestDatabases(databases: readonly TestDatabase[]): Promise<void> {
  const errors: unknown[] = []
  await Promise.all(databases.map((database) => database.knex.destroy().catch((error: unknown) => errors.push(error))))
  for (const database of databases) {
    try {
      await database.server?.drop()
    } catch (error) {
      errors.push(new Error(`could not drop the test database ${database.label}: ${String(error)}`, { cause: error }))
    }
  }
  if (errors.length > 0) throw errors[0]
}

/**
 * Drops the run's databases, and any other database this process created (a spec's own), when the
 * process is interrupted (Ctrl-C, `kill`), then exits with 130/143.
 * Call once, after {@link createTestDatabases}; a second signal exits at once.
 */
export function dropTestDatabasesOnSignal(databases: readonly TestDatabase[]): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      process.once(signal, () => process.exit(code))
      console.error(`\n${signal}: dropping the test databases of this run`)
      dropTestDatabases(databases)
        .then(dropCreatedDatabases)
        .then(
          () => process.exit(code),
          (error: unknown) => {
            console.error(String(error))
            process.exit(code)
          },
        )
    })
  }
}
