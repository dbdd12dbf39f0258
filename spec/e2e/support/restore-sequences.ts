import type { Knex } from 'knex'

/**
 * Moves the id sequences of `tables` back to just after their largest id, so rows a test inserted and
 * deleted leave no trace for later tests (`harness.spec.ts` expects the next tag id to follow the fixtures).
 * PostgreSQL sequences and MySQL auto-increment counters ignore rollbacks and deletes; SQLite keeps its
 * counter in `sqlite_sequence`.
 *
 * @example
 * after(() => restoreSequences(db.knex, ['tags', 'posts']))
 */
export async function restoreSequences(knex: Knex, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const dialect = knex.client.dialect
    if (dialect === 'postgresql') {
      await knex.raw(`select setval(pg_get_serial_sequence(?, 'id'), coalesce(max(id), 0) + 1, false) from ??`, [
        table,
        table,
      ])
    } else if (dialect === 'mysql') {
      await knex.raw('alter table ?? auto_increment = 1', [table])
    } else {
      await knex.raw('update sqlite_sequence set seq = (select coalesce(max(id), 0) from ??) where name = ?', [
        table,
        table,
      ])
    }
  }
}
