import type { Knex } from 'knex'
import { migrate } from '../fixtures/migrate.ts'
import { seed } from '../fixtures/seed.ts'
import { DEMO_TABLES } from '../fixtures/tables.ts'
import { assertOwnDatabase } from '../fixtures/assert-own-database.ts'

/** What {@link prepareDatabase} did. */
export interface Preparation {
  /** Whether the fixtures were loaded (only into an empty database). */
  seeded: boolean
}

/**
 * Runs the pending migrations of `migrations/`, then seeds the fixtures only when every demo table is
 * empty — so restarting the demo keeps whatever clients wrote. Both steps are idempotent. First, it
 * refuses (a `ForeignDatabaseError`, nothing written) a database holding tables the demo did not create:
 * see `assertOwnDatabase`.
 *
 * @example
 * const { seeded } = await prepareDatabase(db)
 */
export async function prepareDatabase(db: Knex): Promise<Preparation> {
  await assertOwnDatabase(db)
  await migrate(db)
  for (const table of DEMO_TABLES) {
    if ((await db(table).first(db.raw('1 as present'))) !== undefined) return { seeded: false }
  }
  await seed(db)
  return { seeded: true }
}
