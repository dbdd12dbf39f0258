import type { Row } from '../normalize/row-values.ts'

/** Throws a configuration error when a parent row lacks a column eager-loading needs (it was not selected). */
export function requireParentColumns(
  rows: readonly Row[],
  columns: readonly string[],
  table: string,
  relation: string,
): void {
  for (const row of rows) {
    for (const column of columns) {
      if (!(column in row)) {
        throw new Error(
          `knex-query-params: eager-loading '${relation}' needs column ${table}.${column} on the parent rows; ` +
            `select it`,
        )
      }
    }
  }
}
