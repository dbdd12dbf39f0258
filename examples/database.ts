import type { Knex } from 'knex'
import { randomBytes } from 'node:crypto'
import { connectDatabase } from '../demo/database.ts'
import { prepareDatabase } from '../demo/prepare-database.ts'
import { ForeignDatabaseError } from '../fixtures/foreign-database-error.ts'

/**
 * The demo database every example serves: `DATABASE_URL` (`postgres://…`, `mysql://…`, `sqlite:path`),
 * by default the SQLite file `demo.sqlite`; migrated, and seeded with the fixtures when empty, exactly as
 * `npm run demo` does. A database holding tables the demo did not create is left untouched: the example
 * says so and exits 1.
 */
export async function openDatabase(): Promise<Knex> {
  const db = connectDatabase(process.env.DATABASE_URL)
  try {
    await prepareDatabase(db)
  } catch (error) {
    await db.destroy()
    if (!(error instanceof ForeignDatabaseError)) throw error
    console.error(error.message)
    process.exit(1)
  }
  return db
}

/** Closes the server and the database on Ctrl-C or SIGTERM. */
export function closeOnSignal(close: () => Promise<unknown>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    })
  }
}

/**
 * The database time each request may take, in milliseconds (`QUERY_TIMEOUT_MS`, default 5000): past it the
 * statements are cancelled on the server and the client gets a 503 `query_timeout`.
 */
export const QUERY_TIMEOUT = Number(process.env.QUERY_TIMEOUT_MS ?? 5000)

/**
 * The key keyset pages' cursors are signed with (`CURSOR_SECRET`). Keep it in your secret store; a random one per
 * process makes cursors end with the process.
 */
export const CURSOR_SECRET = process.env.CURSOR_SECRET ?? randomBytes(32).toString('base64url')
