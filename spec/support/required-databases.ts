import type { TestDatabase, TestDatabaseEngine, TestDatabaseName } from './databases.ts'

type Requirement = TestDatabaseEngine | TestDatabaseName

const REQUIREMENTS: readonly Requirement[] = ['sqlite', 'postgres', 'pglite', 'postgres-server', 'mysql']

const HOW_TO_CONFIGURE: Record<Requirement, string> = {
  sqlite: 'always configured',
  postgres: 'always configured (PGlite unless TEST_POSTGRES_URL is set)',
  pglite: 'used when TEST_POSTGRES_URL is not set',
  'postgres-server': 'set TEST_POSTGRES_URL=postgres://user@host:5432/postgres',
  mysql: 'set TEST_MYSQL_URL=mysql://user@host:3306',
}

const matches = (database: TestDatabase, requirement: Requirement): boolean =>
  database.engine === requirement || database.name === requirement

function required(
  names: string | undefined,
  databases: readonly TestDatabase[],
): Array<{ name: string; database: TestDatabase }> {
  return (names ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => {
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
      return { name, database }
    })
}

/**
 * Fails unless every database named in `names` (a comma list as in `REQUIRE_DATABASES`, e.g.
 * `postgres-server,mysql`) is configured. Checked before any database is created.
 */
export function assertRequiredDatabasesConfigured(
  databases: readonly TestDatabase[],
  names: string | undefined = process.env.REQUIRE_DATABASES,
): void {
  required(names, databases)
}

/**
 * Fails unless every database named in `names` (a comma list as in `REQUIRE_DATABASES`, e.g.
 * `postgres-server,mysql`) is configured and answers a query. CI sets it so that a suite silently
 * falling back to PGlite, or skipping MySQL, cannot pass.
 */
export async function assertRequiredDatabases(
  databases: readonly TestDatabase[],
  names: string | undefined = process.env.REQUIRE_DATABASES,
): Promise<void> {
  for (const { name, database } of required(names, databases)) {
    try {
      await database.knex.raw('select 1')
    } catch (error) {
      throw new Error(`REQUIRE_DATABASES requires '${name}', but ${database.label} is unreachable: ${String(error)}`, {
        cause: error,
      })
    }
  }
}
