import type { Knex } from 'knex'
import type { CliIo } from './cli-io.ts'

/**
 * Prints a builder's SQL, with the driver's own placeholders (`$1` on PostgreSQL), and its bindings,
 * under `label`; returns the SQL with knex's `?` placeholders, for `knex.raw`.
 *
 * @example
 * printSql('SQLite', db('users').limit(2), io) // SQLite:\n  SQL:      select * from `users` limit ?\n  Bindings: [2]
 */
export function printSql(
  label: string,
  builder: Knex.QueryBuilder,
  io: CliIo,
): { sql: string; bindings: readonly unknown[] } {
  const compiled = builder.toSQL()
  const native = compiled.toNative()
  io.out(`${label}:`)
  io.out(`  SQL:      ${native.sql}`)
  io.out(`  Bindings: ${JSON.stringify(native.bindings)}`)
  return { sql: compiled.sql, bindings: compiled.bindings }
}
