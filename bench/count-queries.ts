import type { Knex } from 'knex'

/** Runs `operation` and counts the SQL statements it sends through `db` (transaction control left out). */
export async function countQueries(db: Knex, operation: () => Promise<unknown>): Promise<number> {
  let count = 0
  const listener = (event: { sql?: unknown }): void => {
    if (typeof event.sql === 'string' && !/^(begin|commit|rollback|savepoint|release)\b/i.test(event.sql.trim()))
      count++
  }
  db.on('query', listener)
  try {
    await operation()
  } finally {
    db.off('query', listener)
  }
  return count
}
