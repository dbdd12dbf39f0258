import type { Knex } from 'knex'
import type { BenchDatabase } from './data/ensure-dataset.ts'

/**
 * The plan the database runs `query` with: PostgreSQL `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)`
 * (the real plan, with row counts, without timings that differ run to run), SQLite `EXPLAIN QUERY PLAN`,
 * MariaDB/MySQL `EXPLAIN` (one line per table: access type, index, estimated rows, extra).
 */
export async function explain(database: BenchDatabase, query: Knex.QueryBuilder): Promise<string> {
  const { sql, bindings } = query.toSQL()
  return explainSql(database, sql, bindings)
}

/** {@link explain} for SQL text with `?` placeholders. */
export async function explainSql(
  database: BenchDatabase,
  sql: string,
  bindings: readonly Knex.Value[],
): Promise<string> {
  if (database.dialect === 'postgres') {
    const result = (await database.knex.raw(
      `explain (analyze, costs off, timing off, summary off) ${sql}`,
      bindings,
    )) as {
      rows: Array<{ 'QUERY PLAN': string }>
    }
    return result.rows.map((row) => row['QUERY PLAN']).join('\n')
  }
  if (database.dialect === 'mysql') {
    const [lines] = (await database.knex.raw(`explain ${sql}`, bindings)) as [Array<Record<string, unknown>>]
    return lines
      .map((line) => {
        const text = (key: string): string => (line[key] === null || line[key] === undefined ? '' : String(line[key]))
        const key =
          text('key') === '' ? '' : ` using ${text('key')}${text('key_len') === '' ? '' : `(${text('key_len')})`}`
        return `${text('id')} ${text('select_type')} ${text('table')}: ${text('type')}${key}, rows ${text('rows')}${text('Extra') === '' ? '' : `; ${text('Extra')}`}`
      })
      .join('\n')
  }
  const rows = (await database.knex.raw(`explain query plan ${sql}`, bindings)) as Array<{
    id: number
    parent: number
    detail: string
  }>
  const depth = new Map<number, number>([[0, -1]])
  return rows
    .map((row) => {
      const level = (depth.get(row.parent) ?? -1) + 1
      depth.set(row.id, level)
      return `${'  '.repeat(level)}${row.detail}`
    })
    .join('\n')
}
