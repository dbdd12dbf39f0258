import type { TestDatabase } from '../../support/databases.ts'
import { tenantData, visibleData, type TenantRow, type TenantTable } from './tenant-data.ts'
import { createTenantTables } from './tenant-schema.ts'

/** Prefix of the two-tenant tables (`guard_teams`…). */
export const BOTH = 'guard_'
/** Prefix of the tables holding only the rows tenant 1 may see (`guard1_teams`…), same ids. */
export const ONLY = 'guard1_'

/** The two-tenant data set every guard spec uses. */
export const DATA: Record<TenantTable, TenantRow[]> = tenantData()

const ready = new WeakMap<TestDatabase, Promise<void>>()

/** Creates and fills both sets of tables on `db`, once per run (each spec file's `before` calls it). */
export function tenantTables(db: TestDatabase): Promise<void> {
  let done = ready.get(db)
  if (done === undefined) {
    done = (async () => {
      await createTenantTables(db.knex, BOTH, DATA)
      await createTenantTables(db.knex, ONLY, visibleData(DATA))
    })()
    ready.set(db, done)
  }
  return done
}
