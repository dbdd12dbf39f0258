import type { Row } from '../normalize/row-values.ts'

/** Deletes `columns` from every row, in place. */
export function stripColumns(rows: Iterable<Row>, columns: readonly string[]): void {
  if (columns.length === 0) return
  for (const row of rows) for (const column of columns) delete row[column]
}
