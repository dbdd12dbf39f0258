import type { Dialect } from './dialect.ts'

/** The statement that shows the plan of `sql`: `EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN` elsewhere. */
export function explainSql(dialect: Dialect, sql: string): string {
  return dialect.name === 'sqlite' ? `explain query plan ${sql}` : `explain ${sql}`
}

/** The rows of a `knex.raw` result, whatever the driver returns: `{ rows }` (pg), `[rows, fields]` (mysql2), or the rows (SQLite). */
export function rawRows(dialect: Dialect, result: unknown): Array<Record<string, unknown>> {
  if (dialect.name === 'postgres') return (result as { rows: Array<Record<string, unknown>> }).rows
  if (dialect.name === 'mysql') return (result as [Array<Record<string, unknown>>, unknown])[0]
  return result as Array<Record<string, unknown>>
}
