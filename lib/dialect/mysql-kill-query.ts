import type { Knex } from 'knex'
import { acquireRawConnection, destroyRawConnection } from '../knex/client.ts'

/** A mysql2 connection as far as killing goes. */
interface MysqlConnection {
  threadId?: unknown
  query(sql: string, values: unknown[], callback: (error: unknown) => void): unknown
}

/**
 * Stops the statement running on a mysql2 connection with `KILL QUERY <connection id>`, sent on a new
 * connection (outside the pool, which may be full) that is closed afterwards. The connection itself stays
 * open and usable; the statement fails with `ER_QUERY_INTERRUPTED`. A statement that already ended makes
 * the kill a no-op (an unknown thread id is ignored).
 */
export async function mysqlKillQuery(client: Knex.Client, connection: unknown): Promise<void> {
  const threadId = (connection as { threadId?: unknown } | undefined)?.threadId
  if (typeof threadId !== 'number') return
  const killer = (await acquireRawConnection(client)) as MysqlConnection
  try {
    await new Promise<void>((resolve) => killer.query('KILL QUERY ?', [threadId], () => resolve()))
  } finally {
    await destroyRawConnection(client, killer)
  }
}
