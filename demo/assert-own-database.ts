import type { Knex } from 'knex'
import { readdir } from 'node:fs/promises'
import { listTables } from '../fixtures/list-tables.ts'
import { MIGRATIONS_DIRECTORY } from '../fixtures/migrate.ts'
import { ForeignDatabaseError } from './foreign-database-error.ts'

const BOOKKEEPING = ['knex_migrations', 'knex_migrations_lock']
const CREATES_TABLE = /_create_(\w+)_table\.[cm]?[jt]s$/

/**
 * Throws a {@link ForeignDatabaseError} unless `db` is empty or was set up by the demo: every table in it
 * is created by a migration of `migrations/` that knex recorded as run, and knex recorded no other
 * migration. Reads the catalog only; writes nothing.
 *
 * @example
 * await assertOwnDatabase(db) // before migrate(db)
 */
export async function assertOwnDatabase(db: Knex): Promise<void> {
  const tables = await listTables(db)
  if (tables.length === 0) return
  const migrations = (await readdir(MIGRATIONS_DIRECTORY)).filter((file) => /\.[cm]?[jt]s$/.test(file))
  const ran: string[] = tables.includes('knex_migrations')
    ? (await db('knex_migrations').select<Array<{ name: string }>>('name')).map((row) => row.name)
    : []
  const created = new Set(ran.flatMap((name) => CREATES_TABLE.exec(name)?.[1] ?? []))
  const foreign = [
    ...tables.filter((table) => !created.has(table) && !BOOKKEEPING.includes(table)),
    ...ran.filter((name) => !migrations.includes(name)).map((name) => `migration ${name}`),
  ]
  if (foreign.length > 0) throw new ForeignDatabaseError(foreign)
}
