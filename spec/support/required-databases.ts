import type { TestDatabase, TestDatabaseEngine, TestDatabaseName } from './databases.ts'

type Requirement = TestDatabaseEngine | TestDatabaseName

const REQUIREMENTS: readonly Requirement[] = ['sqlite', 'postgres', 'pglite', 'postgres-server', 'mysql']

const HOW_TO_CONFIGURE: Record<Requirement, string> = {
  sqlite: 'always configured',
  postgres: 'always configured (PGlite unless DATABASE_URL or PGHOST is set)',
  pglite: 'used when neither DATABASE_URL nor PGHOST is set',
  'postgres-server': 'set DATABASE_URL=postgres://… or PGHOST',
  mysql: 'set MYSQL_URL=mysql://…',
}

const matches = (database: TestDatabase, requirement: Requirement): boolean =>
  database.engine === requirement || database.name === requirement

/**
 * Fails unless every database named in `required` (a comma list as in `REQUIRE_DATABASES`, e.g.
 * `postgres-server,mysql`) is configured and answers a query. CI sets it so that a suite silently
 * falling back to PGlite, or skipping MySQL, cannot pass.
 */
export async function assertRequiredDatabases(
  databases: readonly TestDatabase[],
  required: string | undefined = process.env.REQUIRE_DATABASES,
): Promise<void> {
  const names = (required ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '')
  for (const name of names) {
    const requirement = REQUIREMENTS.find((candidate) => candidate === name)
    if (requirement === undefined) {
      throw new Error(`REQUIRE_DATABASES: unknown database '${name}' (known: ${REQUIREMENTS.join(', ')})`)
    }
    const database = databases.find((candidate) => matches(candidate, requirement))
    if (database === undefined) {
      const running = databases.map((candidate) => candidate.label).join('; ')
      throw new Error(
        `REQUIRE_DATABASES requires '${name}', which is not configured (${HOW_TO_CONFIGURE[requirement]}). ` +
          `Configured: ${running}`,
      )
    }
    try {
      await database.knex.raw('select 1')
    } catch (error) {
      throw new Error(`REQUIRE_DATABASES requires '${name}', but ${database.label} is unreachable: ${String(error)}`, {
        cause: error,
      })
    }
  }
}
